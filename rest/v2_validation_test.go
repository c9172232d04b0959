package rest_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	"switchyard/ent/paymentattempt"
	"switchyard/ent/schema/schematype"
)

// TestV2CreateIntentValidation: the create-intent limits (customer_id,
// merchant_reference_id, payment_link_enabled) and the required amount
// details.
func TestV2CreateIntentValidation(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	with := func(k string, v any) map[string]any {
		b := minimalIntent()
		b[k] = v
		return b
	}
	cases := []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"customer_id 31", with("customer_id", strings.Repeat("c", 31)), 400, "IR_07", "customer_id"},
		{"customer_id 32", with("customer_id", strings.Repeat("c", 32)), 200, "", ""},
		{"customer_id 64", with("customer_id", strings.Repeat("d", 64)), 200, "", ""},
		{"customer_id 65", with("customer_id", strings.Repeat("c", 65)), 400, "IR_07", "customer_id"},
		{"merchant_reference_id 30", with("merchant_reference_id", strings.Repeat("r", 30)), 200, "", ""},
		{"merchant_reference_id 31", with("merchant_reference_id", strings.Repeat("r", 31)), 400, "IR_07", "merchant_reference_id"},
		{"merchant_reference_id duplicate", with("merchant_reference_id", strings.Repeat("r", 30)), 400, "HE_01", "merchant_reference_id"},
		{"merchant_reference_id empty", with("merchant_reference_id", ""), 400, "IR_07", "merchant_reference_id"},
		{"payment_link_enabled", with("payment_link_enabled", "enable"), 400, "IR_07", "payment_link_enabled"},
		{"statement_descriptor 23", with("statement_descriptor", strings.Repeat("s", 23)), 400, "IR_07", "statement_descriptor"},
		{"session_expiry -1", with("session_expiry", -1), 400, "IR_07", "session_expiry"},
		{"missing amount_details", map[string]any{"description": "x"}, 400, "IR_04", "amount_details"},
		{"missing currency", map[string]any{"amount_details": map[string]any{"order_amount": 100}}, 400, "IR_04", "amount_details.currency"},
		{"missing order_amount", map[string]any{"amount_details": map[string]any{"currency": "USD"}}, 400, "IR_04", "amount_details.order_amount"},
		{"bad currency", map[string]any{"amount_details": map[string]any{"currency": "usd", "order_amount": 100}}, 400, "IR_07", "amount_details.currency"},
		{"zero order_amount", map[string]any{"amount_details": map[string]any{"currency": "USD", "order_amount": 0}}, 400, "IR_07", "amount_details.order_amount"},
		{"order_amount too large", map[string]any{"amount_details": map[string]any{"currency": "USD", "order_amount": int64(1e12)}}, 400, "IR_07", "amount_details.order_amount"},
		{"set_active_attempt_id is update-only", with("set_active_attempt_id", "Unset"), 400, "IR_06", "set_active_attempt_id"},
		{"body not an object", nil, 400, "IR_06", "empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body any = tc.body
			if tc.body == nil {
				body = ""
			}
			r := c.v2("POST", "/v2/payments/create-intent", d.SecretKey, d.ProfileID, body)
			if r.Status != tc.status || (tc.code != "" && (r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field))) {
				t.Fatalf("%d %s, want %d %s naming %q", r.Status, r.Raw, tc.status, tc.code, tc.field)
			}
		})
	}
	// The merchant's customer id is the one shown.
	r := createIntent(t, c, with("customer_id", strings.Repeat("e", 40)))
	if r.str("customer_id") != strings.Repeat("e", 40) {
		t.Fatalf("customer_id: %s", r.Raw)
	}
}

