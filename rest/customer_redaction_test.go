package rest_test

import (
	"testing"
)

// TestRedactedCustomerCannotBePaid: once a customer is deleted (redacted),
// every route that acts for it answers IR_11, as its retrieve does: the
// checkout's reads and confirm with the publishable key, a confirm with
// the secret key, a new payment for it and its mandates. A payment that was
// already with the bank when the customer went settles without keeping a
// card or setting up a mandate for it.
func TestRedactedCustomerCannotBePaid(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	id, secret := checkoutPayment(t, c, "cus_a4", nil)
	// A mandate set up with a 3-D Secure card: the customer is at the
	// bank's page when the merchant deletes them.
	away := c.pay("POST", "/payments", setupBody("cus_a4", "4000000000003220", nil)).must(t, 200)
	if away.str("status") != "requires_customer_action" {
		t.Fatalf("3-D Secure set-up: %s", away.Raw)
	}
	c.do("DELETE", "/customers/cus_a4", c.merchantKey(), nil).must(t, 200)

	for _, call := range []struct {
		name, method, path, key string
		body                    any
	}{
		{"checkout's payment", "GET", "/payments/" + id + "/client?client_secret=" + secret, pk, nil},
		{"checkout's saved cards", "GET", "/customers/payment_methods?client_secret=" + secret, pk, nil},
		{"confirm with the publishable key", "POST", "/payments/" + id + "/confirm", pk,
			sdkCardConfirm(secret, "4242424242424242", nil)},
		{"confirm with the secret key", "POST", "/payments/" + id + "/confirm", c.merchantKey(),
			map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242")}},
		{"update and confirm", "POST", "/payments/" + id, c.merchantKey(),
			map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card("4242424242424242")}},
		{"a new payment", "POST", "/payments", c.merchantKey(), payment(map[string]any{"customer_id": "cus_a4"})},
		{"its mandates", "GET", "/customers/cus_a4/mandates", c.merchantKey(), nil},
		{"its saved cards", "GET", "/customers/cus_a4/payment_methods", c.merchantKey(), nil},
		{"an ephemeral key", "POST", "/ephemeral_keys", c.merchantKey(), map[string]any{"customer_id": "cus_a4"}},
	} {
		if r := c.do(call.method, call.path, call.key, call.body); r.Status != 400 || r.errCode() != "IR_11" {
			t.Errorf("%s: %d %s, want 400 IR_11", call.name, r.Status, r.Raw)
		}
	}
	if r := c.pay("GET", "/payments/"+id, nil).must(t, 200); r.str("status") != "requires_payment_method" || r.num("attempt_count") != 0 {
		t.Fatalf("the refused payment changed: %s", r.Raw)
	}

	// The customer approves at the bank after all: the money moves, as the
	// merchant asked before the delete, but nothing is kept for them.
	authenticate(t, away, "Approve")
	r := c.pay("GET", "/payments/"+away.str("payment_id")+"?force_sync=true", nil).must(t, 200)
	if r.str("status") != "succeeded" || r.str("mandate_id") != "" {
		t.Fatalf("the payment settled after the delete: %s", r.Raw)
	}
	if pm := c.do("GET", "/payment_methods/"+r.str("payment_method_id"), c.merchantKey(), nil); pm.Status != 404 {
		t.Fatalf("the card was kept for the deleted customer: %d %s", pm.Status, pm.Raw)
	}
}
