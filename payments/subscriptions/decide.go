package subscriptions

// The pure decisions of billing: period arithmetic, coupon discounts,
// proration, the dunning schedule and what a payment's outcome means for
// an invoice and its subscription. Nothing here reads the database; the
// adapters (apply.go, renew.go) load rows, ask these and write the answer.

import (
	"math"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/coupon"
	"switchyard/ent/invoice"
	"switchyard/ent/itemprice"
	"switchyard/ent/paymentintent"
)

// addPeriods is t moved n intervals of unit forward. A month (or year)
// that has no such day ends on its last day, as billing does: Jan 31 + 1
// month is Feb 28 (29 in a leap year), never Mar 3.
func addPeriods(t time.Time, unit string, n int) time.Time {
	switch unit {
	case "Day":
		return t.AddDate(0, 0, n)
	case "Week":
		return t.AddDate(0, 0, 7*n)
	case "Year":
		return addMonths(t, 12*n)
	default:
		return addMonths(t, n)
	}
}

// addMonths adds n months, clamping the day to the target month's length.
func addMonths(t time.Time, n int) time.Time {
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(n), 1, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	last := first.AddDate(0, 1, -1).Day()
	if d > last {
		d = last
	}
	return first.AddDate(0, 0, d-1)
}

// periodEnd is when a period of price starting at start ends.
func periodEnd(p *ent.ItemPrice, start time.Time) time.Time {
	return addPeriods(start, string(p.Interval), p.IntervalCount)
}

// trialEnd is when price's trial, starting at start, ends; nil without one.
func trialEnd(p *ent.ItemPrice, start time.Time, trialDays *int) *time.Time {
	if trialDays != nil {
		if *trialDays <= 0 {
			return nil
		}
		t := start.AddDate(0, 0, *trialDays)
		return &t
	}
	if p.TrialPeriod == nil || *p.TrialPeriod <= 0 {
		return nil
	}
	unit := "Day"
	if p.TrialPeriodUnit != nil {
		unit = string(*p.TrialPeriodUnit)
	}
	t := addPeriods(start, unit, *p.TrialPeriod)
	return &t
}

// couponApplies reports whether c discounts the next invoice of a
// subscription whose coupon has discounted used invoices already.
func couponApplies(c *ent.Coupon, used int) bool {
	if c == nil {
		return false
	}
	switch c.Duration {
	case coupon.DurationOnce:
		return used < 1
	case coupon.DurationLimitedPeriod:
		return c.DurationPeriods == nil || used < *c.DurationPeriods
	default:
		return true
	}
}

// discount is what c takes off amount: a percentage (in basis points,
// rounded half up) or a fixed amount, never more than amount.
func discount(c *ent.Coupon, amount int64) int64 {
	var off int64
	switch c.DiscountType {
	case coupon.DiscountTypePercentage:
		if c.PercentOffBps != nil {
			off = (amount*int64(*c.PercentOffBps) + 5000) / 10000
		}
	default:
		if c.AmountOff != nil {
			off = *c.AmountOff
		}
	}
	return min(off, amount)
}

// LineItem is one line of an invoice or an estimate (Hyperswitch's
// SubscriptionLineItem); Amount is negative for a credit.
type LineItem struct {
	ItemID      string
	ItemType    string // plan, addon, discount, proration
	Description string
	Amount      int64
	Currency    string
	Quantity    int64
}

// Line items of one invoice, with their total.
type charge struct {
	Lines  []LineItem
	Amount int64
	// Discounted says the coupon took part (it counts one of its periods).
	Discounted bool
}

