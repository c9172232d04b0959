package payments

// Updating a payment: which statuses take an update (checkUpdatable), what
// a patch may change (PaymentPatch.check), and its one transaction.

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// lockPayment reads a payment by its payment_id and locks its row until tx
// ends: every state change of a payment goes through here, so two
// concurrent captures or refunds are serialised.
func (s *Service) lockPayment(ctx context.Context, tx *ent.Tx, paymentID string) (*ent.PaymentIntent, error) {
	pi, err := txn.ForUpdate(s.db, tx.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errPaymentNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return pi, nil
}

// UpdatePayment changes a payment that has not been confirmed yet (v1
// POST /payments/{id}, v2 update-intent).
func (s *Service) UpdatePayment(ctx context.Context, paymentID string, p PaymentPatch) (*PaymentView, error) {
	if !p.Confirm {
		return s.updatePayment(ctx, paymentID, p)
	}
	// The mandate a payment charges is named by the call that authorizes
	// it: with confirm, it goes to the confirm.
	var confirm ConfirmInput
	confirm.MandateID, p.MandateID = p.MandateID, nil
	if _, err := s.updatePayment(ctx, paymentID, p); err != nil {
		return nil, err
	}
	return s.ConfirmPayment(ctx, paymentID, confirm)
}

// updatePayment is UpdatePayment without the confirm.
func (s *Service) updatePayment(ctx context.Context, paymentID string, p PaymentPatch) (*PaymentView, error) {
	if p.Currency != nil {
		if err := validateCurrency(*p.Currency); err != nil {
			return nil, err
		}
	}
	if err := p.PaymentFields.checkMandateMembers(false, false); err != nil {
		return nil, err
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	if p.PaymentMethod != nil {
		// Vault first: a vault that is down refuses the update before it is written.
		if err := s.vaultPatchMethod(ctx, merchantID, paymentID, p.PaymentMethod); err != nil {
			return nil, err
		}
	}
	var pi *ent.PaymentIntent
	err = s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		pi, err = s.applyPatch(ctx, tx, merchantID, paymentID, &p)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.GetPayment(ctx, pi.PaymentID)
}

// vaultPatchMethod puts the payment method an update gives in the vault,
// until the payment's client secret expires.
func (s *Service) vaultPatchMethod(ctx context.Context, merchantID, paymentID string, m *customer.PaymentMethodInput) error {
	cur, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
	if ent.IsNotFound(err) {
		return errPaymentNotFound()
	}
	if err != nil {
		return errs.Internal(err)
	}
	return s.customers.VaultPut(ctx, merchantID, cur.ID, m, time.Until(cur.ExpiresOn))
}

// applyPatch checks p against the payment (locked in tx) and writes it.
func (s *Service) applyPatch(ctx context.Context, tx *ent.Tx, merchantID, paymentID string, p *PaymentPatch) (*ent.PaymentIntent, error) {
	cur, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, err
	}
	if err := checkUpdatable(cur.Status); err != nil {
		return nil, err
	}
	if _, err := s.lockPayer(ctx, tx, cur, p.Customer); err != nil {
		return nil, err
	}
	if err := p.check(cur); err != nil {
		return nil, err
	}
	upd := cur.Update()
	if p.Amount != nil {
		upd.SetAmount(*p.Amount)
	}
	if p.Currency != nil {
		upd.SetCurrency(schematype.Currency(*p.Currency))
	}
	if cur, err = upd.Save(ctx); err != nil {
		return nil, txn.Error(err, "payment")
	}
	pi, err := s.applyFields(ctx, tx, cur, &p.PaymentFields)
	if err != nil {
		return nil, err
	}
	s.events.PaymentChanged(tx, merchantID, pi.ID)
	return pi, nil
}

// checkUpdatable refuses an update of a payment in a status that takes none:
// only one not confirmed yet can be changed.
func checkUpdatable(status paymentintent.Status) error {
	if !statusIn(status, updatableStates...) {
		return ErrUnexpectedState("updated", status, updatableStates)
	}
	return nil
}

// check runs the refusals of p that depend on the payment as it stands
// (cur): the amount and payment type it will have, the stored order lines
// and amount_to_capture against a new amount, and every member given. It
// decides what a top-level customer_acceptance asks (resolveAcceptance).
func (p *PaymentPatch) check(cur *ent.PaymentIntent) error {
	amount := cur.Amount
	if p.Amount != nil {
		amount = *p.Amount
	}
	ptype := p.PaymentType
	if ptype == nil {
		t := string(cur.PaymentType)
		ptype = &t
	}
	if err := validateAmount(amount, ptype); err != nil {
		return err
	}
	if p.OrderDetails == nil && p.Amount != nil && len(cur.OrderDetails) > 0 {
		// The stored lines must still sum to the new amount.
		if err := validateOrderDetails(cur.OrderDetails, amount); err != nil {
			return err
		}
	}
	if err := p.validate(amount, ptype); err != nil {
		return err
	}
	if err := p.PaymentFields.resolveAcceptance(cur); err != nil {
		return err
	}
	if p.AmountToCapture == nil && cur.AmountToCapture != nil && *cur.AmountToCapture > amount {
		return errs.InvalidValue("amount_to_capture", "the payment's amount_to_capture (%d) exceeds the new amount (%d): send a new amount_to_capture with it", *cur.AmountToCapture, amount)
	}
	return nil
}
