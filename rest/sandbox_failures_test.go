package rest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"switchyard/ent/paymentintent"
	"switchyard/internal/tenancy"
)

// A connector account's metadata.sandbox makes the simulator fail that
// account's payments (docs/sandbox.md, "Making a connector fail").

// sandboxMerchant is a merchant with one stripe_test account, created with
// metadata.
type sandboxMerchant struct {
	id, key, mcaID string
}

func newSandboxMerchant(t *testing.T, c *client, id string, metadata map[string]any) sandboxMerchant {
	t.Helper()
	c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": id, "merchant_name": id}).must(t, 200)
	key := c.do("POST", "/api_keys/"+id, c.admin(), map[string]any{"name": "k", "expiration": "never"}).must(t, 200).str("api_key")
	body := map[string]any{"connector_type": "payment_processor", "connector_name": "stripe_test",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_" + id}}
	if metadata != nil {
		body["metadata"] = metadata
	}
	mca := c.do("POST", "/account/"+id+"/connectors", key, body).must(t, 200)
	return sandboxMerchant{id: id, key: key, mcaID: mca.str("merchant_connector_id")}
}

// setMetadata replaces the account's metadata through the update route.
func (m sandboxMerchant) setMetadata(t *testing.T, c *client, metadata map[string]any) response {
	t.Helper()
	return c.do("POST", "/account/"+m.id+"/connectors/"+m.mcaID, m.key,
		map[string]any{"connector_type": "payment_processor", "metadata": metadata})
}

// pay creates and confirms a payment with a card (members added), and
// checks the money invariants of the answer.
func (m sandboxMerchant) pay(t *testing.T, c *client, number string, members map[string]any) response {
	t.Helper()
	body := payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card(number)})
	for k, v := range members {
		body[k] = v
	}
	r := c.do("POST", "/payments", m.key, body).must(t, 200)
	checkMoney(t, r)
	return r
}

func wantFailed(t *testing.T, r response, code string) {
	t.Helper()
	if r.str("status") != "failed" || r.str("error_code") != code || r.received() != 0 || len(r.list("captures")) != 0 {
		t.Fatalf("want failed with %s and nothing charged: %s", code, r.Raw)
	}
}

// TestSandboxFailureRate: failure_rate 1 fails every payment with the
// error_code and error_message given (defaults: processing_error, a message
// naming failure_rate); 0.3 fails between 20% and 40% of 400 payments.
func TestSandboxFailureRate(t *testing.T) {
	c := newClient(t)
	m := newSandboxMerchant(t, c, "merchant_sandbox_rate", map[string]any{"city": "NY",
		"sandbox": map[string]any{"failure_rate": 1, "error_code": "do_not_honor", "error_message": "Do not honor."}})
	for range 3 {
		r := m.pay(t, c, "4242424242424242", nil)
		wantFailed(t, r, "do_not_honor")
		if r.str("error_message") != "Do not honor." {
			t.Fatalf("error_message: %s", r.Raw)
		}
		// A sync answers the same failure.
		if s := c.do("GET", "/payments/"+r.str("payment_id")+"?force_sync=true", m.key, nil).must(t, 200); s.str("error_code") != "do_not_honor" {
			t.Fatalf("after a sync: %s", s.Raw)
		}
	}
	// The metadata is returned as it was given.
	acct := c.do("GET", "/account/"+m.id+"/connectors/"+m.mcaID, m.key, nil).must(t, 200)
	if md := acct.obj()["metadata"].(map[string]any); md["city"] != "NY" || md["sandbox"].(map[string]any)["error_code"] != "do_not_honor" {
		t.Fatalf("metadata: %s", acct.Raw)
	}

	m.setMetadata(t, c, map[string]any{"sandbox": map[string]any{"failure_rate": 1}}).must(t, 200)
	r := m.pay(t, c, "4242424242424242", nil)
	wantFailed(t, r, "processing_error")
	if !strings.Contains(r.str("error_message"), "failure_rate") {
		t.Fatalf("default message: %s", r.Raw)
	}

	m.setMetadata(t, c, map[string]any{"sandbox": map[string]any{"failure_rate": 0.3}}).must(t, 200)
	failed := 0
	for range 400 {
		switch r := m.pay(t, c, "4242424242424242", nil); r.str("status") {
		case "failed":
			if r.str("error_code") != "processing_error" {
				t.Fatalf("declined with %s", r.Raw)
			}
			failed++
		case "succeeded":
		default:
			t.Fatalf("status: %s", r.Raw)
		}
	}
	if failed < 80 || failed > 160 {
		t.Fatalf("failure_rate 0.3 failed %d of 400 payments", failed)
	}
}