// TestV2UpdateIntentValidation is the table of update-intent checks: each
// row updates a fresh intent and expects the status, the code and the
// offending member named in the message.
func TestV2UpdateIntentValidation(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	svc := c.srv.Payments
	ctx := merchantCtx(d.MerchantID)
	// An intent holding order details (amount 1000 = 2 × 500) and metadata.
	base := map[string]any{
		"amount_details": map[string]any{"currency": "USD", "order_amount": 1000},
		"order_details":  []any{map[string]any{"product_name": "Sock", "quantity": 2, "amount": 500}},
		"metadata":       map[string]any{"old": true},
	}
	createIntent(t, c, map[string]any{"amount_details": map[string]any{"currency": "USD", "order_amount": 5},
		"merchant_reference_id": "taken_reference"})

	ad := func(m map[string]any) map[string]any { return map[string]any{"amount_details": m} }
	one := func(k string, v any) map[string]any { return map[string]any{k: v} }
	type check func(t *testing.T, id string, r response)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
		check  check
	}{
		// The spec's minimal request.
		{"minimal", minimalIntent(), 400, "IR_07", "order_details", nil}, // the stored lines sum to 1000, not 6540
		{"amount with matching lines", map[string]any{"amount_details": map[string]any{"currency": "EUR", "order_amount": 1500},
			"order_details": []any{map[string]any{"product_name": "Sock", "quantity": 3, "amount": 500}}}, 200, "", "",
			func(t *testing.T, id string, r response) {
				if a := r.obj()["amount_details"].(map[string]any); a["order_amount"] != float64(1500) || a["currency"] != "EUR" {
					t.Fatalf("amount_details: %v", a)
				}
			}},
		// amount_details.
		{"currency", ad(map[string]any{"currency": "ABC"}), 400, "IR_07", "amount_details.currency", nil},
		{"order_amount negative", ad(map[string]any{"order_amount": -1}), 400, "IR_07", "amount_details.order_amount", nil},
		{"order_amount not an integer", ad(map[string]any{"order_amount": 10.5}), 400, "IR_06", "amount_details.order_amount", nil},
		{"shipping_cost", ad(map[string]any{"shipping_cost": -1}), 400, "IR_07", "amount_details.shipping_cost", nil},
		{"order_tax_amount", ad(map[string]any{"order_tax_amount": -1}), 400, "IR_07", "amount_details.order_tax_amount", nil},
		{"surcharge_amount", ad(map[string]any{"surcharge_amount": -1}), 400, "IR_07", "amount_details.surcharge_amount", nil},
		{"tax_on_surcharge", ad(map[string]any{"tax_on_surcharge": -1}), 400, "IR_07", "amount_details.tax_on_surcharge", nil},
		{"skip_external_tax_calculation", ad(map[string]any{"skip_external_tax_calculation": "never"}), 400, "IR_07", "external_tax_calculation", nil},
		{"skip_surcharge_calculation", ad(map[string]any{"skip_surcharge_calculation": "Skip"}), 400, "IR_07", "surcharge_calculation", nil},
		{"tax names disagree", ad(map[string]any{"skip_external_tax_calculation": "skip", "external_tax_calculation": "calculate"}), 400, "IR_07", "skip_external_tax_calculation", nil},
		{"amount_details unknown member", ad(map[string]any{"amount": 5}), 400, "IR_06", "amount_details.amount", nil},
		{"amounts and calculations", ad(map[string]any{"shipping_cost": 10, "order_tax_amount": 20, "surcharge_amount": 30,
			"tax_on_surcharge": 4, "skip_external_tax_calculation": "calculate", "surcharge_calculation": "calculate"}), 200, "", "",
			func(t *testing.T, id string, r response) {
				want := map[string]any{"order_amount": float64(1000), "currency": "USD", "shipping_cost": float64(10),
					"order_tax_amount": float64(20), "surcharge_amount": float64(30), "tax_on_surcharge": float64(4),
					"external_tax_calculation": "calculate", "surcharge_calculation": "calculate", "amount_captured": float64(0)}
				if a := r.obj()["amount_details"].(map[string]any); !maps.Equal(a, want) {
					t.Fatalf("amount_details %v, want %v", a, want)
				}
			}},
		// Enumerations.
		{"capture_method", one("capture_method", "later"), 400, "IR_07", "capture_method", nil},
		{"capture_method scheduled", one("capture_method", "scheduled"), 400, "IR_20", "scheduled", nil},
		{"capture_method manual_multiple", one("capture_method", "manual_multiple"), 200, "", "", wantMember("capture_method", "manual_multiple")},
		{"authentication_type", one("authentication_type", "3ds"), 400, "IR_07", "authentication_type", nil},
		{"authentication_type three_ds", one("authentication_type", "three_ds"), 200, "", "", wantMember("authentication_type", "three_ds")},
		{"customer_present", one("customer_present", "yes"), 400, "IR_07", "customer_present", nil},
		{"customer_present absent", one("customer_present", "absent"), 200, "", "", wantMember("customer_present", "absent")},
		{"setup_future_usage", one("setup_future_usage", "offline"), 400, "IR_07", "setup_future_usage", nil},
		{"setup_future_usage off_session", one("setup_future_usage", "off_session"), 200, "", "", wantMember("setup_future_usage", "off_session")},
		{"apply_mit_exemption", one("apply_mit_exemption", "apply"), 400, "IR_07", "apply_mit_exemption", nil},
		{"apply_mit_exemption Apply", one("apply_mit_exemption", "Apply"), 200, "", "", wantMember("apply_mit_exemption", "Apply")},
		{"request_incremental_authorization", one("request_incremental_authorization", "yes"), 400, "IR_07", "request_incremental_authorization", nil},
		{"request_incremental_authorization true", one("request_incremental_authorization", "true"), 200, "", "", wantMember("request_incremental_authorization", "true")},
		{"request_incremental_authorization boolean", one("request_incremental_authorization", true), 400, "IR_06", "request_incremental_authorization", nil},
		{"request_external_three_ds_authentication", one("request_external_three_ds_authentication", "enable"), 400, "IR_07", "request_external_three_ds_authentication", nil},
		{"request_external_three_ds_authentication Enable", one("request_external_three_ds_authentication", "Enable"), 200, "", "", wantMember("request_external_three_ds_authentication", "Enable")},
		{"request_external_three_ds_authentication Skip", one("request_external_three_ds_authentication", "Skip"), 200, "", "", wantMember("request_external_three_ds_authentication", "Skip")},
		{"allowed_payment_method_types", one("allowed_payment_method_types", []string{"credit", "plastic"}), 400, "IR_07", "allowed_payment_method_types[1]", nil},
		{"allowed_payment_method_types ok", one("allowed_payment_method_types", []string{"credit", "apple_pay"}), 200, "", "", nil},
		{"enable_partial_authorization", one("enable_partial_authorization", "true"), 400, "IR_06", "enable_partial_authorization", nil},
		{"enable_partial_authorization true", one("enable_partial_authorization", true), 200, "", "", func(t *testing.T, id string, r response) {
			if r.obj()["enable_partial_authorization"] != true {
				t.Fatalf("%s", r.Raw)
			}
		}},
		// Strings and their limits.
		{"statement_descriptor 22", one("statement_descriptor", strings.Repeat("s", 22)), 200, "", "", wantMember("statement_descriptor", strings.Repeat("s", 22))},
		{"statement_descriptor 23", one("statement_descriptor", strings.Repeat("s", 23)), 400, "IR_07", "statement_descriptor", nil},
		{"statement_descriptor no letter", one("statement_descriptor", "1234 5678"), 400, "IR_07", "statement_descriptor", nil},
		{"statement_descriptor 11 accented", one("statement_descriptor", strings.Repeat("é", 11)), 200, "", "", wantMember("statement_descriptor", strings.Repeat("é", 11))},
		{"statement_descriptor 22 accented", one("statement_descriptor", strings.Repeat("é", 22)), 200, "", "", wantMember("statement_descriptor", strings.Repeat("é", 22))},
		{"statement_descriptor 23 accented", one("statement_descriptor", strings.Repeat("é", 23)), 400, "IR_07", "statement_descriptor", nil},
		{"description", one("description", strings.Repeat("d", 256)), 400, "IR_07", "description", nil},
		{"return_url", one("return_url", "ftp://shop.example.com"), 400, "IR_07", "return_url", nil},
		{"return_url ok", one("return_url", "https://shop.example.com/r"), 200, "", "", wantMember("return_url", "https://shop.example.com/r")},
		{"routing_algorithm_id", one("routing_algorithm_id", "algo_1"), 200, "", "", wantMember("routing_algorithm_id", "algo_1")},
		{"billing country", one("billing", map[string]any{"address": map[string]any{"country": "XX"}}), 400, "IR_07", "billing.address.country", nil},
		{"shipping phone code", one("shipping", map[string]any{"phone": map[string]any{"country_code": "1"}}), 400, "IR_07", "shipping.phone.country_code", nil},
		{"billing email", one("billing", map[string]any{"email": "not an email"}), 400, "IR_07", "billing.email", nil},
		// Members the update does not take.
		{"customer_id 31", one("customer_id", strings.Repeat("c", 31)), 400, "IR_07", "customer_id", nil},
		{"customer_id 32", one("customer_id", strings.Repeat("c", 32)), 200, "", "", nil},
		{"customer_id 64", one("customer_id", strings.Repeat("c", 64)), 200, "", "", nil},
		{"customer_id 65", one("customer_id", strings.Repeat("c", 65)), 400, "IR_07", "customer_id", nil},
		{"merchant_reference_id 30", one("merchant_reference_id", strings.Repeat("u", 30)), 200, "", "", nil},
		{"merchant_reference_id 31", one("merchant_reference_id", strings.Repeat("u", 31)), 400, "IR_07", "merchant_reference_id", nil},
		{"merchant_reference_id taken", one("merchant_reference_id", "taken_reference"), 400, "HE_01", "merchant_reference_id", nil},
		{"payment_link_enabled", one("payment_link_enabled", "Enable"), 400, "IR_06", "payment_link_enabled", nil},
		{"unknown member", one("amount", 5), 400, "IR_06", "amount", nil},
		// order_details: lines × quantity sum to the order amount.
		{"order_details sum", one("order_details", []any{map[string]any{"product_name": "Sock", "quantity": 1, "amount": 999}}), 400, "IR_07", "order_details", nil},
		{"order_details sum ok", one("order_details", []any{map[string]any{"product_name": "A", "quantity": 1, "amount": 400},
			map[string]any{"product_name": "B", "quantity": 3, "amount": 200}}), 200, "", "", nil},
		{"order_details amount change", ad(map[string]any{"order_amount": 1200}), 400, "IR_07", "order_details", nil},
		{"order_details product_name", one("order_details", []any{map[string]any{"quantity": 2, "amount": 500}}), 400, "IR_04", "order_details[0].product_name", nil},
		{"order_details quantity", one("order_details", []any{map[string]any{"product_name": "Sock", "quantity": 0, "amount": 1000}}), 400, "IR_07", "order_details[0].quantity", nil},
		{"order_details product_type", one("order_details", []any{map[string]any{"product_name": "Sock", "quantity": 2, "amount": 500, "product_type": "food"}}), 400, "IR_07", "order_details[0].product_type", nil},
		// session_expiry moves expires_on: created_at + session_expiry.
		{"session_expiry -1", one("session_expiry", -1), 400, "IR_07", "session_expiry", nil},
		{"session_expiry 0", one("session_expiry", 0), 200, "", "", wantExpiry(c, 0)},
		{"session_expiry 900", one("session_expiry", 900), 200, "", "", wantExpiry(c, 900)},
		{"session_expiry 3600", one("session_expiry", 3600), 200, "", "", wantExpiry(c, 3600)},
		{"session_expiry string", one("session_expiry", "900"), 400, "IR_06", "session_expiry", nil},
		// set_active_attempt_id.
		{"set_active_attempt_id unknown", one("set_active_attempt_id", map[string]any{"Set": "pa_unknown"}), 400, "IR_07", "set_active_attempt_id", nil},
		{"set_active_attempt_id Unset", one("set_active_attempt_id", "Unset"), 200, "", "", nil},
		{"set_active_attempt_id bad word", one("set_active_attempt_id", "Clear"), 400, "IR_07", "set_active_attempt_id", nil},
		{"set_active_attempt_id number", one("set_active_attempt_id", map[string]any{"Set": 5}), 400, "IR_07", "set_active_attempt_id.Set", nil},
		{"set_active_attempt_id two members", one("set_active_attempt_id", map[string]any{"Set": "a", "Unset": "b"}), 400, "IR_07", "set_active_attempt_id", nil},
		// metadata replaces the old value.
		{"metadata", one("metadata", map[string]any{"new": "value"}), 200, "", "", func(t *testing.T, id string, r response) {
			if m := r.obj()["metadata"].(map[string]any); len(m) != 1 || m["new"] != "value" {
				t.Fatalf("metadata %v, want only the new value", m)
			}
		}},
		{"metadata not an object", one("metadata", "x"), 400, "IR_06", "metadata", nil},
		{"frm_metadata", one("frm_metadata", map[string]any{"score": 1}), 200, "", "", nil},
		// The nested open objects: documented members have their types.
		{"connector_metadata", one("connector_metadata", map[string]any{"noon": map[string]any{"order_category": 5}}), 400, "IR_06", "connector_metadata.noon.order_category", nil},
		{"connector_metadata initiative", one("connector_metadata", map[string]any{"apple_pay": map[string]any{"session_token_data": map[string]any{"initiative": "android"}}}), 400, "IR_07", "connector_metadata.apple_pay.session_token_data.initiative", nil},
		{"connector_metadata other connector", one("connector_metadata", map[string]any{"acme": map[string]any{"x": 1}}), 200, "", "", nil},
		{"feature_metadata search_tags", one("feature_metadata", map[string]any{"search_tags": []any{"a", 2}}), 400, "IR_06", "feature_metadata.search_tags[1]", nil},
		{"feature_metadata dates", one("feature_metadata", map[string]any{"apple_pay_recurring_details": map[string]any{"regular_billing": map[string]any{"recurring_payment_start_date": "soon"}}}), 400, "IR_07", "recurring_payment_start_date", nil},
		{"payment_link_config boolean", one("payment_link_config", map[string]any{"display_sdk_only": "yes"}), 400, "IR_06", "payment_link_config.display_sdk_only", nil},
		{"payment_link_config position", one("payment_link_config", map[string]any{"transaction_details": []any{map[string]any{"key": "k", "value": "v", "ui_configuration": map[string]any{"position": 1.5}}}}), 400, "IR_06", "payment_link_config.transaction_details[0].ui_configuration.position", nil},
		{"payment_link_config ok", one("payment_link_config", fullIntent()["payment_link_config"]), 200, "", "", nil},
		// Malformed bodies.
		{"empty body", "", 400, "IR_06", "empty", nil},
		{"array body", "[]", 400, "IR_06", "array", nil},
		{"malformed JSON", "{", 400, "IR_06", "JSON", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := createIntent(t, c, base).str("id")
			r := c.v2("PUT", "/v2/payments/"+id+"/update-intent", d.SecretKey, d.ProfileID, tc.body)
			if r.Status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.Status, tc.status, r.Raw)
			}
			if tc.status != 200 {
				if r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field) {
					t.Fatalf("%s, want %s naming %q", r.Raw, tc.code, tc.field)
				}
				// A refused update changes nothing.
				after := c.v2("GET", "/v2/payments/"+id+"/get-intent", d.SecretKey, d.ProfileID, nil).must(t, 200)
				if after.obj()["metadata"].(map[string]any)["old"] != true {
					t.Fatalf("refused update changed the intent: %s", after.Raw)
				}
				return
			}
			assertMembers(t, "intent", r.obj(), intentMembers)
			if tc.check != nil {
				tc.check(t, id, r)
			}
		})
	}

	// set_active_attempt_id naming an attempt the payment has. No flow
	// leaves an updatable intent with an attempt, so one is recorded here
	// as a failed earlier try would be.
	id := createIntent(t, c, base).str("id")
	v, err := svc.GetPayment(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	att, err := c.srv.Store.Client.PaymentAttempt.Create().SetPaymentIntentID(v.Intent.ID).SetAmount(1000).SetNetAmount(1000).
		SetCurrency(schematype.Currency("USD")).SetStatus(paymentattempt.StatusFailure).Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.v2("PUT", "/v2/payments/"+id+"/update-intent", d.SecretKey, d.ProfileID,
		one("set_active_attempt_id", map[string]any{"Set": att.ID})).must(t, 200)
	if v, _ = svc.GetPayment(ctx, id); v.Intent.ActiveAttemptID == nil || *v.Intent.ActiveAttemptID != att.ID {
		t.Fatalf("active attempt %v, want %s", v.Intent.ActiveAttemptID, att.ID)
	}
	c.v2("PUT", "/v2/payments/"+id+"/update-intent", d.SecretKey, d.ProfileID, one("set_active_attempt_id", "Unset")).must(t, 200)
	if v, _ = svc.GetPayment(ctx, id); v.Intent.ActiveAttemptID != nil {
		t.Fatalf("active attempt %v after Unset", *v.Intent.ActiveAttemptID)
	}
	// Another payment's attempt is unknown to this one.
	other := createIntent(t, c, base).str("id")
	if r := c.v2("PUT", "/v2/payments/"+other+"/update-intent", d.SecretKey, d.ProfileID,
		one("set_active_attempt_id", map[string]any{"Set": att.ID})); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("another payment's attempt: %d %s", r.Status, r.Raw)
	}

	// merchant_reference_id stays unique per merchant: taken by create.
	if r := c.v2("POST", "/v2/payments/create-intent", d.SecretKey, d.ProfileID, map[string]any{
		"amount_details": map[string]any{"currency": "USD", "order_amount": 5}, "merchant_reference_id": "taken_reference"}); r.errCode() != "HE_01" {
		t.Fatalf("duplicate merchant_reference_id: %d %s", r.Status, r.Raw)
	}
}

func wantMember(name, value string) func(t *testing.T, id string, r response) {
	return func(t *testing.T, id string, r response) {
		t.Helper()
		if r.str(name) != value {
			t.Fatalf("%s = %v, want %q", name, r.obj()[name], value)
		}
	}
}

// wantExpiry checks expires_on = created_at + seconds, and that get-intent
// shows the same.
func wantExpiry(c *client, seconds int) func(t *testing.T, id string, r response) {
	return func(t *testing.T, id string, r response) {
		t.Helper()
		v, err := c.srv.Payments.GetPayment(merchantCtx(c.srv.Demo.MerchantID), id)
		if err != nil {
			t.Fatal(err)
		}
		want := v.Intent.CreatedAt.Add(time.Duration(seconds) * time.Second).UTC().Format("2006-01-02T15:04:05Z")
		if r.str("expires_on") != want || v.Intent.SessionExpiry != int64(seconds) {
			t.Fatalf("expires_on %s (session_expiry %d), want %s", r.str("expires_on"), v.Intent.SessionExpiry, want)
		}
	}
}
