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
	t := &target{payoutID: po.ID}
	if err := s.loadTarget(ctx, t); err != nil {
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

// resume carries a payout a crash cut short as far as its create (in,
// the same request again) asked: a creation is settled with the
// connector's sync, or made again when the connector never received it; a
// fulfilment is synced; a created payout that auto-fulfils is fulfilled
// (once: a concurrent retry that finds it fulfilled answers with it).
func (s *Service) resume(ctx context.Context, po *ent.Payout, in *Input) (*View, error) {
	var err error
	if po.Status == payout.StatusRequiresCreation {
		if err := s.settleCreation(ctx, po); err != nil {
			return nil, err
		}
		if po, err = s.load(ctx, s.db.Client, po.ID, false); err != nil {
			return nil, err
		}
	}
	confirming := in.Confirm != nil && *in.Confirm && in.method != nil
	if confirming && (po.Status == payout.StatusRequiresConfirmation || po.Status == payout.StatusRequiresCreation) {
		return s.confirm(ctx, po.ID, in.method, in.Connectors, true)
	}
	if po, err = s.sync(ctx, po); err != nil {
		return nil, err
	}
	if po.Status == payout.StatusRequiresFulfillment && po.AutoFulfill {
		v, err := s.Fulfil(ctx, po.ID)
		if !errors.Is(err, errs.ErrPayoutStatusInvalid) {
			return v, err
		}
	}
	return s.Get(ctx, po.ID, false)
}

// settleCreation asks the connector about po's creation: created, po
// waits for its fulfilment; unknown to it, po's attempt stays for a new
// confirm to replace (or for the recovery pass, once old, to fail).
func (s *Service) settleCreation(ctx context.Context, po *ent.Payout) error {
	if po.ActiveAttemptID == nil {
		return nil
	}
	t := &target{payoutID: po.ID}
	if err := s.loadTarget(ctx, t); err != nil {
		return err
	}
	_, err := s.recoverCreation(ctx, t, s.db.Now().Add(-s.recoveryAfter))
	return err
}

// loadTarget reads t's payout, its active attempt and the attempt's
// account, unlocked.
func (s *Service) loadTarget(ctx context.Context, t *target) (err error) {
	if t.po, err = s.load(ctx, s.db.Client, t.payoutID, false); err != nil {
		return err
	}
	if t.att, err = s.activeAttempt(ctx, s.db.Client, t.po); err != nil {
		return err
	}
	return s.loadAccount(ctx, s.db.Client, t)
}

// neverCreated is the answer recorded for a creation the connector never
// received: the payout failed, nothing was sent.
var neverCreated = connector.Decline{Code: "connector_transaction_not_found",
	Message: "The payout processor never received this payout (the process that was sending it stopped); nothing was sent."}

// recoverCreation is the recover step of t's creation at the connector
// (a confirm a crash interrupted): created there, the payout waits for its
// fulfilment; never received (and older than cutoff), it failed.
func (s *Service) recoverCreation(ctx context.Context, t *target, cutoff time.Time) (bool, error) {
	call := s.payoutCall(t, syncAtConnector, syncAtConnector)
	call.Settle = func(ctx context.Context, tx *ent.Tx, res *connector.PayoutResult, callErr error) error {
		return s.settleAnswer(ctx, tx, t, res, callErr, payoutattempt.StatusRequiresCreation)
	}
	young := t.att.ModifiedAt.After(cutoff)
	call.Synced = func(res *connector.PayoutResult, err error) (*connector.PayoutResult, bool) {
		if young && errors.Is(err, connector.ErrTransactionNotFound) {
			return nil, false
		}
		return connectorcall.SyncedAnswer(res, err, func(*connector.PayoutResult) bool { return false },
			func() *connector.PayoutResult {
				d := neverCreated
				return &connector.PayoutResult{Status: connector.PayoutFailed, Decline: &d}
			})
	}
	return call.Recover(ctx, s.db)
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
	return s.db.Client.PayoutAttempt.Query().
		Where(payoutattempt.StatusIn(payoutattempt.StatusRequiresCreation, payoutattempt.StatusInitiated, payoutattempt.StatusPending),
			payoutattempt.ModifiedAtLT(cutoff)).
		Order(ent.Asc(payoutattempt.FieldModifiedAt)).Limit(limit).All(ctx)
}

// SyncOfConnector syncs the payout whose attempt on connector account
// mcaID has reference as its connector transaction id, or as its attempt
// id, as GET ?force_sync=true does (an incoming webhook's trigger: the
// outcome is the connector's sync answer). It returns the payout id; none
// is HE_02.
func (s *Service) SyncOfConnector(ctx context.Context, mcaID, reference string) (string, error) {
	att, err := s.db.Client.PayoutAttempt.Query().Where(payoutattempt.MerchantConnectorID(mcaID),
		payoutattempt.Or(payoutattempt.ConnectorTransactionID(reference), payoutattempt.ID(reference))).First(ctx)
	if ent.IsNotFound(err) {
		return "", errPayoutNotFound()
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	_, err = s.Get(ctx, att.PayoutID, true)
	return att.PayoutID, err
}
