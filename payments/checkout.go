package payments

import (
	"context"
	"slices"
	"strings"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// What a shopper's browser may read about one payment: Hyperswitch's web
// checkout SDK asks, with the publishable key and the payment's client
// secret, for the methods it may offer, the customer's saved methods, the
// profile's checkout settings and the wallet sessions it may open.

// Checkout is one payment as its checkout page sees it.
type Checkout struct {
	Payment *ent.PaymentIntent
	// Amount is what the customer pays: the order, shipping, tax and surcharge.
	Amount       int64
	Profile      *ent.Profile
	MerchantName string
	// Methods are those the profile's connector accounts enable for the
	// payment's amount, currency and billing country.
	Methods []*connector.EligibleMethod
	// Customer is nil for a guest payment; SavedMethods are its methods.
	Customer     *ent.Customer
	SavedMethods []*ent.PaymentMethod
}

// Checkout reads what a checkout page needs for the payment a client
// secret belongs to. paymentID, when the route names one, must be that
// payment: a secret of another payment tells nothing about either.
func (s *Service) Checkout(ctx context.Context, paymentID, clientSecret string) (*Checkout, error) {
	pi, err := s.paymentOfClientSecret(ctx, clientSecret)
	if err != nil {
		return nil, err
	}
	if paymentID != "" && pi.PaymentID != paymentID {
		return nil, errWrongClientSecret()
	}
	out := &Checkout{Payment: pi, Amount: netAmount(pi)}
	if out.Profile, err = s.db.Client.Profile.Get(ctx, pi.ProfileID); err != nil {
		return nil, errs.Internal(err)
	}
	if out.MerchantName, err = s.merchantName(ctx, pi.MerchantID); err != nil {
		return nil, err
	}
	if out.Methods, err = s.connectors.EligibleMethods(ctx, paymentMethodFilter(pi, connector.MethodFilter{})); err != nil {
		return nil, err
	}
	if out.Customer, out.SavedMethods, err = s.customers.PaymentCustomerMethods(ctx, pi); err != nil {
		return nil, err
	}
	return out, nil
}

// paymentMethodFilter narrows f to what pi can be paid with: its profile's
// accounts, its amount (net of what is already captured), currency and
// billing country, and recurring use when it sets up a mandate.
func paymentMethodFilter(pi *ent.PaymentIntent, f connector.MethodFilter) connector.MethodFilter {
	f.ProfileID = pi.ProfileID
	amount := netAmount(pi)
	f.Amount, f.Currencies = &amount, []string{string(pi.Currency)}
	if b := pi.Billing; b != nil && b.Address != nil && b.Address.Country != nil {
		f.Countries = []string{*b.Address.Country}
	}
	f.Recurring = f.Recurring || pi.MandateData != nil ||
		(pi.SetupFutureUsage != nil && *pi.SetupFutureUsage == paymentintent.SetupFutureUsageOffSession)
	return f
}

func errWrongClientSecret() *errs.Error {
	return errs.ErrClientSecretMismatch.New()
}

// SessionTokensInput asks for the wallet sessions a checkout may open for a
// payment (POST /payments/session_tokens).
type SessionTokensInput struct {
	ClientSecret *string
	// Wallets, when given, are the only wallets the checkout would show.
	Wallets []string
}

// WalletSession is a wallet button the checkout may show for a payment,
// and the connector that takes its payments. The sandbox's sessions are
// simulated: the wallet's token is charged by the sandbox connector.
type WalletSession struct {
	Wallet    string
	Connector string
}

// sessionWallets are the wallets whose buttons open an SDK session.
var sessionWallets = []string{"google_pay", "apple_pay", "paypal"}

// WalletSessions are a payment and the wallet sessions its checkout may
// open: one for each session wallet its profile's connector accounts
// enable for it (narrowed to in.Wallets when given).
type WalletSessions struct {
	Payment *ent.PaymentIntent
	// MerchantName labels the wallet sheet; Total is what the customer
	// pays, in the currency's major unit.
	MerchantName string
	Total        string
	Sessions     []WalletSession
}

// SessionTokens checks the caller may act on the payment (the client
// secret, for a publishable key) and answers its wallet sessions.
func (s *Service) SessionTokens(ctx context.Context, paymentID string, in SessionTokensInput) (*WalletSessions, error) {
	if paymentID == "" {
		return nil, errs.MissingField("payment_id")
	}
	for i, w := range in.Wallets {
		if !validate.PaymentMethodTypes.Has(w) {
			return nil, errs.InvalidValue(validate.Indexed("wallets", i), "unknown payment method type %q", w)
		}
	}
	pi, err := s.clientPayment(ctx, paymentID, in.ClientSecret)
	if err != nil {
		return nil, err
	}
	methods, err := s.connectors.EligibleMethods(ctx, paymentMethodFilter(pi, connector.MethodFilter{}))
	if err != nil {
		return nil, err
	}
	out := &WalletSessions{Payment: pi, Total: validate.MajorUnits(netAmount(pi), string(pi.Currency)), Sessions: []WalletSession{}}
	if out.MerchantName, err = s.merchantName(ctx, pi.MerchantID); err != nil {
		return nil, err
	}
	for _, m := range methods {
		if m.PaymentMethod != "wallet" || !slices.Contains(sessionWallets, m.PaymentMethodType) || len(m.Connectors) == 0 ||
			(len(in.Wallets) > 0 && !slices.Contains(in.Wallets, m.PaymentMethodType)) {
			continue
		}
		out.Sessions = append(out.Sessions, WalletSession{Wallet: m.PaymentMethodType, Connector: m.Connectors[0]})
	}
	return out, nil
}

// CompleteAuthorize is Hyperswitch's POST /payments/{id}/complete_authorize,
// which a checkout calls after the customer's bank (or wallet) page hands
// back. The sandbox's authentication page completes the authorization
// itself, so what is left is to read the payment as its connector now
// sees it: RetrievePayment with a sync.
func (s *Service) CompleteAuthorize(ctx context.Context, paymentID string, clientSecret *string) (*PaymentView, error) {
	return s.RetrievePayment(ctx, paymentID, RetrieveInput{ClientSecret: clientSecret, ForceSync: true})
}

// AuthenticationChallenge is Hyperswitch's POST /payments/{id}/3ds/authentication
// for a payment that waits for the customer's 3-D Secure check: the
// challenge (trans_status C) is the sandbox's authentication page, for an
// external authentication's challenge (next_action three_ds_invoke) with
// its challenge request, else the connector's own (its next_action URL).
// A payment that waits for no check is refused (IR_14 naming its status).
func (s *Service) AuthenticationChallenge(ctx context.Context, paymentID string, clientSecret *string) (*ThreeDSChallenge, error) {
	v, err := s.RetrievePayment(ctx, paymentID, RetrieveInput{ClientSecret: clientSecret})
	if err != nil {
		return nil, err
	}
	if v.Active != nil && waitsForChallenge(v.Intent, v.Active) {
		ids := connector.SandboxThreeDS("", v.Active.ID)
		return &ThreeDSChallenge{TransStatus: connector.ThreeDSChallenge, ACSURL: s.redirectURL(v.Active.ID),
			ACSTransID: ids.ACSTransID, ServerTransID: ids.ServerTransID,
			Version: deref(v.Active.ExternalThreeDsVersion)}, nil
	}
	if v.Intent.Status != paymentintent.StatusRequiresCustomerAction || v.NextActionURL() == "" {
		return nil, ErrUnexpectedState("authenticated", v.Intent.Status,
			[]paymentintent.Status{paymentintent.StatusRequiresCustomerAction})
	}
	return &ThreeDSChallenge{TransStatus: connector.ThreeDSChallenge, ACSURL: v.NextActionURL()}, nil
}

// PollID names the poll of a payment's external authentication, as
// Hyperswitch names it.
func PollID(paymentID string) string { return "external_authentication_" + paymentID }

// PollStatus is GET /poll/status/{poll_id}: pending while the payment still
// waits for its customer, completed once it does not. An id that names no
// payment of the merchant is not found.
func (s *Service) PollStatus(ctx context.Context, pollID string) (string, error) {
	paymentID, ok := strings.CutPrefix(pollID, PollID(""))
	if !ok || paymentID == "" {
		return "", errs.NotFound("Poll")
	}
	pi, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, paymentID)...).Only(ctx)
	if ent.IsNotFound(err) {
		return "", errs.NotFound("Poll")
	}
	if err != nil {
		return "", errs.Internal(err)
	}
	if pi.Status == paymentintent.StatusRequiresCustomerAction {
		return "pending", nil
	}
	return "completed", nil
}

// merchantName is what a checkout calls the merchant: its name, else its id.
func (s *Service) merchantName(ctx context.Context, merchantID string) (string, error) {
	m, err := s.db.Client.MerchantAccount.Get(ctx, merchantID)
	if err != nil {
		return "", errs.Internal(err)
	}
	if m.MerchantName != nil && *m.MerchantName != "" {
		return *m.MerchantName, nil
	}
	return m.ID, nil
}
