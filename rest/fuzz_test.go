package rest_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// Fuzz targets, one for each REST route that reads a body. Each sends what
// the fuzzer makes of the route's bodies to the whole app (keys, strict
// decoding, the domain, the database, Redis) and holds what every answer
// must be: a status below 500, JSON, and for a refusal the error envelope
// with its type, code and message. A panic anywhere is a 500 from the
// recovery middleware, so it fails too. `go test` runs the seeds (the
// bodies the tests send, and the malformed ones of TestEnvelopeErrors);
// `go tool task fuzz` runs each target for a set time (docs/testing.md).

func FuzzAccountCreate(f *testing.F) {
	fuzzRoute(f, "POST", admin, func(fx) string { return "/accounts" },
		merchantBody("merchant_fuzz"), map[string]any{"merchant_id": "merchant_fuzz_min"})
}

func FuzzAccountUpdate(f *testing.F) {
	fuzzRoute(f, "POST", admin, func(x fx) string { return "/accounts/" + x.merchant },
		map[string]any{"merchant_id": "merchant_demo", "merchant_name": "Renamed"}, merchantBody("merchant_demo"))
}

func FuzzAPIKeyCreate(f *testing.F) {
	fuzzRoute(f, "POST", admin, func(x fx) string { return "/api_keys/" + x.merchant },
		map[string]any{"name": "backend", "description": "server key", "expiration": "never"},
		map[string]any{"name": "soon", "expiration": "2035-01-02T03:04:05Z"})
}

func FuzzAPIKeyUpdate(f *testing.F) {
	fuzzRoute(f, "POST", admin, func(x fx) string { return "/api_keys/" + x.merchant + "/" + x.apiKey },
		map[string]any{"name": "renamed", "expiration": "2035-01-02T03:04:05Z"}, map[string]any{"description": "d"})
}

func FuzzConnectorCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/account/" + x.merchant + "/connectors" },
		minimalConnector(), fullConnector("pro_fuzz"))
}

func FuzzConnectorUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/account/" + x.merchant + "/connectors/" + x.connector },
		map[string]any{"connector_type": "payment_processor", "connector_label": "renamed", "disabled": false},
		map[string]any{"connector_type": "payment_processor", "metadata": map[string]any{"a": 1}})
}

func FuzzEventList(f *testing.F) {
	fuzzRoute(f, "POST", admin, func(x fx) string { return "/events/" + x.merchant },
		map[string]any{"object_id": "pay_x"}, map[string]any{"event_classes": []string{"refunds"}, "limit": 5},
		map[string]any{"created_after": "2026-01-01T00:00:00Z", "event_types": []string{"payment_succeeded"}})
}

func FuzzCustomerCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/customers" }, map[string]any{}, fullCustomer("cus_fuzz_seed"))
}

func FuzzCustomerUpdate(f *testing.F) {
	full := fullCustomer("")
	delete(full, "customer_id")
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/customers/" + x.customer }, map[string]any{"name": "x"}, full)
}

func FuzzEphemeralKeyCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/ephemeral_keys" }, map[string]any{"customer_id": "cus_fuzz"})
}

func FuzzPaymentMethodCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/payment_methods" },
		map[string]any{"payment_method": "card", "card": map[string]any{"card_number": "4242424242424242",
			"card_exp_month": "10", "card_exp_year": futureYear, "card_holder_name": "J"}})
}

func FuzzPaymentMethodUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/payment_methods/pm_fuzz_unknown/update" },
		map[string]any{"card": map[string]any{"card_exp_month": "11"}})
}

func FuzzV2CustomerCreate(f *testing.F) {
	fuzzRoute(f, "POST", v2, func(fx) string { return "/v2/customers" },
		map[string]any{"name": "Jon", "email": "jon@example.com", "merchant_reference_id": "cus_fuzz_v2"})
}

func FuzzSessionTokens(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/payments/session_tokens" },
		map[string]any{"payment_id": "$succeeded", "wallets": []string{"apple_pay"}})
}

func FuzzMandateRevoke(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/mandates/revoke/man_fuzz_unknown" }, map[string]any{})
}

func FuzzPaymentCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/payments" },
		payment(nil),
		payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card("4242424242424242")}),
		payment(map[string]any{"confirm": true, "capture_method": "manual", "billing": billingAddress,
			"payment_method_data": card("4000000000003063"), "return_url": "https://example.com/done"}),
		payment(map[string]any{"customer_id": "cus_fuzz", "setup_future_usage": "off_session",
			"metadata": map[string]any{"order": "42"}, "payment_method_data": card("4000000000000002")}))
}

func FuzzPaymentUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/payments/" + x.open },
		map[string]any{"amount": 5000, "description": "updated"},
		map[string]any{"payment_method_data": card("4242424242424242"), "billing": billingAddress})
}

func FuzzPaymentConfirm(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/payments/" + x.open + "/confirm" },
		map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242")}, map[string]any{})
}

func FuzzPaymentCapture(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/payments/" + x.authorized + "/capture" },
		map[string]any{"amount_to_capture": 1000}, map[string]any{})
}

func FuzzPaymentCancel(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/payments/" + x.authorized + "/cancel" },
		map[string]any{"cancellation_reason": "requested_by_customer"}, map[string]any{})
}

func FuzzProfileCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/account/" + x.merchant + "/business_profile" },
		map[string]any{"profile_name": "shoes", "return_url": "https://shop.example.com/done", "session_expiry": 1800,
			"webhook_details": map[string]any{"webhook_url": "https://hooks.example.com/shoes",
				"payment_statuses_enabled": []string{"succeeded"}}},
		map[string]any{})
}

func FuzzProfileUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/account/" + x.merchant + "/business_profile/" + x.profile },
		map[string]any{"profile_name": "renamed", "metadata": map[string]any{"line": "shoes"}},
		map[string]any{"is_auto_retries_enabled": true, "max_auto_retries_enabled": 3})
}

func FuzzRefundCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/refunds" },
		map[string]any{"payment_id": "$succeeded", "amount": 100, "reason": "damaged", "metadata": map[string]any{"a": "b"}},
		map[string]any{"payment_id": "$succeeded", "refund_type": "instant"})
}

func FuzzRefundUpdate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(x fx) string { return "/refunds/" + x.refund },
		map[string]any{"reason": "changed", "metadata": map[string]any{"a": "b"}})
}

func FuzzRefundList(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/refunds/list" },
		map[string]any{}, map[string]any{"limit": 1, "offset": 0, "refund_status": []string{"succeeded"}},
		map[string]any{"payment_id": "$succeeded", "amount_filter": map[string]any{"start_amount": 1, "end_amount": 500}})
}

func FuzzIntentCreate(f *testing.F) {
	fuzzRoute(f, "POST", v2, func(fx) string { return "/v2/payments/create-intent" }, minimalIntent(), fullIntent())
}

func FuzzIntentUpdate(f *testing.F) {
	fuzzRoute(f, "PUT", v2, func(x fx) string { return "/v2/payments/" + x.intent + "/update-intent" },
		map[string]any{"amount_details": map[string]any{"order_amount": 7000, "currency": "USD"}},
		map[string]any{"metadata": map[string]any{"c": 3}, "description": "d"})
}

func FuzzIntentConfirm(f *testing.F) {
	fuzzRoute(f, "POST", v2, func(x fx) string { return "/v2/payments/" + x.intent + "/confirm-intent" },
		map[string]any{"payment_method_type": "card", "payment_method_subtype": "credit",
			"payment_method_data": map[string]any{
				"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "10", "card_exp_year": "35",
					"card_holder_name": "Joseph Doe", "card_cvc": "123"},
				"billing": map[string]any{"address": map[string]any{"line1": "1 Main St", "zip": "94122", "country": "US"}},
			}})
}

// fx is what a fuzzed route may name: the demo merchant's records, and
// payments in the states the routes act on.
type fx struct {
	merchant, profile, connector, apiKey string
	open, authorized, succeeded, refund  string
	intent, customer                     string
	secretKey, adminKey                  string
}

