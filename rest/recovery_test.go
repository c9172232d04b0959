package rest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"switchyard/ent/capture"
	"switchyard/ent/event"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// strand puts a confirmed payment back where a crash between its
// connector call and the recording of the answer leaves it: the attempt
// pending (no connector transaction, no metadata), the payment processing
// with nothing captured, no capture, no event. With forget, the sandbox
// connector forgets it was ever sent (the crash came before the call).
// The attempt is made old enough for the recovery pass when aged.
func strand(t *testing.T, c *client, paymentID string, forget, aged bool) string {
	t.Helper()
	ctx := tenancy.System(context.Background())
	db := c.srv.Store.Client
	pi, err := db.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	attID := *pi.ActiveAttemptID
	modified := time.Now().UTC()
	if aged {
		modified = modified.Add(-time.Hour)
	}
	if err := db.PaymentAttempt.UpdateOneID(attID).SetStatus(paymentattempt.StatusPending).
		ClearConnectorTransactionID().ClearConnectorMetadata().ClearNetworkTransactionID().ClearErrorCode().
		ClearErrorMessage().SetAmountCapturable(0).SetModifiedAt(modified).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.PaymentIntent.UpdateOneID(pi.ID).SetStatus(paymentintent.StatusProcessing).
		SetAmountCaptured(0).SetAmountCapturable(0).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Capture.Delete().Where(capture.PaymentIntentID(pi.ID)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	dropEvents(t, c, pi)
	if forget {
		if err := c.srv.Redis.Client.Del(context.Background(), "simledger:{"+attID+"}").Err(); err != nil {
			t.Fatal(err)
		}
	}
	return attID
}

// eventsOf are the event types written for a payment.
func eventsOf(t *testing.T, c *client, paymentID string) []string {
	t.Helper()
	ctx := tenancy.System(context.Background())
	pi, err := c.srv.Store.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := c.srv.Store.Client.Event.Query().Where(event.PaymentIntentID(pi.ID)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, string(e.EventType))
	}
	return out
}

func confirmedPayment(t *testing.T, c *client, number string) string {
	t.Helper()
	r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card(number)})).must(t, 200)
	return r.str("payment_id")
}

// TestForceSyncSettlesAStrandedPayment: a payment a crash left processing
// is settled by GET ?force_sync=true from what the connector remembers:
// succeeded, its capture recorded, its event written; without force_sync it
// is shown as it is.
func TestForceSyncSettlesAStrandedPayment(t *testing.T) {
	c := newClient(t)
	id := confirmedPayment(t, c, "4242424242424242")
	strand(t, c, id, false, false)
	if r := c.pay("GET", "/payments/"+id, nil).must(t, 200); r.str("status") != "processing" {
		t.Fatalf("stranded payment shown as %s", r.str("status"))
	}
	if r := c.pay("GET", "/payments/"+id+"?force_sync=maybe", nil); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("force_sync=maybe: %d %s", r.Status, r.Raw)
	}
	r := c.pay("GET", "/payments/"+id+"?force_sync=true", nil).must(t, 200)
	if r.str("status") != "succeeded" || r.received() != r.num("amount") || len(r.list("captures")) != 1 {
		t.Fatalf("after force_sync: %s", r.Raw)
	}
	if evs := eventsOf(t, c, id); len(evs) != 1 || evs[0] != "payment_succeeded" {
		t.Fatalf("events after the settlement: %v", evs)
	}
	// A second sync changes nothing.
	if r := c.pay("GET", "/payments/"+id+"?force_sync=true", nil).must(t, 200); r.str("status") != "succeeded" || len(eventsOf(t, c, id)) != 1 {
		t.Fatalf("second sync: %s", r.Raw)
	}
}

// TestRecoveryFailsWhatTheConnectorNeverSaw: an attempt the connector has
// no record of stays processing while it is young (its call may be on its
// way), and once older than the recovery window the recovery pass fails it
// with a clear code, charging nothing, and writes payment_failed.
func TestRecoveryFailsWhatTheConnectorNeverSaw(t *testing.T) {
	c := newClient(t)
	young := confirmedPayment(t, c, "4242424242424242")
	strand(t, c, young, true, false)
	if r := c.pay("GET", "/payments/"+young+"?force_sync=true", nil).must(t, 200); r.str("status") != "processing" {
		t.Fatalf("a young attempt the connector does not know: %s", r.str("status"))
	}
	old := confirmedPayment(t, c, "4242424242424242")
	strand(t, c, old, true, true)
	seen := confirmedPayment(t, c, "4000000000000002") // declined at the connector
	strand(t, c, seen, false, true)

	n, err := c.srv.Payments.RecoverStranded(tenancy.System(context.Background()), 2*time.Minute, 100)
	if err != nil || n < 2 {
		t.Fatalf("recovery settled %d (%v), want the two old attempts", n, err)
	}
	r := c.pay("GET", "/payments/"+old, nil).must(t, 200)
	if r.str("status") != "failed" || r.str("error_code") != "connector_transaction_not_found" || r.received() != 0 {
		t.Fatalf("never sent: %s", r.Raw)
	}
	if evs := eventsOf(t, c, old); len(evs) != 1 || evs[0] != "payment_failed" {
		t.Fatalf("events: %v", evs)
	}
	if r := c.pay("GET", "/payments/"+seen, nil).must(t, 200); r.str("status") != "failed" || r.str("error_code") != "card_declined" {
		t.Fatalf("declined before the crash: %s", r.Raw)
	}
	if r := c.pay("GET", "/payments/"+young, nil).must(t, 200); r.str("status") != "processing" {
		t.Fatalf("the young attempt was settled by the pass: %s", r.str("status"))
	}
}

// TestRetryAfterACrashAnswersThePayment: the Idempotency-Key is bound to
// the payment it created: once its Redis record is gone (the crashed
// request's lease ended), a retry with the same key and body answers with
// that payment, settled, and makes no other; with another body it is 422.
func TestRetryAfterACrashAnswersThePayment(t *testing.T) {
	c := newClient(t)
	key := runKey("crash")
	body, _ := json.Marshal(payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")}))
	first := c.idem("POST", "/payments", key, body).must(t, 200)
	id := first.str("payment_id")
	strand(t, c, id, false, false)
	keys := testenv.RedisKeys(t, c.srv.Redis.Client, "idem:*"+key+"}")
	if len(keys) != 1 {
		t.Fatalf("the key's record: %v", keys)
	}
	c.srv.Redis.Client.Del(context.Background(), keys...)
	before := countPayments(t, c)

	again := c.idem("POST", "/payments", key, body).must(t, 200)
	if again.str("payment_id") != id || again.str("status") != "succeeded" {
		t.Fatalf("the retry answered %s", again.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("the retry made %d more payments", n-before)
	}
	c.srv.Redis.Client.Del(context.Background(), keys...)
	other, _ := json.Marshal(payment(map[string]any{"amount": 999, "confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")}))
	if r := c.idem("POST", "/payments", key, other); r.Status != 422 || r.errCode() != "IR_06" {
		t.Fatalf("the key with another body: %d %s", r.Status, r.Raw)
	}
}
