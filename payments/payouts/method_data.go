package payouts

import "switchyard/payments/errs"

// MethodData is a payout method as a front door decodes it: Hyperswitch's
// PayoutMethodData, of which one member is given. Nil is absent. The rule
// that tells a bank account's scheme (ACH, BACS, SEPA, Pix) and a wallet
// apart from the members given lives here, once, for every front door.
type MethodData struct {
	Card *CardData
	// Bank is the deprecated bank member; BankTransfer its successor.
	Bank         *BankData
	BankTransfer *BankData
	Wallet       *WalletData
	BankRedirect *BankRedirectData
	// Passthrough is whether a passthrough member (a processor's token)
	// was given: the sandbox cannot pay one out.
	Passthrough bool
}

// CardData is Hyperswitch's CardPayout.
type CardData struct {
	CardNumber, ExpiryMonth, ExpiryYear, CardHolderName, CardNetwork *string
}

// BankData is Hyperswitch's Bank (and BankTransfer): an untagged union of
// AchBankTransfer, BacsBankTransfer, SepaBankTransfer, PixBankTransfer and
// others, told apart by their members.
type BankData struct {
	BankName, BankCountryCode, BankCity, BankBranch, AccountHolderName *string
	BankAccountNumber, BankRoutingNumber, BankSortCode, IBAN, BIC      *string
	PixKey, TaxID, EMV, ISPB                                           *string
}

// WalletData is Hyperswitch's Wallet: PayPal, Venmo, or a decrypted Apple
// Pay or Google Pay token (given, but not paid out by the sandbox).
type WalletData struct {
	Paypal           *PaypalData
	Venmo            *VenmoData
	ApplePayDecrypt  bool
	GooglePayDecrypt bool
}

// PaypalData is Hyperswitch's Paypal.
type PaypalData struct {
	Email, TelephoneNumber, PaypalID *string
}

// VenmoData is Hyperswitch's Venmo.
type VenmoData struct {
	TelephoneNumber *string
}

// BankRedirectData is Hyperswitch's BankRedirect: Interac, or Open
// Banking UK (given, but not paid out by the sandbox).
type BankRedirectData struct {
	Interac       *InteracData
	OpenBankingUk bool
}

// InteracData is Hyperswitch's Interac.
type InteracData struct {
	Email *string
}

const methodField = "payout_method_data"

// Method is the payout method d gives, checked, or nil for none. Its
// errors name the member at fault.
func (d *MethodData) Method() (*Method, error) {
	if d == nil {
		return nil, nil
	}
	if d.given() != 1 {
		return nil, errs.InvalidValue(methodField, "give exactly one of card, bank, bank_transfer, wallet, bank_redirect and passthrough")
	}
	switch {
	case d.Card != nil:
		return d.Card.method(methodField + ".card")
	case d.Bank != nil:
		return d.Bank.method(methodField + ".bank")
	case d.BankTransfer != nil:
		return d.BankTransfer.method(methodField + ".bank_transfer")
	case d.Wallet != nil:
		return d.Wallet.method(methodField + ".wallet")
	case d.BankRedirect != nil:
		return d.BankRedirect.method(methodField + ".bank_redirect")
	}
	return nil, notPaid(methodField + ".passthrough")
}

// given is how many members d gives.
func (d *MethodData) given() int {
	n := 0
	for _, set := range []bool{d.Card != nil, d.Bank != nil, d.BankTransfer != nil, d.Wallet != nil, d.BankRedirect != nil, d.Passthrough} {
		if set {
			n++
		}
	}
	return n
}

// notPaid refuses a member Hyperswitch defines that the sandbox does not
// pay out to.
func notPaid(field string) error {
	return errs.ErrNotSupported.Newf("%s: the sandbox pays out to a card, a bank account (ACH, BACS, SEPA, Pix), a PayPal or Venmo wallet or Interac", field).WithField(field)
}

func (c *CardData) method(field string) (*Method, error) {
	for _, f := range []struct {
		name string
		v    *string
	}{{"card_number", c.CardNumber}, {"expiry_month", c.ExpiryMonth}, {"expiry_year", c.ExpiryYear}} {
		if f.v == nil || *f.v == "" {
			return nil, errs.MissingField(field + "." + f.name)
		}
	}
	return &Method{Type: "card", Subtype: "debit", Card: &Card{Number: *c.CardNumber, ExpMonth: *c.ExpiryMonth,
		ExpYear: *c.ExpiryYear, HolderName: deref(c.CardHolderName), Network: deref(c.CardNetwork)}}, nil
}

// method tells the bank union's variants apart by the member that only
// each has (iban, bank_sort_code, pix_key, bank_routing_number), as
// Hyperswitch's untagged union does; each needs its account number.
func (b *BankData) method(field string) (*Method, error) {
	m := &Method{Type: "bank", BankName: deref(b.BankName), HolderName: deref(b.AccountHolderName)}
	switch {
	case b.IBAN != nil:
		m.Subtype, m.AccountNumber, m.BankCode = "sepa", *b.IBAN, deref(b.BIC)
	case b.BankSortCode != nil:
		m.Subtype, m.AccountNumber, m.BankCode = "bacs", deref(b.BankAccountNumber), *b.BankSortCode
	case b.PixKey != nil:
		m.Subtype, m.AccountNumber, m.BankCode = "pix", deref(b.BankAccountNumber), *b.PixKey
	case b.BankRoutingNumber != nil:
		m.Subtype, m.AccountNumber, m.BankCode = "ach", deref(b.BankAccountNumber), *b.BankRoutingNumber
	default:
		return nil, errs.InvalidValue(field, "give an ACH (bank_account_number, bank_routing_number), BACS (bank_account_number, bank_sort_code), SEPA (iban, bic) or Pix (bank_account_number, pix_key) account")
	}
	switch {
	case m.AccountNumber == "" && m.Subtype == "sepa":
		return nil, errs.MissingField(field + ".iban")
	case m.AccountNumber == "":
		return nil, errs.MissingField(field + ".bank_account_number")
	}
	return m, nil
}

func (w *WalletData) method(field string) (*Method, error) {
	switch {
	case w.Paypal != nil:
		p := w.Paypal
		m := &Method{Type: "wallet", Subtype: "paypal", Email: deref(p.Email), Phone: deref(p.TelephoneNumber)}
		if m.Email == "" && m.Phone == "" && deref(p.PaypalID) == "" {
			return nil, errs.MissingField(field + ".paypal.email")
		}
		return m, nil
	case w.Venmo != nil:
		if deref(w.Venmo.TelephoneNumber) == "" {
			return nil, errs.MissingField(field + ".venmo.telephone_number")
		}
		return &Method{Type: "wallet", Subtype: "venmo", Phone: *w.Venmo.TelephoneNumber}, nil
	case w.ApplePayDecrypt:
		return nil, notPaid(field + ".apple_pay_decrypt")
	case w.GooglePayDecrypt:
		return nil, notPaid(field + ".google_pay_decrypt")
	}
	return nil, errs.InvalidValue(field, "give one of paypal, venmo, apple_pay_decrypt and google_pay_decrypt")
}

func (r *BankRedirectData) method(field string) (*Method, error) {
	switch {
	case r.Interac != nil:
		if deref(r.Interac.Email) == "" {
			return nil, errs.MissingField(field + ".interac.email")
		}
		return &Method{Type: "bank_redirect", Subtype: "interac", Email: *r.Interac.Email}, nil
	case r.OpenBankingUk:
		return nil, notPaid(field + ".open_banking_uk")
	}
	return nil, errs.InvalidValue(field, "give one of interac and open_banking_uk")
}
