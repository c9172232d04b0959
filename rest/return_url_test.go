package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestRedirectReturnURLQuery: after the sandbox's redirect page (3-D
// Secure, or a payment method's own page), the customer goes back to the
// return_url with the merchant's own query first, then what Hyperswitch
// adds, in its order (make_merchant_url_with_response): status, payment_id,
// payment_intent_client_secret, amount and manual_retry_allowed, which is
// the payment's own.
func TestRedirectReturnURLQuery(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	const returnURL = "https://shop.example/checkout/done?order=42&lang=en%20GB"
	klarna := map[string]any{"payment_method": "pay_later", "payment_method_type": "klarna", "payment_method_data": map[string]any{
		"pay_later": map[string]any{"klarna_redirect": map[string]any{"billing_email": "a@b.c", "billing_country": "SE"}}}}
	for _, tc := range []struct {
		name, button, status, retry string
		confirm                     map[string]any // the SDK's confirm; nil: a card 3-D Secure confirm
	}{
		{name: "3-D Secure approved", button: "Approve", status: "succeeded", retry: "false"},
		{name: "3-D Secure declined", button: "Decline", status: "failed", retry: "true"},
		{name: "Klarna approved", button: "Approve", status: "succeeded", retry: "false", confirm: klarna},
		{name: "Klarna declined", button: "Decline", status: "failed", retry: "true", confirm: klarna},
	} {
		t.Run(tc.name, func(t *testing.T) {
			created := c.pay("POST", "/payments", payment(map[string]any{"amount": 6540, "return_url": returnURL})).must(t, 200)
			id, secret := created.str("payment_id"), created.str("client_secret")
			body := sdkCardConfirm(secret, "4000000000003220", nil)
			if tc.confirm != nil {
				body = map[string]any{"client_secret": secret}
				for k, v := range tc.confirm {
					body[k] = v
				}
			}
			delete(body, "return_url") // the payment's own
			r := c.do("POST", "/payments/"+id+"/confirm", pk, body).must(t, 200)
			if r.obj()["manual_retry_allowed"] != nil {
				t.Fatalf("waiting for the customer, manual_retry_allowed is %v, want null", r.obj()["manual_retry_allowed"])
			}
			back := authenticate(t, r, tc.button)
			if back.StatusCode != http.StatusSeeOther {
				t.Fatalf("the page answered %d, want 303", back.StatusCode)
			}
			want := "https://shop.example/checkout/done?order=42&lang=en%20GB&status=" + tc.status + "&payment_id=" + id +
				"&payment_intent_client_secret=" + secret + "&amount=6540&manual_retry_allowed=" + tc.retry
			if got := back.Header.Get("Location"); got != want {
				t.Fatalf("back to\n%s\nwant\n%s", got, want)
			}
			got := c.do("GET", "/payments/"+id+"?client_secret="+secret, pk, nil).must(t, 200)
			if got.str("status") != tc.status || got.obj()["manual_retry_allowed"] != (tc.retry == "true") {
				t.Fatalf("the payment after %s: %s", tc.button, got.Raw)
			}
			// The page again, once the payment no longer waits, links to the same place.
			p := getPage(t, r.str("next_action", "redirect_to_url"))
			if !strings.Contains(p.body, `href="`+strings.ReplaceAll(want, "&", "&amp;")+`"`) {
				t.Fatalf("the page after completion does not link back to %s:\n%s", want, p.body)
			}
		})
	}
}
