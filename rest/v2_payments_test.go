package rest_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent/paymentattempt"
	"switchyard/ent/schema/schematype"
)

// v2 calls carry `Authorization: api-key=<key>` and X-Profile-Id.
func v2Headers(key, profileID string) map[string]string {
	h := map[string]string{}
	if key != "" {
		h["Authorization"] = "api-key=" + key
	}
	if profileID != "" {
		h["X-Profile-Id"] = profileID
	}
	return h
}

func (c *client) v2(method, path, key, profileID string, body any) response {
	c.t.Helper()
	return c.doWith(method, path, "", body, v2Headers(key, profileID))
}

// createIntent makes an intent of the demo merchant's default profile.
func createIntent(t *testing.T, c *client, body map[string]any) response {
	t.Helper()
	d := c.srv.Demo
	return c.v2("POST", "/v2/payments/create-intent", d.SecretKey, d.ProfileID, body).must(t, 200)
}

func minimalIntent() map[string]any {
	return map[string]any{"amount_details": map[string]any{"currency": "USD", "order_amount": 6540}}
}

// intentMembers is the spec's payment intent object, member by member.
var intentMembers = []string{"id", "status", "amount_details", "client_secret", "profile_id", "capture_method",
	"customer_id", "customer_present", "setup_future_usage", "apply_mit_exemption", "payment_link_enabled",
	"request_incremental_authorization", "split_txns_enabled", "expires_on", "request_external_three_ds_authentication",
	"payment_type", "merchant_reference_id", "routing_algorithm_id", "authentication_type", "billing", "shipping",
	"description", "return_url", "statement_descriptor", "order_details", "allowed_payment_method_types", "metadata",
	"connector_metadata", "feature_metadata", "payment_link_config", "frm_metadata", "enable_partial_authorization"}

var amountDetailsMembers = []string{"order_amount", "currency", "external_tax_calculation", "surcharge_calculation",
	"shipping_cost", "order_tax_amount", "surcharge_amount", "tax_on_surcharge", "amount_captured"}

func assertMembers(t *testing.T, what string, obj map[string]any, want []string) {
	t.Helper()
	got := slices.Sorted(maps.Keys(obj))
	if w := slices.Sorted(slices.Values(want)); !slices.Equal(got, w) {
		t.Fatalf("%s members:\n got %v\nwant %v", what, got, w)
	}
}

var clientSecretValue = regexp.MustCompile(`"client_secret":"[^"]+"`)

// intentGolden compares an intent with its client secret (which embeds
// the payment id) and run-specific ids replaced.
func intentGolden(t *testing.T, name string, r response, pairs ...string) {
	t.Helper()
	raw := clientSecretValue.ReplaceAllString(string(r.Raw), `"client_secret":"{client secret}"`)
	golden(t, name, normalized([]byte(raw), append([]string{r.str("id"), "{payment id}"}, pairs...)...))
}

