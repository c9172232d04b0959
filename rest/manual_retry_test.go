package rest_test

import "testing"

// TestManualRetryAllowed: manual_retry_allowed as Hyperswitch's
// is_manual_retry_allowed answers it: false once a payment succeeded or
// while the connector's answer is awaited (processing), true when the
// connector declined it or its 3-D Secure was declined, null while it
// waits for a confirm or the customer.
func TestManualRetryAllowed(t *testing.T) {
	c := newClient(t)
	slow := newSandboxMerchant(t, c, "merchant_retry_timeout", map[string]any{"sandbox": map[string]any{"timeout": true}})
	confirmed := func(number string) map[string]any {
		return payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card(number),
			"return_url": "https://shop.example/return"})
	}
	threeDSDeclined := func() response {
		r := c.pay("POST", "/payments", confirmed("4000000000003220")).must(t, 200)
		authenticate(t, r, "Decline")
		return c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
	}
	for _, tc := range []struct {
		name, status string
		want         any
		pay          func() response
	}{
		{"succeeded", "succeeded", false, func() response { return c.pay("POST", "/payments", confirmed("4242424242424242")).must(t, 200) }},
		{"failed by a decline", "failed", true, func() response { return c.pay("POST", "/payments", confirmed("4000000000000002")).must(t, 200) }},
		{"failed by insufficient funds", "failed", true, func() response { return c.pay("POST", "/payments", confirmed("4000000000009995")).must(t, 200) }},
		{"failed by a 3-D Secure decline", "failed", true, threeDSDeclined},
		{"processing", "processing", false, func() response { return slow.pay(t, c, "4242424242424242", nil) }},
		{"requires_customer_action", "requires_customer_action", nil, func() response { return c.pay("POST", "/payments", confirmed("4000000000003220")).must(t, 200) }},
		{"requires_payment_method", "requires_payment_method", nil, func() response { return c.pay("POST", "/payments", payment(nil)).must(t, 200) }},
		{"requires_capture", "requires_capture", false, func() response {
			return c.pay("POST", "/payments", patched(confirmed("4242424242424242"), map[string]any{"capture_method": "manual"})).must(t, 200)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.pay()
			if r.str("status") != tc.status || r.obj()["manual_retry_allowed"] != tc.want {
				t.Fatalf("status %s, manual_retry_allowed %v; want %s, %v: %s", r.str("status"), r.obj()["manual_retry_allowed"],
					tc.status, tc.want, r.Raw)
			}
		})
	}
}
