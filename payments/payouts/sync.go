package payouts

import (
	"context"
	"errors"
	"time"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
)

// syncedStatuses are the payouts a sync asks the connector about: sent or
// being sent (a success, since the recipient's bank may still return it).
var syncedStatuses = []payout.Status{payout.StatusInitiated, payout.StatusPending, payout.StatusSuccess}

// sync settles po's attempt with the connector's sync when po is being
// sent or has been (GET ?force_sync=true), and returns po as it is then.
func (s *Service) sync(ctx context.Context, po *ent.Payout) (*ent.Payout, error) {
	if po.ActiveAttemptID == nil || !statusInList(po.Status, syncedStatuses) {
		return po, nil
	}
	t := &target{payoutID: po.ID, po: po}
	var err error
	if t.att, err = s.activeAttempt(ctx, s.db.Client, po); err != nil {
		return nil, err
	}
	if err := s.loadAccount(ctx, s.db.Client, t); err != nil {
		return nil, err
	}
	if _, err := s.recoverFulfilment(ctx, t, s.db.Now().Add(-s.recoveryAfter)); err != nil {
		return nil, err
	}
	return s.load(ctx, s.db.Client, po.ID, false)
}

// recoverFulfilment is the recover step of t's fulfilment: the connector's
// sync settled through the fulfilment's own settle step. An attempt whose
// fulfilment the connector never received goes back to requires_fulfillment
// (nothing was sent) once it is older than cutoff: younger, its call may
// still be on its way.
func (s *Service) recoverFulfilment(ctx context.Context, t *target, cutoff time.Time) (bool, error) {
	call := s.fulfilCall(t)
	young := t.att.ModifiedAt.After(cutoff)
	call.Synced = func(res *connector.PayoutResult, err error) (*connector.PayoutResult, bool) {
		if res != nil && res.Status == connector.PayoutRequiresFulfillment && young {
			return nil, false
		}
		return connectorcall.SyncedAnswer(res, err,
			func(r *connector.PayoutResult) bool { return r.Status == connector.PayoutInitiated },
			func() *connector.PayoutResult {
				return &connector.PayoutResult{Status: connector.PayoutRequiresFulfillment}
			})
	}
	settled, err := call.Recover(ctx, s.db)
	if err != nil && !errors.Is(err, connector.ErrInvalidRequest) {
		return settled, err
	}
	if err != nil {
		return false, errs.Internal(err)
	}
	return settled, nil
}

func statusInList(s payout.Status, list []payout.Status) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// strandedAttempts are attempts left initiated or pending since before
// cutoff, across merchants, oldest first.
func (s *Service) strandedAttempts(ctx context.Context, cutoff time.Time, limit int) ([]*ent.PayoutAttempt, error) {
	atts, err := s.db.Client.PayoutAttempt.Query().
		Where(payoutattempt.StatusIn(payoutattempt.StatusInitiated, payoutattempt.StatusPending), payoutattempt.ModifiedAtLT(cutoff)).
		Order(ent.Asc(payoutattempt.FieldModifiedAt)).Limit(limit).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return atts, nil
}