// fullIntent sets every member of PaymentsCreateIntentRequest, with the
// documented nested shapes.
func fullIntent() map[string]any {
	address := map[string]any{
		"address": map[string]any{"city": "San Francisco", "country": "US", "line1": "1467 Harrison Street",
			"line2": "Harrison Street", "line3": "Suite 4", "zip": "94122", "state": "California",
			"first_name": "Jane", "last_name": "Doe", "origin_zip": "94107"},
		"phone": map[string]any{"number": "9123456789", "country_code": "+1"},
		"email": "jane@example.com",
	}
	return map[string]any{
		"amount_details": map[string]any{"order_amount": 6540, "currency": "USD", "shipping_cost": 500,
			"order_tax_amount": 120, "skip_external_tax_calculation": "skip", "skip_surcharge_calculation": "skip",
			"surcharge_amount": 30, "tax_on_surcharge": 3},
		"merchant_reference_id": "order_2024_0001",
		"routing_algorithm_id":  "routing_algo_1",
		"capture_method":        "manual",
		"authentication_type":   "three_ds",
		"billing":               address,
		"shipping":              address,
		"customer_id":           "cus_0123456789abcdef0123456789abcdef",
		"customer_present":      "absent",
		"description":           "It's my first payment request",
		"return_url":            "https://shop.example.com/return",
		"setup_future_usage":    "off_session",
		"apply_mit_exemption":   "Apply",
		"statement_descriptor":  "Switchyard Shop",
		"order_details": []any{
			map[string]any{"product_name": "Apple iPhone 16", "quantity": 1, "amount": 6000,
				"product_img_link": "https://img.example.com/16.png", "product_id": "iphone16", "category": "phones",
				"sub_category": "smart", "brand": "Apple", "product_type": "physical", "sku": "IP16", "requires_shipping": true,
				"tax_rate": 0.2, "total_tax_amount": 100},
			map[string]any{"product_name": "Case", "quantity": 2, "amount": 270},
		},
		"allowed_payment_method_types": []string{"credit", "debit"},
		"metadata":                     map[string]any{"udf1": "some-value", "nested": map[string]any{"k": 1}},
		"connector_metadata": map[string]any{
			"apple_pay": map[string]any{"session_token_data": map[string]any{
				"payment_processing_details_at": "Connector", "certificate": "cert", "certificate_keys": "keys",
				"merchant_identifier": "merchant.com.example", "display_name": "Shop", "initiative": "web",
				"initiative_context": "shop.example.com", "merchant_business_country": "US"}},
			"airwallex": map[string]any{"payload": "payload"},
			"noon":      map[string]any{"order_category": "pay"},
			"braintree": map[string]any{"merchant_account_id": "ma_1", "merchant_config_currency": "USD"},
			"adyen":     map[string]any{"testing": map[string]any{"holder_name": "Jane Doe"}},
		},
		"feature_metadata": map[string]any{
			"redirect_response": map[string]any{"param": "p", "json_payload": map[string]any{"a": "b"}},
			"search_tags":       []string{"vip", "mobile"},
			"apple_pay_recurring_details": map[string]any{
				"payment_description": "Monthly plan", "management_url": "https://shop.example.com/manage",
				"billing_agreement": "agreement",
				"regular_billing": map[string]any{"label": "Plan", "recurring_payment_start_date": "2025-01-01T00:00:00Z",
					"recurring_payment_end_date": "2026-01-01T00:00:00Z", "recurring_payment_interval_unit": "month",
					"recurring_payment_interval_count": 1},
			},
		},
		"payment_link_enabled": "Enable",
		"payment_link_config": map[string]any{
			"theme": "#4E6ADD", "logo": "https://shop.example.com/logo.png", "seller_name": "Shop", "sdk_layout": "accordion",
			"display_sdk_only": true, "enabled_saved_payment_method": false, "hide_card_nickname_field": true,
			"show_card_form_by_default": true,
			"transaction_details": []any{map[string]any{"key": "Policy-Number", "value": "297472368473924",
				"ui_configuration": map[string]any{"position": 5, "is_key_bold": true, "is_value_bold": false}}},
			"background_image":         map[string]any{"url": "https://shop.example.com/bg.png", "position": "left", "size": "cover"},
			"details_layout":           "layout1",
			"payment_form_label_type":  "floating",
			"show_card_terms":          "auto",
			"skip_status_screen":       true,
			"is_setup_mandate_flow":    false,
			"payment_button_text":      "Pay now",
			"payment_link_ui_rules":    map[string]any{"#submit": map[string]any{"color": "red"}},
			"payment_form_header_text": "Checkout",
		},
		"request_incremental_authorization":        "true",
		"session_expiry":                           1200,
		"frm_metadata":                             map[string]any{"score": "low"},
		"request_external_three_ds_authentication": "Enable",
		"force_3ds_challenge":                      false,
		"merchant_connector_details":               map[string]any{"ignored": true},
		"enable_partial_authorization":             true,
	}
}

