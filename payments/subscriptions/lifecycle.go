package subscriptions

// Pause, resume, cancel and plan changes, and the scheduled ones the
// renewal worker applies when their time comes.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/ent/predicate"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// PauseInput pauses a subscription.
type PauseInput struct {
	Option  string // immediately|end_of_term|specific_date
	PauseAt *time.Time
}

// ResumeInput resumes a paused subscription.
type ResumeInput struct {
	Option                                  string // immediately|specific_date
	ResumeDate                              *time.Time
	ChargesHandling, UnpaidInvoicesHandling *string
}

// CancelInput cancels a subscription.
type CancelInput struct {
	Option     string // immediately|end_of_term|specific_date
	CancelAt   *time.Time
	ReasonCode *string
}

// UpdateInput changes a subscription's plan.
type UpdateInput struct{ PlanID, ItemPriceID string }

var (
	pauseOptions  = validate.NewEnum("pause option", "immediately", "end_of_term", "specific_date")
	resumeOptions = validate.NewEnum("resume option", "immediately", "specific_date")
	cancelOptions = validate.NewEnum("cancel option", "immediately", "end_of_term", "specific_date")
)

// scheduleOf is when an option takes effect: now, at the end of the
// current period, or at the date given (required then, and not in the
// past).
func scheduleOf(option, field string, at *time.Time, sub *ent.BillingSubscription, now time.Time) (time.Time, error) {
	switch option {
	case "end_of_term":
		if sub.CurrentPeriodEnd == nil {
			return now, nil
		}
		return *sub.CurrentPeriodEnd, nil
	case "specific_date":
		if at == nil {
			return time.Time{}, errs.MissingField(field)
		}
		if at.Before(now) {
			return time.Time{}, errs.InvalidValue(field, "must not be in the past")
		}
		return at.UTC().Truncate(time.Microsecond), nil
	}
	return now, nil
}

