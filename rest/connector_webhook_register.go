package rest

import (
	"bytes"
	"encoding/json"
	"net/http"

	"switchyard/payments"
	"switchyard/payments/errs"
)

// allEventsType is ConnectorWebhookEventType's all_events, the
// registration's default.
var allEventsType = json.RawMessage(`"all_events"`)

// webhookEventOf reads ConnectorWebhookEventType: null or absent (all
// events), "all_events", or {"specific_event": <EventType>}, whose name it
// returns for the domain to check.
func webhookEventOf(raw json.RawMessage) (specific *string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" || bytes.Equal(raw, allEventsType) {
		return nil, nil
	}
	var obj struct {
		SpecificEvent *string `json:"specific_event"`
	}
	if json.Unmarshal(raw, &obj) != nil || obj.SpecificEvent == nil {
		return nil, errs.InvalidValue("event_type", `must be "all_events" or {"specific_event": <event type>}`)
	}
	return obj.SpecificEvent, nil
}

// registerConnectorWebhooks adds Hyperswitch's "Register a Connector
// Webhook" (docs/rest.md): the sandbox connector is told to send the
// account's webhooks to Switchyard; the answer names the URL it sends them
// to as connector_webhook_id.
func registerConnectorWebhooks(a *api, svc *payments.Service) {
	a.handle("POST /account/{account_id}/webhooks/{merchant_connector_id}", MerchantOrAdmin,
		withBody(func(r *http.Request, req *connectorWebhookRegisterRequest) (any, error) {
			specific, err := webhookEventOf(req.EventType)
			if err != nil {
				return nil, err
			}
			reg, err := svc.RegisterConnectorWebhooks(r.Context(), r.PathValue("merchant_connector_id"), specific)
			if err != nil {
				return nil, err
			}
			eventType := allEventsType
			if specific != nil {
				eventType, _ = json.Marshal(map[string]string{"specific_event": *specific})
			}
			success := "Success"
			return connectorWebhookRegisterResponse{EventType: eventType, ConnectorWebhookID: &reg.URL,
				WebhookRegistrationStatus: &success}, nil
		}))
}