// TestV2IntentShapes pins the intent object of a minimal and of a full
// create-intent, and get-intent answering the same object.
func TestV2IntentShapes(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo

	minimal := createIntent(t, c, minimalIntent())
	assertMembers(t, "intent", minimal.obj(), intentMembers)
	assertMembers(t, "amount_details", minimal.obj()["amount_details"].(map[string]any), amountDetailsMembers)
	intentGolden(t, "v2_intent_minimal", minimal)
	id := minimal.str("id")
	if !strings.HasPrefix(id, "pay_") || minimal.str("profile_id") != d.ProfileID || minimal.str("status") != "requires_payment_method" {
		t.Fatalf("minimal intent: %s", minimal.Raw)
	}
	got := c.v2("GET", "/v2/payments/"+id+"/get-intent", d.SecretKey, d.ProfileID, nil).must(t, 200)
	if string(got.Raw) != string(minimal.Raw) {
		t.Fatalf("get-intent differs from create-intent:\n%s\n%s", got.Raw, minimal.Raw)
	}
	// Without session_expiry the client secret lives the profile's 900 s.
	wantExpiry(c, 900)(t, id, minimal)
	// The spec's minimal update request.
	upd := c.v2("PUT", "/v2/payments/"+id+"/update-intent", d.SecretKey, d.ProfileID, map[string]any{
		"amount_details": map[string]any{"currency": "GBP", "order_amount": 7000}}).must(t, 200)
	assertMembers(t, "updated intent", upd.obj(), intentMembers)
	if a := upd.obj()["amount_details"].(map[string]any); a["currency"] != "GBP" || a["order_amount"] != float64(7000) ||
		upd.str("expires_on") != minimal.str("expires_on") || upd.str("client_secret") != minimal.str("client_secret") {
		t.Fatalf("minimal update: %s", upd.Raw)
	}

	full := createIntent(t, c, fullIntent())
	assertMembers(t, "intent", full.obj(), intentMembers)
	intentGolden(t, "v2_intent_full", full)
	// The request's nested objects come back as given.
	for _, m := range []string{"billing", "shipping", "metadata", "connector_metadata", "feature_metadata",
		"payment_link_config", "frm_metadata", "allowed_payment_method_types"} {
		want, _ := json.Marshal(fullIntent()[m])
		have, _ := json.Marshal(full.obj()[m])
		if string(want) != string(have) {
			t.Errorf("%s: sent %s, got %s", m, want, have)
		}
	}
	// expires_on is the creation time plus session_expiry.
	v, err := c.srv.Payments.GetPayment(merchantCtx(d.MerchantID), full.str("id"))
	if err != nil {
		t.Fatal(err)
	}
	if want := v.Intent.CreatedAt.Add(1200 * time.Second).UTC().Format("2006-01-02T15:04:05Z"); full.str("expires_on") != want {
		t.Fatalf("expires_on %s, want %s", full.str("expires_on"), want)
	}
	// Admin key acting as the merchant (X-Merchant-Id) reads it too.
	h := v2Headers(c.admin(), d.ProfileID)
	h["X-Merchant-Id"] = d.MerchantID
	c.doWith("GET", "/v2/payments/"+full.str("id")+"/get-intent", "", nil, h).must(t, 200)
}

