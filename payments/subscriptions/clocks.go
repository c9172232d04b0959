package subscriptions

// Test clocks: the sandbox's simulated time (Stripe's test clocks). A
// subscription attached to one takes "now" from its frozen_time everywhere
// (its periods, its due invoices, its scheduled changes), through the same
// code as real time; advancing the clock runs the renewal worker's own
// pass over the clock's subscriptions.

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/ent/testclock"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// TestClockInput creates a test clock.
type TestClockInput struct {
	Name       *string
	FrozenTime time.Time
}

// maxAdvanceSteps bounds one advance: each step is one moment at which
// something fell due (a renewal, a retry, a scheduled change).
const maxAdvanceSteps = 1000

// advanceBatch is how many invoices one step of an advance claims at once.
const advanceBatch = 100

// CreateTestClock creates a clock frozen at in.FrozenTime.
func (s *Service) CreateTestClock(ctx context.Context, in TestClockInput) (*ent.TestClock, error) {
	if in.FrozenTime.IsZero() {
		return nil, errs.MissingField("frozen_time")
	}
	if err := validate.MaxLen("name", in.Name, 255); err != nil {
		return nil, err
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, err
	}
	c, err := s.db.Client.TestClock.Create().SetID(ids.New(ids.TestClock)).SetNillableName(in.Name).
		SetFrozenTime(in.FrozenTime.UTC().Truncate(time.Microsecond)).Save(ctx)
	return c, txn.ErrorOrNil(err, "test clock")
}

// GetTestClock is the caller's clock id.
func (s *Service) GetTestClock(ctx context.Context, id string) (*ent.TestClock, error) {
	c, err := s.db.Client.TestClock.Get(ctx, id)
	if err != nil {
		return nil, txn.ReadError(err, errs.ErrTestClockNotFound.New)
	}
	return c, nil
}

// AdvanceTestClock moves the clock forward (never back) and charges,
// through the renewal worker's own pass, every invoice of the clock's
// subscriptions that the new time makes due, and applies their scheduled
// changes, in the order they fall due: the clock stops at each such moment
// (a year of monthly renewals is 12 stops) before it reaches to, and is
// ready after.
func (s *Service) AdvanceTestClock(ctx context.Context, id string, to time.Time) (*ent.TestClock, error) {
	c, err := s.GetTestClock(ctx, id)
	if err != nil {
		return nil, err
	}
	to = to.UTC().Truncate(time.Microsecond)
	if to.IsZero() {
		return nil, errs.MissingField("frozen_time")
	}
	if to.Before(c.FrozenTime) {
		return nil, errs.InvalidValue("frozen_time", "must not be before the clock's frozen_time (%s)",
			c.FrozenTime.UTC().Format(time.RFC3339))
	}
	if err := s.setClock(ctx, id, c.FrozenTime, testclock.StatusAdvancing); err != nil {
		return nil, err
	}
	at, stuck := c.FrozenTime.UTC(), false
	for range maxAdvanceSteps {
		next, ok, err := s.nextDue(ctx, id, to)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if next.After(at) {
			at = next
			if err := s.setClock(ctx, id, at, testclock.StatusAdvancing); err != nil {
				return nil, err
			}
		} else if stuck {
			// What is due could not be settled at this moment: a later
			// advance or pass takes it up.
			break
		}
		settled, err := s.pass(ctx, &clockScope{id: id, frozen: at}, advanceBatch)
		if err != nil {
			return nil, err
		}
		stuck = settled == 0
	}
	if err := s.setClock(ctx, id, to, testclock.StatusReady); err != nil {
		return nil, err
	}
	return s.GetTestClock(ctx, id)
}

func (s *Service) setClock(ctx context.Context, id string, at time.Time, st testclock.Status) error {
	return txn.ErrorOrNil(s.db.Client.TestClock.UpdateOneID(id).SetFrozenTime(at).SetStatus(st).Exec(ctx), "test clock")
}

// nextDue is the earliest moment, not after to, at which something of the
// clock's subscriptions falls due: an invoice to charge or a scheduled
// pause, resume or cancellation.
func (s *Service) nextDue(ctx context.Context, clockID string, to time.Time) (time.Time, bool, error) {
	var (
		best  time.Time
		found bool
	)
	consider := func(t *time.Time) {
		if t != nil && !t.After(to) && (!found || t.Before(best)) {
			best, found = *t, true
		}
	}
	inv, err := s.db.Client.Invoice.Query().Where(invoice.TestClockID(clockID),
		invoice.StatusIn(invoice.StatusInvoiceCreated, invoice.StatusPaymentFailed, invoice.StatusPaymentPending),
		invoice.Or(invoice.ClaimedUntilIsNil(), invoice.ClaimedUntilLT(s.realNow())),
		invoice.HasSubscriptionWith(billingsubscription.StatusIn(billable...)),
	).Order(ent.Asc(invoice.FieldDueAt)).First(ctx)
	switch {
	case err == nil:
		consider(&inv.DueAt)
	case !ent.IsNotFound(err):
		return best, false, errs.Internal(err)
	}
	subs, err := s.db.Client.BillingSubscription.Query().Where(billingsubscription.TestClockID(clockID),
		billingsubscription.StatusNotIn(billingsubscription.StatusCancelled, billingsubscription.StatusFailed),
		billingsubscription.Or(billingsubscription.PauseAtNotNil(), billingsubscription.ResumeAtNotNil(),
			billingsubscription.CancelAtNotNil())).All(ctx)
	if err != nil {
		return best, false, errs.Internal(err)
	}
	for _, sub := range subs {
		switch {
		case sub.Status == billingsubscription.StatusPaused:
			consider(sub.ResumeAt)
		default:
			consider(sub.PauseAt)
		}
		consider(sub.CancelAt)
	}
	return best, found, nil
}