// change runs op on subscription id under its lock in one transaction:
// apply changes the row (given the subscription's time) and says which
// event, if any, the change writes.
func (s *Service) change(ctx context.Context, id, op string, apply func(tx *ent.Tx, sub *ent.BillingSubscription, now time.Time) (*ent.BillingSubscription, bool, error)) (*View, error) {
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		sub, err := s.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		if msg := transitionErr(op, sub.Status, sub.CancelAt != nil); msg != "" {
			return errStatus(msg)
		}
		now, err := s.timeIn(ctx, tx, sub)
		if err != nil {
			return err
		}
		was := sub.Status
		sub, wrote, err := apply(tx, sub, now)
		if err != nil || !wrote || was == sub.Status {
			return err
		}
		if et, ok := statusEvent(string(sub.Status)); ok {
			if was == billingsubscription.StatusPaused {
				et = subscriptionResumed
			}
			return s.emit(ctx, tx, sub, et)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.view(ctx, s.db.Client, id, true)
}

// Pause pauses an active (or trialing) subscription now, at its period's
// end or at a date; while paused no invoice is charged.
func (s *Service) Pause(ctx context.Context, id string, in PauseInput) (*View, error) {
	if in.Option == "" {
		in.Option = "immediately"
		if in.PauseAt != nil {
			in.Option = "specific_date"
		}
	}
	if err := pauseOptions.Check("pause_option", in.Option); err != nil {
		return nil, err
	}
	return s.change(ctx, id, "pause", func(tx *ent.Tx, sub *ent.BillingSubscription, now time.Time) (*ent.BillingSubscription, bool, error) {
		at, err := scheduleOf(in.Option, "pause_at", in.PauseAt, sub, now)
		if err != nil {
			return nil, false, err
		}
		return s.pauseAt(ctx, tx, sub, at, now)
	})
}

// pauseAt pauses sub at at: now when at has come, else scheduled.
func (s *Service) pauseAt(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, at, now time.Time) (*ent.BillingSubscription, bool, error) {
	upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetPauseAt(at)
	if !at.After(now) {
		upd.SetStatus(billingsubscription.StatusPaused).SetPausedAt(now).ClearPauseAt().ClearResumeAt()
	}
	sub, err := upd.Save(ctx)
	return sub, true, txn.ErrorOrNil(err, "subscription")
}

// Resume resumes a paused subscription now or at a date. Billing reopens:
// an invoice that fell due while it was paused is due again from the
// resume, for a period starting then.
func (s *Service) Resume(ctx context.Context, id string, in ResumeInput) (*View, error) {
	if in.Option == "" {
		in.Option = "immediately"
		if in.ResumeDate != nil {
			in.Option = "specific_date"
		}
	}
	if err := validate.First(resumeOptions.Check("resume_option", in.Option),
		validate.OneOf("charges_handling", in.ChargesHandling, "invoice_immediately", "add_to_unbilled_charges"),
		validate.OneOf("unpaid_invoices_handling", in.UnpaidInvoicesHandling, "no_action", "schedule_payment_collection"),
	); err != nil {
		return nil, err
	}
	return s.change(ctx, id, "resume", func(tx *ent.Tx, sub *ent.BillingSubscription, now time.Time) (*ent.BillingSubscription, bool, error) {
		at, err := scheduleOf(in.Option, "resume_date", in.ResumeDate, sub, now)
		if err != nil {
			return nil, false, err
		}
		return s.resumeAt(ctx, tx, sub, at, now)
	})
}

// resumeAt resumes sub at at: now when at has come, else scheduled.
func (s *Service) resumeAt(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, at, now time.Time) (*ent.BillingSubscription, bool, error) {
	if at.After(now) {
		sub, err := tx.BillingSubscription.UpdateOneID(sub.ID).SetResumeAt(at).Save(ctx)
		return sub, true, txn.ErrorOrNil(err, "subscription")
	}
	upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetStatus(billingsubscription.StatusActive).
		ClearPausedAt().ClearResumeAt().ClearPauseAt()
	open, err := tx.Invoice.Query().Where(invoice.SubscriptionID(sub.ID),
		invoice.StatusIn(invoice.StatusInvoiceCreated, invoice.StatusPaymentFailed)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
	case err != nil:
		return nil, false, errs.Internal(err)
	case open.DueAt.Before(now):
		price, err := tx.ItemPrice.Get(ctx, sub.ItemPriceID)
		if err != nil {
			return nil, false, errs.Internal(err)
		}
		end := periodEnd(price, now)
		if err := tx.Invoice.UpdateOneID(open.ID).SetDueAt(now).SetPeriodStart(now).SetPeriodEnd(end).Exec(ctx); err != nil {
			return nil, false, txn.Error(err, "invoice")
		}
		upd.SetNextBillingAt(now)
	default:
		upd.SetNextBillingAt(open.DueAt)
	}
	sub, err = upd.Save(ctx)
	return sub, true, txn.ErrorOrNil(err, "subscription")
}

// Cancel cancels a subscription now (its open invoice voided), at its
// period's end or at a date.
func (s *Service) Cancel(ctx context.Context, id string, in CancelInput) (*View, error) {
	if in.Option == "" {
		in.Option = "immediately"
		if in.CancelAt != nil {
			in.Option = "specific_date"
		}
	}
	if err := validate.First(cancelOptions.Check("cancel_option", in.Option),
		validate.MaxLen("cancel_reason_code", in.ReasonCode, 255)); err != nil {
		return nil, err
	}
	return s.change(ctx, id, "cancel", func(tx *ent.Tx, sub *ent.BillingSubscription, now time.Time) (*ent.BillingSubscription, bool, error) {
		at, err := scheduleOf(in.Option, "cancel_at", in.CancelAt, sub, now)
		if err != nil {
			return nil, false, err
		}
		return s.cancelAt(ctx, tx, sub, at, now, in.Option == "end_of_term", in.ReasonCode)
	})
}

// cancelAt cancels sub at at: now when at has come (its open invoices
// voided), else scheduled.
func (s *Service) cancelAt(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, at, now time.Time, periodEnd bool, reason *string) (*ent.BillingSubscription, bool, error) {
	upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetCancelAt(at).SetCancelAtPeriodEnd(periodEnd).
		SetNillableCancelReasonCode(reason)
	if !at.After(now) {
		if err := tx.Invoice.Update().Where(invoice.SubscriptionID(sub.ID),
			invoice.StatusIn(invoice.StatusInvoiceCreated, invoice.StatusPaymentFailed)).
			SetStatus(invoice.StatusVoided).ClearClaimedUntil().Exec(ctx); err != nil {
			return nil, false, txn.Error(err, "invoice")
		}
		upd.SetStatus(billingsubscription.StatusCancelled).SetCancelledAt(now).ClearNextBillingAt()
	}
	sub, err := upd.Save(ctx)
	return sub, true, txn.ErrorOrNil(err, "subscription")
}

// Update switches an active subscription to another price of a plan (in
// the same currency) from now on. The next invoice charges the new price
// and carries the proration of the change: the difference between the two
// prices for the part of the current period that is left.
func (s *Service) Update(ctx context.Context, id string, in UpdateInput) (*View, error) {
	switch {
	case in.PlanID == "":
		return nil, errs.MissingField("plan_id")
	case in.ItemPriceID == "":
		return nil, errs.MissingField("item_price_id")
	}
	p, err := s.planOf(ctx, in.ItemPriceID, &in.PlanID, nil)
	if err != nil {
		return nil, err
	}
	return s.change(ctx, id, "update", func(tx *ent.Tx, sub *ent.BillingSubscription, now time.Time) (*ent.BillingSubscription, bool, error) {
		old, err := tx.ItemPrice.Get(ctx, sub.ItemPriceID)
		if err != nil {
			return nil, false, errs.Internal(err)
		}
		if old.Currency != p.price.Currency {
			return nil, false, errs.InvalidValue("item_price_id", "must be in the subscription's currency (%s)", old.Currency)
		}
		upd := tx.BillingSubscription.UpdateOneID(sub.ID).SetPlanID(p.item.ID).SetItemPriceID(p.price.ID)
		sub, err = upd.Save(ctx)
		if err != nil {
			return nil, false, txn.Error(err, "subscription")
		}
		open, err := tx.Invoice.Query().Where(invoice.SubscriptionID(sub.ID), invoice.StatusEQ(invoice.StatusInvoiceCreated)).Only(ctx)
		if ent.IsNotFound(err) {
			return sub, false, nil
		}
		if err != nil {
			return nil, false, errs.Internal(err)
		}
		var extra []LineItem
		if sub.CurrentPeriodStart != nil && sub.CurrentPeriodEnd != nil && sub.Status == billingsubscription.StatusActive {
			if l, ok := proration(old.Amount, p.price.Amount, *sub.CurrentPeriodStart, *sub.CurrentPeriodEnd, now, p.price.ID, string(p.price.Currency)); ok {
				extra = append(extra, l)
			}
		}
		if err := tx.Invoice.DeleteOneID(open.ID).Exec(ctx); err != nil {
			return nil, false, txn.Error(err, "invoice")
		}
		if _, err := s.openNext(ctx, tx, sub, open.PeriodStart, extra); err != nil {
			return nil, false, err
		}
		return sub, false, nil
	})
}

// applyScheduled applies the pauses, resumes and cancellations whose time
// has come.
func (s *Service) applyScheduled(ctx context.Context, scope *clockScope, limit int) error {
	now := s.realNow()
	subs, err := s.db.Client.BillingSubscription.Query().Where(billingsubscription.Or(
		billingsubscription.And(billingsubscription.StatusIn(billingsubscription.StatusActive, billingsubscription.StatusTrial, billingsubscription.StatusUnpaid),
			predicate.BillingSubscription(dueBy("subscriptions", billingsubscription.FieldPauseAt, scope, now))),
		billingsubscription.And(billingsubscription.StatusEQ(billingsubscription.StatusPaused),
			predicate.BillingSubscription(dueBy("subscriptions", billingsubscription.FieldResumeAt, scope, now))),
		billingsubscription.And(billingsubscription.StatusNotIn(billingsubscription.StatusCancelled, billingsubscription.StatusFailed),
			predicate.BillingSubscription(dueBy("subscriptions", billingsubscription.FieldCancelAt, scope, now))),
	)).Limit(limit).All(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	var failures []error
	for _, sub := range subs {
		if err := s.applyScheduledOne(tenancy.ForMerchant(ctx, sub.MerchantID), sub.ID); err != nil {
			failures = append(failures, fmt.Errorf("%s: %w", sub.ID, err))
		}
	}
	return errors.Join(failures...)
}

// applyScheduledOne applies, under the subscription's lock and rechecked
// there, the scheduled change of one subscription that is due: a
// cancellation first, then a resume, then a pause.
func (s *Service) applyScheduledOne(ctx context.Context, id string) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		sub, err := s.lock(ctx, tx, id)
		if err != nil {
			return err
		}
		now, err := s.timeIn(ctx, tx, sub)
		if err != nil {
			return err
		}
		was := sub.Status
		due := func(t *time.Time) bool { return t != nil && !t.After(now) }
		switch {
		case due(sub.CancelAt) && transitionErr("cancel", sub.Status, false) == "":
			sub, _, err = s.cancelAt(ctx, tx, sub, *sub.CancelAt, now, sub.CancelAtPeriodEnd, sub.CancelReasonCode)
		case due(sub.ResumeAt) && sub.Status == billingsubscription.StatusPaused:
			sub, _, err = s.resumeAt(ctx, tx, sub, *sub.ResumeAt, now)
		case due(sub.PauseAt) && sub.Status != billingsubscription.StatusPaused:
			sub, _, err = s.pauseAt(ctx, tx, sub, *sub.PauseAt, now)
		default:
			return nil
		}
		if err != nil || was == sub.Status {
			return err
		}
		et, ok := statusEvent(string(sub.Status))
		if was == billingsubscription.StatusPaused {
			et, ok = subscriptionResumed, true
		}
		if !ok {
			return nil
		}
		return s.emit(ctx, tx, sub, et)
	})
}