// TestV2IntentLifecycle: create, update, confirm with a card through the
// sandbox, then updates are refused (IR_14) and get-intent shows the
// captured amount.
func TestV2IntentLifecycle(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	in := createIntent(t, c, map[string]any{
		"amount_details": map[string]any{"currency": "USD", "order_amount": 1000},
		"metadata":       map[string]any{"a": 1, "b": 2},
	})
	id := in.str("id")
	path := "/v2/payments/" + id

	upd := c.v2("PUT", path+"/update-intent", d.SecretKey, d.ProfileID, map[string]any{
		"amount_details": map[string]any{"currency": "EUR", "order_amount": 1500, "shipping_cost": 100},
		"description":    "updated",
		"metadata":       map[string]any{"c": 3},
		"order_details":  []any{map[string]any{"product_name": "Shoe", "quantity": 3, "amount": 500}},
	}).must(t, 200)
	ad := upd.obj()["amount_details"].(map[string]any)
	if ad["currency"] != "EUR" || ad["order_amount"] != float64(1500) || ad["shipping_cost"] != float64(100) ||
		upd.str("description") != "updated" || upd.str("status") != "requires_payment_method" {
		t.Fatalf("update: %s", upd.Raw)
	}
	if m := upd.obj()["metadata"].(map[string]any); len(m) != 1 || m["c"] != float64(3) {
		t.Fatalf("metadata must replace the old value: %v", m)
	}

	conf := c.v2("POST", path+"/confirm-intent", d.SecretKey, d.ProfileID, map[string]any{
		"payment_method_type":    "card",
		"payment_method_subtype": "credit",
		"payment_method_data": map[string]any{
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "10", "card_exp_year": "35",
				"card_holder_name": "Joseph Doe", "card_cvc": "123"},
			"billing": map[string]any{"address": map[string]any{"line1": "1 Main St", "zip": "94122", "country": "US"}},
		},
		"return_url":   "https://shop.example.com/done",
		"browser_info": map[string]any{"user_agent": "Mozilla/5.0", "java_enabled": false, "color_depth": 24},
	}).must(t, 200)
	if conf.str("status") != "succeeded" || conf.str("id") != id || conf.str("connector") != "stripe_test" ||
		conf.str("payment_method_data", "card", "last4") != "4242" || conf.str("payment_method_type") != "card" {
		t.Fatalf("confirm: %s", conf.Raw)
	}
	amt := conf.obj()["amount"].(map[string]any)
	if amt["net_amount"] != float64(1600) || amt["amount_captured"] != float64(1600) {
		t.Fatalf("confirm amounts: %v", amt)
	}
	golden(t, "v2_confirm_intent", normalized(conf.Raw, id, "{payment id}", d.ConnectorAccount, "{mca id}", d.MerchantID, "{merchant id}"))
	if strings.Contains(string(conf.Raw), "4242424242424242") {
		t.Fatal("the card number is in the response")
	}

	got := c.v2("GET", path+"/get-intent", d.SecretKey, d.ProfileID, nil).must(t, 200)
	if got.str("status") != "succeeded" || got.obj()["amount_details"].(map[string]any)["amount_captured"] != float64(1600) ||
		got.str("return_url") != "https://shop.example.com/done" {
		t.Fatalf("after confirm: %s", got.Raw)
	}
	r := c.v2("PUT", path+"/update-intent", d.SecretKey, d.ProfileID, minimalIntent())
	if r.Status != 400 || r.errCode() != "IR_14" || !strings.Contains(r.str("error", "message"), "succeeded") {
		t.Fatalf("update after confirm: %d %s", r.Status, r.Raw)
	}
	if r := c.v2("POST", path+"/confirm-intent", d.SecretKey, d.ProfileID, map[string]any{
		"payment_method_type": "card", "payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": "10", "card_exp_year": "35", "card_cvc": "123"}},
	}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("confirm twice: %d %s", r.Status, r.Raw)
	}
	// The v2 payment is refundable through the v1 refund routes.
	ref := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": id, "amount": 600}).must(t, 200)
	if ref.str("payment_id") != id || ref.str("currency") != "EUR" {
		t.Fatalf("refund of a v2 payment: %s", ref.Raw)
	}
}

