// Package payouts is the payout: money sent from a merchant to a card, a
// bank account or a wallet, as Hyperswitch's v1 payouts define it. It owns
// the payout and its attempts (create, update, confirm, fulfil, cancel, the
// list and its filters), the state machine that moves a payout from status
// to status (pure decide functions, decide.go), the connector calls (the
// fulfilment runs through connectorcall.Call: reserve → call → settle →
// recover), the recovery of payouts a crash left initiated, and the events
// each change writes with it (the outbox).
//
// It stands beside payments in the payment layer and never imports it; it
// calls the contexts (connector for the payout processors, customer's
// vault for a payout method between create and confirm) and the kernel.
package payouts

import (
	"encoding/json"
	"time"

	"switchyard/ent"
	"switchyard/internal/secrets"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/events"
	"switchyard/payments/gsm"
	"switchyard/payments/routing"
	"switchyard/payments/txn"
)

// Renderer turns a payout into the JSON GET /payouts/{id} shows, for an
// event's content.object. The REST layer provides it.
type Renderer interface {
	Payout(p *View) (json.RawMessage, error)
}

// Deps are what payout operations need.
type Deps struct {
	DB *txn.DB
	// Box seals a payout method kept between create and confirm.
	Box *secrets.Box
	// Vault keeps a sealed payout method between create and confirm.
	Vault customer.Vault
	// Customers saves a payout's recipient for its customer, and finds a
	// saved one (payout_token).
	Customers *customer.Service
	// Connectors are the connector accounts and their integrations.
	Connectors *connector.Service
	// Routing orders a payout's processors by the profile's active payout
	// routing configuration; without it they go in their fallback order.
	Routing *routing.Service
	// GSM decides which failed creations and fulfilments are retried on
	// the next payout processor; without it none is.
	GSM *gsm.Service
	// Events is the outbox payout events are written to.
	Events *events.Service
	// Render gives events their content; without it no events are written.
	Render Renderer
	// RecoveryAfter is how long an attempt may stay initiated before
	// recovery settles it through the connector's sync.
	RecoveryAfter time.Duration
}

// Service runs the payout operations.
type Service struct {
	db            *txn.DB
	box           *secrets.Box
	vault         customer.Vault
	customers     *customer.Service
	connectors    *connector.Service
	routing       *routing.Service
	gsm           *gsm.Service
	events        *events.Service
	render        Renderer
	recoveryAfter time.Duration
}

// DefaultRecoveryAfter is the recovery window when Deps gives none.
const DefaultRecoveryAfter = 2 * time.Minute

// New returns the payout service over d.
func New(d Deps) *Service {
	if d.RecoveryAfter <= 0 {
		d.RecoveryAfter = DefaultRecoveryAfter
	}
	return &Service{db: d.DB, box: d.Box, vault: d.Vault, customers: d.Customers, connectors: d.Connectors, routing: d.Routing, gsm: d.GSM, events: d.Events,
		render: d.Render, recoveryAfter: d.RecoveryAfter}
}

// View is a payout with what its answer shows: its attempts, newest last.
type View struct {
	Payout   *ent.Payout
	Attempts []*ent.PayoutAttempt
}
