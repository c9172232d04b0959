package rest_test

import (
	"testing"
)

// TestV2PaymentMethods: the v2 saved payment method routes serve v1's saved
// cards in v2's shapes: a customer's list by its v2 id, one method, a card
// kept without a payment, its holder name updated, and deleted.
func TestV2PaymentMethods(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	cus := c.v2("POST", "/v2/customers", d.SecretKey, d.ProfileID, map[string]any{"merchant_reference_id": "cus_v2_pm",
		"name": "Jon", "email": "jon@example.com"}).must(t, 200).str("id")
	c.pay("POST", "/payments", savingPayment("cus_v2_pm", "4242424242424242", "on_session")).must(t, 200)

	list := c.v2("GET", "/v2/customers/"+cus+"/saved-payment-methods", d.SecretKey, d.ProfileID, nil).must(t, 200)
	items := list.list("customer_payment_methods")
	if len(items) != 1 {
		t.Fatalf("list: %s", list.Raw)
	}
	first := items[0]
	card, _ := first["payment_method_data"].(map[string]any)["card"].(map[string]any)
	if first["customer_id"] != cus || first["payment_method_type"] != "card" || first["is_default"] != true ||
		first["requires_cvv"] != true || card["last4_digits"] != "4242" {
		t.Fatalf("item: %v", first)
	}

	// Kept without a payment (a zero-amount verification), for the v2 customer.
	created := c.v2("POST", "/v2/payment-methods", d.SecretKey, d.ProfileID, map[string]any{
		"payment_method_type": "card", "payment_method_subtype": "credit", "customer_id": cus, "storage_type": "persistent",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": "5555555555554444", "card_exp_month": "10",
			"card_exp_year": futureYear, "card_holder_name": "Jon", "card_issuing_country": "US", "card_cvc": "123"}},
	}).must(t, 200)
	id := created.str("id")
	if created.str("customer_id") != cus || created.str("payment_method_data", "card", "last4_digits") != "4444" ||
		created.str("storage_type") != "persistent" || created.obj()["raw_payment_method_data"] != nil {
		t.Fatalf("created: %s", created.Raw)
	}
	upd := c.v2("PUT", "/v2/payment-methods/"+id+"/update-saved-payment-method", d.SecretKey, d.ProfileID,
		map[string]any{"payment_method_data": map[string]any{"card": map[string]any{"card_holder_name": "Jon Smith"}}}).must(t, 200)
	if upd.str("payment_method_data", "card", "card_holder_name") != "Jon Smith" {
		t.Fatalf("update: %s", upd.Raw)
	}
	if got := c.v2("GET", "/v2/payment-methods/"+id, d.SecretKey, d.ProfileID, nil).must(t, 200); got.str("payment_method_data", "card", "card_holder_name") != "Jon Smith" {
		t.Fatalf("get: %s", got.Raw)
	}
	if del := c.v2("DELETE", "/v2/payment-methods/"+id, d.SecretKey, d.ProfileID, nil).must(t, 200); del.str("id") != id {
		t.Fatalf("delete: %s", del.Raw)
	}
	if r := c.v2("GET", "/v2/payment-methods/"+id, d.SecretKey, d.ProfileID, nil); r.Status != 404 {
		t.Fatalf("deleted method: %d %s", r.Status, r.Raw)
	}

	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"not a card", "POST", "/v2/payment-methods", map[string]any{"payment_method_type": "wallet", "customer_id": cus, "storage_type": "persistent",
			"payment_method_data": map[string]any{"wallet": map[string]any{}}}, 400, "IR_19"},
		{"no storage_type", "POST", "/v2/payment-methods", map[string]any{"payment_method_type": "card", "customer_id": cus,
			"payment_method_data": map[string]any{"card": map[string]any{}}}, 400, "IR_04"},
		{"unknown customer", "POST", "/v2/payment-methods", map[string]any{"payment_method_type": "card", "customer_id": "cus_nobody", "storage_type": "persistent",
			"payment_method_data": map[string]any{"card": map[string]any{"card_number": "4242424242424242"}}}, 404, "HE_02"},
		{"a v1 member", "PUT", "/v2/payment-methods/" + id + "/update-saved-payment-method", map[string]any{"card": map[string]any{}}, 400, "IR_06"},
		{"unknown customer list", "GET", "/v2/customers/cus_nobody/saved-payment-methods", nil, 404, "HE_02"},
	} {
		if r := c.v2(tc.method, tc.path, d.SecretKey, d.ProfileID, tc.body); r.Status != tc.status || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
	if r := c.v2("GET", "/v2/customers/"+cus+"/saved-payment-methods", d.SecretKey, "", nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("no X-Profile-Id: %d %s", r.Status, r.Raw)
	}
}
