package rest_test

import (
	"context"
	"encoding/json"
	"testing"

	"switchyard/ent/incomingwebhook"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
)

const webhookSecret = "whsec_sandbox_inbound_secret"

// webhookMerchant is a merchant whose stripe_test account has a webhook
// secret (and the metadata given).
func webhookMerchant(t *testing.T, c *client, id string, metadata map[string]any) sandboxMerchant {
	t.Helper()
	m := newSandboxMerchant(t, c, id, metadata)
	c.do("POST", "/account/"+m.id+"/connectors/"+m.mcaID, m.key, map[string]any{"connector_type": "payment_processor",
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	return m
}

// webhookBody is a sandbox connector event about the object reference.
func webhookBody(t *testing.T, eventID, object, reference string) []byte {
	t.Helper()
	b, err := json.Marshal(connector.WebhookEvent{ID: eventID, Type: object + "_updated",
		Object: connector.WebhookObject(object), Reference: reference})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sendWebhook posts body to the merchant's account with signature.
func sendWebhook(c *client, merchantID, mcaID string, body []byte, signature string) response {
	return c.doWith("POST", "/webhooks/"+merchantID+"/"+mcaID, "", body,
		map[string]string{connector.WebhookSignatureHeader: signature})
}

// processingPayment is a payment the sandbox timed out on (processing),
// and the id of its attempt.
func processingPayment(t *testing.T, c *client, m sandboxMerchant) (string, string) {
	t.Helper()
	r := m.pay(t, c, "4242424242424242", nil)
	if r.str("status") != "processing" {
		t.Fatalf("want processing: %s", r.Raw)
	}
	id := r.str("payment_id")
	got := c.do("GET", "/payments/"+id+"?expand_attempts=true", m.key, nil).must(t, 200)
	attempts := got.list("attempts")
	if len(attempts) != 1 {
		t.Fatalf("attempts: %s", got.Raw)
	}
	return id, attempts[0]["attempt_id"].(string)
}

func paymentStatus(t *testing.T, c *client, m sandboxMerchant, id string) response {
	t.Helper()
	return c.do("GET", "/payments/"+id, m.key, nil).must(t, 200)
}

func receivedWebhooks(t *testing.T, c *client, mcaID string) int {
	t.Helper()
	n, err := c.srv.Store.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorAccountID(mcaID)).
		Count(tenancy.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIncomingWebhookSyncsThePayment: a signed webhook naming a payment the
// connector left processing settles it as the connector's sync answers
// (the sandbox timed out, so failed with timeout), with no sync by the
// client; it is answered with the connector's acknowledgement and recorded
// once; the same event id again changes nothing, even when it names another
// payment.
func TestIncomingWebhookSyncsThePayment(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_inbound_sync", map[string]any{"sandbox": map[string]any{"timeout": true}})
	id, attempt := processingPayment(t, c, m)
	body := webhookBody(t, "evt_sim_1", "payment", attempt)
	r := sendWebhook(c, m.id, m.mcaID, body, connector.SignWebhook(webhookSecret, body)).must(t, 200)
	if string(r.Raw) != "{\"received\":true}\n" {
		t.Fatalf("ack: %q", r.Raw)
	}
	wantFailed(t, paymentStatus(t, c, m, id), "timeout")
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("recorded %d webhooks, want 1", n)
	}

	// A replay: the same event id, this time naming another processing
	// payment, is acknowledged and changes nothing.
	other, otherAttempt := processingPayment(t, c, m)
	replay := webhookBody(t, "evt_sim_1", "payment", otherAttempt)
	sendWebhook(c, m.id, m.mcaID, replay, connector.SignWebhook(webhookSecret, replay)).must(t, 200)
	if s := paymentStatus(t, c, m, other).str("status"); s != "processing" {
		t.Fatalf("a replayed event settled a payment: %s", s)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("recorded %d webhooks after a replay, want 1", n)
	}
	// A new event id for it settles it.
	fresh := webhookBody(t, "evt_sim_2", "payment", otherAttempt)
	sendWebhook(c, m.id, m.mcaID, fresh, connector.SignWebhook(webhookSecret, fresh)).must(t, 200)
	wantFailed(t, paymentStatus(t, c, m, other), "timeout")
}

// TestIncomingWebhookRefusals: a webhook whose source is not verified
// (tampered body, wrong or missing signature, an account with no webhook
// secret) is 401 WE_01 and changes nothing; a verified body that names no
// object is 400 WE_02; an unknown merchant or connector account, or another
// merchant's account, is 404; a reference that names nothing of the
// account is acknowledged and recorded not_found.
func TestIncomingWebhookRefusals(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_inbound_refusals", map[string]any{"sandbox": map[string]any{"timeout": true}})
	bare := newSandboxMerchant(t, c, "merchant_inbound_bare", nil)
	id, attempt := processingPayment(t, c, m)
	body := webhookBody(t, "evt_refused", "payment", attempt)
	sig := connector.SignWebhook(webhookSecret, body)
	tampered := webhookBody(t, "evt_refused", "payment", attempt+"x")
	notJSON := []byte("not json")
	noObject := []byte(`{"id":"evt_x","type":"t","object":"invoice","reference":"r"}`)
	tests := []struct {
		name, merchant, mca string
		body                []byte
		signature           string
		status              int
		code                string
	}{
		{"tampered body", m.id, m.mcaID, tampered, sig, 401, "WE_01"},
		{"wrong secret", m.id, m.mcaID, body, connector.SignWebhook("another", body), 401, "WE_01"},
		{"no signature", m.id, m.mcaID, body, "", 401, "WE_01"},
		{"account without a secret", bare.id, bare.mcaID, body, sig, 401, "WE_01"},
		{"not json", m.id, m.mcaID, notJSON, connector.SignWebhook(webhookSecret, notJSON), 400, "WE_02"},
		{"unknown object", m.id, m.mcaID, noObject, connector.SignWebhook(webhookSecret, noObject), 400, "WE_02"},
		{"unknown merchant", "merchant_inbound_nobody", m.mcaID, body, sig, 404, "HE_02"},
		{"unknown account", m.id, "mca_nothing", body, sig, 404, "HE_02"},
		{"another merchant's account", bare.id, m.mcaID, body, sig, 404, "HE_02"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sendWebhook(c, tt.merchant, tt.mca, tt.body, tt.signature).must(t, tt.status)
			if r.errCode() != tt.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tt.code, r.Raw)
			}
		})
	}
	if s := paymentStatus(t, c, m, id).str("status"); s != "processing" {
		t.Fatalf("a refused webhook settled the payment: %s", s)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 0 {
		t.Fatalf("refused webhooks were recorded: %d", n)
	}

	unknown := webhookBody(t, "evt_unknown_ref", "refund", "sim_ref_nothing")
	sendWebhook(c, m.id, m.mcaID, unknown, connector.SignWebhook(webhookSecret, unknown)).must(t, 200)
	row, err := c.srv.Store.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorEventID("evt_unknown_ref")).
		Only(tenancy.System(context.Background()))
	if err != nil || row.Outcome != incomingwebhook.OutcomeNotFound || row.ObjectID != nil || row.MerchantID != m.id {
		t.Fatalf("recorded %+v (%v)", row, err)
	}
}

