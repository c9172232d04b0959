package payouts

import (
	"context"
	"errors"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/payments/errs"
	"switchyard/payments/events"
	"switchyard/payments/txn"
)

var errNoAttempt = errors.New("payouts: the payout has no attempt")

// apply writes o to the payout and its attempt inside tx, with the event
// the new status maps to (the outbox), and returns both as written, without
// reading them back: po is locked by tx, and att is only written under its
// payout's lock. connectorPayoutID, when given, is recorded too.
func (s *Service) apply(ctx context.Context, tx *ent.Tx, po *ent.Payout, att *ent.PayoutAttempt, o outcome, connectorPayoutID string) (*ent.Payout, *ent.PayoutAttempt, error) {
	if !o.changed {
		return po, att, nil
	}
	au := tx.PayoutAttempt.Update().Where(payoutattempt.ID(att.ID)).SetStatus(payoutattempt.Status(o.status))
	pu := tx.Payout.Update().Where(payout.ID(po.ID)).SetStatus(o.status)
	if connectorPayoutID != "" {
		au.SetConnectorTransactionID(connectorPayoutID)
		pu.SetConnectorTransactionID(connectorPayoutID)
	}
	if d := o.decline; d != nil {
		au.SetErrorCode(d.Code).SetErrorMessage(d.Message)
		pu.SetErrorCode(d.Code).SetErrorMessage(d.Message)
	}
	att, err := txn.UpdateRow(ctx, s.db, att, au)
	if err != nil {
		return nil, nil, txn.Error(err, "payout attempt")
	}
	if po, err = txn.UpdateRow(ctx, s.db, po, pu); err != nil {
		return nil, nil, txn.Error(err, "payout")
	}
	return po, att, s.emit(ctx, tx, po)
}

// setStatus moves po (with no attempt concerned) to status inside tx, with
// its event.
func (s *Service) setStatus(ctx context.Context, tx *ent.Tx, po *ent.Payout, status payout.Status) (*ent.Payout, error) {
	po, err := tx.Payout.UpdateOne(po).SetStatus(status).Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "payout")
	}
	return po, s.emit(ctx, tx, po)
}

// emit writes the event po's status maps to, inside tx; content.object is
// what GET /payouts/{id} shows, read in tx after the change.
func (s *Service) emit(ctx context.Context, tx *ent.Tx, po *ent.Payout) error {
	et, ok := eventOf(po.Status)
	if !ok || s.render == nil || s.events == nil {
		return nil
	}
	v, err := s.view(ctx, tx.Client(), po)
	if err != nil {
		return err
	}
	obj, err := s.render.Payout(v)
	if err != nil {
		return errs.Internal(err)
	}
	return s.events.Write(ctx, tx, events.Event{
		ProfileID: po.ProfileID, ObjectID: po.ID, Type: et, Class: event.EventClassPayouts,
		ContentType: "payout_details", Status: string(po.Status), Object: obj, PrimaryObjectCreatedAt: &po.CreatedAt,
	})
}
