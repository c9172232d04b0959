package payments

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
)

// A process can die between recording that it is about to call a connector
// (an attempt pending, a capture or a refund pending, an attempt
// void_initiated) and recording the answer. Nothing would move such a row
// again: a processing payment refuses every operation, a pending capture
// holds its amount, a pending refund counts against what may be refunded.
// Recovery runs the recover step of each row's connectorCall
// (connector_call.go): it asks the connector's sync (Sync, SyncCapture,
// SyncRefund), which knows what became of every call it was sent, and
// records the answer through the same settle step as a returned call (the
// row, the payment and the event in one transaction); a call the connector
// never saw has failed, moving no money (syncedAttempt, …). Settling
// rechecks the row under the payment's row lock, so several processes may
// recover at once, and the original call's answer, should it come late,
// changes nothing twice (lateAnswer).
//
// The recovery window (SWITCHYARD_RECOVERY_AFTER) must be longer than the
// longest connector call: a younger row may still have its call on the way.

// RecoverStranded settles the attempts, voids, captures, refunds and
// incremental authorizations left pending for longer than after, at most
// limit of each, across merchants (ctx is the system's). It returns how many it settled.
func (s *Service) RecoverStranded(ctx context.Context, after time.Duration, limit int) (int, error) {
	cutoff := s.db.Now().Add(-after)
	settled := 0
	var failures []error
	for _, sweep := range []func(context.Context, time.Time, int) (int, error){
		s.recoverAttempts, s.recoverVoids, s.recoverCaptures, s.recoverRefunds, s.recoverIncrements,
	} {
		n, err := sweep(tenancy.System(ctx), cutoff, limit)
		settled += n
		if err != nil {
			failures = append(failures, err)
		}
	}
	return settled, errors.Join(failures...)
}

func (s *Service) recoverAttempts(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	atts, err := s.strandedAttempts(ctx, paymentattempt.StatusPending, cutoff, limit)
	return connectorcall.RecoverEach(ctx, atts, err, attemptKey, func(ctx context.Context, att *ent.PaymentAttempt) (bool, error) {
		pi, err := s.db.Client.PaymentIntent.Get(ctx, att.PaymentIntentID)
		if err != nil {
			return false, errs.Internal(err)
		}
		return s.syncAttempt(ctx, pi, att, cutoff)
	})
}

func (s *Service) recoverVoids(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	atts, err := s.strandedAttempts(ctx, paymentattempt.StatusVoidInitiated, cutoff, limit)
	return connectorcall.RecoverEach(ctx, atts, err, attemptKey, recoverOn(s,
		func(att *ent.PaymentAttempt) string { return att.ID },
		func(t callTarget, _ *ent.PaymentAttempt) connectorcall.Call[*connector.PaymentResult] {
			return s.voidCall(&voidCall{callTarget: t}, t.pi.PaymentID, nil, false) // recovery syncs: no call is sent
		}))
}

func (s *Service) recoverCaptures(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	cps, err := s.db.Client.Capture.Query().
		Where(capture.StatusEQ(capture.StatusPending), capture.ModifiedAtLT(cutoff)).
		Order(ent.Asc(capture.FieldModifiedAt)).Limit(limit).All(ctx)
	return connectorcall.RecoverEach(ctx, cps, err, func(c *ent.Capture) (string, string) { return c.MerchantID, c.ID },
		recoverOn(s, func(cp *ent.Capture) string { return cp.AuthorizedAttemptID },
			func(t callTarget, cp *ent.Capture) connectorcall.Call[*connector.CaptureResult] {
				return s.captureCall(&captureCall{paymentID: t.pi.PaymentID, r: &captureReservation{callTarget: t, cp: cp}})
			}))
}

func (s *Service) recoverRefunds(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	refs, err := s.db.Client.Refund.Query().
		Where(refund.StatusEQ(refund.StatusPending), refund.ModifiedAtLT(cutoff)).
		Order(ent.Asc(refund.FieldModifiedAt)).Limit(limit).All(ctx)
	return connectorcall.RecoverEach(ctx, refs, err, func(r *ent.Refund) (string, string) { return r.MerchantID, r.ID },
		recoverOn(s, func(ref *ent.Refund) string { return ref.AttemptID },
			func(t callTarget, ref *ent.Refund) connectorcall.Call[*connector.RefundResult] {
				return s.refundCall(&refundCall{callTarget: t, ref: ref}, t.pi.PaymentID)
			}))
}

func (s *Service) strandedAttempts(ctx context.Context, status paymentattempt.Status, cutoff time.Time, limit int) ([]*ent.PaymentAttempt, error) {
	return s.db.Client.PaymentAttempt.Query().
		Where(paymentattempt.StatusEQ(status), paymentattempt.ModifiedAtLT(cutoff)).
		Order(ent.Asc(paymentattempt.FieldModifiedAt)).Limit(limit).All(ctx)
}

func attemptKey(a *ent.PaymentAttempt) (string, string) { return a.MerchantID, a.ID }

