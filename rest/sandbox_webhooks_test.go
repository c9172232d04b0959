package rest_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"switchyard/ent/incomingwebhook"
	"switchyard/ent/refund"
	"switchyard/internal/redisstore"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
)

// The sandbox sending its own payment, refund and dispute webhooks
// (docs/sandbox.md#webhooks-from-the-sandbox), end to end: the simulator
// queues them in its Redis outbox, the delivery pass posts them, signed, to
// this server's POST /webhooks/{merchant_id}/{merchant_connector_id}, and the
// object they name moves with no sync by the client.

// simOutbox is the sandbox's outbox of the server's database.
func simOutbox(c *client) *redisstore.SimulatorWebhooks {
	return redisstore.NewSimulatorWebhooks(c.srv.Redis.Client, c.srv.Config.Database.Identity(), nil)
}

// outboxed are the webhooks the sandbox's outbox holds for the connector
// account mcaID, due or not.
func outboxed(t *testing.T, c *client, mcaID string) []connector.SandboxWebhook {
	t.Helper()
	members, err := simOutbox(c).Owed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []connector.SandboxWebhook
	for _, m := range members {
		var w connector.SandboxWebhook
		if err := json.Unmarshal(m, &w); err != nil {
			t.Fatalf("outbox member %q: %v", m, err)
		}
		if w.AccountID == mcaID {
			out = append(out, w)
		}
	}
	return out
}

// outboxedOf is the one webhook of ws whose event type is typ.
func outboxedOf(t *testing.T, ws []connector.SandboxWebhook, typ string) connector.SandboxWebhook {
	t.Helper()
	i := slices.IndexFunc(ws, func(w connector.SandboxWebhook) bool { return w.Event.Type == typ })
	if i < 0 {
		t.Fatalf("no %s webhook queued: %+v", typ, ws)
	}
	return ws[i]
}