// chargeFor is what an invoice of price p comes to: the plan's line, the
// coupon's discount when it still applies, and any extra lines (a plan
// change's proration). The total is never below zero.
func chargeFor(item *ent.SubscriptionItem, p *ent.ItemPrice, c *ent.Coupon, couponUsed int, extra []LineItem) charge {
	cur := string(p.Currency)
	out := charge{Lines: []LineItem{{ItemID: p.ID, ItemType: string(item.ItemType), Description: item.Name,
		Amount: p.Amount, Currency: cur, Quantity: 1}}}
	total := p.Amount
	for _, l := range extra {
		out.Lines = append(out.Lines, l)
		total += l.Amount
	}
	total = max(total, 0)
	if couponApplies(c, couponUsed) {
		if off := discount(c, total); off > 0 {
			out.Lines = append(out.Lines, LineItem{ItemID: c.Code, ItemType: "discount",
				Description: "Coupon " + c.Code, Amount: -off, Currency: cur, Quantity: 1})
			total -= off
			out.Discounted = true
		}
	}
	out.Amount = total
	return out
}

// proration is the line a plan change from oldAmount to newAmount, made at
// now inside the period [start, end), adds to the next invoice: the
// difference for the part of the period that is left, rounded to the
// nearest minor unit (a credit when the new plan costs less).
func proration(oldAmount, newAmount int64, start, end, now time.Time, itemID, currency string) (LineItem, bool) {
	total := end.Sub(start)
	left := end.Sub(now)
	if total <= 0 || left <= 0 || oldAmount == newAmount {
		return LineItem{}, false
	}
	left = min(left, total)
	amount := int64(math.Round(float64(newAmount-oldAmount) * float64(left) / float64(total)))
	if amount == 0 {
		return LineItem{}, false
	}
	return LineItem{ItemID: itemID, ItemType: "proration", Description: "Plan change for the rest of the period",
		Amount: amount, Currency: currency, Quantity: 1}, true
}

// retryDelay is how long after its try number attempt (1-based) failed an
// invoice is charged again, and false when that was the last try.
func retryDelay(schedule []time.Duration, attempt int) (time.Duration, bool) {
	if attempt < 1 || attempt > len(schedule) {
		return 0, false
	}
	return schedule[attempt-1], true
}

// paymentOutcome is what a payment's status means for billing.
type paymentOutcome int

const (
	// outcomeOpen: not confirmed yet (requires_payment_method/_confirmation).
	outcomeOpen paymentOutcome = iota
	// outcomeWaiting: processing or waiting for the customer (3-D Secure).
	outcomeWaiting
	outcomePaid
	outcomeFailed
	// outcomeNeverSent: the payment failed because the connector never
	// received it (recovery after a crash): nothing was charged and the
	// customer declined nothing, so the try is sent again.
	outcomeNeverSent
)

// outcomeOf is the billing outcome of a payment in status st.
func outcomeOf(st paymentintent.Status) paymentOutcome {
	switch st {
	case paymentintent.StatusSucceeded, paymentintent.StatusPartiallyCaptured,
		paymentintent.StatusPartiallyCapturedAndCapturable, paymentintent.StatusRequiresCapture:
		return outcomePaid
	case paymentintent.StatusFailed, paymentintent.StatusCancelled, paymentintent.StatusExpired,
		paymentintent.StatusCancelledPostCapture:
		return outcomeFailed
	case paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation:
		return outcomeOpen
	default:
		return outcomeWaiting
	}
}

// firstChange is what the first invoice's payment outcome does.
type firstChange struct {
	Sub     billingsubscription.Status
	Invoice invoice.Status
	// Activate: record the payment method and mandate, the current period,
	// and open the next invoice.
	Activate bool
	Changed  bool
}

// decideFirst is what the outcome of the first invoice's payment does to a
// subscription still in status cur: paid activates it (trial while its
// trial lasts), waiting leaves it pending, failed fails it, and an
// unconfirmed payment changes nothing. A subscription past its first
// invoice is not changed again.
func decideFirst(cur billingsubscription.Status, o paymentOutcome, trial bool) firstChange {
	if cur != billingsubscription.StatusCreated && cur != billingsubscription.StatusPending {
		return firstChange{}
	}
	switch o {
	case outcomePaid:
		st := billingsubscription.StatusActive
		if trial {
			st = billingsubscription.StatusTrial
		}
		return firstChange{Sub: st, Invoice: invoice.StatusInvoicePaid, Activate: true, Changed: true}
	case outcomeFailed:
		return firstChange{Sub: billingsubscription.StatusFailed, Invoice: invoice.StatusPaymentFailed, Changed: true}
	case outcomeWaiting:
		if cur == billingsubscription.StatusPending {
			return firstChange{}
		}
		return firstChange{Sub: billingsubscription.StatusPending, Invoice: invoice.StatusPaymentPending, Changed: true}
	}
	return firstChange{}
}