// callTarget is what a connector call about an attempt acts on: the
// attempt, its payment and the connector account it was sent to.
type callTarget struct {
	pi  *ent.PaymentIntent
	att *ent.PaymentAttempt
	mca *ent.MerchantConnectorAccount
}

// recoverOn is the recover step of a stranded row whose call is about an
// attempt (attemptOf): it loads the attempt's call target, makes the row's
// call of it (callOf) and recovers that call.
func recoverOn[T, R any](s *Service, attemptOf func(T) string,
	callOf func(callTarget, T) connectorcall.Call[R]) func(context.Context, T) (bool, error) {
	return func(ctx context.Context, row T) (bool, error) {
		t, err := s.loadCallTarget(ctx, attemptOf(row))
		if err != nil {
			return false, err
		}
		call := callOf(t, row)
		return call.Recover(ctx, s.db)
	}
}

// loadCallTarget reads the call target of the attempt attemptID.
func (s *Service) loadCallTarget(ctx context.Context, attemptID string) (t callTarget, err error) {
	if t.att, err = s.db.Client.PaymentAttempt.Get(ctx, attemptID); err != nil {
		return t, errs.Internal(err)
	}
	if t.pi, err = s.db.Client.PaymentIntent.Get(ctx, t.att.PaymentIntentID); err != nil {
		return t, errs.Internal(err)
	}
	t.mca, err = s.accountOfAttempt(ctx, t.att)
	return t, err
}

// accountOfAttempt is the connector account att was sent to.
func (s *Service) accountOfAttempt(ctx context.Context, att *ent.PaymentAttempt) (*ent.MerchantConnectorAccount, error) {
	if att.MerchantConnectorID == nil {
		return nil, errs.Internal(fmt.Errorf("attempt %s has no connector account", att.ID))
	}
	mca, err := s.db.Client.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(*att.MerchantConnectorID)).Only(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return mca, nil
}

// syncPayment settles the payment's pending attempt at once, if it has
// one (GET /payments/{id}?force_sync=true, and a retried create that finds
// its payment). An attempt the connector has no record of is failed only
// once it is older than the recovery window: younger, its call may still
// be on its way.
func (s *Service) syncPayment(ctx context.Context, pi *ent.PaymentIntent, window time.Duration) error {
	if pi.ActiveAttemptID == nil || pi.Status != paymentintent.StatusProcessing {
		return nil
	}
	att, err := s.db.Client.PaymentAttempt.Get(ctx, *pi.ActiveAttemptID)
	if err != nil {
		return errs.Internal(err)
	}
	if att.Status != paymentattempt.StatusPending {
		return nil
	}
	_, err = s.syncAttempt(ctx, pi, att, s.db.Now().Add(-window))
	return err
}

// syncAttempt is the recover step of a pending attempt's authorization: it
// asks the connector what became of it and settles the answer
// (syncedAttempt: one the connector never saw fails once older than
// cutoff). It reports whether the attempt was settled.
func (s *Service) syncAttempt(ctx context.Context, pi *ent.PaymentIntent, att *ent.PaymentAttempt, cutoff time.Time) (bool, error) {
	mca, err := s.accountOfAttempt(ctx, att)
	if err != nil {
		return false, err
	}
	a := authorization{paymentID: pi.PaymentID, attemptID: att.ID}
	call := s.authorizationCall(&a, pi, att, mca)
	call.Synced = func(res *connector.PaymentResult, err error) (*connector.PaymentResult, bool) {
		return syncedAttempt(res, err, att.ModifiedAt.After(cutoff))
	}
	if settled, err := call.Recover(ctx, s.db); !settled {
		return false, err
	}
	if _, _, err := s.finishAuthorization(ctx, &a); err != nil {
		return false, err
	}
	return true, nil
}

// lockPending starts the settle step of a call about the row id (a
// capture's, a refund's), inside tx: it locks the payment, then reads the
// row (get). A row no longer pending under the lock was settled already
// (by recovery, or by the call this answer belongs to): late says so, and
// the answer changes nothing twice (lateAnswer).
func lockPending[T any](ctx context.Context, s *Service, tx *ent.Tx, paymentID, kind, id string, callErr error,
	get func(context.Context, string) (*T, error), pending func(*T) bool) (pi *ent.PaymentIntent, row *T, late bool, err error) {
	if pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return nil, nil, false, err
	}
	if row, err = get(ctx, id); err != nil {
		return nil, nil, false, errs.Internal(err)
	}
	if !pending(row) {
		lateAnswer(ctx, kind, id, callErr)
		return pi, row, true, nil
	}
	return pi, row, false, nil
}

// lateAnswer logs a connector's answer that came after the row it answers
// for was settled (by recovery, when the call outlived the recovery
// window). The row keeps what was recorded; an operator compares it with
// the connector's record.
func lateAnswer(ctx context.Context, kind, id string, callErr error) {
	if callErr != nil {
		return // no answer: nothing to compare
	}
	slog.ErrorContext(ctx, "a connector answered after recovery had settled the request; the recorded outcome stands, check it against the connector",
		"kind", kind, "id", id)
}
