package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/graph/model"
	"switchyard/internal/tenancy"
	"switchyard/payments/validate"
)

// The hand-written reads of schema.graphql. Tenancy (and the profile a read
// is narrowed to) is applied by the ent interceptors, so a foreign id is
// simply not found: null, never an error that tells it exists.

func (r *Resolver) viewer(ctx context.Context) (*model.Viewer, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok {
		return nil, tenancy.ErrNoPrincipal
	}
	v := &model.Viewer{KeyKind: model.KeyKindMerchant, MerchantID: validate.NonEmpty(p.MerchantID),
		ProfileID: validate.NonEmpty(p.ProfileID), KeyID: validate.NonEmpty(p.KeyID)}
	if p.Kind == tenancy.KindAdmin {
		v.KeyKind = model.KeyKindAdmin
	}
	return v, nil
}

func (r *Resolver) merchantAccount(ctx context.Context) (*ent.MerchantAccount, error) {
	p, _ := tenancy.FromContext(ctx)
	if p.MerchantID == "" {
		return nil, nil
	}
	return selectedOne[ent.MerchantAccount](ctx, r.client.MerchantAccount.Query().Where(merchantaccount.ID(p.MerchantID)))
}

func (r *Resolver) payment(ctx context.Context, paymentID string) (*ent.PaymentIntent, error) {
	pi, err := selectedOne[ent.PaymentIntent](ctx, r.client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)))
	wantConnectorAccounts(ctx, pi)
	return pi, err
}

func (r *Resolver) refund(ctx context.Context, refundID string) (*ent.Refund, error) {
	return selectedOne[ent.Refund](ctx, r.client.Refund.Query().Where(refund.RefundID(refundID)))
}

func (r *Resolver) event(ctx context.Context, eventID string) (*ent.Event, error) {
	return selectedOne[ent.Event](ctx, r.client.Event.Query().Where(event.ID(eventID)))
}

// oneRowQuery is an ent query that can load what the operation selects
// (CollectFields) and read its one row.
type oneRowQuery[T any, Q any] interface {
	CollectFields(ctx context.Context, satisfies ...string) (Q, error)
	Only(ctx context.Context) (*T, error)
}

// selectedOne reads q's one row with the edges the operation selects;
// null when there is no such row.
func selectedOne[T any, Q oneRowQuery[T, Q]](ctx context.Context, q Q) (*T, error) {
	q, err := q.CollectFields(collecting(ctx))
	if err != nil {
		return nil, err
	}
	return nullIfNotFound(q.Only(ctx))
}

// deliveryTask is the outbox task that delivers the event (its state and
// next automatic attempt); nil when the event never had one.
func (r *Resolver) deliveryTask(ctx context.Context, ev *ent.Event) (*ent.WebhookDeliveryTask, error) {
	return nullIfNotFound(ev.QueryDeliveryTask().Only(ctx))
}

// nullIfNotFound turns "no such row" into null.
func nullIfNotFound[T any](v *T, err error) (*T, error) {
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return v, err
}

// paymentConnectorAccount is the account a payment was routed through,
// batched with the others of its page.
func (r *Resolver) paymentConnectorAccount(ctx context.Context, pi *ent.PaymentIntent) (*ent.MerchantConnectorAccount, error) {
	if pi.MerchantConnectorID == nil {
		return nil, nil
	}
	return r.connectorAccount(ctx, *pi.MerchantConnectorID)
}

// connectorAccountDetails are the account's credentials as the domain
// shows them: masked.
func (r *Resolver) connectorAccountDetails(obj *ent.MerchantConnectorAccount) (map[string]any, error) {
	v, err := r.connectors.View(obj)
	if err != nil {
		return nil, err
	}
	return v.AccountDetails, nil
}

// webhookSettings maps a profile's webhook details; the password is only
// said to be there.
func webhookSettings(p *ent.Profile) *model.WebhookSettings {
	out := &model.WebhookSettings{DeliveryEnabled: true, PaymentStatusesEnabled: []string{},
		RefundStatusesEnabled: []string{}, PayoutStatusesEnabled: []string{}, EnabledEventTypes: []string{}}
	d := p.WebhookDetails
	if d == nil {
		return out
	}
	out.WebhookURL = d.WebhookURL
	out.DeliveryEnabled = !d.DeliveryDisabled
	out.WebhookVersion = d.WebhookVersion
	out.WebhookUsername = d.WebhookUsername
	out.HasWebhookPassword = d.WebhookPassword != nil && *d.WebhookPassword != ""
	for dst, src := range map[*[]string][]string{
		&out.PaymentStatusesEnabled: d.PaymentStatusesEnabled, &out.RefundStatusesEnabled: d.RefundStatusesEnabled,
		&out.PayoutStatusesEnabled: d.PayoutStatusesEnabled, &out.EnabledEventTypes: d.EnabledEventTypes,
	} {
		if src != nil {
			*dst = src
		}
	}
	return out
}
