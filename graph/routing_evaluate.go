package graph

import (
	"context"
	"math/rand/v2"
	"strings"

	"switchyard/graph/model"
	"switchyard/payments/routing"
)

func (r *Resolver) routingEvaluate(ctx context.Context, profileID *string, in model.RoutingPaymentInput) (*model.RoutingEvaluation, error) {
	str := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	pay := routing.Payment{Amount: int64(in.Amount), Currency: in.Currency, PaymentMethod: str(in.PaymentMethod),
		PaymentMethodType: str(in.PaymentMethodType), CardNetwork: str(in.CardNetwork), CardBin: str(in.CardBin),
		BillingCountry: str(in.BillingCountry), BusinessCountry: str(in.BusinessCountry), BusinessLabel: str(in.BusinessLabel),
		CaptureMethod: str(in.CaptureMethod), AuthenticationType: str(in.AuthenticationType),
		SetupFutureUsage: str(in.SetupFutureUsage), PaymentType: str(in.PaymentType),
		Metadata: routing.MetadataStrings(in.Metadata)}
	if err := pay.Normalize(inputMember); err != nil {
		return nil, err
	}
	e, err := r.routing.Evaluate(ctx, profileID, pay, rand.IntN(100))
	if err != nil {
		return nil, err
	}
	orNil := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return &model.RoutingEvaluation{RoutingApproach: e.Approach, RoutingAlgorithmID: orNil(e.AlgorithmID),
		RoutingKind: orNil(e.Kind), RoutingRule: orNil(e.Rule), Candidates: e.Candidates}, nil
}

// inputMember is the RoutingPaymentInput member of a routing key:
// billing_country is payment.billingCountry.
func inputMember(key string) string {
	parts := strings.Split(key, "_")
	for i := 1; i < len(parts); i++ {
		parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
	}
	return "payment." + strings.Join(parts, "")
}
