// Package threedsdecision owns the execution of a merchant's 3-D Secure
// decision rule (Hyperswitch's POST /three_ds_decision/execute): given the
// facts of a payment (amount, currency, card network, issuer, acquirer,
// device), the decision of the merchant's three_ds_decision_rule of
// whether and how to run 3-D Secure, adjusted for PSD2 as Hyperswitch
// adjusts it.
//
// The rule is a routing configuration, written in the rule language of
// advanced routing: payments/routing stores it, checks it and evaluates
// its statements (one parser, one evaluator for both). This package reads
// the configuration by id and applies what only executing a decision
// means, so it sits above the contexts with the payment operations (it
// imports routing; nothing imports it but the front doors and the wiring;
// docs/architecture.md).
package threedsdecision

import (
	"context"
	"slices"

	"switchyard/ent/routingalgorithm"
	"switchyard/payments/errs"
	"switchyard/payments/routing"
	"switchyard/payments/txn"
)

// Service executes decision rules.
type Service struct{ db *txn.DB }

// New returns the service over db.
func New(db *txn.DB) *Service { return &Service{db: db} }

// Decisions are the two of Hyperswitch's ThreeDSDecision values this package
// answers by itself under PSD2 (a rule may answer any of the six).
const (
	NoThreeDS          = "no_three_ds"
	ChallengeRequested = "challenge_requested"
)

// Facts are what a rule decides on (ThreeDsDecisionRuleExecuteRequest):
// enum values as Hyperswitch spells them, countries by Hyperswitch's name
// or by alpha-2 code; an empty string (or a nil rate) is a fact not given.
type Facts struct {
	Amount            int64
	Currency          string
	CardNetwork       string
	IssuerName        string
	IssuerCountry     string
	AcquirerCountry   string
	AcquirerFraudRate *float64
	DevicePlatform    string
	DeviceType        string
	DisplaySize       string
}

// requestMembers name each rule key's member in the request, for errors.
var requestMembers = map[string]string{"amount": "payment.amount", "currency": "payment.currency",
	"card_network": "payment_method.card_network", "issuer_country": "issuer.country",
	"acquirer_country": "acquirer.country", "acquirer_fraud_rate": "acquirer.fraud_rate",
	"customer_device_platform": "customer_device.platform", "customer_device_type": "customer_device.device_type",
	"customer_device_display_size": "customer_device.display_size"}

// Execute runs the merchant's rule routingID over facts. A routing id the
// merchant does not have is not found; one that is not a
// three_ds_decision_rule is refused.
func (s *Service) Execute(ctx context.Context, routingID string, facts Facts) (string, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return "", err
	}
	pay := routing.Payment{Amount: facts.Amount, Currency: facts.Currency, CardNetwork: facts.CardNetwork,
		IssuerName: facts.IssuerName, IssuerCountry: facts.IssuerCountry, AcquirerCountry: facts.AcquirerCountry,
		AcquirerFraudRate: facts.AcquirerFraudRate, DevicePlatform: facts.DevicePlatform, DeviceType: facts.DeviceType,
		DisplaySize: facts.DisplaySize}
	if err := pay.NormalizeThreeDS(func(key string) string { return requestMembers[key] }); err != nil {
		return "", err
	}
	stored, err := s.db.Client.RoutingAlgorithm.Query().Where(routingalgorithm.ID(routingID)).Only(ctx)
	if err != nil {
		return "", txn.ReadError(err, errs.ErrRoutingAlgorithmNotFound.New)
	}
	if stored.Kind != routingalgorithm.Kind(routing.KindThreeDSDecisionRule) {
		// Hyperswitch fails to read such a configuration as a decision
		// rule and answers 500; the caller named the wrong one.
		return "", errs.InvalidValue("routing_id", "%s is a %s routing configuration, not a %s",
			routingID, stored.Kind, routing.KindThreeDSDecisionRule)
	}
	rule, err := routing.ReadThreeDSRule(stored.Algorithm)
	if err != nil {
		return "", errs.Internal(err) // it was checked when created
	}
	decision, _ := rule.Decide(&pay)
	return underPSD2(decision, pay.IssuerCountry, pay.AcquirerCountry), nil
}

// psd2Countries are the countries (alpha-2) of Hyperswitch's PSD2 region.
var psd2Countries = []string{"AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE",
	"IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"}

// underPSD2 is decision as Hyperswitch answers it: when both the issuer
// and the acquirer are in the PSD2 region, strong authentication is
// mandatory, so no_three_ds becomes challenge_requested; outside it no
// exemption applies, so anything but no_three_ds becomes
// challenge_requested.
func underPSD2(decision, issuerCountry, acquirerCountry string) string {
	if slices.Contains(psd2Countries, issuerCountry) && slices.Contains(psd2Countries, acquirerCountry) {
		if decision == NoThreeDS {
			return ChallengeRequested
		}
		return decision
	}
	if decision == NoThreeDS {
		return decision
	}
	return ChallengeRequested
}
