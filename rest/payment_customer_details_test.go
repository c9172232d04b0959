package rest_test

import (
	"strings"
	"testing"
)

// A payment's customer details (email, name, phone) without a customer_id,
// as Hyperswitch takes them: they fill in the payment's own customer, and a
// payment without a customer keeps and shows them.

// collectionCard is the card of Hyperswitch's Stripe collection with an
// expiry that has not passed (the collection's "25" has).
func collectionCard(number string) map[string]any {
	return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "10",
		"card_exp_year": futureYear, "card_holder_name": "joseph Doe", "card_cvc": "123"}}
}

// collectionAddress is the collection's billing and shipping address.
var collectionAddress = map[string]any{"address": map[string]any{"line1": "1467", "line2": "Harrison Street",
	"line3": "Harrison Street", "city": "San Fransico", "state": "California", "zip": "94122", "country": "US",
	"first_name": "joseph", "last_name": "Doe"}}

// TestPaymentUpdateGivesCustomerDetails: the Stripe collection's Payments -
// Create (customer StripeCustomer), then its Payments - Update, which gives
// email, name and phone with no customer_id: the update is taken (it was
// 400 IR_04 "Missing required param: customer_id") and the details go to
// the payment's customer, as Hyperswitch's update does.
func TestPaymentUpdateGivesCustomerDetails(t *testing.T) {
	c := newClient(t)
	created := c.pay("POST", "/payments", map[string]any{
		"amount": 6540, "currency": "USD", "confirm": false, "capture_method": "manual", "capture_on": "2022-09-10T10:11:12Z",
		"amount_to_capture": 6540, "customer_id": "StripeCustomer", "email": "guest@example.com", "name": "John Doe",
		"phone": "999999999", "phone_country_code": "+65", "description": "Its my first payment request",
		"authentication_type": "no_three_ds", "return_url": "https://duck.com", "payment_method": "card",
		"payment_method_type": "credit", "payment_method_data": collectionCard("4242424242424242"),
		"billing": collectionAddress, "shipping": collectionAddress, "statement_descriptor_name": "joseph",
		"statement_descriptor_suffix": "JS", "metadata": map[string]any{"udf1": "value1", "new_customer": "true"},
		"routing": map[string]any{"type": "single", "data": "stripe"},
	}).must(t, 200)
	id := created.str("payment_id")
	updated := c.pay("POST", "/payments/"+id, map[string]any{
		"amount": 20000, "currency": "SGD", "confirm": false, "capture_method": "manual", "capture_on": "2022-09-10T10:11:12Z",
		"amount_to_capture": 6540, "email": "joseph@example.com", "name": "joseph Doe", "phone": "9123456789",
		"phone_country_code": "+65", "description": "Its my first payment request", "authentication_type": "no_three_ds",
		"payment_method": "card", "return_url": "https://duck.com", "payment_method_data": collectionCard("378282246310005"),
		"billing": collectionAddress, "shipping": collectionAddress, "statement_descriptor_name": "joseph",
		"statement_descriptor_suffix": "JS", "metadata": map[string]any{"udf1": "value1"},
	}).must(t, 200)
	if updated.str("customer_id") != "StripeCustomer" || updated.str("email") != "joseph@example.com" ||
		updated.str("name") != "joseph Doe" || updated.str("phone") != "9123456789" ||
		updated.str("customer", "email") != "joseph@example.com" || updated.num("amount") != 20000 {
		t.Fatalf("update: %s", updated.Raw)
	}
	got := c.pay("GET", "/customers/StripeCustomer", nil).must(t, 200)
	if got.str("email") != "joseph@example.com" || got.str("name") != "joseph Doe" || got.str("phone") != "9123456789" {
		t.Fatalf("the payment's customer: %s", got.Raw)
	}
	// The confirm that follows, with details again and no customer_id.
	confirmed := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"email": "jo@example.com"}).must(t, 200)
	if confirmed.str("status") != "requires_capture" || confirmed.str("email") != "jo@example.com" || confirmed.str("name") != "joseph Doe" {
		t.Fatalf("confirm: %s", confirmed.Raw)
	}
}