// deliverPass runs one pass of the sandbox's webhook sender.
func deliverPass(t *testing.T, c *client) {
	t.Helper()
	if _, err := c.srv.DeliverSandboxWebhooks(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// redeliver puts ws back in the outbox, due at once, and runs a pass: the
// connector sending the same webhooks again.
func redeliver(t *testing.T, c *client, ws ...connector.SandboxWebhook) {
	t.Helper()
	for _, w := range ws {
		b, err := json.Marshal(w)
		if err != nil {
			t.Fatal(err)
		}
		if err := simOutbox(c).Queue(context.Background(), b, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	deliverPass(t, c)
}

// count is how many times s occurs in list.
func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

// TestSandboxWebhookSettlesAPayment: a payment the sandbox left processing
// (it timed out) is settled failed by the sandbox's payment_failed webhook,
// with its payment_failed event written once; the same webhook sent again
// changes nothing. A payment the sandbox settled at once gets its webhook
// too, which changes nothing.
func TestSandboxWebhookSettlesAPayment(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_simhooks_payment", map[string]any{"sandbox": map[string]any{"timeout": true, "webhooks": true}})
	id, attempt := processingPayment(t, c, m)
	ws := outboxed(t, c, m.mcaID)
	if len(ws) != 1 || ws[0].Event.ID != "evt_sim_failed_"+attempt || ws[0].Event.Type != "payment_failed" ||
		ws[0].Event.Object != connector.WebhookPayment || ws[0].Event.Reference != attempt {
		t.Fatalf("queued: %+v", ws)
	}
	before := eventsOf(t, c, id)
	deliverPass(t, c)
	wantFailed(t, paymentStatus(t, c, m, id), "timeout")
	after := eventsOf(t, c, id)
	if len(after) != len(before)+1 || count(after, "payment_failed") != 1 {
		t.Fatalf("events %v, then %v", before, after)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("recorded %d webhooks, want 1", n)
	}
	if left := outboxed(t, c, m.mcaID); len(left) != 0 {
		t.Fatalf("a delivered webhook stayed queued: %+v", left)
	}

	redeliver(t, c, ws...)
	wantFailed(t, paymentStatus(t, c, m, id), "timeout")
	if again := eventsOf(t, c, id); len(again) != len(after) {
		t.Fatalf("a redelivered webhook wrote events: %v", again)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("a redelivered webhook was recorded again: %d", n)
	}

	m.setMetadata(t, c, map[string]any{"sandbox": map[string]any{"webhooks": true}}).must(t, 200)
	paid := m.pay(t, c, "4242424242424242", nil)
	if paid.str("status") != "succeeded" {
		t.Fatalf("payment: %s", paid.Raw)
	}
	outboxedOf(t, outboxed(t, c, m.mcaID), "payment_succeeded")
	deliverPass(t, c)
	if evs := eventsOf(t, c, paid.str("payment_id")); len(evs) != 1 || evs[0] != "payment_succeeded" {
		t.Fatalf("events of a payment settled at once, after its webhook: %v", evs)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 2 {
		t.Fatalf("recorded %d webhooks, want 2", n)
	}
}

// TestSandboxWebhookSettlesARefund: a refund whose answer was never
// recorded (a crash between the sandbox's answer and the write: pending,
// no connector refund id, no event) is settled succeeded by the sandbox's
// refund_succeeded webhook, which names it by the id Switchyard sent, with
// its refund_succeeded event once; sent again it changes nothing.
func TestSandboxWebhookSettlesARefund(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_simhooks_refund", map[string]any{"sandbox": map[string]any{"webhooks": true}})
	id := m.pay(t, c, "4242424242424242", nil).str("payment_id")
	refundID := c.do("POST", "/refunds", m.key, map[string]any{"payment_id": id, "amount": 1000,
		"refund_id": "merchant_ref_simhooks"}).must(t, 200).str("refund_id")
	ctx, db := systemDB(c)
	ref, err := db.Refund.Query().Where(refund.RefundID(refundID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.Update().SetStatus(refund.StatusPending).ClearConnectorRefundID().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	dropEvents(t, c, intentOf(t, c, id))
	w := outboxedOf(t, outboxed(t, c, m.mcaID), "refund_succeeded")
	if w.Event.Object != connector.WebhookRefund || w.Event.Reference != ref.ID || w.Event.ID != "evt_sim_succeeded_"+ref.ID {
		t.Fatalf("refund webhook: %+v", w)
	}

	deliverPass(t, c)
	if r := c.do("GET", "/refunds/"+refundID, m.key, nil).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("refund after the sandbox's webhook: %s", r.Raw)
	}
	if evs := eventsOf(t, c, id); len(evs) != 1 || evs[0] != "refund_succeeded" {
		t.Fatalf("events: %v", evs)
	}
	redeliver(t, c, w)
	if r := c.do("GET", "/refunds/"+refundID, m.key, nil).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("refund after a redelivery: %s", r.Raw)
	}
	if evs := eventsOf(t, c, id); len(evs) != 1 {
		t.Fatalf("events after a redelivery: %v", evs)
	}
}

// TestSandboxWebhookDecidesADispute: the dispute the sandbox's network
// opens with a charge is told by a dispute_opened webhook (found, nothing
// to change); evidence puts it under review, and the decision's webhook,
// due when the review ends, decides it with no force_sync: not before the
// delay, dispute_won after it, with its event once; sent again it changes
// nothing.
func TestSandboxWebhookDecidesADispute(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_simhooks_dispute", map[string]any{"sandbox": map[string]any{"webhooks": true}})
	id, dp := disputedPayment(t, c, m.key, disputeFraudCard)
	opened := outboxedOf(t, outboxed(t, c, m.mcaID), "dispute_opened")
	deliverPass(t, c)
	row, err := c.srv.Store.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorEventID(opened.Event.ID)).
		Only(tenancy.System(context.Background()))
	if err != nil || row.Outcome != incomingwebhook.OutcomeSynced || row.ObjectID == nil || *row.ObjectID != dp {
		t.Fatalf("the opened webhook was recorded as %+v (%v), want synced for %s", row, err, dp)
	}

	c.do("POST", "/disputes/evidence", m.key, map[string]any{"dispute_id": dp, "uncategorized_text": "We win: delivered."}).must(t, 200)
	decision := outboxedOf(t, outboxed(t, c, m.mcaID), "dispute_won")
	deliverPass(t, c)
	if got := c.do("GET", "/disputes/"+dp, m.key, nil).must(t, 200); got.str("dispute_status") != "dispute_challenged" {
		t.Fatalf("decided before the review ended: %s", got.Raw)
	}
	if len(outboxed(t, c, m.mcaID)) != 1 {
		t.Fatalf("the decision's webhook left the outbox before it was due")
	}

	c.srv.Clock.Advance(connector.EvidenceReviewDelay + time.Second)
	deliverPass(t, c)
	won := c.do("GET", "/disputes/"+dp, m.key, nil).must(t, 200)
	if won.str("dispute_status") != "dispute_won" || won.str("connector_status") != "won" {
		t.Fatalf("dispute after the decision's webhook: %s", won.Raw)
	}
	evs := eventsOf(t, c, id)
	if count(evs, "dispute_won") != 1 {
		t.Fatalf("events: %v", evs)
	}
	redeliver(t, c, decision, opened)
	if got := c.do("GET", "/disputes/"+dp, m.key, nil).must(t, 200); got.str("dispute_status") != "dispute_won" {
		t.Fatalf("after a redelivery: %s", got.Raw)
	}
	if again := eventsOf(t, c, id); len(again) != len(evs) {
		t.Fatalf("a redelivery wrote events: %v, then %v", evs, again)
	}
}
