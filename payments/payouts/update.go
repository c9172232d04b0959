package payouts

import (
	"context"

	"switchyard/ent"
)

// Update changes a payout before it is sent (POST /payouts/{id}); with
// confirm it is then confirmed (the confirm route is this with confirm).
// A payout method given replaces the kept one; what is paid (amount,
// currency, method) cannot change once the connector created the payout.
func (s *Service) Update(ctx context.Context, id string, in Input) (*View, error) {
	if err := in.decodeMethod(); err != nil {
		return nil, err
	}
	if err := checkInput(&in); err != nil {
		return nil, err
	}
	if err := s.expireIfDue(ctx, id); err != nil {
		return nil, err
	}
	var po *ent.Payout
	err := s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		if po, err = s.load(ctx, tx.Client(), id, true); err != nil {
			return err
		}
		if err := s.checkClientSecret(ctx, po, in.ClientSecret); err != nil {
			return err
		}
		customerID := in.CustomerID
		if customerID == nil {
			customerID = po.CustomerID
		}
		if err := s.withSavedMethod(ctx, &in, customerID); err != nil {
			return err
		}
		changesMoney := in.Amount != nil || in.Currency != nil || in.method != nil
		if err := decideUpdate(po.ID, po.Status, changesMoney); err != nil {
			return err
		}
		upd := tx.Payout.UpdateOne(po)
		setMembers(upd.Mutation(), &in)
		if in.method != nil && po.Status == "requires_payout_method_data" {
			upd.SetStatus(createdStatus(true))
		}
		po, err = upd.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.afterUpdate(ctx, po, &in)
}

// afterUpdate keeps a new method for the confirm, or confirms now.
func (s *Service) afterUpdate(ctx context.Context, po *ent.Payout, in *Input) (*View, error) {
	confirm := in.Confirm != nil && *in.Confirm
	m := in.method
	if m == nil && confirm {
		var err error
		if m, err = s.keptMethod(ctx, po); err != nil {
			return nil, err
		}
	}
	switch {
	case confirm:
		return s.confirm(ctx, po.ID, m, in.Connectors, true)
	case m != nil:
		if err := s.keepMethod(ctx, po, m); err != nil {
			return nil, err
		}
	}
	return s.view(ctx, s.db.Client, po)
}
