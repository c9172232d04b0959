// Package payments is the payment itself, the domain core that rest/ and
// graph/ both call: payment intents and their attempts (create, update,
// confirm, the 3-D Secure page's outcome), captures, cancels, refunds and
// disputes, the payment list, the state machine that moves a payment from
// status to status, and the events each change writes. Each operation runs
// in one database transaction (a connector call sits between two), writes
// its outbox events in that transaction, and returns *errs.Error values
// that the front doors map onto the wire.
//
// It calls the context packages below it (connector for the account that
// serves a payment and its integration, customer for customers, saved cards,
// the vault and mandates, events for the outbox) and the shared kernel
// (errs, txn, validate, cards). It must not know HTTP, GraphQL or Redis,
// and no package below it may import it.
package payments

import (
	"time"

	"switchyard/ent"
	"switchyard/internal/secrets"
	"switchyard/payments/blocklist"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/events"
	"switchyard/payments/files"
	"switchyard/payments/gsm"
	"switchyard/payments/routing"
	"switchyard/payments/txn"
)

// Service runs the payment operations.
type Service struct {
	db         *txn.DB
	box        *secrets.Box
	connectors *connector.Service
	customers  *customer.Service
	routing    *routing.Service
	gsm        *gsm.Service
	blocklist  *blocklist.Service
	events     *events.Service
	publicURL  string
	render     Renderer
	// exportBatch is Deps.ExportBatch.
	exportBatch int
	files       *files.Service
	// responseHashKey opens a profile's payment_response_hash_key.
	responseHashKey func(*ent.Profile) (string, error)
	// recoveryAfter is how long an attempt may stay pending before recovery
	// treats its call as lost.
	recoveryAfter time.Duration
}

// Deps are what payment operations need.
type Deps struct {
	DB *txn.DB
	// Box signs the 3-D Secure page's links.
	Box *secrets.Box
	// Connectors are the connector accounts and the integrations that serve them.
	Connectors *connector.Service
	// Customers are the customers, saved cards, card vault and mandates.
	Customers *customer.Service
	// Routing orders a payment's connector accounts when it names none.
	Routing *routing.Service
	// GSM decides which failed authorizations are retried on the next
	// connector; without it none is.
	GSM *gsm.Service
	// Blocklist refuses, at confirm, a card the merchant has blocked.
	Blocklist *blocklist.Service
	// Events is the outbox payment, refund and dispute events are written to.
	Events *events.Service
	// PublicURL is where customers' browsers reach this server (the 3-D
	// Secure page), without a trailing slash.
	PublicURL string
	// Render gives events their content; without it no events are written.
	Render Renderer
	// RecoveryAfter is how long an attempt may stay pending before recovery
	// settles it (DefaultRecoveryAfter when 0).
	RecoveryAfter time.Duration
	// ResponseHashKey opens a profile's payment_response_hash_key, which
	// signs the query a redirect returns to the shop with; without it none
	// is signed.
	ResponseHashKey func(*ent.Profile) (string, error)
	// ExportBatch is how many payments an export reads at a time
	// (DefaultExportBatch when 0).
	ExportBatch int
	// Files are the uploaded files dispute evidence names.
	Files *files.Service
}

// DefaultRecoveryAfter is RecoveryAfter's default: far longer than any
// connector call takes.
const DefaultRecoveryAfter = 2 * time.Minute

// New returns the payment service over d.
func New(d Deps) *Service {
	if d.RecoveryAfter <= 0 {
		d.RecoveryAfter = DefaultRecoveryAfter
	}
	if d.ExportBatch <= 0 {
		d.ExportBatch = DefaultExportBatch
	}
	return &Service{db: d.DB, box: d.Box, connectors: d.Connectors, customers: d.Customers,
		routing: d.Routing, gsm: d.GSM, blocklist: d.Blocklist, events: d.Events, publicURL: d.PublicURL, render: d.Render, recoveryAfter: d.RecoveryAfter,
		responseHashKey: d.ResponseHashKey, exportBatch: d.ExportBatch, files: d.Files}
}
