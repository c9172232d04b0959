package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"switchyard/internal/tenancy"
	"switchyard/payments"
)

// paymentVolatile are the parts of a payment record that change from run to
// run beyond what golden replaces: attempt, capture and refund ids inside
// other strings, client secrets, redirect tokens and the server's address.
var paymentVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`_secret_[A-Za-z0-9]{24}`), "_secret_{secret}"},
	{regexp.MustCompile(`(pa|cap|ref|dp|pay)_[A-Za-z0-9]{24}`), "{$1 id}"},
	{regexp.MustCompile(`token=[0-9a-f]+`), "token={token}"},
	{regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`), "{base_url}"},
}

func paymentGolden(t *testing.T, name string, raw []byte) {
	t.Helper()
	s := string(raw)
	for _, v := range paymentVolatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	golden(t, name, []byte(s))
}

// TestPaymentRecordGolden: the full payment record of a payment with every
// nested list (attempt, captures, refunds), of a declined payment, of one
// waiting for 3-D Secure and of a payment with a dispute, as every route
// answers it.
func TestPaymentRecordGolden(t *testing.T) {
	c := newClient(t)
	full := payment(map[string]any{
		"payment_id": "pay_golden_full", "confirm": true, "capture_method": "manual_multiple",
		"amount": 6000, "currency": "EUR", "shipping_cost": 500, "order_tax_amount": 400,
		"customer_id": "cus_golden", "customer": map[string]any{"name": "Jane Doe", "email": "jane@example.com",
			"phone": "5551234567", "phone_country_code": "+1"},
		"description": "Two books", "return_url": "https://shop.example/return",
		"statement_descriptor_name": "SHOP EXAMPLE", "statement_descriptor_suffix": "BOOKS",
		"merchant_order_reference_id": "order-golden-1",
		"billing":                     billingAddress,
		"shipping": map[string]any{"address": map[string]any{"line1": "2 Side St", "city": "Berlin", "zip": "10115",
			"country": "DE", "first_name": "Jane", "last_name": "Doe"}},
		"order_details": []any{
			map[string]any{"product_name": "Book A", "quantity": 1, "amount": 4000},
			map[string]any{"product_name": "Book B", "quantity": 2, "amount": 1000},
		},
		"metadata":            map[string]any{"order": "golden-1", "channel": "web"},
		"browser_info":        map[string]any{"user_agent": "Mozilla/5.0", "accept_header": "text/html", "language": "en-GB", "color_depth": 24, "java_enabled": false},
		"setup_future_usage":  "on_session",
		"authentication_type": "no_three_ds",
		"business_country":    "DE",
		"business_label":      "books",
		"payment_method":      "card",
		"payment_method_type": "credit",
		"payment_method_data": map[string]any{
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": futureYear,
				"card_holder_name": "Jane Doe", "card_cvc": "123"},
			"billing": billingAddress,
		},
		"request_incremental_authorization":        false,
		"request_external_three_ds_authentication": false,
	})
	created := c.pay("POST", "/payments", full).must(t, 200)
	if created.str("status") != "requires_capture" || created.num("amount_capturable") != 6900 {
		t.Fatalf("%s", created.Raw)
	}
	c.pay("POST", "/payments/pay_golden_full/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
	c.pay("POST", "/payments/pay_golden_full/capture", map[string]any{"amount_to_capture": 2900}).must(t, 200)
	// Refunds through the domain (the refund routes are REST's own concern).
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), c.srv.Demo.MerchantID)
	for i, amount := range []int64{1500, 500} {
		refundID, reason := fmt.Sprintf("ref_golden_%d", i+1), "customer returned a book"
		if _, err := c.srv.Payments.CreateRefund(ctx, payments.RefundInput{PaymentID: "pay_golden_full",
			RefundID: &refundID, Amount: &amount, Reason: &reason, Metadata: map[string]any{"n": i + 1}}); err != nil {
			t.Fatal(err)
		}
	}
	r := c.pay("GET", "/payments/pay_golden_full", nil).must(t, 200)
	if len(r.list("attempts")) != 1 || len(r.list("captures")) != 2 || len(r.list("refunds")) != 2 ||
		r.received() != 6900 || r.str("status") != "succeeded" {
		t.Fatalf("%s", r.Raw)
	}
	paymentGolden(t, "payment_full", r.Raw)

	declined := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_declined", "confirm": true,
		"payment_method_data": card("4000000000009995"), "billing": billingAddress})).must(t, 200)
	paymentGolden(t, "payment_declined", declined.Raw)

	challenged := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_3ds", "confirm": true,
		"return_url": "https://shop.example/return", "payment_method_data": card("4000000000003063")})).must(t, 200)
	paymentGolden(t, "payment_requires_customer_action", challenged.Raw)

	disputed := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_dispute", "confirm": true,
		"payment_method_data": card("4000000000000259")})).must(t, 200)
	paymentGolden(t, "payment_disputed", disputed.Raw)

	// Every route answers with the same record.
	open := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_open"})).must(t, 200)
	for _, got := range []response{
		c.pay("GET", "/payments/pay_golden_open", nil).must(t, 200),
		c.pay("POST", "/payments/pay_golden_open/cancel", nil).must(t, 200),
	} {
		if keysOf(got.obj()) != keysOf(open.obj()) || keysOf(got.obj()) != keysOf(r.obj()) {
			t.Fatalf("records differ in shape:\n%s\n%s", keysOf(got.obj()), keysOf(r.obj()))
		}
	}
}

// TestPaymentsListGolden: a list page holding a payment with an attempt,
// two captures and two refunds, a declined payment and an open one, as
// golden JSON; and each element is byte for byte what GET /payments/{id}
// answers for that payment.
func TestPaymentsListGolden(t *testing.T) {
	c := newClient(t)
	c.pay("POST", "/payments", payment(map[string]any{
		"payment_id": "pay_list_golden_full", "confirm": true, "capture_method": "manual_multiple",
		"amount": 6000, "currency": "EUR", "shipping_cost": 500, "order_tax_amount": 400,
		"customer_id": "cus_list_golden", "customer": map[string]any{"name": "Jane Doe", "email": "jane@example.com",
			"phone": "5551234567", "phone_country_code": "+1"},
		"description": "Two books", "return_url": "https://shop.example/return",
		"merchant_order_reference_id": "order-list-golden-1",
		"billing":                     billingAddress,
		"order_details": []any{
			map[string]any{"product_name": "Book A", "quantity": 1, "amount": 4000},
			map[string]any{"product_name": "Book B", "quantity": 2, "amount": 1000},
		},
		"metadata":            map[string]any{"order": "list-golden-1"},
		"browser_info":        map[string]any{"user_agent": "Mozilla/5.0", "language": "en-GB"},
		"authentication_type": "no_three_ds",
		"payment_method":      "card",
		"payment_method_type": "credit",
		"payment_method_data": map[string]any{
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": futureYear,
				"card_holder_name": "Jane Doe", "card_cvc": "123"},
			"billing": billingAddress,
		},
	})).must(t, 200)
	c.pay("POST", "/payments/pay_list_golden_full/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
	c.pay("POST", "/payments/pay_list_golden_full/capture", map[string]any{"amount_to_capture": 2900}).must(t, 200)
	for i, amount := range []int{1500, 500} {
		c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": "pay_list_golden_full",
			"refund_id": fmt.Sprintf("ref_list_golden_%d", i+1), "amount": amount, "reason": "customer returned a book",
			"metadata": map[string]any{"n": i + 1}}).must(t, 200)
	}
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_list_golden_declined", "confirm": true,
		"payment_method_data": card("4000000000009995"), "billing": billingAddress})).must(t, 200)
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_list_golden_open"})).must(t, 200)

	r, got := listPage(t, c, c.merchantKey(), "limit=3", nil)
	if want := []string{"pay_list_golden_open", "pay_list_golden_declined", "pay_list_golden_full"}; !slices.Equal(got, want) {
		t.Fatalf("page %v, want %v", got, want)
	}
	full := r.Body.([]any)[0].(map[string]any)["data"].([]any)[2].(map[string]any)
	if n := func(k string) int { l, _ := full[k].([]any); return len(l) }; n("attempts") != 1 || n("captures") != 2 || n("refunds") != 2 {
		t.Fatalf("the full payment's nested lists: %v", full)
	}
	paymentGolden(t, "payment_list", r.Raw)

	// The list element is the record GET /payments/{id} answers.
	var page []struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &page); err != nil {
		t.Fatal(err)
	}
	for i, id := range got {
		one := c.pay("GET", "/payments/"+id, nil).must(t, 200)
		if string(page[0].Data[i]) != strings.TrimSpace(string(one.Raw)) {
			t.Errorf("%s: the list element differs from GET /payments/%s:\n%s\n%s", id, id, page[0].Data[i], one.Raw)
		}
	}
}
