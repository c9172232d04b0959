package rest

import (
	"bytes"
	"encoding/json"

	"switchyard/payments/payouts"
)

// methodData is the payout method the request gives, in the domain's
// terms (nil for none): the domain tells its variants apart and checks
// them (payouts.MethodData).
func (d *payoutMethodDataIn) methodData() *payouts.MethodData {
	if d == nil {
		return nil
	}
	out := &payouts.MethodData{Bank: d.Bank.data(), BankTransfer: d.BankTransfer.data(), Passthrough: present(d.Passthrough)}
	if c := d.Card; c != nil {
		out.Card = &payouts.CardData{CardNumber: c.CardNumber, ExpiryMonth: c.ExpiryMonth, ExpiryYear: c.ExpiryYear,
			CardHolderName: c.CardHolderName, CardNetwork: c.CardNetwork}
	}
	if w := d.Wallet; w != nil {
		out.Wallet = &payouts.WalletData{ApplePayDecrypt: present(w.ApplePayDecrypt), GooglePayDecrypt: present(w.GooglePayDecrypt)}
		if p := w.Paypal; p != nil {
			out.Wallet.Paypal = &payouts.PaypalData{Email: p.Email, TelephoneNumber: p.TelephoneNumber, PaypalID: p.PaypalID}
		}
		if v := w.Venmo; v != nil {
			out.Wallet.Venmo = &payouts.VenmoData{TelephoneNumber: v.TelephoneNumber}
		}
	}
	if r := d.BankRedirect; r != nil {
		out.BankRedirect = &payouts.BankRedirectData{OpenBankingUk: present(r.OpenBankingUk)}
		if r.Interac != nil {
			out.BankRedirect.Interac = &payouts.InteracData{Email: r.Interac.Email}
		}
	}
	return out
}

func (b *bankPayoutIn) data() *payouts.BankData {
	if b == nil {
		return nil
	}
	return &payouts.BankData{BankName: b.BankName, BankCountryCode: b.BankCountryCode, BankCity: b.BankCity,
		BankBranch: b.BankBranch, AccountHolderName: b.AccountHolderName, BankAccountNumber: b.BankAccountNumber,
		BankRoutingNumber: b.BankRoutingNumber, BankSortCode: b.BankSortCode, IBAN: b.IBAN, BIC: b.BIC,
		PixKey: b.PixKey, TaxID: b.TaxID, EMV: b.EMV, ISPB: b.ISPB}
}

// present is whether a member decoded as raw JSON was given (not absent,
// not null).
func present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}
