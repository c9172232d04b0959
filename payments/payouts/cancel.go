package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// Cancel cancels a payout (POST /payouts/{id}/cancel): one the connector
// does not know yet is cancelled here; one it created is cancelled there
// first (a payout it is sending, or has sent, is refused with IR_41, and
// stays as it was); an ended payout is refused.
func (s *Service) Cancel(ctx context.Context, id string) (*View, error) {
	if err := s.expireIfDue(ctx, id); err != nil {
		return nil, err
	}
	po, err := s.load(ctx, s.db.Client, id, false)
	if err != nil {
		return nil, err
	}
	step, err := decideCancel(po.ID, po.Status)
	if err != nil {
		return nil, err
	}
	if step == cancelLocally {
		return s.cancelLocally(ctx, id)
	}
	return s.cancelAtConnector(ctx, id)
}

// cancelLocally cancels a payout the connector does not know, rechecked
// under its row lock.
func (s *Service) cancelLocally(ctx context.Context, id string) (*View, error) {
	var po *ent.Payout
	err := s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		if po, err = s.load(ctx, tx.Client(), id, true); err != nil {
			return err
		}
		if step, err := decideCancel(po.ID, po.Status); err != nil || step != cancelLocally {
			return statusRefused(po.ID, "cancelled", po.Status)
		}
		po, err = s.setStatus(ctx, tx, po, payout.StatusCancelled)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.dropMethod(ctx, po)
	return s.view(ctx, s.db.Client, po)
}

// cancelAtConnector asks the connector to cancel a payout it created and
// records its answer.
func (s *Service) cancelAtConnector(ctx context.Context, id string) (*View, error) {
	t := &target{payoutID: id}
	var refused error
	call := s.payoutCall(t, cancelAtConnectorCall, syncAtConnector)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		if err := s.lockTarget(ctx, tx, t); err != nil {
			return false, err
		}
		_, err := decideCancel(t.po.ID, t.po.Status)
		return true, err
	}
	call.Settle = func(ctx context.Context, tx *ent.Tx, res *connector.PayoutResult, callErr error) error {
		if callErr != nil {
			return errs.ErrConnectorUnavailable.Newf("The payout processor did not answer; the payout was not cancelled")
		}
		if refused = decideCancelAnswer(t.payoutID, res); refused != nil {
			return nil
		}
		return s.settleAnswer(ctx, tx, t, res, nil, t.att.Status)
	}
	if _, err := call.Run(ctx, s.db); err != nil {
		return nil, err
	}
	if refused != nil {
		return nil, refused
	}
	return s.view(ctx, s.db.Client, t.po)
}
