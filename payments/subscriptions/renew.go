package subscriptions

// The renewal worker's pass. Each pass (1) applies the scheduled changes
// whose time has come (a pause, resume or cancel at a date or at the
// period's end), (2) brings subscriptions waiting for their first payment
// up to date, and (3) claims due invoices in a short transaction (SELECT …
// FOR UPDATE SKIP LOCKED: payment_pending, the try counted, claimed_until
// set), charges each off the transaction through payments under the
// Idempotency-Key "invoice:<id>:<try>" (a repeat after a crash finds that
// try's payment instead of charging again), and settles it in one
// transaction with its events. "Due" is by the real time, or by the test
// clock's frozen time for a subscription on a clock.

import (
	"context"
	"errors"
	"fmt"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/ent/predicate"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// RenewDue is one pass of the renewal worker across merchants (ctx is the
// system's): it claims at most limit due invoices, charges each
// off-session and settles it, and returns how many it settled.
func (s *Service) RenewDue(ctx context.Context, limit int) (int, error) {
	return s.pass(tenancy.System(ctx), nil, limit)
}

// clockScope narrows a pass to one test clock, due by its frozen time.
type clockScope struct {
	id     string
	frozen time.Time
}

// pass is one pass of the worker: across every subscription (scope nil),
// or those of one test clock.
func (s *Service) pass(ctx context.Context, scope *clockScope, limit int) (int, error) {
	var failures []error
	if err := s.applyScheduled(ctx, scope, limit); err != nil {
		failures = append(failures, err)
	}
	if err := s.reconcilePending(ctx, scope, limit); err != nil {
		failures = append(failures, err)
	}
	claimed, err := s.claim(ctx, scope, limit)
	if err != nil {
		return 0, errors.Join(append(failures, err)...)
	}
	settled := 0
	for _, inv := range claimed {
		ok, err := s.renew(tenancy.ForMerchant(ctx, inv.MerchantID), inv)
		if err != nil {
			failures = append(failures, fmt.Errorf("%s: %w", inv.ID, err))
		}
		if ok {
			settled++
		}
	}
	return settled, errors.Join(failures...)
}

// dueBy is the predicate "column is due": at or before the real time now
// for a row on no clock, its clock's frozen time otherwise (or only the
// rows of scope's clock, by its frozen time).
func dueBy(table, column string, scope *clockScope, now time.Time) func(*entsql.Selector) {
	return func(sel *entsql.Selector) {
		col, clock := sel.C(column), sel.C("test_clock_id")
		if scope != nil {
			sel.Where(entsql.And(entsql.EQ(clock, scope.id), entsql.LTE(col, scope.frozen)))
			return
		}
		sel.Where(entsql.Or(
			entsql.And(entsql.IsNull(clock), entsql.LTE(col, now)),
			entsql.And(entsql.NotNull(clock), entsql.ExprP(col+" <= (SELECT frozen_time FROM test_clocks WHERE test_clocks.id = "+clock+")")),
		))
	}
}

// claim takes up to limit due invoices of billable subscriptions whose
// claim has lapsed, in one short transaction: each becomes payment_pending
// under a claim until now+ClaimFor, its try counted, unless it was
// payment_pending already (a try a crash or a slow payment left: it is
// resumed as the same try, under the same key).
func (s *Service) claim(ctx context.Context, scope *clockScope, limit int) ([]*ent.Invoice, error) {
	now := s.realNow()
	var out []*ent.Invoice
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		invs, err := txn.SkipLocked(s.db, tx.Invoice.Query().Where(
			invoice.StatusIn(invoice.StatusInvoiceCreated, invoice.StatusPaymentFailed, invoice.StatusPaymentPending),
			invoice.Or(invoice.ClaimedUntilIsNil(), invoice.ClaimedUntilLT(now)),
			predicate.Invoice(dueBy("invoices", invoice.FieldDueAt, scope, now)),
			invoice.HasSubscriptionWith(billingsubscription.StatusIn(billable...)),
		).Order(ent.Asc(invoice.FieldDueAt), ent.Asc(invoice.FieldID)).Limit(limit)).All(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		until := now.Add(s.claimFor)
		for _, inv := range invs {
			attempt := inv.AttemptCount
			if inv.Status != invoice.StatusPaymentPending {
				attempt++
			}
			got, err := tx.Invoice.UpdateOneID(inv.ID).SetStatus(invoice.StatusPaymentPending).
				SetAttemptCount(attempt).SetClaimedUntil(until).Save(ctx)
			if err != nil {
				return txn.Error(err, "invoice")
			}
			out = append(out, got)
		}
		return nil
	})
	return out, err
}

