package rest

import (
	"net/http"
	"strconv"

	"switchyard/payments"
	"switchyard/payments/errs"
)

// disputeBodyOf maps a dispute view.
func disputeBodyOf(v *payments.DisputeView) disputeBody {
	d := v.Dispute
	profileID := d.ProfileID
	return disputeBody{
		DisputeID:           d.ID,
		PaymentID:           v.PaymentID,
		AttemptID:           d.AttemptID,
		Amount:              strconv.FormatInt(d.Amount, 10),
		Currency:            string(d.Currency),
		DisputeStage:        string(d.DisputeStage),
		DisputeStatus:       string(d.DisputeStatus),
		Connector:           d.Connector,
		ConnectorStatus:     d.ConnectorStatus,
		ConnectorDisputeID:  d.ConnectorDisputeID,
		ConnectorReason:     d.ConnectorReason,
		ConnectorReasonCode: d.ConnectorReasonCode,
		ChallengeRequiredBy: ts(d.ChallengeRequiredBy),
		ConnectorCreatedAt:  ts(d.ConnectorCreatedAt),
		ConnectorUpdatedAt:  ts(d.ConnectorUpdatedAt),
		CreatedAt:           Timestamp(d.CreatedAt),
		ProfileID:           &profileID,
		MerchantConnectorID: d.MerchantConnectorID,
		IsAlreadyRefunded:   v.IsAlreadyRefunded,
	}
}

// disputeListQuery is the query GET /disputes/list accepts: Hyperswitch's
// DisputeListConstraints (its OpenAPI's parameters plus profile_id). The
// received_time bounds also accept underscore spellings, as the payment
// list's created bounds do.
var disputeListQuery = queryParams{
	route: "GET /disputes/list",
	names: []string{"limit", "profile_id", "dispute_status", "dispute_stage", "reason", "connector"},
}.withTimeBounds("received_time")

// registerDisputes adds Hyperswitch's v1 dispute reads. Like the refund
// routes they name no merchant in the path: the caller's key (or the admin
// key with X-Merchant-Id) scopes them, and X-Profile-Id narrows them to a
// profile. ServeMux prefers the literal /disputes/list to
// /disputes/{dispute_id}.
func registerDisputes(a *api, svc *payments.Service) {
	a.handle("GET /disputes/{dispute_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		// force_sync asks the connector first: a challenged dispute's
		// decision is taken then (payments.SyncDispute).
		if q := r.URL.Query(); q.Has("force_sync") {
			if _, err := strconv.ParseBool(q.Get("force_sync")); err != nil {
				return nil, errs.InvalidValue("force_sync", "must be true or false, got %q", q.Get("force_sync"))
			}
		}
		if force, _ := strconv.ParseBool(r.URL.Query().Get("force_sync")); force {
			return respond(disputeBodyOf)(svc.SyncDispute(r.Context(), r.PathValue("dispute_id")))
		}
		return respond(disputeBodyOf)(svc.GetDispute(r.Context(), r.PathValue("dispute_id")))
	})
	a.handle("POST /disputes/accept/{dispute_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(disputeBodyOf)(svc.AcceptDispute(r.Context(), r.PathValue("dispute_id")))
	})
	list := withQuery(disputeListFilter, func(r *http.Request, f payments.DisputeFilter) (any, error) {
		if p := principal(r); p.ProfileID != "" && f.ProfileID != nil && *f.ProfileID != p.ProfileID {
			return nil, errs.NotFound("Profile") // as the refund list answers
		}
		return respond(each(disputeBodyOf))(svc.ListDisputes(r.Context(), f))
	})
	a.handle("GET /disputes/list", MerchantOrAdmin, list)
	// The profile route is the same list: the caller's profile
	// (X-Profile-Id) already narrows every dispute read, and without one
	// it is the merchant's, as Hyperswitch answers an API key.
	a.handle("GET /disputes/profile/list", MerchantOrAdmin, list)
	registerDisputeEvidence(a, svc)
	registerDisputeSummaries(a, svc)
}

// disputeListFilter reads GET /disputes/list's query strictly (see
// queryParams.read); the domain checks the values' ranges and enums.
func disputeListFilter(rawQuery string) (payments.DisputeFilter, error) {
	var f payments.DisputeFilter
	values, given, err := disputeListQuery.read(rawQuery)
	if err != nil {
		return f, err
	}
	f.ProfileID, f.Status, f.Stage = values.str("profile_id"), values.str("dispute_status"), values.str("dispute_stage")
	f.Reason, f.Connector = values.str("reason"), values.str("connector")
	if err := listLimit(values, &f.Limit); err != nil {
		return f, err
	}
	if err := timeBounds(values, given, "received_time", &f.Received, &f.ReceivedLT, &f.ReceivedGT, &f.ReceivedLTE, &f.ReceivedGTE); err != nil {
		return f, err
	}
	return f, nil
}