// TestSandboxKnobsAndTestCards: with failure_rate 0 the cards keep their
// meaning (a decline card declines with its own code, a 3-D Secure card
// asks for authentication); failure_rate 1 fails even a 3-D Secure card at
// once; an update of the metadata takes effect on the next payment.
func TestSandboxKnobsAndTestCards(t *testing.T) {
	c := newClient(t)
	m := newSandboxMerchant(t, c, "merchant_sandbox_cards", map[string]any{"sandbox": map[string]any{"failure_rate": 0, "outage": false, "timeout": false}})
	r := m.pay(t, c, "4000000000009995", nil)
	if r.str("status") != "failed" || r.str("error_code") != "card_declined" || !strings.Contains(r.str("error_message"), "insufficient_funds") {
		t.Fatalf("decline card: %s", r.Raw)
	}
	if r := m.pay(t, c, "4000000000003063", nil); r.str("status") != "requires_customer_action" {
		t.Fatalf("3-D Secure card: %s", r.Raw)
	}
	if r := m.pay(t, c, "4242424242424242", nil); r.str("status") != "succeeded" {
		t.Fatalf("success card: %s", r.Raw)
	}

	m.setMetadata(t, c, map[string]any{"sandbox": map[string]any{"failure_rate": 1, "error_code": "try_again_later"}}).must(t, 200)
	wantFailed(t, m.pay(t, c, "4000000000003063", nil), "try_again_later")
	wantFailed(t, m.pay(t, c, "4242424242424242", nil), "try_again_later")

	// Metadata without the sandbox object: back to the cards.
	m.setMetadata(t, c, map[string]any{"note": "healthy again"}).must(t, 200)
	if r := m.pay(t, c, "4242424242424242", nil); r.str("status") != "succeeded" {
		t.Fatalf("after the sandbox object was removed: %s", r.Raw)
	}
}

