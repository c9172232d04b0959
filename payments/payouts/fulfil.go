package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
)

// Fulfil sends a created payout's money (POST /payouts/{id}/fulfill), as
// a connectorcall.Call: the attempt and the payout are recorded initiated
// under the payout's row lock (so two fulfils of one payout move money
// once), the connector is called, and its answer settled. A payout the
// connector leaves pending is settled by a later sync.
//
// Only a fulfilment within its confirm (auto_fulfill) may move to the next
// processor when declined: the payout method, which the next processor
// is created with, is forgotten once the confirm ends.
func (s *Service) Fulfil(ctx context.Context, id string) (*View, error) {
	t := &target{payoutID: id}
	if err := s.runFulfilment(ctx, t, true); err != nil {
		return nil, err
	}
	return s.view(ctx, s.db.Client, t.po)
}

// runFulfilment fulfils t's payout at its active attempt's processor,
// reserving it first when reserve (a confirm's creation reserved it
// otherwise).
func (s *Service) runFulfilment(ctx context.Context, t *target, reserve bool) error {
	call := s.fulfilCall(t)
	if reserve {
		call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) { return true, s.reserveFulfilment(ctx, tx, t) }
	}
	_, err := call.Run(ctx, s.db)
	return err
}

// fulfilCall is the fulfilment of t's attempt: its call, its sync and its
// settle step (the reserve step is Fulfil's).
func (s *Service) fulfilCall(t *target) connectorcall.Call[*connector.PayoutResult] {
	call := s.payoutCall(t, fulfilAtConnector, syncAtConnector)
	call.Settle = func(ctx context.Context, tx *ent.Tx, res *connector.PayoutResult, callErr error) error {
		return s.settleAnswer(ctx, tx, t, res, callErr,
			payoutattempt.StatusInitiated, payoutattempt.StatusPending, payoutattempt.StatusSuccess)
	}
	return call
}

// reserveFulfilment checks the fulfil under the payout's row lock and
// records the attempt and the payout initiated, with payout_initiated.
func (s *Service) reserveFulfilment(ctx context.Context, tx *ent.Tx, t *target) error {
	po, err := s.load(ctx, tx.Client(), t.payoutID, true)
	if err != nil {
		return err
	}
	if err := decideFulfil(po.ID, po.Status); err != nil {
		return err
	}
	if err := s.lockedTarget(ctx, tx, t, po); err != nil {
		return err
	}
	t.po, t.att, err = s.apply(ctx, tx, t.po, t.att, outcome{status: payout.StatusInitiated, changed: true}, "")
	return err
}
