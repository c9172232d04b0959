// Package schematype holds the Go types of the structured JSON columns of the
// data model (addresses, order lines, masked card details, webhook settings,
// delivery records) and the closed currency set. It imports nothing of ent,
// so the domain and wire layers can share it.
//
// The column types that are Hyperswitch objects (addresses, order lines,
// cards, payment link configs, …) are generated from the contract into
// wire_gen.go (config wire.yaml); their methods are here.
package schematype

import "encoding/json"

//go:generate go run switchyard/internal/tools/wiregen -config wire.yaml

// Merge returns d with the members over gives, d's own where over has none.
func (d *CustomerDetails) Merge(over *CustomerDetails) *CustomerDetails {
	if d == nil {
		return over
	}
	if over == nil {
		return d
	}
	out := *d
	for _, m := range []struct{ dst, src **string }{{&out.Name, &over.Name}, {&out.Email, &over.Email},
		{&out.Phone, &over.Phone}, {&out.PhoneCountryCode, &over.PhoneCountryCode}} {
		if *m.src != nil {
			*m.dst = *m.src
		}
	}
	return &out
}

// WebhookDetails are a profile's outgoing-webhook settings: Hyperswitch's
// WebhookDetails, and the delivery switches that are Switchyard's own.
type WebhookDetails struct {
	HyperswitchWebhookDetails
	MultipleWebhooksListEnabled   *bool    `json:"multiple_webhooks_list,omitempty"`
	DeliveryDisabled              bool     `json:"delivery_disabled,omitempty"`
	EnabledEventTypes             []string `json:"enabled_event_types,omitempty"`
	AllowPrivateNetworkDeliveries *bool    `json:"allow_private_network_deliveries,omitempty"`
}

// DeliveryRequest is the request half of a webhook delivery attempt. Body
// is empty on the attempts Switchyard writes: what was sent is the event's
// content, which is immutable, so readers take it from the event rather
// than every attempt storing a copy.
type DeliveryRequest struct {
	Body    string      `json:"body,omitempty"`
	Headers [][2]string `json:"headers"`
}

// DeliveryResponse is the response half of a webhook delivery attempt.
type DeliveryResponse struct {
	Body         *string     `json:"body"`
	Headers      [][2]string `json:"headers"`
	StatusCode   *int        `json:"status_code"`
	ErrorMessage *string     `json:"error_message"`
}

// RoutingAlgorithm is a stored routing configuration's algorithm
// (Hyperswitch's StaticRoutingAlgorithm): its kind and its data, kept as
// the merchant sent them once validated.
type RoutingAlgorithm struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// DynamicRouting is a profile's dynamic routing (Hyperswitch's
// DynamicRoutingAlgorithmRef): its success-rate, its elimination and its contract
// configuration, each nil until first toggled or created.
type DynamicRouting struct {
	SuccessBased *DynamicRoutingRef `json:"success_based_algorithm,omitempty"`
	Elimination  *DynamicRoutingRef `json:"elimination_routing_algorithm,omitempty"`
	Contract     *DynamicRoutingRef `json:"contract_based_routing,omitempty"`
}

// DynamicRoutingRef is one dynamic configuration of a profile and the
// feature it is enabled with: metrics, dynamic_connector_selection or none.
type DynamicRoutingRef struct {
	AlgorithmID    string `json:"algorithm_id"`
	EnabledFeature string `json:"enabled_feature"`
}