// TestGuestPaymentKeepsCustomerDetails: details without any customer are
// kept on the payment and shown in its customer object (id null; the
// top-level email, name and phone are the customer's, so null), each
// change keeping the details it does not give; a confirm that names a new
// customer creates it from its own details, the payment showing the kept
// ones where the customer has none, as in Hyperswitch.
func TestGuestPaymentKeepsCustomerDetails(t *testing.T) {
	c := newClient(t)
	created := c.pay("POST", "/payments", payment(map[string]any{"email": "guest@example.com", "name": "John Doe"})).must(t, 200)
	id := created.str("payment_id")
	if created.obj()["customer_id"] != nil || created.str("customer", "email") != "guest@example.com" ||
		created.str("customer", "name") != "John Doe" || created.obj()["email"] != nil {
		t.Fatalf("create: %s", created.Raw)
	}
	if cust, _ := created.obj()["customer"].(map[string]any); cust["id"] != nil {
		t.Fatalf("a guest payment's customer has an id: %s", created.Raw)
	}
	updated := c.pay("POST", "/payments/"+id, map[string]any{"phone": "999999999", "phone_country_code": "+65"}).must(t, 200)
	if updated.str("customer", "email") != "guest@example.com" || updated.str("customer", "phone") != "999999999" ||
		updated.str("customer", "phone_country_code") != "+65" {
		t.Fatalf("update: %s", updated.Raw)
	}
	confirmed := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"customer_id": "cus_at_confirm", "name": "Jo Doe",
		"payment_method": "card", "payment_method_data": card("4242424242424242")}).must(t, 200)
	if confirmed.str("status") != "succeeded" || confirmed.str("customer_id") != "cus_at_confirm" ||
		confirmed.str("customer", "id") != "cus_at_confirm" || confirmed.str("customer", "name") != "Jo Doe" ||
		confirmed.str("customer", "email") != "guest@example.com" || confirmed.str("customer", "phone") != "999999999" {
		t.Fatalf("confirm: %s", confirmed.Raw)
	}
	got := c.pay("GET", "/customers/cus_at_confirm", nil).must(t, 200)
	if got.str("name") != "Jo Doe" || got.obj()["email"] != nil {
		t.Fatalf("the customer the confirm created: %s", got.Raw)
	}
	if listed := c.pay("GET", "/payments/"+id, nil).must(t, 200); listed.str("customer", "email") != "guest@example.com" {
		t.Fatalf("retrieve: %s", listed.Raw)
	}
}

// TestCustomerDetailsRules: the details are held to the customer columns'
// limits with or without a customer id, an empty customer_id is still
// refused, and deleting the customer takes the details its payments were
// given with it.
func TestCustomerDetailsRules(t *testing.T) {
	c := newClient(t)
	for name, body := range map[string]map[string]any{
		"long email":        payment(map[string]any{"email": strings.Repeat("a", 250) + "@example.com"}),
		"long name":         payment(map[string]any{"name": strings.Repeat("n", 256)}),
		"empty customer_id": payment(map[string]any{"customer_id": "", "email": "a@example.com"}),
	} {
		if r := c.pay("POST", "/payments", body); r.Status != 400 || r.errCode() != "IR_07" {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_gone"})).must(t, 200)
	id := created.str("payment_id")
	c.pay("POST", "/payments/"+id, map[string]any{"email": "gone@example.com", "name": "Gone Soon"}).must(t, 200)
	c.pay("DELETE", "/customers/cus_gone", nil).must(t, 200)
	got := c.pay("GET", "/payments/"+id, nil).must(t, 200)
	if got.str("customer", "email") != "Redacted" || got.str("customer", "name") != "Redacted" {
		t.Fatalf("after the customer's deletion: %s", got.Raw)
	}
	for _, v := range dumpDatabase(t, c) {
		if strings.Contains(string(v.value), "gone@example.com") || strings.Contains(string(v.value), "Gone Soon") {
			t.Errorf("%s.%s still holds the deleted customer's details", v.table, v.column)
		}
	}
}
