package payments

import (
	"switchyard/ent"
	"switchyard/payments/customer"
	"switchyard/payments/routing"
)

// routingFacts are what an advanced routing configuration tests of a
// payment being confirmed with m: the intent's amount, currency and
// settings, the payment method, its card and the billing country (the
// method's billing, else the payment's).
func routingFacts(pi *ent.PaymentIntent, m *customer.PaymentMethodInput) routing.Payment {
	out := routing.Payment{
		Amount:            netAmount(pi),
		Currency:          string(pi.Currency),
		PaymentMethod:     m.Type,
		PaymentMethodType: m.Subtype,
		CaptureMethod:     string(pi.CaptureMethod),
		PaymentType:       string(pi.PaymentType),
		Metadata:          routing.MetadataStrings(pi.Metadata),
	}
	if n := cardNetwork(m); n != nil {
		out.CardNetwork = *n
	}
	switch {
	case m.Card != nil:
		out.CardBin = m.Card.Details().CardISIN
	case m.Saved != nil && m.Saved.Card != nil:
		out.CardBin = m.Saved.Card.CardISIN
	}
	if b := billingOf(pi, m); b != nil && b.Address != nil && b.Address.Country != nil {
		out.BillingCountry = *b.Address.Country
	}
	if pi.AuthenticationType != nil {
		out.AuthenticationType = string(*pi.AuthenticationType)
	}
	if pi.SetupFutureUsage != nil {
		out.SetupFutureUsage = string(*pi.SetupFutureUsage)
	}
	if pi.BusinessCountry != nil {
		out.BusinessCountry = *pi.BusinessCountry
	}
	if pi.BusinessLabel != nil {
		out.BusinessLabel = *pi.BusinessLabel
	}
	return out
}
