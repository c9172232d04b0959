package payouts

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

func errPayoutNotFound() *errs.Error { return errs.ErrPayoutNotFound.New() }

// load reads payout id through client, locked when lock (inside a
// transaction). Another merchant's or profile's id is not found.
func (s *Service) load(ctx context.Context, client *ent.Client, id string, lock bool) (*ent.Payout, error) {
	q := client.Payout.Query().Where(txn.InProfile(ctx, payout.ProfileID, payout.ID(id))...)
	if lock {
		q = txn.ForUpdate(s.db, q)
	}
	po, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPayoutNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return po, nil
}

// view is po with its attempts.
func (s *Service) view(ctx context.Context, client *ent.Client, po *ent.Payout) (*View, error) {
	atts, err := client.PayoutAttempt.Query().Where(payoutattempt.PayoutID(po.ID)).
		Order(ent.Asc(payoutattempt.FieldCreatedAt), ent.Asc(payoutattempt.FieldID)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &View{Payout: po, Attempts: atts}, nil
}

// Get is a payout (GET /payouts/{id}); with forceSync, a payout the
// connector is sending, or has sent, is first synced with it.
func (s *Service) Get(ctx context.Context, id string, forceSync bool) (*View, error) {
	po, err := s.load(ctx, s.db.Client, id, false)
	if err != nil {
		return nil, err
	}
	if forceSync {
		if po, err = s.sync(ctx, po); err != nil {
			return nil, err
		}
	}
	return s.view(ctx, s.db.Client, po)
}

// activeAttempt is po's current attempt.
func (s *Service) activeAttempt(ctx context.Context, client *ent.Client, po *ent.Payout) (*ent.PayoutAttempt, error) {
	if po.ActiveAttemptID == nil {
		return nil, errs.Internal(errNoAttempt)
	}
	att, err := client.PayoutAttempt.Get(ctx, *po.ActiveAttemptID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return att, nil
}
