package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/payments/routing"
)

// recordRoutingOutcome gives the profile's dynamic routing the verdict of
// the connector on a settled attempt (after its commit), as
// routing.AttemptOutcome reads it; an attempt waiting for its customer is
// no verdict.
func (s *Service) recordRoutingOutcome(ctx context.Context, profileID string, att *ent.PaymentAttempt) {
	if att == nil || att.MerchantConnectorID == nil {
		return
	}
	success, failure := routing.AttemptOutcome(string(att.Status))
	s.routing.RecordOutcome(ctx, profileID, *att.MerchantConnectorID, success, failure)
}
