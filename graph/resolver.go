package graph

import (
	"context"

	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/ent"
	"switchyard/ent/apikey"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/capture"
	"switchyard/ent/coupon"
	"switchyard/ent/customer"
	"switchyard/ent/dispute"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/gsmrule"
	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/invoice"
	"switchyard/ent/itemprice"
	"switchyard/ent/mandate"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/ent/profile"
	"switchyard/ent/refund"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/subscriptionitem"
	"switchyard/ent/testclock"
	"switchyard/graph/cursors"
	"switchyard/internal/auth"
	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/payments"
	"switchyard/payments/analytics"
	"switchyard/payments/blocklist"
	"switchyard/payments/connector"
	customers "switchyard/payments/customer"
	"switchyard/payments/events"
	"switchyard/payments/gsm"
	"switchyard/payments/merchant"
	"switchyard/payments/payouts"
	"switchyard/payments/routing"
	"switchyard/payments/subscriptions"
	"switchyard/payments/users"
)

// Resolver is the root resolver; it holds what the resolvers share.
type Resolver struct {
	client     *ent.Client
	cursors    *cursors.Store
	svc        *payments.Service
	payouts    *payouts.Service
	subs       *subscriptions.Service
	merchants  *merchant.Service
	connectors *connector.Service
	customers  *customers.Service
	events     *events.Service
	routing    *routing.Service
	gsm        *gsm.Service
	blocklist  *blocklist.Service
	users      *users.Service
	analytics  *analytics.Service
	idem       *idempotency.Store
	webhooks   Retrier
	publicURL  string
	exports    ExportGrants
	live       LiveFeed
	liveOpts   Options // the limits paymentUpdated applies
}

// Retrier sends an event again now (the webhook worker's manual retry).
type Retrier interface {
	Retry(ctx context.Context, eventID string) (*ent.EventDeliveryAttempt, error)
	// RequeueFailed makes the failed deliveries of the merchant in ctx (of
	// one profile, when given) due now; it answers how many.
	RequeueFailed(ctx context.Context, profileID string) (int, error)
}

// Deps are what the GraphQL API is served from: reads go to ent, writes to
// the domain core, as REST's do.
type Deps struct {
	Client   *ent.Client
	Cursors  *cursors.Store
	Auth     *auth.Authenticator
	Payments *payments.Service
	// Payouts runs the payout mutations; nil refuses them.
	Payouts    *payouts.Service
	Merchants  *merchant.Service
	Connectors *connector.Service
	Customers  *customers.Service
	Events     *events.Service
	Routing    *routing.Service
	// GSM changes the merchant's GSM rules.
	GSM *gsm.Service
	// Blocklist changes the merchant's blocklist and its guard.
	Blocklist *blocklist.Service
	// Users signs dashboard users in and says what their roles allow.
	Users     *users.Service
	Analytics *analytics.Service
	// Idempotency keeps the mutations' idempotency keys; nil refuses every
	// mutation that carries one (fail closed), as REST does.
	Idempotency *idempotency.Store
	// Webhooks retries deliveries; nil refuses retryWebhookDelivery.
	Webhooks Retrier
	// Live says which payments change, for subscriptions; nil refuses them.
	Live LiveFeed
	// PublicURL is where browsers reach this server (no trailing slash):
	// invitation links and export downloads point there.
	PublicURL string
	// Exports keeps the one-time download grants of payment exports; nil
	// refuses createPaymentExport.
	Exports ExportGrants
	// Subscriptions runs the billing mutations; nil refuses them.
	Subscriptions *subscriptions.Service
}

// NewResolver returns the root resolver over d.
func NewResolver(d Deps) *Resolver {
	return &Resolver{client: d.Client, cursors: d.Cursors, svc: d.Payments, payouts: d.Payouts, subs: d.Subscriptions, merchants: d.Merchants,
		connectors: d.Connectors, customers: d.Customers, events: d.Events, routing: d.Routing, gsm: d.GSM, blocklist: d.Blocklist, users: d.Users, analytics: d.Analytics, idem: d.Idempotency, webhooks: d.Webhooks,
		publicURL: d.PublicURL, exports: d.Exports, live: d.Live, liveOpts: DefaultOptions()}
}

// tableByPrefix maps an id prefix to its table, because entgql cannot tell
// the table from a string id by itself. Merchant ids are chosen by the admin
// and have no fixed prefix, so anything unknown is looked up as a merchant.
var tableByPrefix = map[string]string{
	ids.Payment:                  paymentintent.Table,
	ids.Attempt:                  paymentattempt.Table,
	ids.Capture:                  capture.Table,
	ids.IncrementalAuthorization: incrementalauthorization.Table,
	ids.Refund:                   refund.Table,
	ids.Dispute:                  dispute.Table,
	ids.Mandate:                  mandate.Table,
	ids.Customer:                 customer.Table,
	ids.ConnectorAccount:         merchantconnectoraccount.Table,
	ids.Event:                    event.Table,
	ids.DeliveryAttempt:          eventdeliveryattempt.Table,
	ids.PaymentMethod:            paymentmethod.Table,
	ids.Profile:                  profile.Table,
	ids.APIKey:                   apikey.Table,
	ids.RoutingAlgorithm:         routingalgorithm.Table,
	ids.GsmRule:                  gsmrule.Table,
	ids.Payout:                   payout.Table,
	ids.PayoutAttempt:            payoutattempt.Table,
	ids.SubscriptionItem:         subscriptionitem.Table,
	ids.ItemPrice:                itemprice.Table,
	ids.Coupon:                   coupon.Table,
	ids.Subscription:             billingsubscription.Table,
	ids.Invoice:                  invoice.Table,
	ids.TestClock:                testclock.Table,
}

func nodeType(_ context.Context, id string) (string, error) {
	if t, ok := tableByPrefix[ids.PrefixOf(id)]; ok {
		return t, nil
	}
	return merchantaccount.Table, nil
}

// node resolves one id; an unknown or foreign id is null, not an error, so
// node(id:) never tells whether another merchant's object exists.
func (r *Resolver) node(ctx context.Context, id string) (ent.Noder, error) {
	n, err := r.client.Noder(collecting(ctx), id, ent.WithNodeType(nodeType))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if pi, ok := n.(*ent.PaymentIntent); ok {
		wantConnectorAccounts(ctx, pi)
	}
	return n, err
}

func (r *Resolver) nodes(ctx context.Context, list []string) ([]ent.Noder, error) {
	if len(list) > MaxPageSize {
		return nil, gqlerror.Errorf("`ids` may hold at most %d ids", MaxPageSize)
	}
	out := make([]ent.Noder, len(list))
	for i, id := range list {
		n, err := r.node(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}
