// Package rest is the Hyperswitch-compatible REST API: routes, wire types,
// auth headers and the error envelope. Handlers decode, authenticate, call one
// domain operation and encode its result (respond, withBody: api.go); they
// hold no business rules, and the domain packages must not import this one.
package rest

import (
	"net/http"

	"switchyard/internal/auth"
	"switchyard/internal/idempotency"
	"switchyard/payments"
	"switchyard/payments/acquirers"
	"switchyard/payments/authentication"
	"switchyard/payments/blocklist"
	"switchyard/payments/cardissuers"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/events"
	"switchyard/payments/files"
	"switchyard/payments/gsm"
	"switchyard/payments/inbound"
	"switchyard/payments/merchant"
	"switchyard/payments/payouts"
	"switchyard/payments/relay"
	"switchyard/payments/routing"
	"switchyard/payments/subscriptions"
	"switchyard/payments/threedsdecision"
)

// Deps is what the REST layer needs: the domain services it calls, and
// what authenticates and deduplicates requests.
type Deps struct {
	Payments *payments.Service
	Payouts  *payouts.Service
	// Billing is subscriptions, invoices and test clocks.
	Billing    *subscriptions.Service
	Merchants  *merchant.Service
	Connectors *connector.Service
	Customers  *customer.Service
	Routing    *routing.Service
	GSM        *gsm.Service
	Blocklist  *blocklist.Service
	// CardIssuers is the global catalogue of card issuer names.
	CardIssuers *cardissuers.Service
	// Acquirers are the profiles' acquirer configurations.
	Acquirers *acquirers.Service
	// ThreeDSDecision executes 3-D Secure decision rules.
	ThreeDSDecision *threedsdecision.Service
	Events          *events.Service
	Auth            *auth.Authenticator
	// Idempotency keeps Idempotency-Key records (Redis). Nil refuses every
	// request that carries the header with 503.
	Idempotency *idempotency.Store
	// Ready lists the dependencies /health/ready probes, by name.
	Ready map[string]Checker
	// Webhooks sends manual retries of events.
	Webhooks Retrier
	// SDKURL is where payment link pages load Hyperswitch's checkout SDK.
	SDKURL string

	// Authentications runs external 3-D Secure (/authentication).
	Authentications *authentication.Service

	// Inbound receives connectors' webhooks (/webhooks/…).
	Inbound *inbound.Service
	// Relay sends refunds for payments made outside Switchyard (/relay).
	Relay *relay.Service
	// Files are uploaded files (/files).
	Files *files.Service
}

// Register adds the REST routes to mux.
func Register(mux *http.ServeMux, d Deps) {
	mux.HandleFunc("GET /health", healthHandler)
	mux.HandleFunc("GET /health/ready", readyHandler(d.Ready))
	a := &api{mux: mux, auth: d.Auth, idem: d.Idempotency}
	registerAPIKeys(a, d.Merchants)
	registerAccounts(a, d.Merchants)
	registerOrganizations(a, d.Merchants)
	registerProfiles(a, d.Merchants)
	registerConnectors(a, d.Connectors)
	registerConnectorWebhooks(a, d.Payments)
	registerRefunds(a, d.Payments)
	registerDisputes(a, d.Payments)
	registerFiles(a, d.Files)
	registerMandates(a, d.Customers)
	registerCustomers(a, d.Customers)
	registerV2Customers(a, d.Customers)
	registerPaymentMethods(a, d.Customers, d.Payments)
	registerSavingPaymentMethods(a, d.Customers, d.Payments)
	registerV2PaymentMethods(a, d.Customers, d.Payments)
	registerV2Payments(a, d.Payments)
	registerPayments(a, d.Payments)
	registerPaymentAuthorization(a, d.Payments)
	registerCheckout(a, d.Payments)
	registerPaymentLinks(a, d.Payments, d.SDKURL)
	registerRouting(a, d.Routing)
	registerGSM(a, d.GSM)
	registerBlocklist(a, d.Blocklist)
	registerCardIssuers(a, d.CardIssuers)
	registerProfileAcquirers(a, d.Acquirers)
	registerThreeDSDecision(a, d.ThreeDSDecision)
	registerDynamicRouting(a, d.Routing)
	registerPaymentsList(a, d.Payments)
	registerPayouts(a, d.Payouts)
	registerSubscriptions(a, d.Billing)
	registerAuthentications(a, d.Authentications)
	registerIncomingWebhooks(a, d.Inbound)
	registerRelay(a, d.Relay)
	registerEvents(a, d.Events, d.Webhooks)
	registerNotSupported(mux)
	setDefaultPaymentMethod := defaultPaymentMethodRoute(a, d.Customers)
	mux.HandleFunc("GET /openapi.json", openAPIHandler(mux, func(method, path string) bool {
		return method == http.MethodPost && defaultPaymentMethodPath.MatchString(path)
	}))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if setDefaultPaymentMethod(w, r) {
			return
		}
		if allowsOtherMethod(mux, r) {
			WriteError(w, r, errs.MethodNotAllowed())
			return
		}
		WriteError(w, r, errs.UnrecognizedURL())
	})
}

// allowsOtherMethod reports whether some route matches r's path with
// another method, which makes r a 405 rather than a 404.
func allowsOtherMethod(mux *http.ServeMux, r *http.Request) bool {
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method {
			continue
		}
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := mux.Handler(probe); pattern != "" && pattern != "/" {
			return true
		}
	}
	return false
}
