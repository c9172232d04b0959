// Package threedsdecision owns the execution of a merchant's 3-D Secure
// decision rule (Hyperswitch's POST /three_ds_decision/execute): given the
// facts of a payment (amount, currency, card network, issuer, acquirer,
// device), the rule's decision of whether and how to run 3-D Secure.
//
// Switchyard's routing rules decide connectors, not 3-D Secure; no rule it
// keeps yields a 3DS decision, so every rule that exists answers
// Hyperswitch's default, no_three_ds (docs/rest.md).
//
// It must not import another domain package.
package threedsdecision

import (
	"context"

	"switchyard/ent/routingalgorithm"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Service executes decision rules.
type Service struct{ db *txn.DB }

// New returns the service over db.
func New(db *txn.DB) *Service { return &Service{db: db} }

// Decisions are Hyperswitch's ThreeDSDecision values.
const (
	NoThreeDS = "no_three_ds"
)

// Facts are what a rule decides on (ThreeDsDecisionRuleExecuteRequest).
type Facts struct {
	Amount   int64
	Currency string
}

// Execute runs the merchant's rule routingID over facts. A routing id the
// merchant does not have is not found.
func (s *Service) Execute(ctx context.Context, routingID string, facts Facts) (string, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return "", err
	}
	if facts.Amount < 0 {
		return "", errs.InvalidValue("payment.amount", "must not be negative")
	}
	ok, err := s.db.Client.RoutingAlgorithm.Query().Where(routingalgorithm.ID(routingID)).Exist(ctx)
	if err != nil {
		return "", errs.Internal(err)
	}
	if !ok {
		return "", errs.ErrRoutingAlgorithmNotFound.New()
	}
	return NoThreeDS, nil
}
