package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/payments/errs"
	"switchyard/payments/gsm"
)

// defaultAutoRetries is the retry budget of a profile that enables
// automatic retries without naming one, as for payments.
const defaultAutoRetries = 1

// decideRetry is whether a payout whose creation failed is tried again on
// its next payout processor: the merchant's rules allow it (the GSM
// verdict for payout_flow), the profile has automatic retries on with
// budget left (attempts counts this payout's tries), and there is a next
// processor.
func decideRetry(verdict gsm.Verdict, attempts int, prof *ent.Profile, hasNext bool) bool {
	if !verdict.Retry || !hasNext || !prof.IsAutoRetriesEnabled {
		return false
	}
	budget := defaultAutoRetries
	if prof.MaxAutoRetriesEnabled != nil {
		budget = *prof.MaxAutoRetriesEnabled
	}
	return attempts-1 < budget
}

// retryable is whether an answer that settles a payout in status current
// may be tried on another processor at all: the connector answered, and
// answered failed with its decline, to a creation (requires_creation) or
// a fulfilment (initiated), and the payout method is at hand to create
// the payout at the next processor. An answer that never came (the money
// may have moved) or a pending one is never retried elsewhere: recovery
// and sync settle it where it was sent.
func retryable(current payout.Status, o outcome, hasMethod bool) bool {
	return hasMethod && o.changed && o.status == payout.StatusFailed && o.decline != nil &&
		(current == payout.StatusRequiresCreation || current == payout.StatusInitiated)
}

// retryOnNext settles a failed creation or fulfilment by trying the next
// payout processor when retryable and decideRetry allow it: the failed
// attempt is closed with its error and the next one reserved (requires
// creation) in the same transaction, before its call, so a crash leaves
// it for recovery; the first processor is not asked again. It reports
// whether it did.
func (s *Service) retryOnNext(ctx context.Context, tx *ent.Tx, t *target, po *ent.Payout, att *ent.PayoutAttempt, o outcome) (bool, error) {
	if s.gsm == nil || !retryable(po.Status, o, t.m != nil) {
		return false, nil
	}
	verdict, err := s.gsm.JudgeFlow(ctx, tx, gsm.FlowPayout, gsm.Failure{Connector: att.Connector,
		Code: o.decline.Code, Message: o.decline.Message, Reason: o.decline.Reason})
	if err != nil {
		return false, err
	}
	prof, err := tx.Profile.Get(ctx, po.ProfileID)
	if err != nil {
		return false, errs.Internal(err)
	}
	if !decideRetry(verdict, po.AttemptCount, prof, len(t.later) > 0) {
		return false, nil
	}
	au := tx.PayoutAttempt.UpdateOne(att).SetStatus("failed").SetErrorCode(o.decline.Code).SetErrorMessage(o.decline.Message)
	if _, err := au.Save(ctx); err != nil {
		return false, errs.Internal(err)
	}
	t.mca, t.later, t.retried = t.later[0], t.later[1:], true
	return true, s.reserveAttempt(ctx, tx, t, po, t.m)
}
