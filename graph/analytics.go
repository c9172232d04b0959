package graph

import (
	"switchyard/graph/model"
	"switchyard/payments/analytics"
)

// analyticsRange is the GraphQL range as the analytics service takes it.
func analyticsRange(in model.AnalyticsRange) analytics.Range {
	r := analytics.Range{From: in.From, To: in.To, ProfileID: in.ProfileID}
	if in.Bucket != nil {
		r.Bucket = map[model.AnalyticsBucket]string{model.AnalyticsBucketHour: analytics.BucketHour,
			model.AnalyticsBucketDay: analytics.BucketDay, model.AnalyticsBucketWeek: analytics.BucketWeek}[*in.Bucket]
	}
	if in.TimeZone != nil {
		r.TimeZone = *in.TimeZone
	}
	return r
}

// paymentDimensions maps the GraphQL grouping to the service's.
var paymentDimensions = map[model.PaymentDimension]string{
	model.PaymentDimensionStatus: analytics.ByStatus, model.PaymentDimensionConnector: analytics.ByConnector,
	model.PaymentDimensionPaymentMethod: analytics.ByPaymentMethod, model.PaymentDimensionCurrency: analytics.ByCurrency,
}

// pointers is a service's answer as the list of pointers gqlgen resolves.
func pointers[T any](rows []T, err error) ([]*T, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*T, len(rows))
	for i := range rows {
		out[i] = &rows[i]
	}
	return out, nil
}
