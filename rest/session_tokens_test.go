package rest_test

import "testing"

// TestSessionTokens: the checkout's first call, with the publishable key
// and the payment's client secret, answers the payment's wallet sessions
// (none in the sandbox); a wrong or missing secret is refused, as is a
// wallet that is no payment method type.
func TestSessionTokens(t *testing.T) {
	c := newClient(t)
	created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	pk := c.srv.Demo.PublishableKey
	r := c.do("POST", "/payments/session_tokens", pk, map[string]any{"payment_id": id, "client_secret": secret,
		"wallets": []string{"apple_pay", "google_pay"}}).must(t, 200)
	if r.str("payment_id") != id || r.str("client_secret") != secret || r.obj()["session_token"] == nil || len(r.obj()["session_token"].([]any)) != 0 {
		t.Fatalf("session tokens: %s", r.Raw)
	}
	for _, tc := range []struct {
		name string
		key  string
		body map[string]any
		code string
	}{
		{"wrong secret", pk, map[string]any{"payment_id": id, "client_secret": secret + "x", "wallets": []string{}}, "IR_09"},
		{"no secret", pk, map[string]any{"payment_id": id, "wallets": []string{}}, "IR_08"},
		{"no payment id", pk, map[string]any{"client_secret": secret, "wallets": []string{}}, "IR_04"},
		{"unknown wallet", c.merchantKey(), map[string]any{"payment_id": id, "wallets": []string{"shiny_pay"}}, "IR_07"},
		{"unknown member", c.merchantKey(), map[string]any{"payment_id": id, "wallets": []string{}, "walets": 1}, "IR_06"},
	} {
		if r := c.do("POST", "/payments/session_tokens", tc.key, tc.body); r.Status != 400 || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want 400 %s", tc.name, r.Status, r.Raw, tc.code)
		}
	}
	// Another merchant's payment is not found.
	other := makeMerchant(t, c, "merchant_tokens")
	if r := c.do("POST", "/payments/session_tokens", other.key, map[string]any{"payment_id": id, "wallets": []string{}}); r.Status != 404 {
		t.Fatalf("another merchant's payment: %d %s", r.Status, r.Raw)
	}
}
