package rest

import (
	"net/http"
	"strings"

	"switchyard/ent"
	"switchyard/internal/auth"
	"switchyard/payments/errs"
	"switchyard/payments/relay"
)

// HeaderRelayIdempotencyKey is the key POST /relay requires: the same key
// in the profile returns the relay it made.
const HeaderRelayIdempotencyKey = "X-Idempotency-Key"

// relayData is Hyperswitch's RelayData, one member per relay type: the
// sandbox relays refunds; the other members are read so that any
// Hyperswitch request decodes, and refused by type (relay.Input.check).
type relayData struct {
	Refund                   *relayRefundData `json:"refund,omitempty"`
	Capture                  map[string]any   `json:"capture,omitempty"`
	IncrementalAuthorization map[string]any   `json:"incremental_authorization,omitempty"`
	Void                     map[string]any   `json:"void,omitempty"`
	UnreferencedRefund       map[string]any   `json:"unreferenced_refund,omitempty"`
}

// registerRelay adds POST /relay and GET /relay/{relay_id}. Both need
// X-Profile-Id (the document's required header); the create also needs
// X-Idempotency-Key.
func registerRelay(a *api, svc *relay.Service) {
	a.handle("POST /relay", MerchantOrAdmin, withBody(func(r *http.Request, req *relayRequest) (any, error) {
		profileID, err := requiredHeader(r, auth.HeaderProfileID)
		if err != nil {
			return nil, err
		}
		key, err := requiredHeader(r, HeaderRelayIdempotencyKey)
		if err != nil {
			return nil, err
		}
		in, err := relayInputOf(req)
		if err != nil {
			return nil, err
		}
		in.ProfileID, in.IdempotencyKey = profileID, key
		return respond(relayBodyOf)(svc.Create(r.Context(), in))
	}))
	a.handle("GET /relay/{relay_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		profileID, err := requiredHeader(r, auth.HeaderProfileID)
		if err != nil {
			return nil, err
		}
		return respond(relayBodyOf)(svc.Get(r.Context(), profileID, r.PathValue("relay_id")))
	})
}

// relayInputOf reads the body's members, each required one given.
func relayInputOf(req *relayRequest) (relay.Input, error) {
	var in relay.Input
	for _, m := range []struct {
		name string
		v    *string
		to   *string
	}{{"connector_id", req.ConnectorID, &in.ConnectorID}, {"connector_resource_id", req.ConnectorResourceID, &in.ConnectorResourceID},
		{"type", req.Type, &in.Type}} {
		if m.v == nil {
			return in, errs.MissingField(m.name)
		}
		*m.to = *m.v
	}
	if req.Data == nil || req.Data.Refund == nil {
		return in, nil
	}
	d := req.Data.Refund
	if d.Amount == nil {
		return in, errs.MissingField("data.refund.amount")
	}
	if d.Currency == nil {
		return in, errs.MissingField("data.refund.currency")
	}
	in.Refund = &relay.RefundData{Amount: *d.Amount, Currency: *d.Currency, Reason: d.Reason}
	return in, nil
}

// requiredHeader is the header's value; missing or blank is IR_04 naming it.
func requiredHeader(r *http.Request, name string) (string, error) {
	v := strings.TrimSpace(r.Header.Get(name))
	if v == "" {
		return "", errs.MissingField(name)
	}
	return v, nil
}

// relayBodyOf maps a relay onto Hyperswitch's RelayResponse.
func relayBodyOf(row *ent.Relay) relayResponse {
	currency := string(row.Currency)
	out := relayResponse{
		ID:                   row.ID,
		Status:               string(row.Status),
		ConnectorResourceID:  row.ConnectorResourceID,
		ConnectorReferenceID: row.ConnectorReferenceID,
		ConnectorID:          row.ConnectorAccountID,
		ProfileID:            row.ProfileID,
		Type:                 string(row.Type),
		Data:                 &relayData{Refund: &relayRefundData{Amount: &row.Amount, Currency: &currency, Reason: row.Reason}},
	}
	if row.ErrorCode != nil {
		msg := ""
		if row.ErrorMessage != nil {
			msg = *row.ErrorMessage
		}
		out.Error = &relayError{Code: *row.ErrorCode, Message: msg}
	}
	return out
}
