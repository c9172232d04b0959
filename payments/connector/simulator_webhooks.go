package connector

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/payments/errs"
)

// The sandbox connectors' webhooks: what the simulator sends to
// POST /webhooks/{merchant_id}/{merchant_connector_id} when one of its
// transactions changes, how it signs them, and how Switchyard reads them
// back. Like a real connector's, a webhook only names the object that
// changed; what became of it is learnt by syncing it.

// WebhookSignatureHeader carries the lowercase hex HMAC-SHA256 of the exact
// body, keyed with the account's connector_webhook_details.merchant_secret.
const WebhookSignatureHeader = "X-Sandbox-Signature"

// WebhookObject is the kind of object a connector's webhook is about.
type WebhookObject string

// The objects a webhook may name.
const (
	WebhookPayment WebhookObject = "payment"
	WebhookRefund  WebhookObject = "refund"
	WebhookDispute WebhookObject = "dispute"
	WebhookPayout  WebhookObject = "payout"
)

// WebhookEvent is the body of a sandbox webhook. Reference names the
// object: the attempt id for a payment or a payout, the refund's id for a
// refund (the ids Switchyard sent, as Hyperswitch's connectors return the
// PaymentAttemptId and RefundId references, so a webhook finds an object
// whose answer was never recorded), the connector dispute id
// (SandboxDisputeID) for a dispute. Switchyard also takes the connector's
// transaction or refund id (sim_…).
type WebhookEvent struct {
	ID        string        `json:"id"`
	Type      string        `json:"type"`
	Object    WebhookObject `json:"object"`
	Reference string        `json:"reference"`
	Created   time.Time     `json:"created"`
}

// WebhookAck is the body Switchyard answers a connector's webhook with: the
// sandbox connector expects {"received": true}, as Stripe's does.
type WebhookAck struct {
	Received bool `json:"received"`
}