// TestV2ConfirmIntent covers the other outcomes and the request's checks.
func TestV2ConfirmIntent(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	card := func(number string) map[string]any {
		return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "10",
			"card_exp_year": "35", "card_holder_name": "Jane", "card_cvc": "123"}}
	}
	confirm := func(body map[string]any) response {
		t.Helper()
		id := createIntent(t, c, minimalIntent()).str("id")
		return c.v2("POST", "/v2/payments/"+id+"/confirm-intent", d.SecretKey, d.ProfileID, body)
	}
	declined := confirm(map[string]any{"payment_method_type": "card", "payment_method_data": card("4000000000000002")}).must(t, 200)
	if declined.str("status") != "failed" || declined.str("error", "code") != "card_declined" {
		t.Fatalf("declined: %s", declined.Raw)
	}
	challenge := confirm(map[string]any{"payment_method_type": "card", "payment_method_data": card("4000000000003063")}).must(t, 200)
	if challenge.str("status") != "requires_customer_action" || challenge.str("next_action", "type") != "redirect_to_url" ||
		!strings.Contains(challenge.str("next_action", "redirect_to_url"), "/sandbox/authenticate/") {
		t.Fatalf("3-D Secure: %s", challenge.Raw)
	}

	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"missing payment_method_type", map[string]any{"payment_method_data": card("4242424242424242")}, 400, "IR_04", "payment_method_type"},
		{"unknown payment_method_type", map[string]any{"payment_method_type": "cash", "payment_method_data": card("4242424242424242")}, 400, "IR_07", "payment_method_type"},
		{"missing payment_method_data", map[string]any{"payment_method_type": "card"}, 400, "IR_04", "payment_method_data"},
		{"data of another method", map[string]any{"payment_method_type": "upi", "payment_method_data": card("4242424242424242")}, 400, "IR_07", "payment_method_data"},
		{"card missing", map[string]any{"payment_method_type": "card", "payment_method_data": map[string]any{"billing": map[string]any{}}}, 400, "IR_04", "payment_method_data.card"},
		{"bad subtype", map[string]any{"payment_method_type": "card", "payment_method_subtype": "plastic", "payment_method_data": card("4242424242424242")}, 400, "IR_07", "payment_method_subtype"},
		{"Luhn", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424241")}, 400, "CE_04", "card_number"},
		{"not supported", map[string]any{"payment_method_type": "crypto", "payment_method_data": map[string]any{"crypto": map[string]any{}}}, 400, "IR_19", "not supported"},
		{"unknown card member", map[string]any{"payment_method_type": "card", "payment_method_data": map[string]any{"card": map[string]any{"number": "4242"}}}, 400, "IR_06", "payment_method_data.card.number"},
		{"saved payment method", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242"), "payment_method_id": "pm_1"}, 404, "HE_02", "Payment method"},
		{"split payments", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242"), "split_payment_method_data": []any{map[string]any{}}}, 400, "IR_20", "split"},
		{"bad return_url", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242"), "return_url": "nope"}, 400, "IR_07", "return_url"},
		{"customer_acceptance", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242"), "customer_acceptance": map[string]any{"acceptance_type": "verbal"}}, 400, "IR_07", "customer_acceptance.acceptance_type"},
		{"browser_info types", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242"), "browser_info": map[string]any{"color_depth": "24"}}, 400, "IR_06", "browser_info.color_depth"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := confirm(tc.body.(map[string]any))
			if r.Status != tc.status || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field) {
				t.Fatalf("%d %s, want %d %s naming %q", r.Status, r.Raw, tc.status, tc.code, tc.field)
			}
		})
	}
}

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
		{"statement_descriptor 22 accented", one("statement_descriptor", strings.Repeat("é", 22)), 400, "IR_07", "statement_descriptor", nil},
		{"description", one("description", strings.Repeat("d", 256)), 400, "IR_07", "description", nil},
		{"return_url", one("return_url", "ftp://shop.example.com"), 400, "IR_07", "return_url", nil},
		{"return_url ok", one("return_url", "https://shop.example.com/r"), 200, "", "", wantMember("return_url", "https://shop.example.com/r")},
		{"routing_algorithm_id", one("routing_algorithm_id", "algo_1"), 200, "", "", wantMember("routing_algorithm_id", "algo_1")},
		{"billing country", one("billing", map[string]any{"address": map[string]any{"country": "XX"}}), 400, "IR_07", "billing.address.country", nil},
		{"shipping phone code", one("shipping", map[string]any{"phone": map[string]any{"country_code": "1"}}), 400, "IR_07", "shipping.phone.country_code", nil},
		{"billing email", one("billing", map[string]any{"email": "not an email"}), 400, "IR_07", "billing.email", nil},
		{"billing unknown member", one("billing", map[string]any{"address": map[string]any{"street": "x"}}), 400, "IR_06", "billing.address.street", nil},
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

// TestV2IntentAccess: the v2 headers, the intent's state and its profile.
func TestV2IntentAccess(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	id := createIntent(t, c, minimalIntent()).str("id")
	path := "/v2/payments/" + id + "/update-intent"
	body := map[string]any{"description": "x"}

	// Missing or wrong Authorization: 401.
	for _, h := range []map[string]string{
		{"X-Profile-Id": d.ProfileID},
		{"Authorization": "api-key=snd_wrong", "X-Profile-Id": d.ProfileID},
		{"Authorization": "Bearer " + d.SecretKey, "X-Profile-Id": d.ProfileID},
	} {
		if r := c.doWith("PUT", path, "", body, h); r.Status != 401 || r.errCode() != "IR_01" {
			t.Fatalf("%v: %d %s", h, r.Status, r.Raw)
		}
	}
	// Missing X-Profile-Id: 400 naming it.
	if r := c.v2("PUT", path, d.SecretKey, "", body); r.Status != 400 || r.errCode() != "IR_04" || !strings.Contains(r.str("error", "message"), "X-Profile-Id") {
		t.Fatalf("no X-Profile-Id: %d %s", r.Status, r.Raw)
	}
	// A profile of another merchant: 404, as any foreign id.
	_, otherKey, otherProfile := otherMerchant(t, c, "merchant_v2_b")
	for _, method := range []string{"PUT", "GET"} {
		p := path
		if method == "GET" {
			p = "/v2/payments/" + id + "/get-intent"
		}
		if r := c.v2(method, p, d.SecretKey, otherProfile, body); r.Status != 404 || r.errCode() != "HE_02" {
			t.Fatalf("%s with another merchant's profile: %d %s", method, r.Status, r.Raw)
		}
		// The other merchant, with its own profile, does not see the intent.
		if r := c.v2(method, p, otherKey, otherProfile, body); r.Status != 404 || r.errCode() != "HE_02" {
			t.Fatalf("%s by another merchant: %d %s", method, r.Status, r.Raw)
		}
	}
	// Another profile of the same merchant does not see it either.
	second := c.do("POST", "/account/"+d.MerchantID+"/business_profile", d.SecretKey, map[string]any{"profile_name": "second"}).must(t, 200).str("profile_id")
	if r := c.v2("PUT", path, d.SecretKey, second, body); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("another profile: %d %s", r.Status, r.Raw)
	}
	if r := c.v2("POST", "/v2/payments/"+id+"/confirm-intent", d.SecretKey, second, map[string]any{
		"payment_method_type": "card", "payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": "10", "card_exp_year": "35", "card_cvc": "123"}}}); r.Status != 404 {
		t.Fatalf("confirm under another profile: %d %s", r.Status, r.Raw)
	}
	// An intent created under the second profile belongs to it.
	in2 := c.v2("POST", "/v2/payments/create-intent", d.SecretKey, second, minimalIntent()).must(t, 200)
	if in2.str("profile_id") != second {
		t.Fatalf("profile_id: %s", in2.Raw)
	}
	// Unknown id: 404.
	if r := c.v2("PUT", "/v2/payments/pay_unknown/update-intent", d.SecretKey, d.ProfileID, body); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown id: %d %s", r.Status, r.Raw)
	}
	// Wrong method: 405.
	if r := c.v2("POST", path, d.SecretKey, d.ProfileID, body); r.Status != 405 {
		t.Fatalf("POST update-intent: %d %s", r.Status, r.Raw)
	}

	// Updatable only in requires_payment_method and requires_confirmation:
	// a cancelled and a failed intent refuse with IR_14.
	if _, err := c.srv.Payments.CancelPayment(merchantCtx(d.MerchantID), id, nil); err != nil {
		t.Fatal(err)
	}
	r := c.v2("PUT", path, d.SecretKey, d.ProfileID, body)
	if r.Status != 400 || r.errCode() != "IR_14" ||
		r.str("error", "message") != "This Payment could not be updated because it has a status of cancelled. The expected state is requires_payment_method or requires_confirmation" {
		t.Fatalf("cancelled: %d %s", r.Status, r.Raw)
	}
	failed := createIntent(t, c, minimalIntent()).str("id")
	c.v2("POST", "/v2/payments/"+failed+"/confirm-intent", d.SecretKey, d.ProfileID, map[string]any{
		"payment_method_type": "card", "payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4000000000000002", "card_exp_month": "10", "card_exp_year": "35", "card_cvc": "123"}}}).must(t, 200)
	if r := c.v2("PUT", "/v2/payments/"+failed+"/update-intent", d.SecretKey, d.ProfileID, body); r.errCode() != "IR_14" {
		t.Fatalf("failed: %d %s", r.Status, r.Raw)
	}
}

