package rest_test

import (
	"strings"
	"testing"
)

// savingPayment is a confirmed card payment that keeps the card for customer.
func savingPayment(customer, number, usage string) map[string]any {
	return payment(map[string]any{"confirm": true, "customer_id": customer, "setup_future_usage": usage,
		"customer_acceptance": acceptance, "payment_method": "card", "payment_method_data": card(number)})
}

func savedMethods(t *testing.T, c *client, customer string) []map[string]any {
	t.Helper()
	return c.do("GET", "/customers/"+customer+"/payment_methods", c.merchantKey(), nil).must(t, 200).list("customer_payment_methods")
}

// TestSavedCardEndToEnd: a payment with setup_future_usage keeps its card
// (once per card), the checkout lists the customer's cards with the
// publishable key and the payment's client secret, and pays with one by
// payment_token and card_cvc; a declined card is not kept; a deleted one
// cannot pay; the default can be moved.
func TestSavedCardEndToEnd(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.pay("POST", "/payments", savingPayment("cus_saver", "4242424242424242", "on_session")).must(t, 200)
	c.pay("POST", "/payments", savingPayment("cus_saver", "4242424242424242", "on_session")).must(t, 200)
	c.pay("POST", "/payments", savingPayment("cus_saver", "5555555555554444", "off_session")).must(t, 200)
	if r := c.pay("POST", "/payments", savingPayment("cus_saver", "4000000000000002", "on_session")).must(t, 200); r.str("status") != "failed" {
		t.Fatalf("declined card: %s", r.Raw)
	}
	pms := savedMethods(t, c, "cus_saver")
	if len(pms) != 2 {
		t.Fatalf("saved methods: %v", pms)
	}
	byLast4 := map[string]map[string]any{}
	for _, pm := range pms {
		byLast4[pm["card"].(map[string]any)["last4_digits"].(string)] = pm
	}
	visa, mc := byLast4["4242"], byLast4["4444"]
	if visa == nil || mc == nil || visa["default_payment_method_set"] != true || mc["default_payment_method_set"] != false ||
		visa["recurring_enabled"] != false || mc["recurring_enabled"] != true || visa["requires_cvv"] != true {
		t.Fatalf("saved methods: %v", pms)
	}
	if got := c.do("GET", "/customers/cus_saver", key, nil).must(t, 200).str("default_payment_method_id"); got != visa["payment_method_id"] {
		t.Fatalf("default payment method: %s", got)
	}

	// The checkout: a payment for the customer, its saved cards, paid with one.
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_saver"})).must(t, 200)
	id, secret, pk := created.str("payment_id"), created.str("client_secret"), c.srv.Demo.PublishableKey
	listed := c.do("GET", "/customers/payment_methods?client_secret="+secret, pk, nil).must(t, 200).list("customer_payment_methods")
	if len(listed) != 2 {
		t.Fatalf("the checkout's list: %v", listed)
	}
	if r := c.do("GET", "/customers/payment_methods?client_secret="+secret+"x", pk, nil); r.Status != 400 {
		t.Fatalf("a wrong client secret: %d %s", r.Status, r.Raw)
	}
	paid := c.do("POST", "/payments/"+id+"/confirm", pk, map[string]any{"client_secret": secret, "payment_method": "card",
		"payment_token": visa["payment_token"], "payment_method_data": map[string]any{"card_token": map[string]any{"card_cvc": "123"}}}).must(t, 200)
	pmd := paid.obj()["payment_method_data"].(map[string]any)["card"].(map[string]any)
	if paid.str("status") != "succeeded" || pmd["last4"] != "4242" {
		t.Fatalf("paid with a saved card: %s", paid.Raw)
	}
	if n := len(savedMethods(t, c, "cus_saver")); n != 2 {
		t.Fatalf("paying with a saved card saved %d methods", n)
	}

	// Refusals.
	other := c.pay("POST", "/payments", savingPayment("cus_other", "4242424242424242", "on_session")).must(t, 200)
	_ = other
	otherToken := savedMethods(t, c, "cus_other")[0]["payment_token"]
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"another customer's card", map[string]any{"customer_id": "cus_saver", "confirm": true, "payment_token": otherToken}, "IR_16"},
		{"an unknown token", map[string]any{"customer_id": "cus_saver", "confirm": true, "payment_token": "pm_nothing"}, "IR_16"},
		{"no customer", map[string]any{"confirm": true, "payment_token": visa["payment_token"]}, "IR_04"},
		{"a bad code", map[string]any{"customer_id": "cus_saver", "confirm": true, "payment_token": visa["payment_token"],
			"payment_method_data": map[string]any{"card_token": map[string]any{"card_cvc": "12"}}}, "IR_07"},
		{"card details beside it", map[string]any{"customer_id": "cus_saver", "confirm": true, "payment_token": visa["payment_token"],
			"payment_method_data": card("4242424242424242")}, "IR_07"},
		{"card_token alone", map[string]any{"customer_id": "cus_saver", "confirm": true,
			"payment_method_data": map[string]any{"card_token": map[string]any{"card_cvc": "123"}}}, "IR_04"},
	} {
		if r := c.do("POST", "/payments", key, payment(tc.body)); r.Status != 400 || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want 400 %s", tc.name, r.Status, r.Raw, tc.code)
		}
	}

	// One method, its default, its deletion.
	mcID := mc["payment_method_id"].(string)
	if r := c.do("GET", "/payment_methods/"+mcID, key, nil).must(t, 200); r.str("customer_id") != "cus_saver" || r.str("card", "last4_digits") != "4444" {
		t.Fatalf("GET payment method: %s", r.Raw)
	}
	if r := c.do("POST", "/cus_saver/payment_methods/"+mcID+"/default", key, nil).must(t, 200); r.str("default_payment_method_id") != mcID {
		t.Fatalf("set default: %s", r.Raw)
	}
	if r := c.do("POST", "/cus_saver/payment_methods/"+mcID+"/default", key, nil); r.Status != 400 {
		t.Fatalf("set default twice: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/cus_other/payment_methods/"+mcID+"/default", key, nil); r.Status != 404 {
		t.Fatalf("another customer's method as default: %d %s", r.Status, r.Raw)
	}
	visaID := visa["payment_method_id"].(string)
	if r := c.do("DELETE", "/payment_methods/"+visaID, key, nil).must(t, 200); r.str("payment_method_id") != visaID || r.obj()["deleted"] != true {
		t.Fatalf("delete: %s", r.Raw)
	}
	if n := len(savedMethods(t, c, "cus_saver")); n != 1 {
		t.Fatalf("after delete: %d methods", n)
	}
	if r := c.do("POST", "/payments", key, payment(map[string]any{"customer_id": "cus_saver", "confirm": true, "payment_token": visaID})); r.Status != 400 {
		t.Fatalf("paying with a deleted card: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/payment_methods/"+visaID, key, nil); r.Status != 404 {
		t.Fatalf("GET a deleted method: %d %s", r.Status, r.Raw)
	}
	// Another merchant sees none of it.
	m := makeMerchant(t, c, "merchant_saved")
	if r := c.do("GET", "/payment_methods/"+mcID, m.key, nil); r.Status != 404 {
		t.Fatalf("another merchant's method: %d %s", r.Status, r.Raw)
	}
	if r := c.do("DELETE", "/payment_methods/"+mcID, m.key, nil); r.Status != 404 {
		t.Fatalf("another merchant deleting: %d %s", r.Status, r.Raw)
	}
}

// TestEphemeralKeys: a secret key makes a customer's ephemeral key; it
// reads that customer and sets its default payment method, and nothing
// else; once deleted it is refused.
func TestEphemeralKeys(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.pay("POST", "/payments", savingPayment("cus_eph", "4242424242424242", "on_session")).must(t, 200)
	c.pay("POST", "/payments", savingPayment("cus_eph", "5555555555554444", "on_session")).must(t, 200)
	c.do("POST", "/customers", key, map[string]any{"customer_id": "cus_eph_other"}).must(t, 200)
	ek := c.do("POST", "/ephemeral_keys", key, map[string]any{"customer_id": "cus_eph"}).must(t, 200)
	secret := ek.str("secret")
	if !strings.HasPrefix(secret, "epk_") || ek.str("customer_id") != "cus_eph" || ek.num("expires")-ek.num("created_at") != 3600 {
		t.Fatalf("ephemeral key: %s", ek.Raw)
	}
	if r := c.do("GET", "/customers/cus_eph", secret, nil).must(t, 200); r.str("customer_id") != "cus_eph" {
		t.Fatalf("its customer: %s", r.Raw)
	}
	var second string
	for _, pm := range savedMethods(t, c, "cus_eph") {
		if pm["default_payment_method_set"] == false {
			second = pm["payment_method_id"].(string)
		}
	}
	if r := c.do("POST", "/cus_eph/payment_methods/"+second+"/default", secret, nil).must(t, 200); r.str("default_payment_method_id") != second {
		t.Fatalf("default by ephemeral key: %s", r.Raw)
	}
	for _, call := range []struct{ method, path string }{
		{"GET", "/customers/cus_eph_other"}, // another customer
		{"POST", "/cus_eph_other/payment_methods/" + second + "/default"},
	} {
		if r := c.do(call.method, call.path, secret, nil); r.Status != 404 {
			t.Fatalf("%s %s with the key: %d %s", call.method, call.path, r.Status, r.Raw)
		}
	}
	for _, call := range []struct{ method, path string }{
		{"GET", "/customers/list"}, {"GET", "/customers/cus_eph/payment_methods"}, {"POST", "/payments"},
		{"DELETE", "/customers/cus_eph"},
	} {
		if r := c.do(call.method, call.path, secret, map[string]any{}); r.Status != 401 {
			t.Fatalf("%s %s with an ephemeral key: %d %s", call.method, call.path, r.Status, r.Raw)
		}
	}
	if r := c.do("POST", "/ephemeral_keys", key, map[string]any{"customer_id": "cus_nobody"}); r.Status != 404 {
		t.Fatalf("a key for an unknown customer: %d %s", r.Status, r.Raw)
	}
	other := makeMerchant(t, c, "merchant_eph")
	if r := c.do("DELETE", "/ephemeral_keys/"+secret, other.key, nil); r.Status != 404 {
		t.Fatalf("another merchant deleting the key: %d %s", r.Status, r.Raw)
	}
	c.do("DELETE", "/ephemeral_keys/"+secret, key, nil).must(t, 200)
	if r := c.do("GET", "/customers/cus_eph", secret, nil); r.Status != 401 {
		t.Fatalf("a deleted key: %d %s", r.Status, r.Raw)
	}
}

// methodTypes are the payment_method/payment_method_type pairs of a
// PaymentMethodListResponse.
func methodTypes(r response) []string {
	var out []string
	for _, pm := range r.list("payment_methods") {
		for _, t := range pm["payment_method_types"].([]any) {
			out = append(out, pm["payment_method"].(string)+"/"+t.(map[string]any)["payment_method_type"].(string))
		}
	}
	return out
}

// TestAccountPaymentMethods: the checkout's list of what it may offer is
// what the merchant's connector accounts enable for the payment's amount,
// currency and country; the sandbox account enables everything the
// simulator serves.
func TestAccountPaymentMethods(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	created := c.pay("POST", "/payments", payment(map[string]any{"billing": billingAddress})).must(t, 200)
	secret := created.str("client_secret")
	r := c.do("GET", "/account/payment_methods?client_secret="+secret, d.PublishableKey, nil).must(t, 200)
	got := strings.Join(methodTypes(r), " ")
	for _, want := range []string{"card/credit", "card/debit", "wallet/apple_pay", "pay_later/klarna", "bank_redirect/ideal", "upi/upi_collect"} {
		if !strings.Contains(got, want) {
			t.Fatalf("sandbox methods %q lack %s: %s", got, want, r.Raw)
		}
	}
	if r.str("currency") != "USD" || r.obj()["is_guest_customer"] != true || r.str("sdk_next_action", "next_action") != "confirm" {
		t.Fatalf("list: %s", r.Raw)
	}
	if r := c.do("GET", "/account/payment_methods", d.PublishableKey, nil); r.Status != 400 || r.errCode() != "IR_08" {
		t.Fatalf("publishable key without a client secret: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/account/payment_methods?client_secret=pay_x_secret_y", d.PublishableKey, nil); r.Status != 400 {
		t.Fatalf("a made-up client secret: %d %s", r.Status, r.Raw)
	}

	// Only EUR cards from 50.00, on the demo account.
	c.do("POST", "/account/"+d.MerchantID+"/connectors/"+d.ConnectorAccount, d.SecretKey, map[string]any{
		"connector_type": "payment_processor",
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit", "card_networks": []string{"Visa"}, "minimum_amount": 5000,
				"accepted_currencies": map[string]any{"type": "enable_only", "list": []string{"EUR"}}}}}},
	}).must(t, 200)
	for _, tc := range []struct {
		members map[string]any
		want    string
	}{
		{map[string]any{"currency": "USD"}, ""},
		{map[string]any{"currency": "EUR"}, "card/credit"},
		{map[string]any{"currency": "EUR", "amount": 1000}, ""},
	} {
		p := c.pay("POST", "/payments", payment(tc.members)).must(t, 200)
		r := c.do("GET", "/account/payment_methods?client_secret="+p.str("client_secret"), d.PublishableKey, nil).must(t, 200)
		if got := strings.Join(methodTypes(r), " "); got != tc.want {
			t.Fatalf("%v: %q, want %q", tc.members, got, tc.want)
		}
	}
	// The secret key filters by the query.
	if r := c.do("GET", "/account/payment_methods?accepted_currencies=EUR&amount=6000", d.SecretKey, nil).must(t, 200); strings.Join(methodTypes(r), " ") != "card/credit" {
		t.Fatalf("secret key, EUR 60.00: %s", r.Raw)
	}
	if r := c.do("GET", "/account/payment_methods?amount=x", d.SecretKey, nil); r.Status != 400 {
		t.Fatalf("amount=x: %d %s", r.Status, r.Raw)
	}
}

