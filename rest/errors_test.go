package rest_test

import (
	"strings"
	"testing"
)

// TestEnvelopeErrors: transport-level client mistakes get the Hyperswitch
// envelope with the right status and code, never a 500.
func TestEnvelopeErrors(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	big := `{"name":"` + strings.Repeat("x", 2<<20) + `","expiration":"never"}`
	cases := []struct {
		name, method, path string
		key                string
		body               any
		status             int
		code               string
	}{
		{"unknown route", "GET", "/no/such/route", c.admin(), nil, 404, "IR_02"},
		{"unknown route without key", "GET", "/no/such/route", "", nil, 404, "IR_02"},
		{"wrong method", "PUT", "/accounts", c.admin(), nil, 405, "IR_03"},
		{"wrong method on item", "PATCH", "/api_keys/" + m + "/key_x", c.admin(), nil, 405, "IR_03"},
		{"body over the limit", "POST", "/api_keys/" + m, c.admin(), big, 413, "IR_06"},
		{"malformed json", "POST", "/accounts", c.admin(), `{"merchant_id":`, 400, "IR_06"},
		{"not an object", "POST", "/accounts", c.admin(), `[1,2]`, 400, "IR_06"},
		{"trailing data", "POST", "/accounts", c.admin(), `{"merchant_id":"m1"} {}`, 400, "IR_06"},
		{"empty body", "POST", "/accounts", c.admin(), ``, 400, "IR_06"},
		{"wrong type names the field", "POST", "/accounts", c.admin(), `{"merchant_id": 12}`, 400, "IR_06"},
		{"member given twice", "POST", "/accounts", c.admin(), `{"merchant_id":"m1","merchant_id":"m2"}`, 400, "IR_06"},
		{"member given twice deep down", "POST", "/payments", c.merchantKey(), `{"amount":100,"currency":"USD","metadata":{"a":{"b":1,"b":2}}}`, 400, "IR_06"},
		{"nested 25 levels", "POST", "/payments", c.merchantKey(), nested("metadata", 25), 400, "IR_06"},
		{"nested 40 levels", "POST", "/refunds", c.merchantKey(), nested("metadata", 40), 400, "IR_06"},
		{"nested 9999 levels", "POST", "/account/" + m + "/business_profile", c.merchantKey(), nested("metadata", 9999), 400, "IR_06"},
		{"nested arrays", "POST", "/payments", c.merchantKey(), `{"metadata":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}`, 400, "IR_06"},
		{"missing key", "GET", "/accounts/" + m, "", nil, 401, "IR_01"},
		{"garbage key", "GET", "/accounts/" + m, "snd_garbage", nil, 401, "IR_01"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || r.str("error", "type") != "invalid_request" || r.str("error", "message") == "" {
				t.Fatalf("got %d %.300s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if tc.name == "wrong type names the field" && !strings.Contains(r.str("error", "message"), "merchant_id") {
				t.Fatalf("message does not name the field: %s", r.Raw)
			}
			if strings.HasPrefix(tc.name, "nested ") && tc.name != "nested arrays" && !strings.Contains(r.str("error", "message"), "metadata") {
				t.Fatalf("message does not name the member: %s", r.Raw)
			}
			if strings.HasPrefix(tc.name, "member given twice") && !strings.Contains(r.str("error", "message"), "given twice") {
				t.Fatalf("message does not say the member is repeated: %s", r.Raw)
			}
		})
	}
}

// nested is a body whose member holds objects nested levels deep (the body
// itself is one level more).
func nested(member string, levels int) string {
	return `{"amount":100,"currency":"USD","payment_id":"pay_x","` + member + `":` +
		strings.Repeat(`{"a":`, levels-1) + `{}` + strings.Repeat(`}`, levels-1) + `}`
}
