package routing

import (
	"encoding/json"
	"sort"
	"strings"

	"switchyard/payments/cards"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// GatewayPayment is the payment of Hyperswitch's decide-gateway request
// (OpenRouterDecideGatewayRequest.paymentInfo), as routing facts: the card
// network is the card ISIN's, and metadata, when it is a JSON object's
// text, its members.
func GatewayPayment(amount int64, currency, method, methodType, cardISIN, metadata, paymentType string) Payment {
	out := Payment{Amount: amount, Currency: currency, PaymentMethod: method, PaymentMethodType: methodType,
		CardBin: cardISIN, CardNetwork: cards.Network(cardISIN)}
	if paymentTypes.Has(strings.ToLower(paymentType)) {
		out.PaymentType = strings.ToLower(paymentType)
	}
	var m map[string]any
	if json.Unmarshal([]byte(metadata), &m) == nil {
		out.Metadata = MetadataStrings(m)
	}
	return out
}

// ParametersPayment reads the parameters of Hyperswitch's rule-evaluate
// request (RoutingEvaluateRequest.parameters): each routing key with a
// typed value ({type, value}, the value types of a rule). Keys Switchyard
// does not evaluate are ignored; a value that does not fit its key is
// refused, naming it.
func ParametersPayment(params map[string]json.RawMessage) (Payment, error) {
	var out Payment
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the first refusal is the same each time
	for _, name := range keys {
		raw := params[name]
		at := validate.Path("parameters").Key(name)
		if isNull(raw) {
			continue
		}
		var v valueWire
		if err := json.Unmarshal(raw, &v); err != nil {
			return out, errs.InvalidValue(at.String(), "a parameter is a typed value {type, value}")
		}
		switch name {
		case "amount":
			if v.Type != valueNumber || json.Unmarshal(v.Value, &out.Amount) != nil || out.Amount < 0 {
				return out, errs.InvalidValue(at.String(), "amount is {type: number, value: a whole number, at least 0}")
			}
		case "metadata":
			var m metadataValueWire
			if v.Type != valueMetadataVariant || json.Unmarshal(v.Value, &m) != nil || m.Key == nil || m.Value == nil {
				return out, errs.InvalidValue(at.String(), "metadata is {type: metadata_variant, value: {key, value}}")
			}
			out.Metadata = map[string]string{*m.Key: *m.Value}
		default:
			fact := out.fact(name)
			if fact == nil {
				continue
			}
			if (v.Type != valueEnumVariant && v.Type != valueStr) || json.Unmarshal(v.Value, fact) != nil {
				return out, errs.InvalidValue(at.String(), "%s is {type: enum_variant or str_value, value: a string}", name)
			}
			if err := out.normalize(name, at.Key("value").String()); err != nil {
				return out, err
			}
		}
	}
	if out.CardNetwork == "" && out.CardBin != "" {
		out.CardNetwork = cards.Network(out.CardBin)
	}
	return out, nil
}

// factKeys are the routing keys a Payment holds as strings.
var factKeys = []string{"currency", "payment_method", "payment_method_type", "card_network", "billing_country",
	"business_country", "capture_method", "authentication_type", "setup_future_usage", "payment_type", "card_bin",
	"business_label"}

// fact is p's fact of the routing key, nil for a key it does not hold as
// a string.
func (p *Payment) fact(key string) *string {
	switch key {
	case "currency":
		return &p.Currency
	case "payment_method":
		return &p.PaymentMethod
	case "payment_method_type":
		return &p.PaymentMethodType
	case "card_network":
		return &p.CardNetwork
	case "billing_country":
		return &p.BillingCountry
	case "business_country":
		return &p.BusinessCountry
	case "capture_method":
		return &p.CaptureMethod
	case "authentication_type":
		return &p.AuthenticationType
	case "setup_future_usage":
		return &p.SetupFutureUsage
	case "payment_type":
		return &p.PaymentType
	case "card_bin":
		return &p.CardBin
	case "business_label":
		return &p.BusinessLabel
	}
	return nil
}

// normalize checks p's fact of key against the key's values (a country as
// a Hyperswitch name becomes its code), refusing it as field.
func (p *Payment) normalize(key, field string) error {
	return normalizeFact(p.fact(key), lhsKeys[key], key, field)
}

// normalizeFact checks the fact v (nil or empty: not known) against the
// values of k, the key named name, and spells it as k does.
func normalizeFact(v *string, k lhs, name, field string) error {
	if v == nil || *v == "" {
		return nil
	}
	read, ok := k.read(*v)
	if !ok {
		return errs.InvalidValue(field, "%q is not a value of %s", *v, name)
	}
	*v = read
	return nil
}

// Normalize checks each fact p holds against its routing key's values, as
// a rule's values are (countries by Hyperswitch's name or by code), and
// derives the card network from the card BIN when not given; field names
// a key's member in the request.
func (p *Payment) Normalize(field func(key string) string) error {
	for _, key := range factKeys {
		if err := p.normalize(key, field(key)); err != nil {
			return err
		}
	}
	if p.Amount < 0 {
		return errs.InvalidValue(field("amount"), "must not be negative")
	}
	if p.CardNetwork == "" && p.CardBin != "" {
		p.CardNetwork = cards.Network(p.CardBin)
	}
	return nil
}
