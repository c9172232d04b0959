// Package inbound owns the webhooks connectors send to Switchyard
// (POST /webhooks/{merchant_id}/{merchant_connector_id}): it verifies each
// one's source with the connector account's webhook secret, records it once
// per connector event id (a replay changes nothing), and syncs the object it
// names through the payments and payouts domains' own sync entry points.
// The webhook is a trigger: what the object becomes is what the connector's
// sync answers, never what the webhook's body says.
//
// It calls payments, payouts and connector; none of them imports it.
package inbound

import (
	"context"
	"errors"

	"switchyard/ent"
	"switchyard/ent/incomingwebhook"
	"switchyard/ent/merchantaccount"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/payouts"
	"switchyard/payments/txn"
)

// Service receives connectors' webhooks.
type Service struct {
	db         *txn.DB
	connectors *connector.Service
	payments   *payments.Service
	payouts    *payouts.Service
}

// Deps are what receiving a webhook needs.
type Deps struct {
	DB         *txn.DB
	Connectors *connector.Service
	Payments   *payments.Service
	Payouts    *payouts.Service
}

// New returns the incoming-webhook service over d.
func New(d Deps) *Service {
	return &Service{db: d.DB, connectors: d.Connectors, payments: d.Payments, payouts: d.Payouts}
}

// Delivery is one webhook as it arrived: the merchant and connector account
// its URL names, its exact body and its signature header.
type Delivery struct {
	MerchantID string
	AccountID  string
	Body       []byte
	Signature  string
}

// Receipt is what became of a webhook.
type Receipt struct {
	// Replayed: the connector sent this event id before; nothing was done.
	Replayed bool
	// ObjectID is the synced object's id (payment_id, refund_id,
	// dispute_id, payout_id); empty when no object has the reference.
	ObjectID string
}

// Receive verifies d, and syncs the object it names unless its event id
// was received before. An unknown merchant or connector account is 404; an
// unverified source WE_01; a body that names no object WE_02. A reference
// that names no object of the account is acknowledged and recorded
// not_found: the connector is not asked to send it again.
func (s *Service) Receive(ctx context.Context, d Delivery) (*Receipt, error) {
	ctx = tenancy.ForMerchant(tenancy.System(ctx), d.MerchantID)
	known, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.ID(d.MerchantID)).Exist(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if !known {
		return nil, errs.NotFound("Merchant account")
	}
	v, err := s.connectors.VerifyWebhook(ctx, d.AccountID, d.Body, d.Signature)
	if err != nil {
		return nil, err
	}
	seen, err := s.db.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorAccountID(v.Account.ID),
		incomingwebhook.ConnectorEventID(v.Event.ID)).Exist(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if seen {
		return &Receipt{Replayed: true}, nil
	}
	// Sync first, record after: a sync is idempotent, so a crash between
	// the two only means the connector's retry syncs again.
	objectID, err := s.sync(ctx, v)
	outcome := incomingwebhook.OutcomeSynced
	if errors.Is(err, errs.ErrNotFound) {
		outcome, err = incomingwebhook.OutcomeNotFound, nil
	}
	if err != nil {
		return nil, err
	}
	create := s.db.Client.IncomingWebhook.Create().SetMerchantID(d.MerchantID).
		SetConnectorAccountID(v.Account.ID).SetConnectorEventID(v.Event.ID).SetEventType(v.Event.Type).
		SetObjectType(incomingwebhook.ObjectType(v.Event.Object)).SetObjectReference(v.Event.Reference).
		SetOutcome(outcome)
	if objectID != "" {
		create.SetObjectID(objectID)
	}
	if err := create.Exec(ctx); ent.IsConstraintError(err) {
		// The same event, received twice at once: the other one recorded it.
		return &Receipt{Replayed: true, ObjectID: objectID}, nil
	} else if err != nil {
		return nil, errs.Internal(err)
	}
	return &Receipt{ObjectID: objectID}, nil
}

// sync syncs the object the verified webhook names, by its domain's entry
// point, and returns the object's id.
func (s *Service) sync(ctx context.Context, v *connector.VerifiedWebhook) (string, error) {
	mca, ref := v.Account.ID, v.Event.Reference
	switch v.Event.Object {
	case connector.WebhookPayment:
		return s.payments.SyncPaymentOfConnector(ctx, mca, ref)
	case connector.WebhookRefund:
		return s.payments.SyncRefundOfConnector(ctx, mca, ref)
	case connector.WebhookDispute:
		return s.payments.DisputeOfConnector(ctx, mca, ref)
	default:
		return s.payouts.SyncOfConnector(ctx, mca, ref)
	}
}