// SignWebhook is the signature of body under secret
// (WebhookSignatureHeader).
func SignWebhook(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// ParseWebhook reads a sandbox webhook body. Anything else is WE_02 naming
// what is missing.
func ParseWebhook(body []byte) (*WebhookEvent, error) {
	var ev WebhookEvent
	if err := json.Unmarshal(body, &ev); err != nil {
		return nil, errs.ErrWebhookBadRequest.Newf("the webhook body is not a sandbox connector event: %v", err)
	}
	switch {
	case strings.TrimSpace(ev.ID) == "":
		return nil, errs.ErrWebhookBadRequest.Newf("the webhook has no id")
	case strings.TrimSpace(ev.Reference) == "":
		return nil, errs.ErrWebhookBadRequest.Newf("the webhook names no object (reference)")
	case len(ev.ID) > 255 || len(ev.Reference) > 255 || len(ev.Type) > 64:
		return nil, errs.ErrWebhookBadRequest.Newf("the webhook's id, reference or type is too long")
	}
	switch ev.Object {
	case WebhookPayment, WebhookRefund, WebhookDispute, WebhookPayout:
	default:
		return nil, errs.ErrWebhookBadRequest.Newf("the webhook's object %q is none of payment, refund, dispute, payout", ev.Object)
	}
	return &ev, nil
}

// VerifiedWebhook is a webhook whose source was verified: the connector
// account it came through and what it says.
type VerifiedWebhook struct {
	Account *ent.MerchantConnectorAccount
	Event   *WebhookEvent
}

// VerifyWebhook checks a webhook sent to the connector account mcaID of
// the merchant in ctx: an unknown or foreign account is 404; an account
// without connector_webhook_details.merchant_secret, or a signature that is
// not the body's under it, is WE_01; a body that is no event is WE_02.
func (s *Service) VerifyWebhook(ctx context.Context, mcaID string, body []byte, signature string) (*VerifiedWebhook, error) {
	row, err := s.db.Client.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ID(mcaID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errAccountNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	if row.ConnectorWebhookDetailsSealed == nil {
		return nil, errs.ErrWebhookAuthenticationFailed.Newf("Webhook authentication failed: the connector account has no connector_webhook_details.merchant_secret")
	}
	details, err := s.webhookDetails(row)
	if err != nil {
		return nil, err
	}
	want := SignWebhook(details.MerchantSecret, body)
	if details.MerchantSecret == "" || !hmac.Equal([]byte(want), []byte(strings.ToLower(strings.TrimSpace(signature)))) {
		return nil, errs.ErrWebhookAuthenticationFailed.New()
	}
	ev, err := ParseWebhook(body)
	if err != nil {
		return nil, err
	}
	return &VerifiedWebhook{Account: row, Event: ev}, nil
}

// SandboxWebhook is a webhook the simulator owes: the connector account it
// is sent through, and the event.
type SandboxWebhook struct {
	AccountID string       `json:"merchant_connector_id"`
	Event     WebhookEvent `json:"event"`
}

// WebhookOutbox keeps the simulator's webhooks until they are delivered
// (internal/redisstore), so a crash between a change and its webhook does
// not lose the webhook.
type WebhookOutbox interface {
	// Queue keeps a webhook, encoded as a SandboxWebhook in JSON, to be
	// sent once due has come.
	Queue(ctx context.Context, webhook []byte, due time.Time) error
}

// webhookChange is one change the simulator tells of: what became
// (Change) of which object (Object, Reference), and when the change
// happens (Due; zero: now, as the call that made it answers). Nth tells
// apart changes of one kind to one object (a payment's second capture, an
// evidence review restarted), so each has its own event id.
type webhookChange struct {
	Object    WebhookObject
	Reference string
	Change    string
	Nth       string
	Due       time.Time
}

// eventID is the change's event id: the same change always has the same
// id, so a webhook sent twice is recognized as a replay.
func (c webhookChange) eventID() string {
	id := "evt_sim_" + c.Change + "_" + c.Reference
	if c.Nth != "" {
		id += "_" + c.Nth
	}
	return id
}

// queueWebhook queues the webhook of change c, when the account's sandbox
// object asks for webhooks (metadata.sandbox.webhooks). A webhook that
// cannot be queued is logged, not an error of the call: the change itself
// is the connector's answer, and a sync still finds it.
func (s *Simulator) queueWebhook(ctx context.Context, acct Account, c webhookChange) {
	if s == nil || s.Webhooks == nil || !acct.Sandbox.Webhooks {
		return
	}
	if c.Due.IsZero() {
		c.Due = s.now()
	}
	w := SandboxWebhook{AccountID: acct.MerchantConnectorAccountID, Event: WebhookEvent{
		ID: c.eventID(), Type: string(c.Object) + "_" + c.Change,
		Object: c.Object, Reference: c.Reference, Created: c.Due.UTC()}}
	b, err := json.Marshal(w)
	if err == nil {
		err = s.Webhooks.Queue(context.WithoutCancel(ctx), b, c.Due)
	}
	if err != nil {
		slog.WarnContext(ctx, "the sandbox could not queue its webhook", "merchant_connector_id", acct.MerchantConnectorAccountID,
			"reference", c.Reference, "err", err)
	}
}

// paymentWebhookChanges are the payment statuses the simulator tells of,
// by the change named in the webhook's type (payment_succeeded, …). A
// payment waiting for its customer is not one: nothing happened yet.
var paymentWebhookChanges = map[Status]string{
	StatusCharged:    "succeeded",
	StatusAuthorized: "authorized",
	StatusFailure:    "failed",
	StatusVoided:     "voided",
}

// paymentChanged tells of the new state st of the account's attempt, and
// of the dispute a successful charge opens (SandboxDisputeID). nth tells
// apart repeated changes of one kind (captures, increments).
func (s *Simulator) paymentChanged(ctx context.Context, acct Account, st *state, nth string) {
	change, ok := paymentWebhookChanges[st.Status]
	if !ok {
		return
	}
	s.queueWebhook(ctx, acct, webhookChange{Object: WebhookPayment, Reference: acct.AttemptID, Change: change, Nth: nth})
	if st.Status == StatusCharged && st.Dispute != nil {
		s.queueWebhook(ctx, acct, webhookChange{Object: WebhookDispute, Reference: SandboxDisputeID(acct.AttemptID), Change: "opened"})
	}
}

// SandboxDisputeID is the connector dispute id of the dispute the sandbox's
// network opens on the attempt attemptID (DisputeAfterSuccess).
func SandboxDisputeID(attemptID string) string { return "sim_dp_" + attemptID }

// WebhookTarget is where and how a sandbox webhook of a connector account
// goes: its merchant (for the URL) and its merchant secret (to sign it).
// An account without connector_webhook_details has none (ok false): its
// webhooks are dropped, as a connector with no endpoint configured sends
// nothing. ctx must be allowed to read any merchant's accounts (the
// delivery worker's system context).
func (s *Service) WebhookTarget(ctx context.Context, mcaID string) (merchantID, secret string, ok bool, err error) {
	row, err := s.db.Client.MerchantConnectorAccount.Get(ctx, mcaID)
	if ent.IsNotFound(err) {
		return "", "", false, nil
	}
	if err != nil {
		return "", "", false, errs.Internal(err)
	}
	if row.ConnectorWebhookDetailsSealed == nil {
		return row.MerchantID, "", false, nil
	}
	details, err := s.webhookDetails(row)
	if err != nil {
		return "", "", false, err
	}
	return row.MerchantID, details.MerchantSecret, details.MerchantSecret != "", nil
}

// webhookDetails opens the account's sealed connector_webhook_details.
func (s *Service) webhookDetails(row *ent.MerchantConnectorAccount) (*WebhookDetails, error) {
	var details WebhookDetails
	if err := s.box.OpenJSON(row.ConnectorWebhookDetailsSealed, []byte(row.ID), &details); err != nil {
		return nil, errs.Internal(fmt.Errorf("open webhook details of %s: %w", row.ID, err))
	}
	return &details, nil
}
