// Package customer owns what a merchant keeps of its customers: the
// customers themselves (created on a payment's first use of an id), their
// saved payment methods (masked, fingerprinted, never the card number or
// CVC), the short-lived card vault between a payment's create and its
// confirm, and mandates (set up by a payment, charged by later ones,
// revoked). It also owns what a payment is paid with (PaymentMethodInput)
// and the card data rules applied to it.
//
// It writes its events (mandate_active, mandate_revoked) through the
// outbox in the caller's transaction. It must not import payments (the
// payment calls it, never the reverse) nor another context package, and
// knows neither HTTP nor Redis: the vault's storage is the Vault it is given.
package customer

import (
	"encoding/json"

	"switchyard/internal/secrets"
	"switchyard/payments/events"
	"switchyard/payments/txn"
)

// Service runs the customer operations.
type Service struct {
	db     *txn.DB
	box    *secrets.Box
	vault  Vault
	events *events.Service
	render Renderer
	// ephemeral keeps customers' ephemeral keys; nil serves none (503).
	ephemeral EphemeralKeyStore
}

// Renderer turns a mandate into the JSON the REST API returns for it, so a
// mandate event's content.object is exactly what GET shows. The REST layer
// provides it.
type Renderer interface {
	Mandate(v *MandateView) (json.RawMessage, error)
}

// Deps are what the customer operations need.
type Deps struct {
	DB *txn.DB
	// Box seals vaulted cards and fingerprints saved ones.
	Box *secrets.Box
	// Vault keeps a payment method between create and confirm; nil refuses
	// to vault one (503) and finds none.
	Vault Vault
	// Events is the outbox mandate events are written to.
	Events *events.Service
	// Render gives mandate events their content; without it none are written.
	Render Renderer
	// EphemeralKeys keeps customers' ephemeral keys (Redis).
	EphemeralKeys EphemeralKeyStore
}

// New returns the customer service over d.
func New(d Deps) *Service {
	return &Service{db: d.DB, box: d.Box, vault: d.Vault, events: d.Events, render: d.Render, ephemeral: d.EphemeralKeys}
}
