package rest

import (
	"math/rand/v2"
	"net/http"
	"slices"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/routing"
)

// decideGatewayResponse is Hyperswitch's DecideGatewayResponse, gateways
// named connector:merchant_connector_id; the routing_* members say which
// configuration, of which kind, and which of its rules chose.
type decideGatewayResponse struct {
	DecidedGateway      *string             `json:"decided_gateway"`
	GatewayPriorityMap  map[string]float64  `json:"gateway_priority_map"`
	PriorityLogicTag    *string             `json:"priority_logic_tag"`
	RoutingApproach     string              `json:"routing_approach"`
	PriorityLogicOutput priorityLogicOutput `json:"priority_logic_output"`
	RoutingAlgorithmID  *string             `json:"routing_algorithm_id"`
	RoutingKind         *string             `json:"routing_kind"`
	RoutingRule         *string             `json:"routing_rule"`
}

type priorityLogicOutput struct {
	Gws              []string `json:"gws"`
	PriorityLogicTag *string  `json:"priorityLogicTag"`
}

func gatewayOf(a *ent.MerchantConnectorAccount) string { return a.ConnectorName + ":" + a.ID }

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func decideGatewayOf(e *routing.Evaluation, eligible []string) decideGatewayResponse {
	out := decideGatewayResponse{GatewayPriorityMap: map[string]float64{}, RoutingApproach: e.Approach,
		PriorityLogicTag: optional(e.Rule), RoutingAlgorithmID: optional(e.AlgorithmID), RoutingKind: optional(e.Kind),
		RoutingRule: optional(e.Rule), PriorityLogicOutput: priorityLogicOutput{Gws: []string{}, PriorityLogicTag: optional(e.Rule)}}
	var kept []*ent.MerchantConnectorAccount
	for _, a := range e.Candidates {
		if len(eligible) == 0 || slices.Contains(eligible, gatewayOf(a)) || slices.Contains(eligible, a.ConnectorName) {
			kept = append(kept, a)
		}
	}
	for i, a := range kept {
		out.GatewayPriorityMap[gatewayOf(a)] = float64(len(kept)-i) / float64(len(kept))
		out.PriorityLogicOutput.Gws = append(out.PriorityLogicOutput.Gws, gatewayOf(a))
	}
	if len(kept) > 0 {
		out.DecidedGateway = optional(gatewayOf(kept[0]))
	}
	return out
}

type ruleOutput struct {
	Type       string        `json:"type"`
	Connectors []deConnector `json:"connectors,omitempty"`
	Splits     []deSplit     `json:"splits,omitempty"`
}

// ruleEvaluateResponse is Hyperswitch's RoutingEvaluateResponse, with the
// same routing_* members as decideGatewayResponse.
type ruleEvaluateResponse struct {
	Status             string                         `json:"status"`
	Output             ruleOutput                     `json:"output"`
	EvaluatedOutput    []schematype.RoutableConnector `json:"evaluated_output"`
	EligibleConnectors []schematype.RoutableConnector `json:"eligible_connectors"`
	RoutingApproach    string                         `json:"routing_approach"`
	RoutingAlgorithmID *string                        `json:"routing_algorithm_id"`
	RoutingKind        *string                        `json:"routing_kind"`
	RoutingRule        *string                        `json:"routing_rule"`
}

func choicesOf(accounts []*ent.MerchantConnectorAccount) []schematype.RoutableConnector {
	out := make([]schematype.RoutableConnector, len(accounts))
	for i, a := range accounts {
		out[i] = schematype.RoutableConnector{Connector: a.ConnectorName, MerchantConnectorID: &a.ID}
	}
	return out
}

func ruleEvaluateOf(e *routing.Evaluation) ruleEvaluateResponse {
	out := ruleEvaluateResponse{Status: "success", Output: ruleOutput{Type: e.OutputKind},
		EvaluatedOutput: choicesOf(e.Candidates), EligibleConnectors: choicesOf(e.Eligible), RoutingApproach: e.Approach,
		RoutingAlgorithmID: optional(e.AlgorithmID), RoutingKind: optional(e.Kind), RoutingRule: optional(e.Rule)}
	for _, s := range e.Output {
		c := deConnector{GatewayName: s.Account.ConnectorName, GatewayID: s.Account.ID}
		if e.OutputKind == routing.KindVolumeSplit {
			out.Output.Splits = append(out.Output.Splits, deSplit{Connector: c, Split: s.Split})
		} else {
			out.Output.Connectors = append(out.Output.Connectors, c)
		}
	}
	return out
}

// registerRoutingEvaluate adds POST /routing/evaluate and POST
// /routing/rule/evaluate: what the profile's routing would choose for a
// payment's facts, and why, creating nothing.
func registerRoutingEvaluate(a *api, svc *routing.Service) {
	a.handle("POST /routing/evaluate", MerchantOrAdmin, withBody(func(r *http.Request, req *decideGatewayRequest) (any, error) {
		var pay routing.Payment
		if pi := req.PaymentInfo; pi != nil {
			var amount int64
			if pi.Amount != nil {
				amount = *pi.Amount
			}
			pay = routing.GatewayPayment(amount, deref(pi.Currency), deref(pi.PaymentMethod),
				deref(pi.PaymentMethodType), deref(pi.CardISIN), deref(pi.Metadata), deref(pi.PaymentType))
		}
		e, err := svc.Evaluate(r.Context(), req.MerchantID, pay, rand.IntN(100))
		if err != nil {
			return nil, err
		}
		return decideGatewayOf(e, req.EligibleGatewayList), nil
	}))
	a.handle("POST /routing/rule/evaluate", MerchantOrAdmin, withBody(func(r *http.Request, req *ruleEvaluateRequest) (any, error) {
		pay, err := routing.ParametersPayment(req.Parameters)
		if err != nil {
			return nil, err
		}
		return respond(ruleEvaluateOf)(svc.Evaluate(r.Context(), req.CreatedBy, pay, rand.IntN(100)))
	}))
}
