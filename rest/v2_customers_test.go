package rest_test

import (
	"strings"
	"testing"
)

// TestV2Customers: the v2 customer routes serve the same records as v1 in
// v2's shapes: id (the row id) and merchant_reference_id (v1's
// customer_id), both addresses, a default payment method set by update.
func TestV2Customers(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	body := map[string]any{"merchant_reference_id": "cus_v2_ref", "name": "Jon", "email": "jon@example.com",
		"default_billing_address":  map[string]any{"city": "Berlin", "country": "DE"},
		"default_shipping_address": map[string]any{"city": "Paris", "country": "FR"}}
	created := c.v2("POST", "/v2/customers", d.SecretKey, d.ProfileID, body).must(t, 200)
	id := created.str("id")
	if !strings.HasPrefix(id, "cus_") || created.str("merchant_reference_id") != "cus_v2_ref" ||
		created.str("default_shipping_address", "city") != "Paris" || created.str("default_billing_address", "city") != "Berlin" {
		t.Fatalf("created: %s", created.Raw)
	}
	// The same record over v1.
	if r := c.do("GET", "/customers/cus_v2_ref", d.SecretKey, nil).must(t, 200); r.str("name") != "Jon" {
		t.Fatalf("v1 view: %s", r.Raw)
	}
	if r := c.v2("GET", "/v2/customers/"+id, d.SecretKey, d.ProfileID, nil).must(t, 200); r.str("email") != "jon@example.com" {
		t.Fatalf("get: %s", r.Raw)
	}
	// A saved card, made the default by update.
	c.pay("POST", "/payments", savingPayment("cus_v2_ref", "4242424242424242", "on_session")).must(t, 200)
	c.pay("POST", "/payments", savingPayment("cus_v2_ref", "5555555555554444", "on_session")).must(t, 200)
	var second string
	for _, pm := range savedMethods(t, c, "cus_v2_ref") {
		if pm["default_payment_method_set"] == false {
			second = pm["payment_method_id"].(string)
		}
	}
	upd := c.v2("PUT", "/v2/customers/"+id, d.SecretKey, d.ProfileID, map[string]any{"name": "Jane", "email": "jane@example.com",
		"default_payment_method_id": second}).must(t, 200)
	if upd.str("name") != "Jane" || upd.str("default_payment_method_id") != second || upd.str("default_billing_address", "city") != "Berlin" {
		t.Fatalf("update: %s", upd.Raw)
	}
	if list := c.v2("GET", "/v2/customers/list", d.SecretKey, d.ProfileID, nil).must(t, 200); len(list.items()) != 1 {
		t.Fatalf("list: %s", list.Raw)
	}
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"no name", "POST", "/v2/customers", map[string]any{"email": "a@example.com"}, 400, "IR_04"},
		{"a v1 member", "POST", "/v2/customers", map[string]any{"name": "a", "email": "a@example.com", "customer_id": "x"}, 400, "IR_06"},
		{"another's method as default", "PUT", "/v2/customers/" + id, map[string]any{"name": "a", "email": "a@example.com",
			"default_payment_method_id": "pm_nothing"}, 404, "HE_02"},
		{"an unknown id", "GET", "/v2/customers/cus_nothing", nil, 404, "HE_02"},
	} {
		if r := c.v2(tc.method, tc.path, d.SecretKey, d.ProfileID, tc.body); r.Status != tc.status || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
	if r := c.v2("GET", "/v2/customers/"+id, d.SecretKey, "", nil); r.Status != 400 {
		t.Fatalf("without X-Profile-Id: %d %s", r.Status, r.Raw)
	}
	del := c.v2("DELETE", "/v2/customers/"+id, d.SecretKey, d.ProfileID, nil).must(t, 200)
	if del.str("id") != id || del.str("merchant_reference_id") != "cus_v2_ref" || del.obj()["customer_deleted"] != true {
		t.Fatalf("delete: %s", del.Raw)
	}
	if r := c.v2("GET", "/v2/customers/"+id, d.SecretKey, d.ProfileID, nil); r.Status != 400 || r.errCode() != "IR_11" {
		t.Fatalf("after delete: %d %s", r.Status, r.Raw)
	}
	// Another merchant's key finds nothing.
	other := makeMerchant(t, c, "merchant_v2_customers")
	if r := c.v2("GET", "/v2/customers/"+id, other.key, other.profileID, nil); r.Status != 404 {
		t.Fatalf("another merchant: %d %s", r.Status, r.Raw)
	}
}
