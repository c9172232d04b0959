package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

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
		{"Luhn", map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424241")}, 400, "IR_06", "card number invalid"},
		{"not supported", map[string]any{"payment_method_type": "network_token", "payment_method_data": map[string]any{"network_token": map[string]any{}}}, 400, "IR_19", "not supported"},
		{"two wallets", map[string]any{"payment_method_type": "wallet", "payment_method_data": map[string]any{"wallet": map[string]any{"paypal_redirect": map[string]any{}, "ali_pay_redirect": map[string]any{}}}}, 400, "IR_07", "payment_method_data.wallet"},
		{"sepa debit without iban", map[string]any{"payment_method_type": "bank_debit", "payment_method_data": map[string]any{"bank_debit": map[string]any{"sepa_bank_debit": map[string]any{"bank_account_holder_name": "A"}}}}, 400, "IR_04", "payment_method_data.bank_debit.sepa_bank_debit.iban"},
		// Card ignores unknown members, as in Hyperswitch: a misspelt number is a missing one.
		{"misspelt card member", map[string]any{"payment_method_type": "card", "payment_method_data": map[string]any{"card": map[string]any{"number": "4242"}}}, 400, "IR_04", "payment_method_data.card.card_number"},
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
