package customer

import (
	"strings"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/cards"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// CardInput is raw card data on its way to a connector. It is never stored:
// the attempt keeps schematype.CardDetails, and between create and confirm
// the card waits sealed in the Redis vault.
type CardInput struct {
	Number     string  `json:"card_number"`
	ExpMonth   string  `json:"card_exp_month"`
	ExpYear    string  `json:"card_exp_year"`
	CVC        string  `json:"card_cvc"`
	HolderName *string `json:"card_holder_name"`
	Network    *string `json:"card_network"`
}

// PaymentMethodInput is what the customer pays with.
type PaymentMethodInput struct {
	// Type is the payment_method: card, upi, wallet, pay_later, bank_redirect.
	Type string `json:"type"`
	// Subtype is the payment_method_type (credit, upi_collect, paypal, …).
	Subtype string     `json:"subtype"`
	Card    *CardInput `json:"card,omitempty"`
	// VPA is the UPI collect address.
	VPA     string                     `json:"vpa,omitempty"`
	Billing *schematype.AddressWrapper `json:"billing,omitempty"`
	// SavedToken names a saved payment method of the payment's customer to
	// pay with (payment_token), and SavedCVC is its security code when the
	// checkout asks for it again; SavedCard resolves them at confirm.
	SavedToken string  `json:"saved_token,omitempty"`
	SavedCVC   *string `json:"saved_cvc,omitempty"`
	// ConnectorMandateID charges a saved card by the connector's token
	// instead of Card: a recurring payment on a mandate. It is built at
	// confirm from the mandate, never taken from a request nor vaulted.
	ConnectorMandateID string `json:"-"`
	// Mandate and Saved are the mandate a recurring payment charges and its
	// saved payment method, whose masked card the attempt shows.
	Mandate *ent.Mandate       `json:"-"`
	Saved   *ent.PaymentMethod `json:"-"`
}

// CustomerInput names the payment's customer by the merchant's id; the
// customer is created on first use.
type CustomerInput struct {
	ID               string
	Name             *string
	Email            *string
	Phone            *string
	PhoneCountryCode *string
}

// Validate checks the payment method on its own: its billing address, a
// known payment_method_type, and the data its type needs (a valid card, a
// UPI address).
func (pm *PaymentMethodInput) Validate() error {
	if err := validate.Address("payment_method_data.billing", pm.Billing); err != nil {
		return err
	}
	if pm.Subtype != "" && !validate.PaymentMethodTypes.Has(pm.Subtype) {
		return errs.InvalidValue("payment_method_type", "unknown payment method type %q", pm.Subtype)
	}
	switch pm.Type {
	case "card":
		if pm.SavedToken != "" {
			if pm.Card != nil {
				return errs.InvalidValue("payment_token", "cannot be given with card details: it names a saved card")
			}
			return nil
		}
		if pm.Card == nil {
			return errs.MissingField("payment_method_data.card")
		}
		if err := validate.CardNetworks.Optional("payment_method_data.card.card_network", pm.Card.Network); err != nil {
			return err
		}
		return validateCard(pm.Card)
	case "upi":
		if pm.VPA == "" {
			return errs.MissingField("payment_method_data.upi.upi_collect.vpa_id")
		}
	case "wallet", "pay_later", "bank_redirect":
	case "":
		return errs.MissingField("payment_method")
	default:
		return errs.New(errs.KindInvalid, "IR_19", "Payment method type not supported: %s", pm.Type)
	}
	return nil
}

// Details is what is kept of a card: never the number or the CVC.
func (c *CardInput) Details() *schematype.CardDetails {
	d := cards.Describe(c.Number)
	out := &schematype.CardDetails{
		Last4:          d.Last4,
		CardISIN:       d.BIN,
		CardExpMonth:   c.ExpMonth,
		CardExpYear:    c.ExpYear,
		CardHolderName: c.HolderName,
		CardNetwork:    nonEmpty(d.Network),
	}
	if c.Network != nil && *c.Network != "" {
		out.CardNetwork = c.Network
	}
	out.CardExtendedBIN = nonEmpty(d.ExtendedBIN)
	out.CardType = nonEmpty(d.CardType)
	out.CardIssuer = nonEmpty(d.Issuer)
	out.CardIssuingCntry = nonEmpty(d.IssuingCountry)
	return out
}

// PaymentMethodData is a v1 request's payment_method_data as REST and
// GraphQL both read it from their wire forms: the methods it names, of which
// Method accepts exactly one.
type PaymentMethodData struct {
	Billing *schematype.AddressWrapper
	Card    *CardInput
	Upi     *UpiData
	// Wallet, PayLater and BankRedirect are the variants named under each
	// member (paypal_redirect, klarna_redirect, ideal, …); nil when the
	// member is absent.
	Wallet, PayLater, BankRedirect []string
}

// UpiData is payment_method_data.upi: the variants given.
type UpiData struct {
	Collect        bool
	CollectVPA     *string
	Intent, QRCode bool
}

// Method maps the data, with the request's payment_method and
// payment_method_type, onto the payment method the payment is confirmed
// with: exactly one method, a payment_method that agrees with it, and a
// redirect method's variant as its payment_method_type.
func (d *PaymentMethodData) Method(paymentMethod, paymentMethodType *string) (*PaymentMethodInput, error) {
	pm := &PaymentMethodInput{Billing: d.Billing}
	kinds := 0
	if d.Card != nil {
		kinds++
		pm.Type, pm.Card = "card", d.Card
	}
	if u := d.Upi; u != nil {
		kinds++
		pm.Type = "upi"
		switch {
		case u.Collect:
			pm.Subtype = "upi_collect"
			if u.CollectVPA != nil {
				pm.VPA = *u.CollectVPA
			}
		case u.Intent:
			pm.Subtype = "upi_intent"
		case u.QRCode:
			pm.Subtype = "upi_qr"
		default:
			return nil, errs.InvalidValue("payment_method_data.upi", "must hold one of upi_collect, upi_intent or upi_qr")
		}
	}
	for _, m := range []struct {
		kind     string
		variants []string
	}{{"wallet", d.Wallet}, {"pay_later", d.PayLater}, {"bank_redirect", d.BankRedirect}} {
		if m.variants == nil {
			continue
		}
		kinds++
		if len(m.variants) != 1 {
			return nil, errs.InvalidValue("payment_method_data."+m.kind, "must hold exactly one %s method", m.kind)
		}
		pm.Type, pm.Subtype = m.kind, methodSubtype(m.variants[0])
	}
	switch {
	case kinds == 0:
		return nil, errs.InvalidValue("payment_method_data",
			"must hold one payment method: card, upi, wallet, pay_later or bank_redirect")
	case kinds > 1:
		return nil, errs.InvalidValue("payment_method_data", "must hold exactly one payment method")
	}
	if paymentMethodType != nil {
		pm.Subtype = *paymentMethodType
	}
	if paymentMethod != nil && *paymentMethod != pm.Type {
		return nil, errs.InvalidValue("payment_method", "is %q, but payment_method_data holds %s data", *paymentMethod, pm.Type)
	}
	return pm, nil
}

// methodSubtype is the payment_method_type a redirect method's variant
// names: paypal_redirect → paypal, we_chat_pay_qr → we_chat_pay, ideal →
// ideal.
func methodSubtype(variant string) string {
	for _, suffix := range []string{"_third_party_sdk", "_redirect", "_sdk", "_qr"} {
		if s, ok := strings.CutSuffix(variant, suffix); ok {
			return s
		}
	}
	return variant
}
