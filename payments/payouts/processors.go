package payouts

import (
	"context"
	"math/rand/v2"
	"slices"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/payments/errs"
	"switchyard/payments/routing"
)

// route is the order po's processors are tried in with method m: the
// payout's own routing (names) when it gives one, else the profile's
// active payout routing configuration's choices first, else the fallback
// (processors' order).
func (s *Service) route(ctx context.Context, tx *ent.Tx, po *ent.Payout, m *Method, names []string) ([]*ent.MerchantConnectorAccount, error) {
	accounts, err := s.processors(ctx, tx.Client(), po.ProfileID, m, names)
	if err != nil || len(names) > 0 || s.routing == nil {
		return accounts, err
	}
	facts := routing.PayoutFacts(po.Amount, string(po.Currency), m.Type, m.Subtype, deref(po.BusinessCountry))
	d, err := s.routing.DecidePayout(ctx, tx, po.ProfileID, accounts, facts, rand.IntN(100))
	if err != nil {
		return nil, err
	}
	return d.Candidates, nil
}

// processors are the connector accounts (from the merchant's cached
// configuration, as a payment's) that may take a payout of method
// m, in the order they are tried: the profile's enabled payout processors
// that enable m's payout method (or name no methods), oldest first, or
// those the request names (connector), in its order; a saved method's
// only the account that issued its token.
func (s *Service) processors(ctx context.Context, client *ent.Client, profileID string, m *Method, names []string) ([]*ent.MerchantConnectorAccount, error) {
	pc, err := s.db.ProfileConfig(ctx, client, profileID)
	if err != nil {
		return nil, err
	}
	// The cached configuration is shared: filter a copy of its list.
	accounts := slices.DeleteFunc(slices.Clone(pc.Accounts), func(a *ent.MerchantConnectorAccount) bool {
		return a.ConnectorType != merchantconnectoraccount.ConnectorTypePayoutProcessor || a.Disabled ||
			a.Status != merchantconnectoraccount.StatusActive || !enables(a, m) || (m.AccountID != "" && a.ID != m.AccountID)
	})
	if len(names) > 0 {
		accounts = inNamedOrder(accounts, names)
	}
	if len(accounts) == 0 {
		return nil, errs.ErrNoEligibleConnector.Newf("No payout processor of the profile takes %s payouts: "+
			"add a connector account with connector_type payout_processor", m.Type)
	}
	return accounts, nil
}

// methodFamily is the payment_method a payout type is enabled under.
var methodFamily = map[string]string{"card": "card", "bank": "bank_transfer", "wallet": "wallet", "bank_redirect": "bank_redirect"}

// enables reports whether a enables m's payout method (an account that
// lists no methods takes every one).
func enables(a *ent.MerchantConnectorAccount, m *Method) bool {
	if len(a.PaymentMethodsEnabled) == 0 {
		return true
	}
	for _, pm := range a.PaymentMethodsEnabled {
		if pm["payment_method"] == methodFamily[m.Type] || pm["payment_method"] == m.Type {
			return true
		}
	}
	return false
}

// inNamedOrder keeps the accounts named (by connector name or account
// id), in the names' order.
func inNamedOrder(accounts []*ent.MerchantConnectorAccount, names []string) []*ent.MerchantConnectorAccount {
	var out []*ent.MerchantConnectorAccount
	for _, n := range names {
		for _, a := range accounts {
			if (a.ConnectorName == n || a.ID == n) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}
