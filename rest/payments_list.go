package rest

import (
	"net/http"
	"regexp"
	"time"

	"switchyard/payments"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// paymentListQuery is the query GET /payments/list accepts, by spec name.
// The created bounds also accept Hyperswitch's underscore spellings
// (created_lt …); giving both spellings of one is refused.
var paymentListQuery = queryParams{
	route: "GET /payments/list",
	names: []string{"customer_id", "starting_after", "ending_before", "limit"},
}.withTimeBounds("created")

// registerPaymentsList adds GET /payments/list. ServeMux prefers the literal
// path to GET /payments/{payment_id}, whatever the registration order.
func registerPaymentsList(a *api, svc *payments.Service) {
	a.handle("GET /payments/list", MerchantOrAdmin, withQuery(paymentListFilter, func(r *http.Request, f payments.PaymentListFilter) (any, error) {
		return respond(paymentListOf)(svc.ListPayments(r.Context(), f))
	}))
}

// paymentListFilter reads the query string strictly: an unknown parameter,
// one given twice (in either spelling), an empty or malformed value is a
// 400 naming the parameter, so a typo never silently widens the list.
func paymentListFilter(rawQuery string) (payments.PaymentListFilter, error) {
	var f payments.PaymentListFilter
	values, given, err := paymentListQuery.read(rawQuery)
	if err != nil {
		return f, err
	}
	f.CustomerID, f.StartingAfter, f.EndingBefore = values.str("customer_id"), values.str("starting_after"), values.str("ending_before")
	if f.CustomerID != nil && len(*f.CustomerID) > 64 {
		return f, errs.InvalidValue("customer_id", "must be at most 64 characters")
	}
	if f.StartingAfter != nil && f.EndingBefore != nil {
		return f, errs.InvalidValue(given["starting_after"], "cannot be combined with ending_before; page one way at a time")
	}
	f.Limit = validate.DefaultListLimit
	if err := listLimit(values, &f.Limit); err != nil {
		return f, err
	}
	if err := timeBounds(values, given, "created", &f.Created, &f.CreatedLT, &f.CreatedGT, &f.CreatedLTE, &f.CreatedGTE); err != nil {
		return f, err
	}
	return f, nil
}

// unescapedOffset is a zone offset whose "+" a query string turned into a
// space ("…T10:11:12 02:00"): taken as the "+" the caller meant.
var unescapedOffset = regexp.MustCompile(` (\d{2}:?\d{2})$`)

// parseQueryTime reads an ISO 8601 date-time as the spec's pattern shows it:
// RFC 3339 with any fraction and offset, or without a zone (UTC, as
// Hyperswitch's PrimitiveDateTime is). The result is in UTC.
func parseQueryTime(s string) (time.Time, bool) {
	s = unescapedOffset.ReplaceAllString(s, "+$1")
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05.999999999Z0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// paymentListOf is the spec's list body: one page, [{size, data}].
func paymentListOf(views []*payments.PaymentView) []paymentListPage {
	return []paymentListPage{{Size: len(views), Data: each(paymentRecordOf)(views)}}
}
