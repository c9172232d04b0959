package rest

import (
	"encoding/json"
	"reflect"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/strictjson"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// paymentMethodDataIn is Hyperswitch's PaymentMethodDataRequest: one
// payment method, keyed by its family, and its billing address; or one of
// the bare names "reward" and "mandate_payment". The sandbox serves every
// family but network tokens and vault data (refused with IR_19).
type paymentMethodDataIn struct {
	Card    *cardIn                    `json:"card"`
	Upi     *customer.UpiRequest       `json:"upi"`
	Billing *schematype.AddressWrapper `json:"billing"`

	Wallet          json.RawMessage `json:"wallet"`
	PayLater        json.RawMessage `json:"pay_later"`
	BankRedirect    json.RawMessage `json:"bank_redirect"`
	BankTransfer    json.RawMessage `json:"bank_transfer"`
	BankDebit       json.RawMessage `json:"bank_debit"`
	Voucher         json.RawMessage `json:"voucher"`
	GiftCard        json.RawMessage `json:"gift_card"`
	CardRedirect    json.RawMessage `json:"card_redirect"`
	RealTimePayment json.RawMessage `json:"real_time_payment"`
	OpenBanking     json.RawMessage `json:"open_banking"`
	MobilePayment   json.RawMessage `json:"mobile_payment"`
	Crypto          json.RawMessage `json:"crypto"`

	CardToken          *cardTokenIn    `json:"card_token"`
	NetworkToken       json.RawMessage `json:"network_token"`
	VaultDataCard      json.RawMessage `json:"vault_data_card"`
	VaultCardTokenData json.RawMessage `json:"vault_card_token_data"`

	// Bare is the payment method given as a bare name.
	Bare string `json:"-"`
}

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

// cardIn is Hyperswitch's Card (an open object): the domain's card and the
// members the sandbox ignores. The number and CVC go to the connector and
// nowhere else.
type cardIn struct {
	customer.CardInput
	CardIssuer             json.RawMessage `json:"card_issuer"`
	CardType               json.RawMessage `json:"card_type"`
	CardIssuingCountry     json.RawMessage `json:"card_issuing_country"`
	CardIssuingCountryCode json.RawMessage `json:"card_issuing_country_code"`
	BankCode               json.RawMessage `json:"bank_code"`
	NickName               json.RawMessage `json:"nick_name"`
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
