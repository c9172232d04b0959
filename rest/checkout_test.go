package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// cardKeys are a merchant's two keys.
type cardKeys struct{ secret, publishable string }

// cardsOnlyMerchant is a merchant whose one connector takes Visa and
// Mastercard credit cards in USD up to 1,000.00, and nothing else.
func cardsOnlyMerchant(t *testing.T, c *client, id string) cardKeys {
	t.Helper()
	acct := c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": id, "merchant_name": "Cards Only"}).must(t, 200)
	key := c.do("POST", "/api_keys/"+id, c.admin(), map[string]any{"name": "k", "expiration": "never"}).must(t, 200)
	c.do("POST", "/account/"+id+"/connectors", key.str("api_key"), map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe_test",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_" + id + "_credential"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit", "card_networks": []string{"Visa", "Mastercard"},
				"accepted_currencies": map[string]any{"type": "enable_only", "list": []string{"USD"}},
				"minimum_amount":      1, "maximum_amount": 100000},
		}}},
	}).must(t, 200)
	return cardKeys{secret: key.str("api_key"), publishable: acct.str("publishable_key")}
}

// checkoutPayment is an unconfirmed payment of the demo merchant for
// customer (none when empty), as a merchant's server creates it before the
// checkout page loads.
func checkoutPayment(t *testing.T, c *client, customer string, members map[string]any) (id, secret string) {
	t.Helper()
	body := payment(map[string]any{"return_url": "https://shop.example/return"})
	if customer != "" {
		body["customer_id"] = customer
	}
	for k, v := range members {
		body[k] = v
	}
	r := c.pay("POST", "/payments", body).must(t, 200)
	return r.str("payment_id"), r.str("client_secret")
}

// TestCheckoutClientRoutes: the two calls the checkout SDK cannot mount
// without answer, with the publishable key and the client secret, from the
// payment's real state: the methods its profile's connectors enable for
// it, the customer's saved cards with their tokens, the intent, and the
// profile's checkout settings.
func TestCheckoutClientRoutes(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	c.pay("POST", "/payments", savingPayment("cus_checkout", "4242424242424242", "on_session")).must(t, 200)
	id, secret := checkoutPayment(t, c, "cus_checkout", nil)

	r := c.do("GET", "/payments/"+id+"/client?client_secret="+secret, pk, nil).must(t, 200)
	enabled := r.list("payment_methods_enabled")
	var credit map[string]any
	for _, m := range enabled {
		if m["payment_method"] == "card" && m["payment_method_type"] == "credit" {
			credit = m
		}
	}
	if credit == nil {
		t.Fatalf("no credit card among the enabled methods: %s", r.Raw)
	}
	networks, _ := credit["card_networks"].([]any)
	if len(networks) == 0 {
		t.Fatalf("card_networks must list the networks as strings: %v", credit)
	}
	for _, n := range networks {
		if _, ok := n.(string); !ok {
			t.Fatalf("card network %v is not a string", n)
		}
	}
	saved := r.list("customer_payment_methods")
	if len(saved) != 1 || saved[0]["payment_token"] == "" || saved[0]["requires_cvv"] != true {
		t.Fatalf("saved cards: %s", r.Raw)
	}
	if last4 := saved[0]["payment_method_data"].(map[string]any)["card"].(map[string]any)["last4_digits"]; last4 != "4242" {
		t.Fatalf("saved card under payment_method_data.card: %v", saved[0])
	}
	intent := r.obj()["intent_data"].(map[string]any)
	for k, want := range map[string]any{"currency": "USD", "payment_type": "normal", "merchant_name": "Demo merchant",
		"customer_id": "cus_checkout", "is_guest_customer": false, "is_tax_calculation_enabled": false} {
		if intent[k] != want {
			t.Fatalf("intent_data.%s = %v, want %v: %s", k, intent[k], want, r.Raw)
		}
	}
	if r.str("sdk_next_action", "next_action") != "confirm" {
		t.Fatalf("sdk_next_action: %s", r.Raw)
	}

	cfg := c.do("GET", "/v1/sdk/configs/web/sdk_config.json?client_secret="+secret, pk, nil).must(t, 200)
	methods := cfg.list("payment_methods")
	if len(methods) == 0 || methods[0]["payment_method"] == "" {
		t.Fatalf("sdk config methods: %s", cfg.Raw)
	}
	types := methods[0]["payment_method_types"].([]any)[0].(map[string]any)
	rules := types["criteria_rules"].([]any)
	if types["payment_method_criteria"] != "all" || len(rules) != 1 || len(rules[0].(map[string]any)["eligible_connectors"].([]any)) == 0 {
		t.Fatalf("sdk config rule: %v", types)
	}
	if cfg.str("account_config", "profile", "vaulting_action") != "skip" || cfg.str("context_used", "profile_id") == "" ||
		cfg.obj()["raw_configs"] == nil {
		t.Fatalf("sdk config: %s", cfg.Raw)
	}

	// A guest payment: no saved cards, and the checkout knows it.
	gid, gsecret := checkoutPayment(t, c, "", nil)
	g := c.do("GET", "/payments/"+gid+"/client?client_secret="+gsecret, pk, nil).must(t, 200)
	if len(g.list("customer_payment_methods")) != 0 || g.obj()["intent_data"].(map[string]any)["is_guest_customer"] != true {
		t.Fatalf("guest checkout: %s", g.Raw)
	}
}

