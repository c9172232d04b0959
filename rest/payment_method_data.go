package rest

import (
	"encoding/json"
	"reflect"

	"switchyard/internal/strictjson"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// UnmarshalJSON takes the object form member by member, as every request
// body is read (an unknown member is refused, naming it), or a bare name.
func (d *paymentMethodDataIn) UnmarshalJSON(b []byte) error {
	const field = "payment_method_data"
	if json.Unmarshal(b, &d.Bare) == nil {
		if d.Bare != "reward" && d.Bare != "mandate_payment" {
			return errs.InvalidValue(field, "must be an object, or one of \"reward\" and \"mandate_payment\"")
		}
		return nil
	}
	type members paymentMethodDataIn
	tree, err := strictjson.Parse(b, strictjson.MaxDepth)
	if err != nil {
		return err
	}
	if err := checkShape(tree, reflect.TypeFor[members](), field); err != nil {
		return err
	}
	return json.Unmarshal(b, (*members)(d))
}

// families are the members holding one family's data, by name.
func (d *paymentMethodDataIn) families() map[string]any {
	return map[string]any{
		"wallet": d.Wallet, "pay_later": d.PayLater, "bank_redirect": d.BankRedirect,
		"bank_transfer": d.BankTransfer, "bank_debit": d.BankDebit, "voucher": d.Voucher, "gift_card": d.GiftCard,
		"card_redirect": d.CardRedirect, "real_time_payment": d.RealTimePayment, "open_banking": d.OpenBanking,
		"mobile_payment": d.MobilePayment, "crypto": d.Crypto,
	}
}

// domain is the card as the domain takes it (nil when absent).
func (c *cardIn) domain() *customer.CardInput {
	if c == nil {
		return nil
	}
	return &c.CardInput
}

// given reports whether an ignored member carries a value (null does not).
func given(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}