// renew charges a claimed invoice and settles the outcome; it reports
// whether the invoice was settled (paid, or failed for this try).
func (s *Service) renew(ctx context.Context, inv *ent.Invoice) (bool, error) {
	sub, err := s.db.Client.BillingSubscription.Get(ctx, inv.SubscriptionID)
	if err != nil {
		return false, errs.Internal(err)
	}
	o, pv, err := s.chargeRenewal(ctx, sub, inv)
	if err != nil {
		return false, err
	}
	return s.settleRenewal(ctx, inv.ID, inv.AttemptCount, inv.ResendCount, o, pv)
}

// renewalKey is the Idempotency-Key of the payment of the invoice's
// current try: "invoice:<id>:<try>", and ".<n>" after it once n of the
// invoice's payments never reached the connector.
func renewalKey(inv *ent.Invoice) *payments.IdempotencyRef {
	key := paymentKey(inv.ID, inv.AttemptCount)
	if inv.ResendCount > 0 {
		key.Key += "." + itoa(inv.ResendCount)
	}
	return key
}

// chargeRenewal makes (or, for a resumed try, finds) the payment of the
// invoice's try: merchant-initiated, off-session, on the subscription's
// mandate. An invoice of nothing is paid without one; a subscription with
// no mandate, or a payment refused before it reached the connector (a
// revoked mandate), fails the try.
func (s *Service) chargeRenewal(ctx context.Context, sub *ent.BillingSubscription, inv *ent.Invoice) (paymentOutcome, *payments.PaymentView, error) {
	if inv.Amount == 0 {
		return outcomePaid, nil, nil
	}
	if sub.MandateID == nil {
		return outcomeFailed, nil, nil
	}
	offSession := true
	pv, err := s.payments.CreatePayment(ctx, payments.PaymentInput{
		ProfileID: &sub.ProfileID, Amount: inv.Amount, Currency: string(inv.Currency), Confirm: true,
		PaymentFields: payments.PaymentFields{
			Customer: &customer.CustomerInput{ID: sub.CustomerID, Named: true}, MandateID: sub.MandateID,
			OffSession: &offSession, Description: ptr("Renewal of " + sub.ID),
		},
		Idempotency: renewalKey(inv),
	})
	if err != nil {
		if e, ok := errs.As(err); ok && e.Kind != errs.KindInternal && e.Kind != errs.KindUnavailable {
			return outcomeFailed, nil, nil
		}
		return outcomeOpen, nil, err
	}
	if pv.Active != nil && pv.Active.ErrorCode != nil && *pv.Active.ErrorCode == payments.CodeNeverSent {
		return outcomeNeverSent, pv, nil
	}
	return outcomeOf(pv.Intent.Status), pv, nil
}

func ptr[T any](v T) *T { return &v }

