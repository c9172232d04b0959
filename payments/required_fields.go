package payments

import (
	"encoding/json"
	"strings"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// A connector account may require billing details of the payments it takes
// (its sandbox object's required_fields, connector.SandboxRequiredFields):
// a confirm that brings a payment method without one of them is refused
// before the connector is called, as Hyperswitch refuses a payment its
// connector cannot be sent without (IR_04 naming the field). The checkout
// asked for them (connector.RequiredFields).

// checkRequiredFields refuses, with IR_04 naming the first one, a confirm
// through mca that lacks a billing field the account requires.
func checkRequiredFields(mca *ent.MerchantConnectorAccount, pi *ent.PaymentIntent, m *customer.PaymentMethodInput) error {
	if f := missingRequiredField(mca, pi, m); f != "" {
		return errs.MissingField(f)
	}
	return nil
}

// missingRequiredField is the first billing field mca requires that a
// payment with m does not carry, or "". A saved card and a mandate carry
// what their first payment brought: only new payment method data is checked.
func missingRequiredField(mca *ent.MerchantConnectorAccount, pi *ent.PaymentIntent, m *customer.PaymentMethodInput) string {
	if m == nil || m.Saved != nil || m.Mandate != nil || m.ConnectorMandateID != "" {
		return ""
	}
	required, _ := connector.SandboxRequiredFields(mca.Metadata) // checked when stored
	for _, path := range required {
		if billingValue(pi, m, path) == "" {
			return path
		}
	}
	return ""
}

// billingValue is a billing field of a payment as its connector is sent it:
// the payment method's billing, else the payment's (Hyperswitch's unified
// billing address). A card's holder name gives the billing name too.
func billingValue(pi *ent.PaymentIntent, m *customer.PaymentMethodInput, path string) string {
	for _, b := range []*schematype.AddressWrapper{m.Billing, pi.Billing} {
		if v := strings.TrimSpace(billingMember(b, path)); v != "" {
			return v
		}
	}
	if (path == connector.FieldFirstName || path == connector.FieldLastName) && m.Card != nil && m.Card.HolderName != nil {
		return strings.TrimSpace(*m.Card.HolderName)
	}
	return ""
}

// billingMember is the member of b at a billing field's path ("" when
// absent): the path below payment_method_data.billing, read through b's
// JSON, which is what the path names.
func billingMember(b *schematype.AddressWrapper, path string) string {
	if b == nil {
		return ""
	}
	raw, err := json.Marshal(b)
	var v any
	if err != nil || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	for _, k := range strings.Split(strings.TrimPrefix(path, billingPrefix), ".") {
		m, _ := v.(map[string]any)
		v = m[k]
	}
	s, _ := v.(string)
	return s
}

// billingPrefix begins the path of every billing field.
const billingPrefix = "payment_method_data.billing."
