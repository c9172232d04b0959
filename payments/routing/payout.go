package routing

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/routingalgorithm"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Payout routing: a configuration with transaction_type payout chooses
// among the profile's payout processors, is activated into the profile's
// payout slot (payout_routing_algorithm_id) beside the payment one, and
// is evaluated by the same rules, with a payout's facts.

// transactionType reads a configuration's transaction_type: payment when
// not given, payout; three_ds_authentication routing is not served.
func transactionType(given *string) (routingalgorithm.TransactionType, error) {
	if given == nil {
		return routingalgorithm.TransactionTypePayment, nil
	}
	switch t := routingalgorithm.TransactionType(*given); t {
	case routingalgorithm.TransactionTypePayment, routingalgorithm.TransactionTypePayout,
		routingalgorithm.TransactionTypeThreeDsAuthentication:
		return t, nil
	}
	return "", errs.InvalidValue("transaction_type", "must be payment, payout or three_ds_authentication, got %q", *given)
}

// algorithmFor is the transaction type of a new configuration of kind,
// t as given (or payment when not given): a three_ds_decision_rule is for
// three_ds_authentication and nothing else is, since only it decides 3-D
// Secure and it chooses no connector.
func algorithmFor(kind string, t routingalgorithm.TransactionType, given bool) (routingalgorithm.TransactionType, error) {
	threeDS := kind == KindThreeDSDecisionRule
	switch {
	case threeDS && !given:
		return routingalgorithm.TransactionTypeThreeDsAuthentication, nil
	case threeDS && t != routingalgorithm.TransactionTypeThreeDsAuthentication:
		return "", errs.InvalidValue("transaction_type", "a three_ds_decision_rule decides 3-D Secure: its transaction_type is three_ds_authentication, got %q", t)
	case !threeDS && t == routingalgorithm.TransactionTypeThreeDsAuthentication:
		return "", errs.InvalidValue("transaction_type", "three_ds_authentication takes a three_ds_decision_rule algorithm, got %q", kind)
	}
	return t, nil
}

// accountKind names the accounts a configuration of t chooses among.
func accountKind(t routingalgorithm.TransactionType) string {
	if t == routingalgorithm.TransactionTypePayout {
		return "payout processor"
	}
	return "connector account"
}

// profileWithAccountsFor is the profile named (else the caller's or the
// default) and the active accounts a configuration of t may choose.
func (s *Service) profileWithAccountsFor(ctx context.Context, named *string, t routingalgorithm.TransactionType) (*ent.Profile, []*ent.MerchantConnectorAccount, error) {
	if t != routingalgorithm.TransactionTypePayout {
		return s.profileWithAccounts(ctx, named)
	}
	prof, err := txn.Profile(ctx, s.db.Client, named)
	if err != nil {
		return nil, nil, err
	}
	accounts, err := s.db.Client.MerchantConnectorAccount.Query().Where(
		merchantconnectoraccount.ProfileID(prof.ID),
		merchantconnectoraccount.Disabled(false),
		merchantconnectoraccount.StatusEQ(merchantconnectoraccount.StatusActive),
		merchantconnectoraccount.ConnectorTypeEQ(merchantconnectoraccount.ConnectorTypePayoutProcessor),
	).Order(ent.Asc(merchantconnectoraccount.FieldCreatedAt), ent.Asc(merchantconnectoraccount.FieldID)).All(ctx)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return prof, accounts, nil
}

// activeFor is the profile's active configuration of t.
// A 3-D Secure decision rule is never active: it is executed by its id.
func activeFor(prof *ent.Profile, t routingalgorithm.TransactionType) *string {
	switch t {
	case routingalgorithm.TransactionTypePayout:
		return prof.PayoutRoutingAlgorithmID
	case routingalgorithm.TransactionTypeThreeDsAuthentication:
		return nil
	}
	return prof.RoutingAlgorithmID
}

// setActive makes id (nil: none) the profile's active configuration of t.
func setActive(u *ent.ProfileUpdateOne, t routingalgorithm.TransactionType, id *string) *ent.ProfileUpdateOne {
	switch {
	case t == routingalgorithm.TransactionTypePayout && id == nil:
		return u.ClearPayoutRoutingAlgorithmID()
	case t == routingalgorithm.TransactionTypePayout:
		return u.SetPayoutRoutingAlgorithmID(*id)
	case id == nil:
		return u.ClearRoutingAlgorithmID()
	}
	return u.SetRoutingAlgorithmID(*id)
}

// payoutMethods is the payment_method a payout_type is routed as
// (Hyperswitch routes a bank payout as bank_transfer).
var payoutMethods = map[string]string{"card": "card", "bank": "bank_transfer", "wallet": "wallet", "bank_redirect": "bank_redirect"}

// PayoutFacts are a payout's routing facts: its amount and currency, its
// payout_type as payment_method, its payout_method_type as
// payment_method_type, and its business country.
func PayoutFacts(amount int64, currency, payoutType, methodType, businessCountry string) Payment {
	return Payment{Amount: amount, Currency: currency, PaymentMethod: payoutMethods[payoutType],
		PaymentMethodType: methodType, BusinessCountry: businessCountry}
}

// DecidePayout orders accounts (the payout processors that may take a
// payout of profileID, in their fallback order) for po, read through tx:
// the active payout configuration's choices first, as Decide orders a
// payment's, then the rest in their order. split is a draw in [0, 100)
// for a volume split.
func (s *Service) DecidePayout(ctx context.Context, tx *ent.Tx, profileID string, accounts []*ent.MerchantConnectorAccount, po Payment, split int) (*Decision, error) {
	pr, err := s.profileRouting(ctx, tx.Client(), profileID)
	if err != nil {
		return nil, err
	}
	payout := profileRouting{algorithmID: pr.payoutAlgorithmID, algorithm: pr.payoutAlgorithm}
	return payout.decide(accounts, &po, split), nil
}
