package rest

import (
	"switchyard/payments/errs"
	"switchyard/payments/payouts"
)

// method is the payout method the request gives, or nil.
func (d *payoutMethodDataIn) method() (*payouts.Method, error) {
	switch {
	case d == nil:
		return nil, nil
	case d.Card != nil:
		return d.Card.method()
	case d.Bank != nil:
		return d.Bank.method("payout_method_data.bank")
	case d.BankTransfer != nil:
		return d.BankTransfer.method("payout_method_data.bank_transfer")
	case d.Wallet != nil:
		return d.Wallet.method()
	case d.BankRedirect != nil && d.BankRedirect.Interac != nil && d.BankRedirect.Interac.Email != nil:
		return &payouts.Method{Type: "bank_redirect", Subtype: "interac", Email: *d.BankRedirect.Interac.Email}, nil
	}
	return nil, errs.ErrNotSupported.Newf("payout_method_data: the sandbox pays out to a card, a bank account (ACH, BACS, SEPA, Pix), a PayPal or Venmo wallet or Interac")
}

func (c *cardPayoutIn) method() (*payouts.Method, error) {
	for _, f := range []struct {
		name string
		v    *string
	}{{"card_number", c.CardNumber}, {"expiry_month", c.ExpiryMonth}, {"expiry_year", c.ExpiryYear}} {
		if f.v == nil || *f.v == "" {
			return nil, errs.MissingField("payout_method_data.card." + f.name)
		}
	}
	return &payouts.Method{Type: "card", Subtype: "debit", Card: &payouts.Card{Number: *c.CardNumber,
		ExpMonth: *c.ExpiryMonth, ExpYear: *c.ExpiryYear, HolderName: deref(c.CardHolderName), Network: deref(c.CardNetwork)}}, nil
}

// method tells the bank union's variants apart by their members, as
// Hyperswitch's untagged serde does.
func (b *bankPayoutIn) method(field string) (*payouts.Method, error) {
	m := &payouts.Method{Type: "bank", BankName: deref(b.BankName), HolderName: deref(b.AccountHolderName)}
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
	if m.AccountNumber == "" {
		return nil, errs.MissingField(field + ".bank_account_number")
	}
	return m, nil
}

func (w *walletPayoutIn) method() (*payouts.Method, error) {
	switch {
	case w.Paypal != nil:
		m := &payouts.Method{Type: "wallet", Subtype: "paypal", Email: deref(w.Paypal.Email), Phone: deref(w.Paypal.TelephoneNumber)}
		if m.Email == "" && m.Phone == "" && w.Paypal.PaypalID == nil {
			return nil, errs.MissingField("payout_method_data.wallet.paypal.email")
		}
		return m, nil
	case w.Venmo != nil && w.Venmo.TelephoneNumber != nil:
		return &payouts.Method{Type: "wallet", Subtype: "venmo", Phone: *w.Venmo.TelephoneNumber}, nil
	case w.Venmo != nil:
		return nil, errs.MissingField("payout_method_data.wallet.venmo.telephone_number")
	}
	return nil, errs.ErrNotSupported.Newf("payout_method_data.wallet: the sandbox pays out to PayPal and Venmo wallets")
}
