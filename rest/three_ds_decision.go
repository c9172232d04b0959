package rest

import (
	"net/http"

	"switchyard/payments/errs"
	"switchyard/payments/threedsdecision"
)

// threeDSDecisionRequest is ThreeDsDecisionRuleExecuteRequest: the rule's
// id and the payment's facts. The facts beyond the payment are read as
// Hyperswitch defines them and decide nothing yet (threedsdecision).
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

func registerThreeDSDecision(a *api, svc *threedsdecision.Service) {
	a.handle("POST /three_ds_decision/execute", MerchantOrAdmin, withBody(func(r *http.Request, req *threeDSDecisionRequest) (any, error) {
		switch {
		case req.RoutingID == nil:
			return nil, errs.MissingField("routing_id")
		case req.Payment == nil:
			return nil, errs.MissingField("payment")
		case req.Payment.Amount == nil:
			return nil, errs.MissingField("payment.amount")
		case req.Payment.Currency == nil:
			return nil, errs.MissingField("payment.currency")
		}
		decision, err := svc.Execute(r.Context(), *req.RoutingID,
			threedsdecision.Facts{Amount: *req.Payment.Amount, Currency: *req.Payment.Currency})
		if err != nil {
			return nil, err
		}
		return map[string]string{"decision": decision}, nil
	}))
}
