package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"switchyard/ent/customer"
	"switchyard/ent/paymentmethod"
	"switchyard/internal/tenancy"
)

// items is a list answer's elements.
func (r response) items() []map[string]any {
	var out []map[string]any
	_ = json.Unmarshal(r.Raw, &out)
	return out
}

func (r response) errMessage() string { return r.str("error", "message") }

// fullCustomer holds every member of Hyperswitch's CustomerRequest.
func fullCustomer(id string) map[string]any {
	return map[string]any{
		"customer_id": id, "name": "Jon Test", "email": "JonTest@test.com", "phone": "9123456789",
		"description": "First Customer", "phone_country_code": "+65",
		"address": map[string]any{"city": "New York", "country": "US", "line1": "123, King Street", "line2": "Powelson Avenue",
			"line3": "Bridgewater", "zip": "08807", "state": "New York", "first_name": "John", "last_name": "Doe", "origin_zip": "08807"},
		"metadata": map[string]any{"tier": "gold"}, "tax_registration_id": "123456789",
		"document_details": map[string]any{"document_type": "cpf", "document_number": "12345678911"},
	}
}

// TestCustomerLifecycle: create with every member, read, update some
// members (the others stay), list with limit and offset, delete.
func TestCustomerLifecycle(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	created := c.do("POST", "/customers", key, fullCustomer("cus_life")).must(t, 200)
	want := fullCustomer("cus_life")
	for k, v := range want {
		if got := fmt.Sprint(created.obj()[k]); got != fmt.Sprint(v) {
			t.Fatalf("%s: got %s, want %v", k, got, v)
		}
	}
	if created.str("created_at") == "" || created.obj()["default_payment_method_id"] != nil {
		t.Fatalf("created: %s", created.Raw)
	}
	if r := c.do("GET", "/customers/cus_life", key, nil).must(t, 200); string(r.Raw) != string(created.Raw) {
		t.Fatalf("GET %s\nPOST %s", r.Raw, created.Raw)
	}
	upd := c.do("POST", "/customers/cus_life", key, map[string]any{"name": "Jane", "metadata": map[string]any{"tier": "silver"}}).must(t, 200)
	if upd.str("name") != "Jane" || upd.str("email") != "JonTest@test.com" || upd.obj()["metadata"].(map[string]any)["tier"] != "silver" {
		t.Fatalf("update: %s", upd.Raw)
	}
	// Generated ids, and the list, newest first.
	gen := c.do("POST", "/customers", key, map[string]any{}).must(t, 200)
	if !strings.HasPrefix(gen.str("customer_id"), "cus_") || gen.str("customer_id") == "cus_life" {
		t.Fatalf("generated id: %s", gen.Raw)
	}
	all := c.do("GET", "/customers/list", key, nil).must(t, 200)
	if n := len(all.items()); n != 2 || all.items()[0]["customer_id"] != gen.str("customer_id") {
		t.Fatalf("list: %s", all.Raw)
	}
	page := c.do("GET", "/customers/list?limit=1&offset=1", key, nil).must(t, 200)
	if n := len(page.items()); n != 1 || page.items()[0]["customer_id"] != "cus_life" {
		t.Fatalf("second page: %s", page.Raw)
	}
	if r := c.do("GET", "/customers/list?limit=0", key, nil).must(t, 200); len(r.items()) != 0 {
		t.Fatalf("limit 0: %s", r.Raw)
	}

	del := c.do("DELETE", "/customers/cus_life", key, nil).must(t, 200)
	if strings.TrimSpace(string(del.Raw)) != `{"customer_id":"cus_life","customer_deleted":true,"address_deleted":true,"payment_methods_deleted":true}` {
		t.Fatalf("delete: %s", del.Raw)
	}
	for _, call := range [][2]string{{"GET", "/customers/cus_life"}, {"POST", "/customers/cus_life"}, {"DELETE", "/customers/cus_life"}} {
		if r := c.do(call[0], call[1], key, map[string]any{}); r.Status != 400 || r.errCode() != "IR_11" {
			t.Fatalf("%s after delete: %d %s", call, r.Status, r.Raw)
		}
	}
	if r := c.do("GET", "/customers/list", key, nil).must(t, 200); len(r.items()) != 1 {
		t.Fatalf("list after delete: %s", r.Raw)
	}
	// What was personal is gone from the row.
	row, err := c.srv.Store.Client.Customer.Query().Where(customer.CustomerID("cus_life")).
		Only(tenancy.ForMerchant(tenancy.System(context.Background()), c.srv.Demo.MerchantID))
	if err != nil {
		t.Fatal(err)
	}
	if *row.Name != "Redacted" || *row.Email != "Redacted" || row.Address != nil || row.Metadata != nil || row.DocumentDetails != nil || row.RedactedAt == nil {
		t.Fatalf("redacted row: %+v", row)
	}
	if r := c.do("POST", "/customers", key, map[string]any{"customer_id": "cus_life"}); r.Status != 400 || r.errCode() != "HE_01" {
		t.Fatalf("an id in use: %d %s", r.Status, r.Raw)
	}
}

