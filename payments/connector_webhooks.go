package payments

import (
	"context"
	"net/url"

	"switchyard/payments/validate"
)

// webhookEventTypes are Hyperswitch's EventType, which a connector webhook
// registration may name (specific_event).
var webhookEventTypes = validate.NewEnum("EventType", "payment_succeeded", "payment_failed", "payment_processing",
	"payment_cancelled", "payment_cancelled_post_capture", "payment_authorized", "payment_partially_authorized",
	"payment_captured", "payment_expired", "action_required", "refund_succeeded", "refund_failed", "dispute_opened",
	"dispute_expired", "dispute_accepted", "dispute_cancelled", "dispute_challenged", "dispute_won", "dispute_lost",
	"mandate_active", "mandate_revoked", "payout_success", "payout_failed", "payout_initiated", "payout_processing",
	"payout_cancelled", "payout_expired", "payout_reversed", "invoice_paid")

// ConnectorWebhookRegistration is the outcome of registering a connector
// account's webhooks: the URL its connector now sends them to.
type ConnectorWebhookRegistration struct {
	URL string
}

// RegisterConnectorWebhooks is Hyperswitch's "Register a Connector
// Webhook" for the sandbox: the connector account (one of the caller's;
// any other id is HE_02) is marked to have its webhooks sent (see
// connector.Service.RegisterWebhooks) to {PublicURL}/webhooks/{merchant
// id}/{account id}. specificEvent, when given, must be an EventType; the
// sandbox connector registers its endpoint for every event all the same,
// as it has no per-event subscriptions.
func (s *Service) RegisterConnectorWebhooks(ctx context.Context, accountID string, specificEvent *string) (*ConnectorWebhookRegistration, error) {
	if err := webhookEventTypes.Optional("event_type.specific_event", specificEvent); err != nil {
		return nil, err
	}
	row, err := s.connectors.RegisterWebhooks(ctx, accountID)
	if err != nil {
		return nil, err
	}
	return &ConnectorWebhookRegistration{
		URL: s.publicURL + "/webhooks/" + url.PathEscape(row.MerchantID) + "/" + url.PathEscape(row.ID),
	}, nil
}