// TestIncomingWebhookSyncsThePayout: a webhook naming a payout the sandbox
// left pending syncs it to success, as force_sync would.
func TestIncomingWebhookSyncsThePayout(t *testing.T) {
	c := newClient(t)
	mca := payoutProcessor(t, c, "adyen")
	c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors/"+mca, c.merchantKey(), map[string]any{
		"connector_type":            "payout_processor",
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	p := createPayout(t, c, map[string]any{"payout_type": "card", "payout_method_data": payoutCard("4000000000000259"),
		"confirm": true, "auto_fulfill": true})
	if p.str("status") != "pending" || p.str("connector_transaction_id") == "" {
		t.Fatalf("want pending: %s", p.Raw)
	}
	body := webhookBody(t, "evt_payout_1", "payout", p.str("connector_transaction_id"))
	sendWebhook(c, c.srv.Demo.MerchantID, mca, body, connector.SignWebhook(webhookSecret, body)).must(t, 200)
	if s := payoutStatus(t, c, p.str("payout_id")); s != "success" {
		t.Fatalf("payout after the webhook: %s", s)
	}
}

// TestSandboxSendsItsWebhooks: an account whose sandbox object asks for
// webhooks gets one from the simulator when a payout it left pending
// settles; delivered to Switchyard's own route, signed with the account's
// secret, it settles the payout with no sync by the client. Delivered
// webhooks leave the outbox.
func TestSandboxSendsItsWebhooks(t *testing.T) {
	c := newClient(t)
	mca := payoutProcessorWith(t, c, "adyen", map[string]any{"sandbox": map[string]any{"webhooks": true}})
	c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors/"+mca, c.merchantKey(), map[string]any{
		"connector_type": "payout_processor", "metadata": map[string]any{"sandbox": map[string]any{"webhooks": true}},
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	p := createPayout(t, c, map[string]any{"payout_type": "card", "payout_method_data": payoutCard("4000000000000259"),
		"confirm": true, "auto_fulfill": true})
	if p.str("status") != "pending" {
		t.Fatalf("want pending: %s", p.Raw)
	}
	ctx := context.Background()
	if n, err := c.srv.DeliverSandboxWebhooks(ctx); err != nil || n != 1 {
		t.Fatalf("delivered %d (%v), want 1", n, err)
	}
	if s := payoutStatus(t, c, p.str("payout_id")); s != "success" {
		t.Fatalf("payout after the sandbox's webhook: %s", s)
	}
	if n := receivedWebhooks(t, c, mca); n != 1 {
		t.Fatalf("recorded %d webhooks, want 1", n)
	}
	if n, err := c.srv.DeliverSandboxWebhooks(ctx); err != nil || n != 0 {
		t.Fatalf("a second pass delivered %d (%v)", n, err)
	}
}