// TestCheckoutMethodsFollowThePayment: payment_methods_enabled is the
// same rule as GET /account/payment_methods: a currency or an amount the
// connector does not take leaves nothing to offer.
func TestCheckoutMethodsFollowThePayment(t *testing.T) {
	c := newClient(t)
	m := cardsOnlyMerchant(t, c, "merchant_cards_only")
	for _, tc := range []struct {
		name   string
		body   map[string]any
		credit bool
	}{
		{"USD within the limit", payment(nil), true},
		{"a currency the connector does not take", map[string]any{"amount": 10000, "currency": "EUR"}, false},
		{"above the connector's maximum", map[string]any{"amount": 100001, "currency": "USD"}, false},
	} {
		p := c.do("POST", "/payments", m.secret, tc.body).must(t, 200)
		r := c.do("GET", "/payments/"+p.str("payment_id")+"/client?client_secret="+p.str("client_secret"), m.publishable, nil).must(t, 200)
		enabled := r.list("payment_methods_enabled")
		if got := len(enabled) == 1 && enabled[0]["payment_method_type"] == "credit"; got != tc.credit {
			t.Fatalf("%s: %s", tc.name, r.Raw)
		}
		if tc.credit && len(enabled[0]["card_networks"].([]any)) != 2 {
			t.Fatalf("%s: networks %v", tc.name, enabled[0]["card_networks"])
		}
		if r.str("intent_data", "merchant_name") != "Cards Only" {
			t.Fatalf("%s: merchant name: %s", tc.name, r.Raw)
		}
	}
}

// TestCheckoutRoutesRefuse: the client routes tell nothing without the
// payment's own secret and the merchant's publishable key.
func TestCheckoutRoutesRefuse(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	id, secret := checkoutPayment(t, c, "", nil)
	otherID, otherSecret := checkoutPayment(t, c, "", nil)
	other := cardsOnlyMerchant(t, c, "merchant_other_checkout")
	expiredID, expiredSecret := checkoutPayment(t, c, "", map[string]any{"session_expiry": 0})
	for _, tc := range []struct {
		name, key, path string
		status          int
		code            string
	}{
		{"no secret", pk, "/payments/" + id + "/client", 400, "IR_08"},
		{"a wrong secret", pk, "/payments/" + id + "/client?client_secret=" + secret + "x", 400, "IR_09"},
		{"another payment's secret", pk, "/payments/" + id + "/client?client_secret=" + otherSecret, 400, "IR_09"},
		{"the secret key", c.merchantKey(), "/payments/" + id + "/client?client_secret=" + secret, 401, "IR_01"},
		{"another merchant's publishable key", other.publishable, "/payments/" + id + "/client?client_secret=" + secret, 400, "IR_09"},
		{"an unknown query parameter", pk, "/payments/" + id + "/client?client_secret=" + secret + "&amount=1", 400, "IR_06"},
		{"an expired payment", pk, "/payments/" + expiredID + "/client?client_secret=" + expiredSecret, 400, "IR_08"},
		{"config: an expired payment", pk, "/v1/sdk/configs/web/sdk_config.json?client_secret=" + expiredSecret, 400, "IR_08"},
		{"config: no secret", pk, "/v1/sdk/configs/web/sdk_config.json", 400, "IR_08"},
		{"config: a wrong secret", pk, "/v1/sdk/configs/web/sdk_config.json?client_secret=" + otherID + "_secret_nope", 400, "IR_09"},
		{"config: the secret key", c.merchantKey(), "/v1/sdk/configs/web/sdk_config.json?client_secret=" + secret, 401, "IR_01"},
		{"config: another merchant's publishable key", other.publishable, "/v1/sdk/configs/web/sdk_config.json?client_secret=" + secret, 400, "IR_09"},
	} {
		r := c.do("GET", tc.path, tc.key, nil)
		if r.Status != tc.status || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
		if strings.Contains(tc.name, "expired") && !strings.Contains(string(r.Raw), "expired") {
			t.Fatalf("%s: %s does not say the secret expired", tc.name, r.Raw)
		}
		if strings.Contains(string(r.Raw), "payment_methods") {
			t.Fatalf("%s: leaked methods: %s", tc.name, r.Raw)
		}
	}
}