// TestV2ConfirmIntentWithPublishableKey: confirm-intent is the client's
// call (Hyperswitch v2's publishable_key__client_secret scheme): the
// publishable key with the intent's client secret confirms it; a missing or
// another intent's secret, a server-only member, or the publishable key on a
// server route is refused.
func TestV2ConfirmIntentWithPublishableKey(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	card := map[string]any{"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "10",
		"card_exp_year": "35", "card_holder_name": "Jane", "card_cvc": "123"}}
	body := map[string]any{"payment_method_type": "card", "payment_method_data": card}
	clientAuth := func(secret string) map[string]string {
		h := map[string]string{"X-Profile-Id": d.ProfileID, "Authorization": "publishable-key=" + d.PublishableKey}
		if secret != "" {
			h["Authorization"] += ",client-secret=" + secret
		}
		return h
	}
	intent := createIntent(t, c, minimalIntent())
	other := createIntent(t, c, minimalIntent())
	path := "/v2/payments/" + intent.str("id") + "/confirm-intent"
	for _, tc := range []struct {
		name    string
		headers map[string]string
		body    map[string]any
		status  int
		code    string
	}{
		{"no client secret", clientAuth(""), body, 400, "IR_08"},
		{"another intent's secret", clientAuth(other.str("client_secret")), body, 400, "IR_09"},
		{"server-only member", clientAuth(intent.str("client_secret")),
			map[string]any{"payment_method_type": "card", "payment_method_data": card, "webhook_url": "https://example.com"}, 403, "IR_22"},
		{"unknown publishable key", map[string]string{"X-Profile-Id": d.ProfileID,
			"Authorization": "publishable-key=pk_snd_nope,client-secret=" + intent.str("client_secret")}, body, 401, "IR_01"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.doWith("POST", path, "", tc.body, tc.headers)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("%d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
		})
	}
	if r := c.doWith("GET", "/v2/payments/"+intent.str("id")+"/get-intent", "", nil, clientAuth(intent.str("client_secret"))); r.Status != 401 {
		t.Fatalf("publishable key on get-intent: %d %s", r.Status, r.Raw)
	}
	r := c.doWith("POST", path, "", body, clientAuth(intent.str("client_secret"))).must(t, 200)
	if r.str("status") != "succeeded" {
		t.Fatalf("%s", r.Raw)
	}
}