// TestSaveCardWithoutPayment: POST /payment_methods keeps a card for a
// customer (verified at zero amount through the connector), the same card
// again is the same method, a payment pays with it by payment_token, and
// its expiry and holder can be updated.
func TestSaveCardWithoutPayment(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.do("POST", "/customers", key, map[string]any{"customer_id": "cus_vault"}).must(t, 200)
	body := func(number string) map[string]any {
		return map[string]any{"payment_method": "card", "payment_method_type": "credit", "customer_id": "cus_vault",
			"card": map[string]any{"card_number": number, "card_exp_month": "10", "card_exp_year": futureYear,
				"card_holder_name": "Jane Doe", "nick_name": "work"}, "metadata": map[string]any{"k": "v"}}
	}
	saved := c.do("POST", "/payment_methods", key, body("4242424242424242")).must(t, 200)
	id := saved.str("payment_method_id")
	if saved.str("customer_id") != "cus_vault" || saved.str("card", "last4_digits") != "4242" || saved.str("payment_method_type") != "credit" {
		t.Fatalf("saved: %s", saved.Raw)
	}
	if strings.Contains(string(saved.Raw), "4242424242424242") {
		t.Fatalf("the number is in the answer: %s", saved.Raw)
	}
	if again := c.do("POST", "/payment_methods", key, body("4242424242424242")).must(t, 200); again.str("payment_method_id") != id {
		t.Fatalf("the same card again: %s", again.Raw)
	}
	if got := c.do("GET", "/customers/cus_vault", key, nil).must(t, 200).str("default_payment_method_id"); got != id {
		t.Fatalf("default: %s", got)
	}
	paid := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "customer_id": "cus_vault", "payment_token": id})).must(t, 200)
	if paid.str("status") != "succeeded" {
		t.Fatalf("paid with the saved card: %s", paid.Raw)
	}
	// A card that can be kept but not charged: kept, then declined.
	unchargeable := c.do("POST", "/payment_methods", key, body("4000000000000341")).must(t, 200).str("payment_method_id")
	if r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "customer_id": "cus_vault", "payment_token": unchargeable})).must(t, 200); r.str("status") != "failed" {
		t.Fatalf("the unchargeable card: %s", r.Raw)
	}
	upd := c.do("POST", "/payment_methods/"+id+"/update", key, map[string]any{"card": map[string]any{"card_exp_month": "11", "card_holder_name": "J. Doe"}}).must(t, 200)
	if upd.str("card", "expiry_month") != "11" || upd.str("card", "card_holder_name") != "J. Doe" {
		t.Fatalf("updated: %s", upd.Raw)
	}
	for _, tc := range []struct {
		name, path string
		body       any
		status     int
		code       string
	}{
		{"an invalid number", "/payment_methods", body("4242424242424241"), 400, "IR_06"},
		{"an unknown customer", "/payment_methods", map[string]any{"payment_method": "card", "customer_id": "cus_nobody",
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "10", "card_exp_year": futureYear, "card_holder_name": "J"}}, 404, "HE_02"},
		{"a wallet", "/payment_methods", map[string]any{"payment_method": "wallet"}, 400, "IR_19"},
		{"no payment_method", "/payment_methods", map[string]any{"customer_id": "cus_vault"}, 400, "IR_04"},
		{"an unknown member", "/payment_methods", map[string]any{"payment_method": "card", "colour": "red"}, 400, "IR_06"},
		{"a past expiry", "/payment_methods/" + id + "/update", map[string]any{"card": map[string]any{"card_exp_year": "2001"}}, 400, "IR_16"},
		{"an unknown method", "/payment_methods/pm_nothing/update", map[string]any{"card": map[string]any{"card_exp_month": "01"}}, 404, "HE_02"},
	} {
		if r := c.do("POST", tc.path, key, tc.body); r.Status != tc.status || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
}
