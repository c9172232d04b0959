package rest

import (
	"net/http"
	"strconv"
	"time"

	"switchyard/payments"
	"switchyard/payments/errs"
)

// disputeAggregateQuery is GET /disputes/aggregate's query: Hyperswitch's
// TimeRange, flattened (start_time required, end_time optional).
var disputeAggregateQuery = queryParams{
	route: "GET /disputes/aggregate",
	names: []string{"start_time", "end_time"},
}

// disputeTimeRange is a read disputeAggregateQuery.
type disputeTimeRange struct {
	start time.Time
	end   *time.Time
}

// readDisputeTimeRange reads GET /disputes/aggregate's query strictly.
func readDisputeTimeRange(rawQuery string) (disputeTimeRange, error) {
	var tr disputeTimeRange
	values, _, err := disputeAggregateQuery.read(rawQuery)
	if err != nil {
		return tr, err
	}
	start, err := queryWireTime(values, "start_time")
	if err != nil {
		return tr, err
	}
	if start == nil {
		return tr, errs.MissingField("start_time")
	}
	tr.start = *start
	tr.end, err = queryWireTime(values, "end_time")
	return tr, err
}

// queryWireTime is the query's name as a request time (wireTime's
// formats), nil when the query does not give it.
func queryWireTime(values queryValues, name string) (*time.Time, error) {
	v := values.str(name)
	if v == nil {
		return nil, nil
	}
	var t wireTime
	if err := t.UnmarshalJSON([]byte(strconv.Quote(*v))); err != nil {
		return nil, errs.InvalidValue(name, "%q is not an ISO 8601 date-time", *v)
	}
	return t.asTime(), nil
}

func disputeFiltersOf(f *payments.DisputeFilterValues) disputeFiltersBody {
	connectors := make(map[string][]merchantConnectorInfo, len(f.Connectors))
	for name, accounts := range f.Connectors {
		infos := make([]merchantConnectorInfo, len(accounts))
		for i, a := range accounts {
			infos[i] = merchantConnectorInfo{ConnectorLabel: a.Label, MerchantConnectorID: a.ID, ConnectorType: a.Type}
		}
		connectors[name] = infos
	}
	return disputeFiltersBody{Connector: connectors, Currency: f.Currencies, DisputeStatus: f.Statuses, DisputeStage: f.Stages}
}

func disputesAggregateOf(counts map[string]int64) disputesAggregateBody {
	return disputesAggregateBody{StatusWithCount: counts}
}

// registerDisputeSummaries adds GET /disputes/filter and
// /disputes/aggregate and their profile variants. As with
// /disputes/profile/list, the profile routes are the same handlers: the
// caller's profile (X-Profile-Id) narrows every dispute read. Hyperswitch
// reads no query for the filters, so none is checked there.
func registerDisputeSummaries(a *api, svc *payments.Service) {
	filter := func(r *http.Request) (any, error) {
		return respond(disputeFiltersOf)(svc.DisputeFilters(r.Context()))
	}
	aggregate := withQuery(readDisputeTimeRange, func(r *http.Request, tr disputeTimeRange) (any, error) {
		return respond(disputesAggregateOf)(svc.DisputeAggregate(r.Context(), tr.start, tr.end))
	})
	for _, prefix := range []string{"/disputes", "/disputes/profile"} {
		a.handle("GET "+prefix+"/filter", MerchantOrAdmin, filter)
		a.handle("GET "+prefix+"/aggregate", MerchantOrAdmin, aggregate)
	}
}
