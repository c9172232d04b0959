package payouts

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/payoutattempt"
	"switchyard/internal/tenancy"
	"switchyard/payments/connectorcall"
)

// RecoverStranded settles the payout attempts a crash (or a connector that
// answered pending) left requires_creation, initiated or pending for
// longer than after, at
// most limit, across merchants (ctx is the system's): the recover step of
// each attempt's fulfilment asks the connector's sync and records the
// answer through the fulfilment's settle step, under the payout's row
// lock, so a late answer changes nothing twice. A fulfilment the connector
// never received goes back to requires_fulfillment, having sent nothing; a
// creation it never received fails; a created payout waits for its
// fulfilment (a fulfil, or auto_fulfill's, is the merchant's to send).
// It returns how many it settled.
func (s *Service) RecoverStranded(ctx context.Context, after time.Duration, limit int) (int, error) {
	cutoff := s.db.Now().Add(-after)
	sys := tenancy.System(ctx)
	atts, err := s.strandedAttempts(sys, cutoff, limit)
	return connectorcall.RecoverEach(sys, atts, err, func(a *ent.PayoutAttempt) (string, string) { return a.MerchantID, a.ID },
		func(ctx context.Context, att *ent.PayoutAttempt) (bool, error) {
			return s.recoverAttempt(ctx, att, cutoff)
		})
}

// recoverAttempt settles one stranded attempt, if it is still its
// payout's active one.
func (s *Service) recoverAttempt(ctx context.Context, att *ent.PayoutAttempt, cutoff time.Time) (bool, error) {
	t := &target{payoutID: att.PayoutID, att: att}
	if err := s.loadAccount(ctx, s.db.Client, t); err != nil {
		return false, err
	}
	if att.Status == payoutattempt.StatusRequiresCreation {
		return s.recoverCreation(ctx, t, cutoff)
	}
	return s.recoverFulfilment(ctx, t, cutoff)
}
