package rest_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
)

// A crash between a capture's, refund's or void's connector call and the
// recording of its answer leaves a row the recovery pass must settle. These
// tests make each real operation, then put the rows back where the crash
// leaves them (aged past the recovery window), and run the pass.

var aged = time.Now().UTC().Add(-time.Hour)

func systemDB(c *client) (context.Context, *ent.Client) {
	return tenancy.System(context.Background()), c.srv.Store.Client
}

func intentOf(t *testing.T, c *client, paymentID string) *ent.PaymentIntent {
	t.Helper()
	ctx, db := systemDB(c)
	pi, err := db.PaymentIntent.Query().Where(paymentintent.PaymentID(paymentID)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return pi
}

// dropEvents deletes the payment's events and their delivery tasks: the
// crash came before they were written.
func dropEvents(t *testing.T, c *client, pi *ent.PaymentIntent) {
	t.Helper()
	ctx, db := systemDB(c)
	evs, err := db.Event.Query().Where(event.PaymentIntentID(pi.ID)).IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.WebhookDeliveryTask.Delete().Where(webhookdeliverytask.EventIDIn(evs...)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Event.Delete().Where(event.PaymentIntentID(pi.ID)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
}

func recoverNow(t *testing.T, c *client, want int) {
	t.Helper()
	n, err := c.srv.Payments.RecoverStranded(tenancy.System(context.Background()), 2*time.Minute, 100)
	if err != nil || n < want {
		t.Fatalf("recovery settled %d (%v), want at least %d", n, err, want)
	}
}

func authorizedPayment(t *testing.T, c *client) string {
	t.Helper()
	r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method": "card", "payment_method_data": card("4242424242424242")})).must(t, 200)
	if r.str("status") != "requires_capture" {
		t.Fatalf("manual payment: %s", r.Raw)
	}
	return r.str("payment_id")
}

// strandCapture puts a captured payment back to the moment its capture was
// reserved and sent: the capture pending, its amount taken off
// amount_capturable, the attempt authorized, nothing captured, no event.
// With forget, the connector never received it.
func strandCapture(t *testing.T, c *client, paymentID string, forget bool) string {
	t.Helper()
	ctx, db := systemDB(c)
	pi := intentOf(t, c, paymentID)
	cps, err := pi.QueryCaptures().All(ctx)
	if err != nil || len(cps) != 1 {
		t.Fatalf("captures: %v %v", cps, err)
	}
	cp := cps[0]
	if err := cp.Update().SetStatus("pending").ClearConnectorCaptureID().SetModifiedAt(aged).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.PaymentAttempt.UpdateOneID(*pi.ActiveAttemptID).SetStatus(paymentattempt.StatusAuthorized).
		SetAmountCapturable(pi.Amount).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := pi.Update().SetStatus(paymentintent.StatusRequiresCapture).SetAmountCaptured(0).
		SetAmountCapturable(0).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	dropEvents(t, c, pi)
	if forget {
		if err := c.srv.Redis.Client.Del(context.Background(), "simledger:{"+cp.ID+"}").Err(); err != nil {
			t.Fatal(err)
		}
	}
	return cp.ID
}

// TestRecoverySettlesStrandedCaptures: a capture the connector made is
// recorded as charged (the payment succeeded, its event written); one it
// never received fails with connector_transaction_not_found and gives its
// reservation back, so the payment can be captured again.
func TestRecoverySettlesStrandedCaptures(t *testing.T) {
	c := newClient(t)
	made := authorizedPayment(t, c)
	c.pay("POST", "/payments/"+made+"/capture", map[string]any{}).must(t, 200)
	strandCapture(t, c, made, false)
	lost := authorizedPayment(t, c)
	c.pay("POST", "/payments/"+lost+"/capture", map[string]any{}).must(t, 200)
	strandCapture(t, c, lost, true)
	if r := c.pay("POST", "/payments/"+lost+"/cancel", map[string]any{}); r.Status != 400 {
		t.Fatalf("cancel beside a pending capture: %d %s", r.Status, r.Raw)
	}

	recoverNow(t, c, 2)
	r := c.pay("GET", "/payments/"+made, nil).must(t, 200)
	if r.str("status") != "succeeded" || r.received() != r.num("amount") || r.num("amount_capturable") != 0 {
		t.Fatalf("a capture the connector made: %s", r.Raw)
	}
	if evs := eventsOf(t, c, made); len(evs) != 1 || evs[0] != "payment_succeeded" {
		t.Fatalf("events: %v", evs)
	}
	r = c.pay("GET", "/payments/"+lost, nil).must(t, 200)
	if r.str("status") != "requires_capture" || r.received() != 0 || r.num("amount_capturable") != r.num("amount") {
		t.Fatalf("a capture never sent: %s", r.Raw)
	}
	caps := r.list("captures")
	if len(caps) != 1 || caps[0]["status"] != "failed" ||
		caps[0]["error_code"] != "connector_transaction_not_found" {
		t.Fatalf("the lost capture: %v", caps)
	}
	if r := c.pay("POST", "/payments/"+lost+"/capture", map[string]any{}).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("capture again: %s", r.Raw)
	}
	recoverNow(t, c, 0) // nothing left: a second pass changes nothing
	if evs := eventsOf(t, c, made); len(evs) != 1 {
		t.Fatalf("events after a second pass: %v", evs)
	}
}

// TestRecoverySettlesStrandedRefunds: a refund the connector made becomes
// succeeded with its event; one it never received fails with
// connector_transaction_not_found, and its amount may be refunded again.
func TestRecoverySettlesStrandedRefunds(t *testing.T) {
	c := newClient(t)
	id := confirmedPayment(t, c, "4242424242424242")
	made := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id, "amount": 1000}).must(t, 200).str("refund_id")
	lost := c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id, "amount": 500}).must(t, 200).str("refund_id")
	ctx, db := systemDB(c)
	for _, refundID := range []string{made, lost} {
		ref, err := db.Refund.Query().Where(refund.RefundID(refundID)).Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := ref.Update().SetStatus(refund.StatusPending).ClearConnectorRefundID().SetModifiedAt(aged).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if refundID == lost {
			c.srv.Redis.Client.Del(context.Background(), "simledger:{"+ref.ID+"}")
		}
	}
	dropEvents(t, c, intentOf(t, c, id))

	recoverNow(t, c, 2)
	if r := c.do("GET", "/refunds/"+made, c.merchantKey(), nil).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("a refund the connector made: %s", r.Raw)
	}
	r := c.do("GET", "/refunds/"+lost, c.merchantKey(), nil).must(t, 200)
	if r.str("status") != "failed" || r.str("error_code") != "connector_transaction_not_found" {
		t.Fatalf("a refund never sent: %s", r.Raw)
	}
	evs := eventsOf(t, c, id)
	if len(evs) != 2 || !slices.Contains(evs, "refund_succeeded") || !slices.Contains(evs, "refund_failed") {
		t.Fatalf("events: %v", evs)
	}
	// What the lost refund held is refundable again: 1000 of the amount is refunded.
	pi := intentOf(t, c, id)
	c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": id, "amount": pi.Amount - 1000}).must(t, 200)
}