// TestSandboxOutage: every payment fails at once with service_unavailable,
// nothing charged; an earlier payment's capture, cancel and refund are
// refused with it and change nothing, and go through once the outage ends.
func TestSandboxOutage(t *testing.T) {
	c := newClient(t)
	m := newSandboxMerchant(t, c, "merchant_sandbox_outage", nil)
	held := m.pay(t, c, "4242424242424242", map[string]any{"capture_method": "manual"}).str("payment_id")
	paid := m.pay(t, c, "4242424242424242", nil).str("payment_id")

	m.setMetadata(t, c, map[string]any{"sandbox": map[string]any{"outage": true, "timeout": true}}).must(t, 200)
	for _, number := range []string{"4242424242424242", "4000000000003063", "4000000000000002"} {
		r := m.pay(t, c, number, nil)
		wantFailed(t, r, "service_unavailable")
		if !strings.Contains(r.str("error_message"), "unavailable") {
			t.Fatalf("outage message: %s", r.Raw)
		}
	}
	if r := c.do("POST", "/payments/"+held+"/capture", m.key, map[string]any{}); r.Status != 400 || r.errCode() != "CE_03" ||
		!strings.Contains(r.str("error", "message"), "unavailable") {
		t.Fatalf("capture in an outage: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/payments/"+held+"/cancel", m.key, map[string]any{}); r.Status != 400 || r.errCode() != "CE_07" {
		t.Fatalf("cancel in an outage: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/payments/"+held, m.key, nil).must(t, 200); r.str("status") != "requires_capture" || r.num("amount_capturable") != 10000 {
		t.Fatalf("authorized payment after the refusals: %s", r.Raw)
	}
	ref := c.do("POST", "/refunds", m.key, map[string]any{"payment_id": paid, "amount": 100}).must(t, 200)
	if ref.str("status") != "failed" || ref.str("error_code") != "service_unavailable" {
		t.Fatalf("refund in an outage: %s", ref.Raw)
	}

	m.setMetadata(t, c, map[string]any{}).must(t, 200)
	if r := c.do("POST", "/payments/"+held+"/capture", m.key, map[string]any{}).must(t, 200); r.str("status") != "succeeded" || r.received() != 10000 {
		t.Fatalf("capture after the outage: %s", r.Raw)
	}
	if r := c.do("POST", "/refunds", m.key, map[string]any{"payment_id": paid}).must(t, 200); r.str("status") != "succeeded" || r.num("amount") != 10000 {
		t.Fatalf("refund after the outage: %s", r.Raw)
	}
}

// TestSandboxTimeout: a confirm gets no answer from the connector, so the
// payment stays processing; force_sync, or the recovery pass, then settles
// it as failed with code timeout, nothing charged.
func TestSandboxTimeout(t *testing.T) {
	c := newClient(t)
	m := newSandboxMerchant(t, c, "merchant_sandbox_timeout", map[string]any{"sandbox": map[string]any{"timeout": true}})
	r := m.pay(t, c, "4242424242424242", nil)
	if r.str("status") != "processing" || r.received() != 0 {
		t.Fatalf("confirm that timed out: %s", r.Raw)
	}
	id := r.str("payment_id")
	if r := c.do("GET", "/payments/"+id, m.key, nil).must(t, 200); r.str("status") != "processing" {
		t.Fatalf("without force_sync: %s", r.Raw)
	}
	synced := c.do("GET", "/payments/"+id+"?force_sync=true", m.key, nil).must(t, 200)
	checkMoney(t, synced)
	wantFailed(t, synced, "timeout")

	// The recovery pass settles one it finds stranded, the same way.
	stranded := m.pay(t, c, "4242424242424242", nil).str("payment_id")
	ctx := tenancy.System(context.Background())
	pi, err := c.srv.Store.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(stranded)).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.srv.Store.Client.PaymentAttempt.UpdateOneID(*pi.ActiveAttemptID).
		SetModifiedAt(time.Now().UTC().Add(-time.Hour)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := c.srv.Payments.RecoverStranded(ctx, 2*time.Minute, 100); err != nil || n < 1 {
		t.Fatalf("recovery settled %d (%v)", n, err)
	}
	r = c.do("GET", "/payments/"+stranded, m.key, nil).must(t, 200)
	checkMoney(t, r)
	wantFailed(t, r, "timeout")
}

// TestSandboxMetadataValidation: only metadata.sandbox is checked, and only
// its own members; each violation is 400 IR_07 naming the member's path,
// on create and on update, and changes nothing.
func TestSandboxMetadataValidation(t *testing.T) {
	c := newClient(t)
	m := newSandboxMerchant(t, c, "merchant_sandbox_valid", map[string]any{"sandbox": map[string]any{"failure_rate": 0.5}})
	sb := func(members map[string]any) map[string]any { return map[string]any{"sandbox": members} }
	for _, tc := range []struct {
		name     string
		metadata map[string]any
		field    string
	}{
		{"sandbox a string", map[string]any{"sandbox": "on"}, "metadata.sandbox"},
		{"sandbox an array", map[string]any{"sandbox": []any{}}, "metadata.sandbox"},
		{"sandbox a boolean", map[string]any{"sandbox": true}, "metadata.sandbox"},
		{"unknown member", sb(map[string]any{"failure_rate": 0.1, "latency_ms": 100}), "metadata.sandbox.latency_ms"},
		{"failure_rate above 1", sb(map[string]any{"failure_rate": 1.5}), "metadata.sandbox.failure_rate"},
		{"failure_rate negative", sb(map[string]any{"failure_rate": -0.01}), "metadata.sandbox.failure_rate"},
		{"failure_rate a string", sb(map[string]any{"failure_rate": "0.3"}), "metadata.sandbox.failure_rate"},
		{"failure_rate a boolean", sb(map[string]any{"failure_rate": true}), "metadata.sandbox.failure_rate"},
		{"error_code a number", sb(map[string]any{"error_code": 500}), "metadata.sandbox.error_code"},
		{"error_code empty", sb(map[string]any{"error_code": ""}), "metadata.sandbox.error_code"},
		{"error_code over 64", sb(map[string]any{"error_code": strings.Repeat("c", 65)}), "metadata.sandbox.error_code"},
		{"error_message an object", sb(map[string]any{"error_message": map[string]any{}}), "metadata.sandbox.error_message"},
		{"error_message over 255", sb(map[string]any{"error_message": strings.Repeat("m", 256)}), "metadata.sandbox.error_message"},
		{"outage a string", sb(map[string]any{"outage": "true"}), "metadata.sandbox.outage"},
		{"timeout a number", sb(map[string]any{"timeout": 1}), "metadata.sandbox.timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			check := func(what string, r response) {
				t.Helper()
				if r.Status != 400 || r.errCode() != "IR_07" || r.str("error", "type") != "invalid_request" ||
					!strings.Contains(r.str("error", "message"), tc.field) {
					t.Fatalf("%s: %d %s, want 400 IR_07 naming %s", what, r.Status, r.Raw, tc.field)
				}
			}
			check("create", c.do("POST", "/account/"+m.id+"/connectors", m.key, map[string]any{
				"connector_type": "payment_processor", "connector_name": "adyen", "metadata": tc.metadata,
				"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_x"}}))
			check("update", m.setMetadata(t, c, tc.metadata))
		})
	}
	// Nothing was created or changed.
	if list := c.do("GET", "/account/"+m.id+"/connectors", m.key, nil).must(t, 200); len(list.Body.([]any)) != 1 {
		t.Fatalf("a refused create made an account: %s", list.Raw)
	}
	acct := c.do("GET", "/account/"+m.id+"/connectors/"+m.mcaID, m.key, nil).must(t, 200)
	if acct.obj()["metadata"].(map[string]any)["sandbox"].(map[string]any)["failure_rate"] != 0.5 {
		t.Fatalf("a refused update changed the metadata: %s", acct.Raw)
	}

	// The boundaries are accepted, and the rest of the metadata is free-form.
	for name, md := range map[string]map[string]any{
		"rate 0":               sb(map[string]any{"failure_rate": 0}),
		"rate 1, every member": sb(map[string]any{"failure_rate": 1, "error_code": strings.Repeat("c", 64), "error_message": strings.Repeat("m", 255), "outage": false, "timeout": false}),
		"null members":         sb(map[string]any{"failure_rate": nil, "error_code": nil, "outage": nil}),
		"sandbox null":         {"sandbox": nil, "anything": []any{1, "two"}},
		"empty sandbox":        sb(map[string]any{}),
		"other keys free-form": {"Sandbox": "not ours", "sandbox_note": 5, "nested": map[string]any{"sandbox": "x"}},
	} {
		if r := m.setMetadata(t, c, md); r.Status != 200 {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
}