// renewalChange is what a renewal payment's outcome does.
type renewalChange struct {
	Sub     billingsubscription.Status
	Invoice invoice.Status
	// NextInvoice: open the next period's invoice.
	NextInvoice bool
	// RetryAt is when a failed invoice is tried again (nil: no more tries).
	RetryAt *time.Time
	// Wait: the payment has not settled; look again later.
	Wait bool
	// Resend: the try's payment never reached the connector; send the same
	// try again at once, under a key of its own.
	Resend bool
}

// decideRenewal is what try number attempt of a renewal invoice, whose
// payment came to o at now, does to a subscription in status cur: paid
// moves the subscription on a period (active again if it was unpaid, and
// leaving a trial) and opens the next invoice unless it ends at this
// period's end; failed schedules the next try (the subscription unpaid) or,
// after the last, cancels it.
func decideRenewal(cur billingsubscription.Status, o paymentOutcome, attempt int, schedule []time.Duration,
	now time.Time, endsAtPeriodEnd bool) renewalChange {
	switch o {
	case outcomePaid:
		st := cur
		if st == billingsubscription.StatusUnpaid || st == billingsubscription.StatusTrial {
			st = billingsubscription.StatusActive
		}
		return renewalChange{Sub: st, Invoice: invoice.StatusInvoicePaid, NextInvoice: !endsAtPeriodEnd}
	case outcomeFailed:
		if d, ok := retryDelay(schedule, attempt); ok {
			at := now.Add(d)
			return renewalChange{Sub: billingsubscription.StatusUnpaid, Invoice: invoice.StatusPaymentFailed, RetryAt: &at}
		}
		return renewalChange{Sub: billingsubscription.StatusCancelled, Invoice: invoice.StatusPaymentFailed}
	case outcomeNeverSent:
		return renewalChange{Sub: cur, Invoice: invoice.StatusPaymentPending, Resend: true}
	}
	return renewalChange{Sub: cur, Invoice: invoice.StatusPaymentPending, Wait: true}
}

// billable are the subscription statuses whose invoices are charged.
var billable = []billingsubscription.Status{
	billingsubscription.StatusActive, billingsubscription.StatusTrial, billingsubscription.StatusUnpaid,
}

// transitionErr says why status cur refuses op ("" when it allows it).
func transitionErr(op string, cur billingsubscription.Status, scheduledCancel bool) string {
	switch op {
	case "pause":
		if cur == billingsubscription.StatusActive || cur == billingsubscription.StatusTrial {
			return ""
		}
	case "resume":
		if cur == billingsubscription.StatusPaused {
			return ""
		}
	case "cancel":
		if cur != billingsubscription.StatusCancelled && cur != billingsubscription.StatusFailed {
			return ""
		}
	case "update":
		if (cur == billingsubscription.StatusActive || cur == billingsubscription.StatusTrial) && !scheduledCancel {
			return ""
		}
	case "confirm":
		if cur == billingsubscription.StatusCreated {
			return ""
		}
	}
	return "a subscription in status " + string(cur) + " cannot be " + pastTense(op)
}

func pastTense(op string) string {
	switch op {
	case "pause":
		return "paused"
	case "resume":
		return "resumed"
	case "cancel":
		return "cancelled"
	case "update":
		return "updated"
	}
	return "confirmed"
}

// activePrice reports whether p is active.
func activePrice(p *ent.ItemPrice) bool { return p.Status == itemprice.StatusActive }