// sdkCardConfirm is the body Hyperswitch's checkout SDK confirms a card
// with: the card, the browser, the intent's payment_type, and more.
func sdkCardConfirm(secret, number string, more map[string]any) map[string]any {
	body := map[string]any{"client_secret": secret, "return_url": "https://shop.example/return",
		"payment_method": "card", "payment_method_type": "debit", "payment_type": "normal",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "12",
			"card_exp_year": futureYear, "card_cvc": "123", "card_network": "Visa", "card_holder_name": ""}},
		"browser_info": map[string]any{"user_agent": "Mozilla/5.0", "accept_header": "*/*", "language": "en-US",
			"color_depth": 24, "screen_height": 1080, "screen_width": 1920, "time_zone": -60,
			"java_enabled": true, "java_script_enabled": true, "device_model": "Linux", "os_type": "Linux", "os_version": ""}}
	for k, v := range more {
		body[k] = v
	}
	return body
}

// TestCheckoutConfirmAsTheSDK: a publishable-key confirm takes every
// member the SDK sends (payment_type, customer_acceptance, billing,
// installment_data, mandate_data, the surcharge it showed, a saved card's
// token with its CVC and the payment's customer), and still refuses what a
// shopper must not set.
func TestCheckoutConfirmAsTheSDK(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey

	// The merchant sets the surcharge; the SDK sends back the one it showed.
	id, secret := checkoutPayment(t, c, "", map[string]any{"surcharge_details": map[string]any{"surcharge_amount": 250, "tax_amount": 50}})
	r := c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4242424242424242", map[string]any{
		"billing": billingAddress, "installment_data": map[string]any{"number_of_installments": 1, "billing_frequency": "month"},
		"surcharge_details": map[string]any{"surcharge_amount": 250, "tax_amount": 50},
	})).must(t, 200)
	checkMoney(t, r)
	if r.str("status") != "succeeded" || r.num("net_amount") != 10300 || r.num("amount_received") != 10300 ||
		r.obj()["surcharge_details"].(map[string]any)["surcharge_amount"] != 250.0 {
		t.Fatalf("SDK confirm with a surcharge: %s", r.Raw)
	}

	// Saving the card for the customer, then paying with it as the SDK's
	// saved-card body does: payment_token, card_cvc and customer_id at the top.
	sid, ssecret := checkoutPayment(t, c, "cus_sdk", map[string]any{"setup_future_usage": "off_session"})
	c.do("POST", "/payments/"+sid+"/confirm", pk, sdkCardConfirm(ssecret, "4242424242424242", map[string]any{
		"customer_acceptance": acceptance, "setup_future_usage": "off_session",
		"mandate_data": map[string]any{"customer_acceptance": acceptance},
	})).must(t, 200)
	nid, nsecret := checkoutPayment(t, c, "cus_sdk", nil)
	list := c.do("GET", "/payments/"+nid+"/client?client_secret="+nsecret, pk, nil).must(t, 200).list("customer_payment_methods")
	if len(list) != 1 {
		t.Fatalf("the saved card: %v", list)
	}
	token := list[0]["payment_token"]
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"another customer", map[string]any{"customer_id": "cus_someone_else"}, "IR_22"},
		{"the amount", map[string]any{"amount": 1}, "IR_22"},
		{"the currency", map[string]any{"currency": "EUR"}, "IR_22"},
		{"the connector", map[string]any{"connector": []string{"stripe_test"}}, "IR_22"},
		{"the metadata", map[string]any{"metadata": map[string]any{"x": 1}}, "IR_22"},
	} {
		body := map[string]any{"client_secret": nsecret, "payment_method": "card", "payment_token": token,
			"card_cvc": "123", "customer_id": "cus_sdk"}
		for k, v := range tc.body {
			body[k] = v
		}
		if r := c.do("POST", "/payments/"+nid+"/confirm", pk, body); r.Status != 403 || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want 403 %s", tc.name, r.Status, r.Raw, tc.code)
		}
	}
	r = c.do("POST", "/payments/"+nid+"/confirm", pk, map[string]any{"client_secret": nsecret, "payment_method": "card",
		"payment_token": token, "card_cvc": "123", "customer_id": "cus_sdk", "payment_type": "normal"}).must(t, 200)
	if r.str("status") != "succeeded" || r.str("payment_method_data", "card", "last4") != "4242" {
		t.Fatalf("paying with the saved card: %s", r.Raw)
	}
}

