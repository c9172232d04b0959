package connector

import (
	"log/slog"

	"switchyard/ent"
	"switchyard/internal/secrets"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Service runs the connector-account operations, and resolves an account to
// the integration that serves it.
type Service struct {
	db       *txn.DB
	box      *secrets.Box
	registry *Registry
}

// Deps are what the connector-account operations need.
type Deps struct {
	DB *txn.DB
	// Box seals the accounts' credentials and secrets.
	Box *secrets.Box
	// Registry resolves a connector name to its integration; nil means the
	// sandbox registry (a Simulator on the wall clock).
	Registry *Registry
}

// New returns the connector-account service over d.
func New(d Deps) *Service {
	if d.Registry == nil {
		d.Registry = NewRegistry(nil)
	}
	return &Service{db: d.DB, box: d.Box, registry: d.Registry}
}

// Integration returns the connector that serves a connector account, and
// the account as a connector call about attemptID of paymentID takes it
// (credentials opened).
func (s *Service) Integration(mca *ent.MerchantConnectorAccount, paymentID, attemptID string) (Connector, Account, error) {
	conn, err := s.registry.For(mca.ConnectorName)
	if err != nil {
		return nil, Account{}, errs.Internal(err)
	}
	creds, err := s.Credentials(mca)
	if err != nil {
		return nil, Account{}, err
	}
	sandbox, err := ParseSandboxFailures(mca.Metadata)
	if err != nil {
		// Only a row stored before the sandbox object was checked can hold
		// a bad one: the account is served as if it had none.
		slog.Warn("a connector account's metadata.sandbox is invalid and is ignored", "merchant_connector_id", mca.ID, "err", err)
	}
	return conn, Account{
		ConnectorName:              mca.ConnectorName,
		MerchantConnectorAccountID: mca.ID,
		Credentials:                creds,
		PaymentID:                  paymentID,
		AttemptID:                  attemptID,
		Sandbox:                    sandbox,
	}, nil
}
