package rest_test

import (
	"regexp"
	"strings"
	"testing"
)

// Payments through the v1 REST routes and the sandbox simulator. Every
// payment response is checked against the money invariants (checkMoney).

const futureYear = "2035"

// card is payment_method_data for a test card number.
func card(number string) map[string]any {
	cvc := "123"
	if strings.HasPrefix(number, "34") || strings.HasPrefix(number, "37") {
		cvc = "1234" // American Express
	}
	return map[string]any{"card": map[string]any{
		"card_number": number, "card_exp_month": "12", "card_exp_year": futureYear,
		"card_holder_name": "Jane Doe", "card_cvc": cvc,
	}}
}

// payment is a create body: amount 10000 USD with the given members.
func payment(members map[string]any) map[string]any {
	body := map[string]any{"amount": 10000, "currency": "USD"}
	for k, v := range members {
		body[k] = v
	}
	return body
}

// billingAddress makes every card check available (line1, zip).
var billingAddress = map[string]any{
	"address": map[string]any{"line1": "1 Main St", "zip": "94105", "city": "San Francisco", "country": "US",
		"first_name": "Jane", "last_name": "Doe"},
	"phone": map[string]any{"number": "5551234567", "country_code": "+1"},
	"email": "jane@example.com",
}

// merchantKey is the demo merchant's secret key.
func (c *client) merchantKey() string { return c.srv.Demo.SecretKey }

// pay sends a payment call with the demo merchant's key and checks the
// money invariants of a 200 answer.
func (c *client) pay(method, path string, body any) response {
	c.t.Helper()
	r := c.do(method, path, c.merchantKey(), body)
	if r.Status == 200 {
		checkMoney(c.t, r)
	}
	return r
}

func (r response) num(key string) int64 {
	v, ok := r.obj()[key].(float64)
	if !ok {
		return -1
	}
	return int64(v)
}

// received is amount_received, null (nothing captured yet) read as 0;
// checkMoney holds it to null exactly until a capture has succeeded.
func (r response) received() int64 {
	if r.obj()["amount_received"] == nil {
		return 0
	}
	return r.num("amount_received")
}

func (r response) list(key string) []map[string]any {
	arr, _ := r.obj()[key].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		m, _ := e.(map[string]any)
		out = append(out, m)
	}
	return out
}

// checkMoney asserts a payment record's money invariants: amount_received
// is the sum of the charged captures, nothing captured exceeds the
// authorization (net_amount), what is still capturable fits in what is
// left, and a payment that is not capturable has nothing capturable.
func checkMoney(t *testing.T, r response) {
	t.Helper()
	if r.obj()["payment_id"] == nil {
		return // not a payment record
	}
	var charged int64
	anyCharged := false
	for _, cp := range r.list("captures") {
		if cp["status"] == "charged" {
			charged += int64(cp["amount"].(float64))
			anyCharged = true
		}
	}
	received, capturable, net := r.received(), r.num("amount_capturable"), r.num("net_amount")
	status := r.str("status")
	// amount_received is null until a capture has succeeded, as in Hyperswitch.
	if null := r.obj()["amount_received"] == nil; null == anyCharged {
		t.Fatalf("%s: amount_received null is %v, but a charged capture exists is %v: %s", status, null, anyCharged, r.Raw)
	}
	if received != charged {
		t.Fatalf("%s: amount_received %d != sum of charged captures %d: %s", status, received, charged, r.Raw)
	}
	if received > net || capturable < 0 || received+capturable > net {
		t.Fatalf("%s: received %d + capturable %d exceeds net_amount %d: %s", status, received, capturable, net, r.Raw)
	}
	switch status {
	case "requires_capture", "partially_captured_and_capturable", "partially_authorized_and_requires_capture":
		if capturable <= 0 {
			t.Fatalf("%s with amount_capturable %d: %s", status, capturable, r.Raw)
		}
	case "processing", "partially_captured_and_processing":
	default:
		if capturable != 0 {
			t.Fatalf("%s with amount_capturable %d: %s", status, capturable, r.Raw)
		}
	}
	if status == "succeeded" && received == 0 && net > 0 {
		t.Fatalf("succeeded with nothing received: %s", r.Raw)
	}
}

// countPayments counts the payment rows in the database (every merchant).
func countPayments(t *testing.T, c *client) int {
	t.Helper()
	var n int
	if err := c.srv.Store.DB.QueryRow("SELECT COUNT(*) FROM payment_intents").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

var (
	formRe   = regexp.MustCompile(`(?s)<form method="post" action="([^"]*)">(.*?)</form>`)
	hiddenRe = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
	buttonRe = regexp.MustCompile(`<button[^>]*>([^<]*)</button>`)
)