// The keys a route is called with.
func admin(x fx) map[string]string  { return map[string]string{"api-key": x.adminKey} }
func secret(x fx) map[string]string { return map[string]string{"api-key": x.secretKey} }
func v2(x fx) map[string]string {
	return map[string]string{"Authorization": "api-key=" + x.secretKey, "X-Profile-Id": x.profile}
}

// malformedSeeds are the bodies every route must refuse cleanly.
var malformedSeeds = []string{
	``, `{}`, `[1,2]`, `null`, `{"amount":`, `{"a":1} {}`, `{"amount":2500,"amount":3000}`,
	`{"metadata":{"a":{"b":1,"b":2}}}`, `{"metadata":` + strings.Repeat(`{"a":`, 30) + `{}` + strings.Repeat(`}`, 30) + `}`,
	`{"metadata":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, `{"amount":1e400}`, `{"amount":-1}`,
	`{"currency":"\u0000"}`, "{\"description\":\"\xff\xfe\"}",
}

// fuzzRoute fuzzes the bodies of one route. A seed's "$succeeded" string
// stands for the id of a succeeded payment.
func fuzzRoute(f *testing.F, method string, keys func(fx) map[string]string, path func(fx) string, seeds ...map[string]any) {
	srv := testenv.NewServer(f, testenv.Database(f))
	h := srv.Handler()
	x := fixtures(f, h, srv)
	for _, s := range seeds {
		b, err := json.Marshal(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(bytes.ReplaceAll(b, []byte("$succeeded"), []byte(x.succeeded)))
	}
	for _, s := range malformedSeeds {
		f.Add([]byte(s))
	}
	p, hdr := path(x), keys(x)
	f.Fuzz(func(t *testing.T, body []byte) {
		status, raw := serve(h, method, p, hdr, body)
		if status >= 500 {
			t.Fatalf("%s %s answered %d %s\nto %q", method, p, status, raw, body)
		}
		var out any
		if err := json.Unmarshal(raw, &out); err != nil {
			t.Fatalf("%s %s answered %d, not JSON: %q\nto %q", method, p, status, raw, body)
		}
		if status >= 400 {
			env, _ := out.(map[string]any)
			e, _ := env["error"].(map[string]any)
			for _, member := range []string{"type", "code", "message"} {
				if s, _ := e[member].(string); s == "" {
					t.Fatalf("%s %s answered %d without error.%s: %s\nto %q", method, p, status, member, raw, body)
				}
			}
		}
	})
}

// serve sends one request straight to the app's handler.
func serve(h http.Handler, method, path string, headers map[string]string, body []byte) (int, []byte) {
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// fixtures makes what the routes name: an API key, an open payment, an
// authorized one, a succeeded one with a refund, and a v2 intent.
func fixtures(f *testing.F, h http.Handler, srv *testenv.Server) fx {
	d := srv.Demo
	x := fx{merchant: d.MerchantID, profile: d.ProfileID, connector: d.ConnectorAccount,
		secretKey: d.SecretKey, adminKey: srv.Config.AdminAPIKey}
	call := func(method, path string, keys map[string]string, body any, member string) string {
		b, _ := json.Marshal(body)
		status, raw := serve(h, method, path, keys, b)
		var out map[string]any
		_ = json.Unmarshal(raw, &out)
		id, _ := out[member].(string)
		if status != 200 || id == "" {
			f.Fatalf("fixture %s %s: %d %s", method, path, status, raw)
		}
		return id
	}
	x.apiKey = call("POST", "/api_keys/"+x.merchant, admin(x), map[string]any{"name": "fuzz", "expiration": "never"}, "key_id")
	x.open = call("POST", "/payments", secret(x), payment(nil), "payment_id")
	x.authorized = call("POST", "/payments", secret(x), payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")}), "payment_id")
	x.succeeded = call("POST", "/payments", secret(x), payment(map[string]any{"confirm": true,
		"payment_method_data": card("4242424242424242")}), "payment_id")
	x.refund = call("POST", "/refunds", secret(x), map[string]any{"payment_id": x.succeeded, "amount": 100}, "refund_id")
	x.intent = call("POST", "/v2/payments/create-intent", v2(x), minimalIntent(), "id")
	x.customer = call("POST", "/customers", secret(x), map[string]any{}, "customer_id")
	return x
}