// TestCheckoutThreeDS: a 3-D Secure card confirmed from the browser waits
// for its customer; the SDK's external-authentication and poll routes see
// it wait; the sandbox's challenge page returns to the merchant's
// return_url; complete_authorize and a forced sync then answer succeeded.
func TestCheckoutThreeDS(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	id, secret := checkoutPayment(t, c, "", nil)
	poll := "/poll/status/external_authentication_" + id
	if r := c.do("POST", "/payments/"+id+"/3ds/authentication", pk, map[string]any{"client_secret": secret,
		"device_channel": "BRW", "threeds_method_comp_ind": "N"}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("authentication before confirm: %d %s", r.Status, r.Raw)
	}
	r := c.do("POST", "/payments/"+id+"/confirm", pk, sdkCardConfirm(secret, "4000000000003220", nil)).must(t, 200)
	if r.str("status") != "requires_customer_action" || r.str("next_action", "type") != "redirect_to_url" {
		t.Fatalf("3DS confirm: %s", r.Raw)
	}
	auth := c.do("POST", "/payments/"+id+"/3ds/authentication", pk, map[string]any{"client_secret": secret,
		"device_channel": "BRW", "threeds_method_comp_ind": "N"}).must(t, 200)
	if auth.str("trans_status") != "C" || auth.str("acs_url") != r.str("next_action", "redirect_to_url") {
		t.Fatalf("3ds authentication: %s", auth.Raw)
	}
	if p := c.do("GET", poll, pk, nil).must(t, 200); p.str("status") != "pending" || p.str("poll_id") != "external_authentication_"+id {
		t.Fatalf("poll while waiting: %s", p.Raw)
	}

	back := authenticate(t, r, "Approve")
	loc, err := back.Location()
	if back.StatusCode != http.StatusSeeOther || err != nil || loc.Host != "shop.example" ||
		loc.Query().Get("payment_id") != id || loc.Query().Get("status") != "succeeded" {
		t.Fatalf("the challenge page's return: %d %v", back.StatusCode, loc)
	}
	if p := c.do("GET", poll, pk, nil).must(t, 200); p.str("status") != "completed" {
		t.Fatalf("poll after the challenge: %s", p.Raw)
	}
	done := c.do("POST", "/payments/"+id+"/complete_authorize", pk, map[string]any{"client_secret": secret,
		"threeds_method_comp_ind": "Y"}).must(t, 200)
	synced := c.do("GET", "/payments/"+id+"?force_sync=true&client_secret="+secret, pk, nil).must(t, 200)
	if done.str("status") != "succeeded" || synced.str("status") != "succeeded" {
		t.Fatalf("after the challenge: %s / %s", done.Raw, synced.Raw)
	}

	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"complete_authorize with a wrong secret", "POST", "/payments/" + id + "/complete_authorize", map[string]any{"client_secret": "x"}, 400, "IR_09"},
		{"complete_authorize without a secret", "POST", "/payments/" + id + "/complete_authorize", map[string]any{}, 400, "IR_08"},
		{"a poll of no payment", "GET", "/poll/status/external_authentication_pay_nothing", nil, 404, "HE_02"},
		{"a poll id of another kind", "GET", "/poll/status/" + id, nil, 404, "HE_02"},
	} {
		if r := c.do(tc.method, tc.path, pk, tc.body); r.Status != tc.status || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
}