// TestCustomerValidation: one case per rule; the error names the member.
func TestCustomerValidation(t *testing.T) {
	c := newClient(t)
	long := strings.Repeat("x", 256)
	for _, tc := range []struct {
		name  string
		body  map[string]any
		code  string
		field string
	}{
		{"customer_id with a space", map[string]any{"customer_id": "cus 1"}, "IR_07", "customer_id"},
		{"customer_id too long", map[string]any{"customer_id": strings.Repeat("c", 65)}, "IR_07", "customer_id"},
		{"empty customer_id", map[string]any{"customer_id": ""}, "IR_07", "customer_id"},
		{"email", map[string]any{"email": "not-an-email"}, "IR_07", "email"},
		{"name too long", map[string]any{"name": long}, "IR_07", "name"},
		{"phone too long", map[string]any{"phone": long}, "IR_07", "phone"},
		{"description too long", map[string]any{"description": long}, "IR_07", "description"},
		{"country", map[string]any{"address": map[string]any{"country": "XX"}}, "IR_07", "address.country"},
		{"city too long", map[string]any{"address": map[string]any{"city": long}}, "IR_07", "address.city"},
		{"document type", map[string]any{"document_details": map[string]any{"document_type": "passport", "document_number": "1"}}, "IR_07", "document_details.document_type"},
		{"document number missing", map[string]any{"document_details": map[string]any{"document_type": "cpf", "document_number": ""}}, "IR_07", "document_details.document_number"},
		{"metadata nested too deep", nil, "IR_06", "metadata"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body any = tc.body
			if tc.body == nil {
				body = `{"metadata":` + strings.Repeat(`{"a":`, 24) + `{}` + strings.Repeat(`}`, 24) + `}`
			}
			r := c.do("POST", "/customers", c.merchantKey(), body)
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(r.errMessage(), tc.field) {
				t.Fatalf("%d %s, want 400 %s naming %s", r.Status, r.Raw, tc.code, tc.field)
			}
		})
	}
	for _, q := range []string{"limit=x", "offset=-1", "limit=70000", "page=2"} {
		if r := c.do("GET", "/customers/list?"+q, c.merchantKey(), nil); r.Status != 400 {
			t.Fatalf("list ?%s: %d %s", q, r.Status, r.Raw)
		}
	}
	if r := c.do("GET", "/customers/cus_nobody", c.merchantKey(), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown customer: %d %s", r.Status, r.Raw)
	}
	// Hyperswitch's example values are all accepted (a 3-digit country code is not a CountryAlpha2).
	c.do("POST", "/customers", c.merchantKey(), fullCustomer("cus_examples")).must(t, 200)
}

// TestCustomerOfAPayment: a customer a payment created is the same record
// the customer routes show; deleting it keeps its payments, deletes its
// saved payment methods, and is refused while it has an active mandate.
func TestCustomerOfAPayment(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	mandateID := setUpMandate(t, c, key, "cus_paying", nil)
	paid := c.do("POST", "/payments", key, payment(map[string]any{"confirm": true, "customer_id": "cus_paying",
		"email": "payer@example.com", "payment_method": "card", "payment_method_data": card("4242424242424242")})).must(t, 200)
	got := c.do("GET", "/customers/cus_paying", key, nil).must(t, 200)
	if got.str("email") != "payer@example.com" {
		t.Fatalf("the payment's customer: %s", got.Raw)
	}
	if r := c.do("DELETE", "/customers/cus_paying", key, nil); r.Status != 400 || r.errCode() != "IR_10" {
		t.Fatalf("delete with an active mandate: %d %s", r.Status, r.Raw)
	}
	c.do("POST", "/mandates/revoke/"+mandateID, key, nil).must(t, 200)
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), c.srv.Demo.MerchantID)
	cus, err := c.srv.Store.Client.Customer.Query().Where(customer.CustomerID("cus_paying")).Only(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := c.srv.Store.Client.PaymentMethod.Query().Where(paymentmethod.CustomerID(cus.ID)).Count(ctx); n == 0 {
		t.Fatal("the setup payment saved no payment method")
	}
	c.do("DELETE", "/customers/cus_paying", key, nil).must(t, 200)
	if n, _ := c.srv.Store.Client.PaymentMethod.Query().Where(paymentmethod.CustomerID(cus.ID)).Count(ctx); n != 0 {
		t.Fatalf("%d payment methods left", n)
	}
	if r := c.pay("GET", "/payments/"+paid.str("payment_id"), nil).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("the payment after its customer went: %s", r.Raw)
	}
	// A redacted customer cannot be paid for again.
	r := c.do("POST", "/payments", key, payment(map[string]any{"customer_id": "cus_paying"}))
	if r.Status != 400 || r.errCode() != "IR_11" {
		t.Fatalf("a payment for a redacted customer: %d %s", r.Status, r.Raw)
	}
}
