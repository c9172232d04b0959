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
			key, ok := lhsKeys[name]
			set := factSetters[name]
			if !ok || set == nil {
				continue
			}
			var s string
			if (v.Type != valueEnumVariant && v.Type != valueStr) || json.Unmarshal(v.Value, &s) != nil {
				return out, errs.InvalidValue(at.String(), "%s is {type: enum_variant or str_value, value: a string}", name)
			}
			read, ok := key.read(s)
			if !ok {
				return out, errs.InvalidValue(at.Key("value").String(), "%q is not a value of %s", s, name)
			}
			set(&out, read)
		}
	}
	if out.CardNetwork == "" && out.CardBin != "" {
		out.CardNetwork = cards.Network(out.CardBin)
	}
	return out, nil
}

// factSetters set a payment's fact from a parameter of its key.
var factSetters = map[string]func(*Payment, string){
	"currency":            func(p *Payment, v string) { p.Currency = v },
	"payment_method":      func(p *Payment, v string) { p.PaymentMethod = v },
	"payment_method_type": func(p *Payment, v string) { p.PaymentMethodType = v },
	"card_network":        func(p *Payment, v string) { p.CardNetwork = v },
	"billing_country":     func(p *Payment, v string) { p.BillingCountry = v },
	"business_country":    func(p *Payment, v string) { p.BusinessCountry = v },
	"capture_method":      func(p *Payment, v string) { p.CaptureMethod = v },
	"authentication_type": func(p *Payment, v string) { p.AuthenticationType = v },
	"setup_future_usage":  func(p *Payment, v string) { p.SetupFutureUsage = v },
	"payment_type":        func(p *Payment, v string) { p.PaymentType = v },
	"card_bin":            func(p *Payment, v string) { p.CardBin = v },
	"business_label":      func(p *Payment, v string) { p.BusinessLabel = v },
}
