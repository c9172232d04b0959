package payments

import (
	"context"
	"slices"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
)

// recordRoutingOutcome gives the profile's dynamic routing the verdict of
// the connector on a settled attempt (after its commit): authorized or
// charged is a success, failure a failure; anything else (waiting for the
// customer, a failed authentication) is no verdict on the connector.
func (s *Service) recordRoutingOutcome(ctx context.Context, profileID string, att *ent.PaymentAttempt) {
	if att == nil || att.MerchantConnectorID == nil {
		return
	}
	success := slices.Contains([]paymentattempt.Status{paymentattempt.StatusAuthorized, paymentattempt.StatusCharged, paymentattempt.StatusPartialCharged}, att.Status)
	failure := att.Status == paymentattempt.StatusFailure
	s.routing.RecordOutcome(ctx, profileID, *att.MerchantConnectorID, success, failure)
}
