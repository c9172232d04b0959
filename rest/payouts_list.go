package rest

import (
	"encoding/json"
	"strconv"
	"time"

	"switchyard/payments/errs"
	"switchyard/payments/payouts"
	"switchyard/payments/validate"
)

func payoutListOf(l *payouts.List) payoutListResponse {
	return payoutListResponse{Size: len(l.Payouts), Data: each(payoutBody0)(l.Payouts), TotalCount: l.TotalCount}
}

func payoutFiltersOf(f *payouts.Filters) payoutFiltersBody {
	return payoutFiltersBody{Connector: f.Connectors, Currency: f.Currencies, Status: f.Statuses, PayoutMethod: f.PayoutMethods}
}

// payoutListQuery is GET /payouts/list's PayoutListConstraints, its
// TimeRange flattened (start_time, end_time) as Hyperswitch reads it.
var payoutListQuery = queryParams{
	route: "GET /payouts/list",
	names: []string{"customer_id", "starting_after", "ending_before", "limit", "created", "start_time", "end_time"},
}

// payoutListQueryFilter reads GET /payouts/list's query strictly.
func payoutListQueryFilter(rawQuery string) (payouts.ListFilter, error) {
	f := payouts.ListFilter{Limit: validate.DefaultListLimit}
	values, given, err := payoutListQuery.read(rawQuery)
	if err != nil {
		return f, err
	}
	f.CustomerID, f.StartingAfter, f.EndingBefore = values.str("customer_id"), values.str("starting_after"), values.str("ending_before")
	if f.StartingAfter != nil && f.EndingBefore != nil {
		return f, errs.InvalidValue(given["starting_after"], "cannot be combined with ending_before; page one way at a time")
	}
	if err := listLimit(values, &f.Limit); err != nil {
		return f, err
	}
	for _, tm := range []struct {
		name string
		dst  **time.Time
	}{{"created", &f.Created}, {"start_time", &f.CreatedGTE}, {"end_time", &f.CreatedLTE}} {
		if v := values.str(tm.name); v != nil {
			var t wireTime
			if err := t.UnmarshalJSON([]byte(strconv.Quote(*v))); err != nil {
				return f, errs.InvalidValue(tm.name, "%q is not an ISO 8601 date-time", *v)
			}
			*tm.dst = t.asTime()
		}
	}
	return f, nil
}

// oneOrMany reads a string or a list of strings.
type oneOrMany []string

func (o *oneOrMany) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*o = []string{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return errs.InvalidRequest("expected a string or a list of strings, got %s", b)
	}
	*o = many
	return nil
}

// filter is the request as the domain's filter: limit 1 to 100 (default
// 10), offset ≥ 0.
func (req *payoutListRequest) filter() (payouts.ListFilter, error) {
	f := payouts.ListFilter{PayoutID: req.PayoutID, MerchantOrderReferenceID: req.MerchantOrderReferenceID,
		ProfileID: req.ProfileID, CustomerID: req.CustomerID, Limit: validate.DefaultListLimit,
		Connectors: req.Connector, Currencies: req.Currency, Statuses: req.Status, PayoutMethods: req.PayoutMethod,
		EntityTypes: req.EntityType}
	if req.Limit != nil {
		if *req.Limit < 1 || *req.Limit > validate.MaxListLimit {
			return f, errs.InvalidValue("limit", "must be between 1 and %d", validate.MaxListLimit)
		}
		f.Limit = *req.Limit
	}
	if req.Offset != nil {
		if *req.Offset < 0 {
			return f, errs.InvalidValue("offset", "must not be negative")
		}
		f.Offset = *req.Offset
	}
	start, end := req.StartTime, req.EndTime
	if tr := req.TimeRange; tr != nil {
		start, end = tr.StartTime, tr.EndTime
	}
	f.CreatedGTE, f.CreatedLTE = start.asTime(), end.asTime()
	return f, nil
}
