package rest

import (
	"net/http"

	"switchyard/payments/errs"
	"switchyard/payments/threedsdecision"
	"switchyard/payments/validate"
)

// threeDSDecisionRequest is ThreeDsDecisionRuleExecuteRequest: the rule's
// id and the payment's facts (threedsdecision.Facts). card_discovery is
// read and checked as Hyperswitch defines it; no rule key tests it.
type threeDSDecisionRequest struct {
	RoutingID *string `json:"routing_id"`
	Payment   *struct {
		Amount   *int64  `json:"amount"`
		Currency *string `json:"currency"`
	} `json:"payment"`
	PaymentMethod *struct {
		CardNetwork   *string `json:"card_network"`
		CardDiscovery *string `json:"card_discovery"`
	} `json:"payment_method"`
	CustomerDevice *struct {
		Platform    *string `json:"platform"`
		DeviceType  *string `json:"device_type"`
		DisplaySize *string `json:"display_size"`
	} `json:"customer_device"`
	Issuer *struct {
		Name    *string `json:"name"`
		Country *string `json:"country"`
	} `json:"issuer"`
	Acquirer *struct {
		Country   *string  `json:"country"`
		FraudRate *float64 `json:"fraud_rate"`
	} `json:"acquirer"`
}

var cardDiscoveries = validate.NewEnum("CardDiscovery", "manual", "saved_card", "click_to_pay")

// facts checks the members Hyperswitch's schema requires and reads the
// rest as given.
func (req *threeDSDecisionRequest) facts() (threedsdecision.Facts, error) {
	var f threedsdecision.Facts
	switch {
	case req.RoutingID == nil:
		return f, errs.MissingField("routing_id")
	case req.Payment == nil:
		return f, errs.MissingField("payment")
	case req.Payment.Amount == nil:
		return f, errs.MissingField("payment.amount")
	case req.Payment.Currency == nil:
		return f, errs.MissingField("payment.currency")
	case req.Issuer != nil && req.Issuer.Country == nil:
		return f, errs.MissingField("issuer.country")
	case req.Acquirer != nil && req.Acquirer.Country == nil:
		return f, errs.MissingField("acquirer.country")
	}
	f.Amount, f.Currency = *req.Payment.Amount, *req.Payment.Currency
	if pm := req.PaymentMethod; pm != nil {
		if pm.CardNetwork == nil {
			return f, errs.MissingField("payment_method.card_network")
		}
		if err := cardDiscoveries.Required(validate.Path("payment_method.card_discovery"), deref(pm.CardDiscovery)); err != nil {
			return f, err
		}
		f.CardNetwork = *pm.CardNetwork
	}
	if d := req.CustomerDevice; d != nil {
		f.DevicePlatform, f.DeviceType, f.DisplaySize = deref(d.Platform), deref(d.DeviceType), deref(d.DisplaySize)
	}
	if i := req.Issuer; i != nil {
		f.IssuerName, f.IssuerCountry = deref(i.Name), *i.Country
	}
	if a := req.Acquirer; a != nil {
		f.AcquirerCountry, f.AcquirerFraudRate = *a.Country, a.FraudRate
	}
	return f, nil
}

func registerThreeDSDecision(a *api, svc *threedsdecision.Service) {
	a.handle("POST /three_ds_decision/execute", MerchantOrAdmin, withBody(func(r *http.Request, req *threeDSDecisionRequest) (any, error) {
		facts, err := req.facts()
		if err != nil {
			return nil, err
		}
		decision, err := svc.Execute(r.Context(), *req.RoutingID, facts)
		if err != nil {
			return nil, err
		}
		return map[string]string{"decision": decision}, nil
	}))
}