// TestRecoverySettlesStrandedVoids: a void the connector made cancels the
// payment, with its event; one it never received leaves the authorization
// standing, and the payment can be cancelled again.
func TestRecoverySettlesStrandedVoids(t *testing.T) {
	c := newClient(t)
	made := authorizedPayment(t, c)
	c.pay("POST", "/payments/"+made+"/cancel", map[string]any{"cancellation_reason": "changed mind"}).must(t, 200)
	lost := authorizedPayment(t, c)
	ctx, db := systemDB(c)
	for _, id := range []string{made, lost} {
		pi := intentOf(t, c, id)
		if err := db.PaymentAttempt.UpdateOneID(*pi.ActiveAttemptID).SetStatus(paymentattempt.StatusVoidInitiated).
			SetAmountCapturable(pi.Amount).SetModifiedAt(aged).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if err := pi.Update().SetStatus(paymentintent.StatusRequiresCapture).SetAmountCapturable(pi.Amount).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		dropEvents(t, c, pi)
	}
	for _, id := range []string{made, lost} {
		if r := c.pay("POST", "/payments/"+id+"/capture", map[string]any{}); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("capture beside a void in progress: %d %s", r.Status, r.Raw)
		}
	}

	recoverNow(t, c, 2)
	if r := c.pay("GET", "/payments/"+made, nil).must(t, 200); r.str("status") != "cancelled" || r.num("amount_capturable") != 0 {
		t.Fatalf("a void the connector made: %s", r.Raw)
	}
	if evs := eventsOf(t, c, made); len(evs) != 1 || evs[0] != "payment_cancelled" {
		t.Fatalf("events: %v", evs)
	}
	if r := c.pay("GET", "/payments/"+lost, nil).must(t, 200); r.str("status") != "requires_capture" {
		t.Fatalf("a void never sent: %s", r.Raw)
	}
	if evs := eventsOf(t, c, lost); len(evs) != 0 {
		t.Fatalf("events of a void never sent: %v", evs)
	}
	if r := c.pay("POST", "/payments/"+lost+"/cancel", map[string]any{}).must(t, 200); r.str("status") != "cancelled" {
		t.Fatalf("cancel again: %s", r.Raw)
	}
}
