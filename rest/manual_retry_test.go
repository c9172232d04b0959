package rest_test

import (
	"strings"
	"testing"
	"time"
)

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

// TestManualRetry: a failed payment is confirmed again as Hyperswitch's
// manual retry allows it (its get_attempt_type, and the requests of its
// Cypress "Manual Retry" suite): refused while the profile's
// is_manual_retry_enabled is off (IR_16 in its words); with it on, a
// confirm with another card makes a second attempt and charges once, by
// the merchant's key or by the checkout's client secret; and refused
// after half the client secret's lifetime.
func TestManualRetry(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	const disabledMessage = "You cannot confirm this payment because it has status failed, you can enable `manual_retry` in profile to try this payment again"
	declined := func(t *testing.T) (id, secret string) {
		t.Helper()
		r := c.pay("POST", "/payments", payment(map[string]any{"amount": 6540})).must(t, 200)
		id, secret = r.str("payment_id"), r.str("client_secret")
		r = c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"payment_method": "card",
			"payment_method_data": card("4000000000000002")}).must(t, 200)
		if r.str("status") != "failed" || r.obj()["manual_retry_allowed"] != true {
			t.Fatalf("the first confirm: %s", r.Raw)
		}
		return id, secret
	}
	retry := map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242")}
	wantRefused := func(t *testing.T, r response, message string) {
		t.Helper()
		if r.Status != 400 || r.errCode() != "IR_16" || r.str("error", "message") != message {
			t.Fatalf("want 400 IR_16 %q, got %d %s", message, r.Status, r.Raw)
		}
	}
	wantStillFailed := func(t *testing.T, id string) {
		t.Helper()
		got := c.pay("GET", "/payments/"+id, nil).must(t, 200)
		if got.str("status") != "failed" || got.obj()["attempt_count"] != float64(1) || got.obj()["amount_received"] != nil && got.obj()["amount_received"] != float64(0) {
			t.Fatalf("a refused retry changed the payment: %s", got.Raw)
		}
	}

	t.Run("off by default", func(t *testing.T) {
		if p := c.do("GET", "/account/"+c.srv.Demo.MerchantID+"/business_profile/"+c.srv.Demo.ProfileID, c.merchantKey(), nil).must(t, 200); p.obj()["is_manual_retry_enabled"] != nil {
			t.Fatalf("is_manual_retry_enabled is %v by default, want null", p.obj()["is_manual_retry_enabled"])
		}
		id, _ := declined(t)
		wantRefused(t, c.pay("POST", "/payments/"+id+"/confirm", retry), disabledMessage)
		wantStillFailed(t, id)
		setDefaultProfile(t, c, map[string]any{"is_manual_retry_enabled": false})
		wantRefused(t, c.pay("POST", "/payments/"+id+"/confirm", retry), disabledMessage)
	})

	t.Run("on: a second attempt charges once", func(t *testing.T) {
		setDefaultProfile(t, c, map[string]any{"is_manual_retry_enabled": true})
		if p := c.do("GET", "/account/"+c.srv.Demo.MerchantID+"/business_profile/"+c.srv.Demo.ProfileID, c.merchantKey(), nil).must(t, 200); p.obj()["is_manual_retry_enabled"] != true {
			t.Fatalf("the profile shows is_manual_retry_enabled %v", p.obj()["is_manual_retry_enabled"])
		}
		for _, by := range []string{"secret key", "client secret"} {
			id, secret := declined(t)
			var r response
			if by == "secret key" {
				r = c.pay("POST", "/payments/"+id+"/confirm", retry)
			} else {
				r = c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242", nil))
			}
			r.must(t, 200)
			if r.str("status") != "succeeded" || r.obj()["attempt_count"] != float64(2) || r.obj()["amount_received"] != float64(6540) ||
				r.obj()["manual_retry_allowed"] != false {
				t.Fatalf("the retry by %s: %s", by, r.Raw)
			}
			got := c.pay("GET", "/payments/"+id+"?expand_attempts=true", nil).must(t, 200)
			attempts, _ := got.obj()["attempts"].([]any)
			var statuses []string
			for _, a := range attempts {
				statuses = append(statuses, a.(map[string]any)["status"].(string))
			}
			if strings.Join(statuses, ",") != "failure,charged" && strings.Join(statuses, ",") != "charged,failure" {
				t.Fatalf("the payment's attempts are %v: %s", statuses, got.Raw)
			}
			// A succeeded payment takes no further confirm.
			if again := c.pay("POST", "/payments/"+id+"/confirm", retry); again.Status != 400 {
				t.Fatalf("a confirm after the retry succeeded: %s", again.Raw)
			}
		}
	})

	t.Run("on: refused after half the session", func(t *testing.T) {
		setDefaultProfile(t, c, map[string]any{"is_manual_retry_enabled": true})
		id, _ := declined(t)
		// The payment was made 451 s ago with a 900 s client secret: its
		// retries ended at 450 s.
		backdatePayment(t, c, id, 451*time.Second)
		wantRefused(t, c.pay("POST", "/payments/"+id+"/confirm", retry),
			"You cannot confirm this payment using `manual_retry` because the allowed duration has expired")
		wantStillFailed(t, id)
	})
}

// backdatePayment moves a payment's creation (and the client secret's
// expiry with it) back by d, as if it had been made d earlier.
func backdatePayment(t *testing.T, c *client, paymentID string, d time.Duration) {
	t.Helper()
	var created, expires time.Time
	row := c.srv.Store.DB.QueryRow("SELECT created_at, expires_on FROM payment_intents WHERE payment_id = ?", paymentID)
	if err := row.Scan(&created, &expires); err != nil {
		t.Fatal(err)
	}
	if _, err := c.srv.Store.DB.Exec("UPDATE payment_intents SET created_at = ?, expires_on = ? WHERE payment_id = ?",
		created.Add(-d), expires.Add(-d), paymentID); err != nil {
		t.Fatal(err)
	}
}
