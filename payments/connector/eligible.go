package connector

import (
	"context"
	"slices"

	"switchyard/ent/merchantconnectoraccount"
	"switchyard/payments/errs"
)

// Which payment methods a checkout may offer: those the merchant's active
// connector accounts enable (payment_methods_enabled), for the payment's
// amount, currency and country, as Hyperswitch's
// GET /account/payment_methods lists them.

// MethodFilter narrows the eligible methods; a nil member does not.
type MethodFilter struct {
	// ProfileID, when set, keeps the accounts of that profile only.
	ProfileID string
	Amount    *int64
	// Currencies and Countries, when given, keep the types that accept at
	// least one of them.
	Currencies []string
	Countries  []string
	// Recurring and Installment, when true, keep the types that allow it.
	Recurring   bool
	Installment bool
	// CardNetworks, when given, keeps the card networks among them.
	CardNetworks []string
}

// EligibleMethod is one payment method type a checkout may offer, with the
// card networks (for cards) and the connectors that take it.
type EligibleMethod struct {
	PaymentMethod     string
	PaymentMethodType string
	PaymentExperience []string
	// CardNetworks are the networks and, for each, the connectors that
	// take it; empty for methods that are not cards.
	CardNetworks map[string][]string
	Connectors   []string
	// RequiredFields are, for each connector, the billing fields the
	// checkout asks for before it pays that way (RequiredFields); a
	// connector that asks for none has no entry.
	RequiredFields map[string][]string
}

// EligibleMethods lists the payment method types the caller's active
// connector accounts enable for f, in the accounts' order, each once.
func (s *Service) EligibleMethods(ctx context.Context, f MethodFilter) ([]*EligibleMethod, error) {
	q := connectorAccounts(ctx, s.db.Client.MerchantConnectorAccount).
		Where(merchantconnectoraccount.Disabled(false),
			merchantconnectoraccount.ConnectorTypeEQ(merchantconnectoraccount.ConnectorTypePaymentProcessor))
	if f.ProfileID != "" {
		q = q.Where(merchantconnectoraccount.ProfileID(f.ProfileID))
	}
	rows, err := q.Order(merchantconnectoraccount.ByCreatedAt(), merchantconnectoraccount.ByID()).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	var out []*EligibleMethod
	index := map[[2]string]*EligibleMethod{}
	for _, row := range rows {
		enabled, err := fromJSON[[]PaymentMethodsEnabled](row.PaymentMethodsEnabled)
		if err != nil {
			return nil, errs.Internal(err)
		}
		for _, pm := range enabled {
			for _, t := range pm.PaymentMethodTypes {
				if !t.allows(f) {
					continue
				}
				key := [2]string{pm.PaymentMethod, t.PaymentMethodType}
				m := index[key]
				if m == nil {
					m = &EligibleMethod{PaymentMethod: pm.PaymentMethod, PaymentMethodType: t.PaymentMethodType,
						CardNetworks: map[string][]string{}, RequiredFields: map[string][]string{}}
					index[key] = m
					out = append(out, m)
				}
				if !slices.Contains(m.Connectors, row.ConnectorName) {
					m.Connectors = append(m.Connectors, row.ConnectorName)
				}
				if required := RequiredFields(row, pm.PaymentMethod); len(required) > 0 {
					m.RequiredFields[row.ConnectorName] = MergeFields(m.RequiredFields[row.ConnectorName], required)
				}
				if t.PaymentExperience != nil && !slices.Contains(m.PaymentExperience, string(*t.PaymentExperience)) {
					m.PaymentExperience = append(m.PaymentExperience, string(*t.PaymentExperience))
				}
				for _, n := range t.CardNetworks {
					network := string(n)
					if len(f.CardNetworks) > 0 && !slices.Contains(f.CardNetworks, network) {
						continue
					}
					if !slices.Contains(m.CardNetworks[network], row.ConnectorName) {
						m.CardNetworks[network] = append(m.CardNetworks[network], row.ConnectorName)
					}
				}
			}
		}
	}
	return out, nil
}

// allows reports whether the type takes a payment that f describes.
func (t RequestPaymentMethodTypes) allows(f MethodFilter) bool {
	if f.Amount != nil && ((t.MinimumAmount != nil && *f.Amount < *t.MinimumAmount) ||
		(t.MaximumAmount != nil && *f.Amount > *t.MaximumAmount)) {
		return false
	}
	if f.Recurring && (t.RecurringEnabled == nil || !*t.RecurringEnabled) {
		return false
	}
	if f.Installment && (t.InstallmentPaymentEnabled == nil || !*t.InstallmentPaymentEnabled) {
		return false
	}
	if len(f.Currencies) > 0 && t.AcceptedCurrencies != nil &&
		!acceptsAny(t.AcceptedCurrencies.Type, t.AcceptedCurrencies.listed(), f.Currencies) {
		return false
	}
	return len(f.Countries) == 0 || t.AcceptedCountries == nil ||
		acceptsAny(t.AcceptedCountries.Type, t.AcceptedCountries.listed(), f.Countries)
}

// acceptsAny applies an accepted_currencies / accepted_countries kind and
// list: whether it accepts at least one of values.
func acceptsAny(kind string, list, values []string) bool {
	for _, v := range values {
		listed := slices.Contains(list, v)
		if kind == AcceptAll || kind == "" || (kind == AcceptEnableOnly && listed) || (kind == AcceptDisableOnly && !listed) {
			return true
		}
	}
	return false
}

// SandboxMethods are the payment methods the simulator serves, as a
// sandbox connector account enables them: cards of the networks it knows,
// and the redirect methods (wallets, pay later, bank redirects, UPI).
func SandboxMethods() []PaymentMethodsEnabled {
	networks := []CardNetwork{"Visa", "Mastercard", "AmericanExpress", "JCB", "DinersClub", "Discover", "UnionPay"}
	redirect := PaymentExperience("redirect_to_url")
	yes := true
	card := func(t string) RequestPaymentMethodTypes {
		return RequestPaymentMethodTypes{PaymentMethodType: t, CardNetworks: networks, RecurringEnabled: &yes}
	}
	redirected := func(types ...string) []RequestPaymentMethodTypes {
		out := make([]RequestPaymentMethodTypes, len(types))
		for i, t := range types {
			out[i] = RequestPaymentMethodTypes{PaymentMethodType: t, PaymentExperience: &redirect}
		}
		return out
	}
	return []PaymentMethodsEnabled{
		{PaymentMethod: "card", PaymentMethodTypes: []RequestPaymentMethodTypes{card("credit"), card("debit")}},
		{PaymentMethod: "wallet", PaymentMethodTypes: redirected("apple_pay", "google_pay", "paypal")},
		{PaymentMethod: "pay_later", PaymentMethodTypes: redirected("klarna", "affirm", "afterpay_clearpay")},
		{PaymentMethod: "bank_redirect", PaymentMethodTypes: redirected("ideal", "sofort", "eps", "giropay")},
		{PaymentMethod: "upi", PaymentMethodTypes: []RequestPaymentMethodTypes{{PaymentMethodType: "upi_collect"}}},
	}
}
