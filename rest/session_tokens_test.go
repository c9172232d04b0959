package rest_test

import "testing"

// TestSessionTokens: the checkout's first call, with the publishable key
// and the payment's client secret, answers a simulated wallet session for
// each session wallet (Google Pay, Apple Pay, PayPal) the profile's
// connectors enable for the payment, narrowed to the wallets asked for; a
// wrong or missing secret is refused, as is a wallet that is no payment
// method type.
func TestSessionTokens(t *testing.T) {
	c := newClient(t)
	created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	pk := c.srv.Demo.PublishableKey
	wallets := func(r response) map[string]map[string]any {
		out := map[string]map[string]any{}
		for _, s := range r.obj()["session_token"].([]any) {
			m := s.(map[string]any)
			out[m["wallet_name"].(string)] = m
		}
		return out
	}
	r := c.do("POST", "/payments/session_tokens", pk, map[string]any{"payment_id": id, "client_secret": secret,
		"wallets": []string{}}).must(t, 200)
	if r.str("payment_id") != id || r.str("client_secret") != secret {
		t.Fatalf("session tokens: %s", r.Raw)
	}
	got := wallets(r)
	gpay, apay, paypal := got["google_pay"], got["apple_pay"], got["paypal"]
	if len(got) != 3 || gpay == nil || apay == nil || paypal == nil {
		t.Fatalf("the demo profile enables Google Pay, Apple Pay and PayPal, got %s", r.Raw)
	}
	if paypal["connector"] != "stripe_test" || paypal["session_token"] == "" {
		t.Fatalf("paypal session: %v", paypal)
	}
	if ti := gpay["transaction_info"].(map[string]any); ti["total_price"] != "100.00" || ti["currency_code"] != "USD" {
		t.Fatalf("google pay transaction: %v", ti)
	}
	if total := apay["payment_request_data"].(map[string]any)["total"].(map[string]any); total["amount"] != "100.00" {
		t.Fatalf("apple pay total: %v", total)
	}
	r = c.do("POST", "/payments/session_tokens", pk, map[string]any{"payment_id": id, "client_secret": secret,
		"wallets": []string{"google_pay"}}).must(t, 200)
	if got := wallets(r); len(got) != 1 || got["google_pay"] == nil {
		t.Fatalf("narrowed to google_pay: %s", r.Raw)
	}
	// A profile whose connector enables no wallet opens no session.
	cardsOnly := cardsOnlyMerchant(t, c, "merchant_no_wallets")
	p := c.do("POST", "/payments", cardsOnly.secret, payment(nil)).must(t, 200)
	r = c.do("POST", "/payments/session_tokens", cardsOnly.publishable, map[string]any{
		"payment_id": p.str("payment_id"), "client_secret": p.str("client_secret")}).must(t, 200)
	if len(wallets(r)) != 0 {
		t.Fatalf("no wallets enabled: %s", r.Raw)
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
