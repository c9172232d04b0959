package payouts

import (
	"context"
	"switchyard/payments/txn"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/cards"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// withSavedMethod sets in's method from its payout_token (a saved payout
// method of the payout's customer, customerID) when it gives no method.
func (s *Service) withSavedMethod(ctx context.Context, in *Input, customerID *string) error {
	if in.method != nil || in.PayoutToken == nil || s.customers == nil {
		return nil
	}
	if customerID == nil {
		return errs.MissingField("customer_id")
	}
	pm, maskedData, err := s.customers.SavedPayoutMethod(ctx, *customerID, *in.PayoutToken)
	if err != nil {
		return err
	}
	in.method = &Method{Type: pm.PaymentMethod, Subtype: deref(pm.PaymentMethodType), RecipientToken: *pm.ConnectorToken,
		AccountID: *pm.MerchantConnectorID, Masked: maskedData}
	return nil
}

// saveMethod saves t's recipient for po's customer once its processor
// created it (inside the creation's settle transaction, before the
// outcome and its event are written), and records the saved method's id on
// the payout (payout_method_id); po is locked by tx.
func (s *Service) saveMethod(ctx context.Context, tx *ent.Tx, t *target, po *ent.Payout, res *connector.PayoutResult) (*ent.Payout, error) {
	if s.customers == nil || po.CustomerID == nil ||
		t.m == nil || t.m.RecipientToken != "" || res == nil || res.RecipientToken == "" {
		return po, nil
	}
	keep := customer.PayoutMethodToKeep{Type: t.m.Type, Subtype: t.m.Subtype, Masked: masked(t.m),
		Identity: identity(t.m), RecipientToken: res.RecipientToken, MerchantConnectorID: t.mca.ID}
	if c := t.m.Card; c != nil {
		d := cards.Describe(c.Number)
		keep.Card = &schematype.CardDetails{Last4: d.Last4, CardISIN: d.BIN, CardExpMonth: c.ExpMonth, CardExpYear: c.ExpYear}
	}
	id, err := s.customers.KeepPayoutMethod(ctx, tx, *po.CustomerID, keep)
	if err != nil || id == "" {
		return po, err
	}
	return txn.UpdateRow(ctx, s.db, po, tx.Payout.Update().Where(payout.ID(po.ID)).SetPayoutToken(id))
}
