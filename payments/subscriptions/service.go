// Package subscriptions is billing: the merchant's catalogue (plan and
// addon items with their prices, coupons), customers' subscriptions to a
// plan's price and their invoices, the renewal worker that charges due
// invoices off-session through the subscription's mandate (with dunning
// retries), and the sandbox's test clocks that move a subscription's time
// by hand. It owns Hyperswitch's v1 subscription API (docs/subscriptions.md).
//
// It sits in the billing layer, above the payment: every invoice is paid by
// a payment made through payments.Service (the first one customer-present,
// setting up a mandate; renewals merchant-initiated under an
// Idempotency-Key derived from the invoice and its try, so a crash repeats
// a try at most as itself). The pure decisions (periods, discounts,
// proration, dunning, what a payment's outcome means) are in decide.go;
// each state change is one transaction with its events (the outbox).
// payments never imports it.
package subscriptions

import (
	"encoding/json"
	"time"

	"switchyard/ent"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/events"
	"switchyard/payments/txn"
)

// Renderer turns a subscription and an invoice into the JSON GET shows,
// for an event's content.object. The REST layer provides it.
type Renderer interface {
	Subscription(v *View) (json.RawMessage, error)
	Invoice(inv *ent.Invoice) (json.RawMessage, error)
}

// Deps are what billing needs.
type Deps struct {
	DB *txn.DB
	// Payments makes and confirms the payments that pay invoices.
	Payments *payments.Service
	// Customers checks a subscription's customer exists.
	Customers *customer.Service
	// Events is the outbox subscription and invoice events are written to.
	Events *events.Service
	// Render gives events their content; without it no events are written.
	Render Renderer
	// Now is the real time (the DB's clock when nil); a subscription on a
	// test clock takes its time from the clock instead.
	Now func() time.Time
	// Dunning is how long after each failed try of a renewal the next one
	// is made (DefaultDunning when nil); after the last the subscription is
	// cancelled.
	Dunning []time.Duration
	// ClaimFor is how long the worker owns an invoice it claimed
	// (DefaultClaimFor when 0): a crash leaves the claim to lapse.
	ClaimFor time.Duration
}

// DefaultDunning retries a failed renewal after 1, 3 and 5 days.
var DefaultDunning = []time.Duration{24 * time.Hour, 3 * 24 * time.Hour, 5 * 24 * time.Hour}

// DefaultClaimFor is ClaimFor's default: far longer than a payment takes.
const DefaultClaimFor = 2 * time.Minute

// Service runs the billing operations.
type Service struct {
	db        *txn.DB
	payments  *payments.Service
	customers *customer.Service
	events    *events.Service
	render    Renderer
	now       func() time.Time
	dunning   []time.Duration
	claimFor  time.Duration
}

// New returns the billing service over d.
func New(d Deps) *Service {
	if d.Now == nil {
		d.Now = func() time.Time { return d.DB.Now() }
	}
	if d.Dunning == nil {
		d.Dunning = DefaultDunning
	}
	if d.ClaimFor <= 0 {
		d.ClaimFor = DefaultClaimFor
	}
	return &Service{db: d.DB, payments: d.Payments, customers: d.Customers, events: d.Events, render: d.Render,
		now: d.Now, dunning: d.Dunning, claimFor: d.ClaimFor}
}

// View is a subscription with its latest invoice and that invoice's payment
// (nil when none).
type View struct {
	Subscription *ent.BillingSubscription
	Invoice      *ent.Invoice
	Payment      *payments.PaymentView
}

// realNow is the real time, truncated to what the database keeps.
func (s *Service) realNow() time.Time { return s.now().UTC().Truncate(time.Microsecond) }

func errSubscriptionNotFound() *errs.Error { return errs.ErrSubscriptionNotFound.New() }

func errStatus(msg string) *errs.Error { return errs.ErrSubscriptionStatusInvalid.Detailf("%s", msg) }
