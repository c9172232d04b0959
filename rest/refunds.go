package rest

import (
	"encoding/json"
	"net/http"
	"time"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// wireTime reads an ISO 8601 date-time: RFC 3339, or the spec's pattern
// without a zone (taken as UTC), as Hyperswitch's PrimitiveDateTime is.
type wireTime time.Time

func (t *wireTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errs.InvalidRequest("expected an ISO 8601 date-time string, got %s", b)
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if v, err := time.Parse(layout, s); err == nil {
			*t = wireTime(v.UTC())
			return nil
		}
	}
	return errs.InvalidRequest("%q is not an ISO 8601 date-time (YYYY-MM-DDThh:mm:ssZ)", s)
}

func (t *wireTime) asTime() *time.Time {
	if t == nil {
		return nil
	}
	v := time.Time(*t)
	return &v
}

// refundBodyOf maps a refund; paymentID is its payment's wire id
// (payment_id, not the internal row id).
func refundBodyOf(r *ent.Refund, paymentID string) refundBody {
	profileID := r.ProfileID
	return refundBody{
		RefundID:             r.RefundID,
		PaymentID:            paymentID,
		Amount:               r.Amount,
		Currency:             string(r.Currency),
		Status:               string(r.Status),
		Connector:            r.Connector,
		Reason:               r.Reason,
		Metadata:             r.Metadata,
		ErrorMessage:         r.ErrorMessage,
		ErrorCode:            r.ErrorCode,
		UnifiedCode:          r.UnifiedCode,
		UnifiedMessage:       r.UnifiedMessage,
		CreatedAt:            ts(&r.CreatedAt),
		UpdatedAt:            ts(&r.ModifiedAt),
		ProfileID:            &profileID,
		MerchantConnectorID:  r.MerchantConnectorID,
		SplitRefunds:         r.SplitRefunds,
		IssuerErrorCode:      r.IssuerErrorCode,
		IssuerErrorMessage:   r.IssuerErrorMessage,
		RawConnectorResponse: r.RawConnectorResponse,
		ConnectorRefundID:    r.ConnectorRefundID,
	}
}

// refundWithPayment maps a refund loaded with its payment edge.
func refundWithPayment(r *ent.Refund) refundBody {
	paymentID := ""
	if p := r.Edges.Payment; p != nil {
		paymentID = p.PaymentID
	}
	return refundBodyOf(r, paymentID)
}

// registerRefunds adds Hyperswitch's v1 refund routes. They name no
// merchant in the path: the caller's key (or the admin key with
// X-Merchant-Id) scopes them, and X-Profile-Id narrows them to a profile.
func registerRefunds(a *api, svc *payments.Service) {
	a.handle("POST /refunds", MerchantOrAdmin, withBody(func(r *http.Request, req *refundCreateRequest) (any, error) {
		ref, err := svc.CreateRefund(r.Context(), payments.RefundInput{
			PaymentID:    deref(req.PaymentID),
			MerchantID:   req.MerchantID,
			SplitRefunds: req.SplitRefunds,
			RefundID:     req.RefundID,
			Amount:       req.Amount,
			Reason:       req.Reason,
			RefundType:   req.RefundType,
			Metadata:     req.Metadata,
		})
		if err != nil {
			return nil, err
		}
		return refundBodyOf(ref, *req.PaymentID), nil
	}))
	a.handle("GET /refunds/{refund_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(refundWithPayment)(svc.GetRefund(r.Context(), r.PathValue("refund_id")))
	})
	a.handle("POST /refunds/{refund_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *refundUpdateRequest) (any, error) {
		return respond(refundWithPayment)(svc.UpdateRefund(r.Context(), r.PathValue("refund_id"),
			payments.RefundPatch{Reason: req.Reason, Metadata: req.Metadata}))
	}))
	a.handle("POST /refunds/list", MerchantOrAdmin, withBody(func(r *http.Request, req *refundListRequest) (any, error) {
		f, err := req.filter(principal(r))
		if err != nil {
			return nil, err
		}
		return respond(refundListOf)(svc.ListRefunds(r.Context(), f))
	}))
}

func refundListOf(list *payments.RefundList) refundListResponse {
	return refundListResponse{Count: len(list.Refunds), TotalCount: list.TotalCount, Data: each(refundWithPayment)(list.Refunds)}
}

// filter turns the request into the domain's filter, checking limit (1 to
// 100, default 10), offset (≥ 0) and the ranges.
func (req *refundListRequest) filter(p tenancy.Principal) (payments.RefundFilter, error) {
	f := payments.RefundFilter{
		PaymentID: req.PaymentID, RefundID: req.RefundID, ProfileID: req.ProfileID,
		Limit: 10, Connectors: req.Connector, MerchantConnectorIDs: req.MerchantConnectorID,
		Currencies: req.Currency, Statuses: req.RefundStatus,
	}
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > 100 {
			return f, errs.InvalidValue("limit", "must be between 1 and 100")
		}
		f.Limit = int(*req.Limit)
	}
	if req.Offset != nil {
		if *req.Offset < 0 || *req.Offset > 1<<31 {
			return f, errs.InvalidValue("offset", "must be between 0 and %d", 1<<31)
		}
		f.Offset = int(*req.Offset)
	}
	start, end := req.StartTime, req.EndTime
	if tr := req.TimeRange; tr != nil {
		if start != nil || end != nil {
			return f, errs.InvalidValue("time_range", "give start_time and end_time either at the top level or in time_range, not both")
		}
		start, end = tr.StartTime, tr.EndTime
		if start == nil {
			return f, errs.MissingField("time_range.start_time")
		}
	}
	if end != nil && start == nil {
		return f, errs.MissingField("start_time")
	}
	f.CreatedGTE, f.CreatedLTE = start.asTime(), end.asTime()
	if f.CreatedGTE != nil && f.CreatedLTE != nil && f.CreatedLTE.Before(*f.CreatedGTE) {
		return f, errs.InvalidValue("end_time", "must not be before start_time")
	}
	if af := req.AmountFilter; af != nil {
		f.AmountGTE, f.AmountLTE = af.StartAmount, af.EndAmount
		if af.StartAmount != nil && af.EndAmount != nil && *af.EndAmount < *af.StartAmount {
			return f, errs.InvalidValue("amount_filter.end_amount", "must not be less than amount_filter.start_amount")
		}
	}
	if p.ProfileID != "" {
		if f.ProfileID != nil && *f.ProfileID != p.ProfileID {
			return f, errs.NotFound("Profile")
		}
		f.ProfileID = &p.ProfileID
	}
	return f, nil
}