// settleRenewal applies the outcome o of try attempt (sent resend times
// before) to the invoice invoiceID (decideRenewal) with its events, in one
// transaction under the subscription's and the invoice's locks; a try
// settled already (by another pass) is left as it is.
func (s *Service) settleRenewal(ctx context.Context, invoiceID string, attempt, resend int, o paymentOutcome, pv *payments.PaymentView) (bool, error) {
	settled := false
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		inv0, err := tx.Invoice.Get(ctx, invoiceID)
		if err != nil {
			return errs.Internal(err)
		}
		sub, err := txn.ForUpdate(s.db, tx.BillingSubscription.Query().Where(billingsubscription.ID(inv0.SubscriptionID))).Only(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		inv, err := txn.ForUpdate(s.db, tx.Invoice.Query().Where(invoice.ID(invoiceID))).Only(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if inv.Status != invoice.StatusPaymentPending || inv.AttemptCount != attempt || inv.ResendCount != resend {
			return nil
		}
		now, err := s.timeIn(ctx, tx, sub)
		if err != nil {
			return err
		}
		endsHere := sub.CancelAt != nil && !sub.CancelAt.After(inv.PeriodEnd)
		ch := decideRenewal(sub.Status, o, attempt, s.dunning, now, endsHere)
		settled = !ch.Wait && !ch.Resend
		return s.applyRenewal(ctx, tx, sub, inv, ch, pv, now)
	})
	return settled, err
}

// applyRenewal writes a renewal's decision ch (and its payment pv) in tx,
// with its events.
func (s *Service) applyRenewal(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, inv *ent.Invoice,
	ch renewalChange, pv *payments.PaymentView, now time.Time) error {
	invUpd := tx.Invoice.UpdateOneID(inv.ID).SetStatus(ch.Invoice)
	if pv != nil {
		invUpd.SetPaymentIntentID(pv.Intent.PaymentID)
		if pv.Active != nil {
			invUpd.SetNillablePaymentMethodID(pv.Active.PaymentMethodID).SetNillableMerchantConnectorID(pv.Active.MerchantConnectorID)
		}
	}
	if ch.Wait {
		// Looked at again once the claim lapses.
		return txn.ErrorOrNil(invUpd.Exec(ctx), "invoice")
	}
	if ch.Resend {
		// Claimed again by the next pass, as the same try.
		return txn.ErrorOrNil(invUpd.AddResendCount(1).ClearClaimedUntil().Exec(ctx), "invoice")
	}
	invUpd.ClearClaimedUntil()
	upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetStatus(ch.Sub)
	switch {
	case ch.Invoice == invoice.StatusInvoicePaid:
		invUpd.SetPaidAt(now)
		upd.SetCurrentPeriodStart(inv.PeriodStart).SetCurrentPeriodEnd(inv.PeriodEnd)
		if ch.NextInvoice {
			upd.SetNextBillingAt(inv.PeriodEnd)
		} else {
			upd.ClearNextBillingAt()
		}
		if discounted(inv) {
			upd.AddCouponPeriodsUsed(1)
		}
	case ch.RetryAt != nil:
		invUpd.SetDueAt(*ch.RetryAt)
		upd.SetNextBillingAt(*ch.RetryAt)
	default:
		upd.SetCancelledAt(now).ClearNextBillingAt()
	}
	inv, err := invUpd.Save(ctx)
	if err != nil {
		return txn.Error(err, "invoice")
	}
	was := sub.Status
	if sub, err = upd.Save(ctx); err != nil {
		return txn.Error(err, "subscription")
	}
	if ch.NextInvoice {
		if _, err := s.openNext(ctx, tx, sub, inv.PeriodEnd, nil); err != nil {
			return err
		}
	}
	return s.emitChange(ctx, tx, sub, inv, ch.Invoice, was != sub.Status)
}

// reconcilePending brings subscriptions waiting for their first payment
// (3-D Secure, a processing payment) up to date with it.
func (s *Service) reconcilePending(ctx context.Context, scope *clockScope, limit int) error {
	q := s.db.Client.BillingSubscription.Query().Where(billingsubscription.StatusEQ(billingsubscription.StatusPending))
	if scope != nil {
		q.Where(billingsubscription.TestClockID(scope.id))
	}
	subs, err := q.Order(ent.Asc(billingsubscription.FieldModifiedAt)).Limit(limit).All(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	var failures []error
	for _, sub := range subs {
		if err := s.reconcileFirst(tenancy.ForMerchant(ctx, sub.MerchantID), sub); err != nil {
			failures = append(failures, fmt.Errorf("%s: %w", sub.ID, err))
		}
	}
	return errors.Join(failures...)
}
