package rest_test

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestCaptureMethods: every capture method, with the money invariants
// checked on every answer (pay does), and scheduled refused.
func TestCaptureMethods(t *testing.T) {
	c := newClient(t)
	create := func(t *testing.T, capture string) response {
		t.Helper()
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": capture,
			"payment_method_data": card("4242424242424242")})).must(t, 200)
	}
	capture := func(t *testing.T, id string, amount any) response {
		t.Helper()
		var body any
		if amount != nil {
			body = map[string]any{"amount_to_capture": amount}
		}
		return c.pay("POST", "/payments/"+id+"/capture", body)
	}
	expect := func(t *testing.T, r response, status string, received, capturable int64, captures int) {
		t.Helper()
		if r.Status != 200 || r.str("status") != status || r.received() != received ||
			r.num("amount_capturable") != capturable || len(r.list("captures")) != captures {
			t.Fatalf("want %s received %d capturable %d with %d captures: %d %s",
				status, received, capturable, captures, r.Status, r.Raw)
		}
	}

	t.Run("automatic", func(t *testing.T) {
		r := create(t, "automatic")
		expect(t, r, "succeeded", 10000, 0, 1)
		if r := capture(t, r.str("payment_id"), nil); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("capture of a succeeded payment: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("sequential_automatic", func(t *testing.T) {
		r := create(t, "sequential_automatic")
		expect(t, r, "succeeded", 10000, 0, 1)
		if r.list("attempts")[0]["status"] != "charged" {
			t.Fatalf("%s", r.Raw)
		}
	})
	t.Run("manual full", func(t *testing.T) {
		r := create(t, "manual")
		expect(t, r, "requires_capture", 0, 10000, 0)
		r = capture(t, r.str("payment_id"), nil)
		expect(t, r, "succeeded", 10000, 0, 1)
		if cp := r.list("captures")[0]; cp["status"] != "charged" || cp["capture_sequence"] != 1.0 ||
			cp["authorized_attempt_id"] != r.list("attempts")[0]["attempt_id"] {
			t.Fatalf("capture record %v", cp)
		}
	})
	t.Run("manual partial", func(t *testing.T) {
		r := create(t, "manual")
		id := r.str("payment_id")
		for _, bad := range []any{0, -1, 10001} {
			if r := capture(t, id, bad); r.Status != 400 || r.errCode() != "IR_07" {
				t.Fatalf("capture %v: %d %s", bad, r.Status, r.Raw)
			}
		}
		r = capture(t, id, 6000)
		expect(t, r, "partially_captured", 6000, 0, 1)
		// One partial capture ends a manual authorization.
		if r := capture(t, id, 1000); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("second capture: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("manual_multiple", func(t *testing.T) {
		r := create(t, "manual_multiple")
		id := r.str("payment_id")
		expect(t, r, "requires_capture", 0, 10000, 0)
		expect(t, capture(t, id, 2500), "partially_captured_and_capturable", 2500, 7500, 1)
		expect(t, capture(t, id, 3500), "partially_captured_and_capturable", 6000, 4000, 2)
		if r := capture(t, id, 4001); r.Status != 400 || r.errCode() != "IR_07" {
			t.Fatalf("over-capture: %d %s", r.Status, r.Raw)
		}
		r = capture(t, id, 4000)
		expect(t, r, "succeeded", 10000, 0, 3)
		for i, cp := range r.list("captures") {
			if cp["capture_sequence"] != float64(i+1) || cp["status"] != "charged" {
				t.Fatalf("capture %d: %v", i, cp)
			}
		}
		if r := capture(t, id, 1); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("capture after full: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("manual_multiple with net amount", func(t *testing.T) {
		// Shipping, tax and surcharge are authorized with the order amount.
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual_multiple",
			"shipping_cost": 500, "order_tax_amount": 300, "surcharge_details": map[string]any{"surcharge_amount": 200, "tax_amount": 20},
			"payment_method_data": card("4242424242424242")})).must(t, 200)
		expect(t, r, "requires_capture", 0, 11020, 0)
		if r.num("net_amount") != 11020 || r.num("amount") != 10000 {
			t.Fatalf("%s", r.Raw)
		}
		expect(t, capture(t, r.str("payment_id"), 11020), "succeeded", 11020, 0, 1)
	})
	t.Run("scheduled", func(t *testing.T) {
		before := countPayments(t, c)
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "scheduled",
			"payment_method_data": card("4242424242424242")}))
		if r.Status != 400 || r.errCode() != "IR_20" || !strings.Contains(r.str("error", "message"), "not supported") {
			t.Fatalf("scheduled: %d %s", r.Status, r.Raw)
		}
		if countPayments(t, c) != before {
			t.Fatal("a refused payment was created")
		}
	})
	t.Run("capture before authorization", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"capture_method": "manual"})).must(t, 200)
		if r := capture(t, r.str("payment_id"), nil); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
}

// TestCancel: cancel in every state that allows it, IR_14 in the others.
func TestCancel(t *testing.T) {
	c := newClient(t)
	make := func(t *testing.T, members map[string]any) string {
		t.Helper()
		return c.pay("POST", "/payments", payment(members)).must(t, 200).str("payment_id")
	}
	allowed := []struct {
		name, from, to string
		setup          func(t *testing.T) string
	}{
		{"requires_payment_method", "requires_payment_method", "cancelled", func(t *testing.T) string {
			return make(t, nil)
		}},
		{"requires_confirmation", "requires_confirmation", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"payment_method_data": card("4242424242424242")})
		}},
		{"requires_capture", "requires_capture", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
		}},
		{"requires_customer_action", "requires_customer_action", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4000000000003063")})
		}},
		{"partially_captured_and_capturable", "partially_captured_and_capturable", "partially_captured", func(t *testing.T) string {
			id := make(t, map[string]any{"confirm": true, "capture_method": "manual_multiple", "payment_method_data": card("4242424242424242")})
			c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
			return id
		}},
	}
	for _, a := range allowed {
		t.Run(a.name, func(t *testing.T) {
			id := a.setup(t)
			if got := c.pay("GET", "/payments/"+id, nil).str("status"); got != a.from {
				t.Fatalf("set up %s, got %s", a.from, got)
			}
			r := c.pay("POST", "/payments/"+id+"/cancel", map[string]any{"cancellation_reason": "requested_by_customer"}).must(t, 200)
			if r.str("status") != a.to || r.str("cancellation_reason") != "requested_by_customer" || r.num("amount_capturable") != 0 {
				t.Fatalf("cancel from %s: %s", a.from, r.Raw)
			}
			if r.obj()["next_action"] != nil {
				t.Fatalf("a cancelled payment still asks for the customer: %s", r.Raw)
			}
			if a.from == "partially_captured_and_capturable" && r.received() != 4000 {
				t.Fatalf("the capture was lost: %s", r.Raw)
			}
			// Cancelled is final.
			if r := c.pay("POST", "/payments/"+id+"/cancel", nil); r.Status != 400 || r.errCode() != "IR_14" {
				t.Fatalf("second cancel: %d %s", r.Status, r.Raw)
			}
		})
	}
	t.Run("empty body", func(t *testing.T) {
		id := make(t, nil)
		if r := c.pay("POST", "/payments/"+id+"/cancel", nil); r.Status != 200 || r.str("status") != "cancelled" ||
			r.obj()["cancellation_reason"] != nil {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
	refused := []struct {
		name   string
		status string
		setup  func(t *testing.T) string
	}{
		{"succeeded", "succeeded", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
		}},
		{"failed", "failed", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4000000000000002")})
		}},
		{"partially_captured", "partially_captured", func(t *testing.T) string {
			id := make(t, map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
			c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 10}).must(t, 200)
			return id
		}},
	}
	for _, rf := range refused {
		t.Run("refused "+rf.name, func(t *testing.T) {
			id := rf.setup(t)
			r := c.pay("POST", "/payments/"+id+"/cancel", map[string]any{"cancellation_reason": "x"})
			if r.Status != 400 || r.errCode() != "IR_14" || !strings.Contains(r.str("error", "message"), rf.status) {
				t.Fatalf("cancel %s: %d %s", rf.status, r.Status, r.Raw)
			}
			if got := c.pay("GET", "/payments/"+id, nil); got.str("status") != rf.status || got.obj()["cancellation_reason"] != nil {
				t.Fatalf("a refused cancel changed the payment: %s", got.Raw)
			}
		})
	}
}

// TestUpdatePayment: a payment can be changed until it is confirmed.
func TestUpdatePayment(t *testing.T) {
	c := newClient(t)
	r := c.pay("POST", "/payments", payment(map[string]any{"description": "first", "metadata": map[string]any{"a": "1"},
		"customer_id": "cus_update", "customer": map[string]any{"name": "Jane"}})).must(t, 200)
	id := r.str("payment_id")
	if r.str("status") != "requires_payment_method" || r.str("customer", "name") != "Jane" {
		t.Fatalf("%s", r.Raw)
	}
	r = c.pay("POST", "/payments/"+id, map[string]any{"amount": 2500, "currency": "EUR", "description": "second",
		"metadata": map[string]any{"b": "2"}, "email": "jane@example.com", "customer_id": "cus_update",
		"payment_method": "card", "payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.num("amount") != 2500 || r.str("currency") != "EUR" || r.str("description") != "second" ||
		r.str("status") != "requires_confirmation" || r.str("email") != "jane@example.com" ||
		fmt.Sprint(r.obj()["metadata"]) != "map[b:2]" {
		t.Fatalf("update: %s", r.Raw)
	}
	for _, bad := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"payment_id": "pay_other"}, "IR_07"},
		{map[string]any{"profile_id": c.srv.Demo.ProfileID}, "IR_07"},
		{map[string]any{"amount": 0}, "IR_07"},
		{map[string]any{"currency": "XXX"}, "IR_07"},
		{map[string]any{"no_such_member": 1}, "IR_06"},
		{map[string]any{"capture_method": "scheduled"}, "IR_20"},
		{map[string]any{"customer_id": "a", "customer": map[string]any{"id": "b"}}, "IR_07"},
	} {
		if r := c.pay("POST", "/payments/"+id, bad.body); r.Status != 400 || r.errCode() != bad.code {
			t.Errorf("update %v: %d %s, want %s", bad.body, r.Status, r.Raw, bad.code)
		}
	}
	// Confirm with the card given on update (it waited in the vault).
	r = c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}).must(t, 200)
	if r.str("status") != "succeeded" || r.received() != 2500 {
		t.Fatalf("confirm: %s", r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id, map[string]any{"description": "third"}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("update after confirm: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("confirm twice: %d %s", r.Status, r.Raw)
	}
	// Update with confirm: true authorizes.
	id = c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	r = c.pay("POST", "/payments/"+id, map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.str("status") != "requires_capture" {
		t.Fatalf("update with confirm: %s", r.Raw)
	}
	// Confirm may not change the amount.
	id = c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"amount": 1, "payment_method_data": card("4242424242424242")}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("confirm with amount: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}); r.Status != 422 || r.errCode() != "IR_06" ||
		r.str("error", "message") != "A payment token or payment method data is required" {
		t.Fatalf("confirm without a payment method: %d %s", r.Status, r.Raw)
	}
}

// TestPublishableKey: the publishable key works with the payment's client
// secret on the client routes (confirm, retrieve), and nowhere else.
func TestPublishableKey(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	if !strings.HasPrefix(pk, "pk_snd_") {
		t.Fatalf("demo publishable key %q", pk)
	}
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_pk"})).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	if !strings.HasPrefix(secret, id+"_secret_") {
		t.Fatalf("client_secret %q", secret)
	}
	confirmBody := func(members map[string]any) map[string]any {
		body := map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242"),
			"browser_info": map[string]any{"user_agent": "Mozilla/5.0", "language": "en-US", "color_depth": 24}}
		for k, v := range members {
			body[k] = v
		}
		return body
	}

	// Retrieve: the secret is required and checked.
	for _, tc := range []struct {
		query, code string
		status      int
	}{
		{"", "IR_08", 400},
		{"?client_secret=" + url.QueryEscape(id+"_secret_wrong"), "IR_09", 400},
		{"?client_secret=", "IR_08", 400},
		{"?client_secret=" + url.QueryEscape(secret), "", 200},
	} {
		r := c.do("GET", "/payments/"+id+tc.query, pk, nil)
		if r.Status != tc.status || r.errCode() != tc.code {
			t.Errorf("GET with pk %q: %d %s", tc.query, r.Status, r.Raw)
		}
	}
	// A secret key may retrieve without the secret, and a wrong one is refused too.
	c.pay("GET", "/payments/"+id, nil).must(t, 200)
	if r := c.pay("GET", "/payments/"+id+"?client_secret=nope", nil); r.Status != 400 || r.errCode() != "IR_09" {
		t.Errorf("secret key with a wrong client secret: %d %s", r.Status, r.Raw)
	}

	// Confirm: missing, mismatched, then the right secret.
	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{confirmBody(nil), "IR_08"},
		{confirmBody(map[string]any{"client_secret": id + "_secret_000000000000000000000000"}), "IR_09"},
		{confirmBody(map[string]any{"client_secret": secret, "amount_to_capture": 5}), "IR_22"},
		{confirmBody(map[string]any{"client_secret": secret, "metadata": map[string]any{"x": 1}}), "IR_22"},
		{confirmBody(map[string]any{"client_secret": secret, "capture_method": "manual"}), "IR_22"},
	} {
		if r := c.do("POST", "/payments/"+id+"/confirm", pk, tc.body); r.errCode() != tc.code {
			t.Errorf("confirm with pk %v: %d %s, want %s", tc.body["client_secret"], r.Status, r.Raw, tc.code)
		}
	}
	if got := c.pay("GET", "/payments/"+id, nil); got.str("status") != "requires_payment_method" {
		t.Fatalf("a refused confirm changed the payment: %s", got.Raw)
	}
	r := c.do("POST", "/payments/"+id+"/confirm", pk, confirmBody(map[string]any{"client_secret": secret,
		"return_url": "https://shop.example/done", "billing": billingAddress})).must(t, 200)
	checkMoney(t, r)
	if r.str("status") != "succeeded" || r.str("browser_info", "user_agent") != "Mozilla/5.0" ||
		r.str("billing", "email") != "jane@example.com" {
		t.Fatalf("confirm with pk: %s", r.Raw)
	}

	// An expired secret (session_expiry 0 expires at once).
	expired := c.pay("POST", "/payments", payment(map[string]any{"session_expiry": 0})).must(t, 200)
	body := confirmBody(map[string]any{"client_secret": expired.str("client_secret")})
	if r := c.do("POST", "/payments/"+expired.str("payment_id")+"/confirm", pk, body); r.Status != 400 || r.errCode() != "IR_08" ||
		!strings.Contains(r.str("error", "message"), "expired") {
		t.Errorf("expired secret on confirm: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/payments/"+expired.str("payment_id")+"?client_secret="+url.QueryEscape(expired.str("client_secret")), pk, nil); r.errCode() != "IR_08" {
		t.Errorf("expired secret on retrieve: %d %s", r.Status, r.Raw)
	}
	// session_expiry moves expires_on.
	if e := c.pay("POST", "/payments", payment(map[string]any{"session_expiry": 60})).must(t, 200); !strings.HasPrefix(e.str("expires_on"), "20") {
		t.Fatalf("%s", e.Raw)
	}

	// Another payment's secret does not open this one.
	other := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	if r := c.do("GET", "/payments/"+other.str("payment_id")+"?client_secret="+url.QueryEscape(secret), pk, nil); r.errCode() != "IR_09" {
		t.Errorf("another payment's secret: %d %s", r.Status, r.Raw)
	}

	// Everywhere else the publishable key is 401.
	for _, rt := range []struct{ method, path string }{
		{"POST", "/payments"},
		{"POST", "/payments/" + id},
		{"POST", "/payments/" + id + "/capture"},
		{"POST", "/payments/" + id + "/cancel"},
		{"GET", "/account/" + c.srv.Demo.MerchantID + "/connectors"},
		{"GET", "/accounts/" + c.srv.Demo.MerchantID},
		{"POST", "/account/" + c.srv.Demo.MerchantID + "/business_profile"},
		{"GET", "/api_keys/" + c.srv.Demo.MerchantID + "/list"},
	} {
		if r := c.do(rt.method, rt.path, pk, map[string]any{"amount": 1, "currency": "USD", "client_secret": secret}); r.Status != 401 || r.errCode() != "IR_01" {
			t.Errorf("%s %s with the publishable key: %d %s", rt.method, rt.path, r.Status, r.Raw)
		}
	}
	// An unknown publishable key is 401 on the client routes too.
	if r := c.do("GET", "/payments/"+id+"?client_secret="+url.QueryEscape(secret), "pk_snd_unknown", nil); r.Status != 401 {
		t.Errorf("unknown pk: %d %s", r.Status, r.Raw)
	}
	// Another merchant's publishable key cannot see this payment.
	b := makeMerchant(t, c, "merchant_pk_b")
	acct := c.do("GET", "/accounts/"+b.id, c.admin(), nil).must(t, 200)
	if r := c.do("GET", "/payments/"+id+"?client_secret="+url.QueryEscape(secret), acct.str("publishable_key"), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Errorf("B's pk on A's payment: %d %s", r.Status, r.Raw)
	}
}

// TestPaymentRouting: the connector list of the request picks the connector
// account; without one the profile's first active processor serves.
func TestPaymentRouting(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	adyen := c.do("POST", "/account/"+m+"/connectors", c.merchantKey(), map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "adyen_key"},
	}).must(t, 200).str("merchant_connector_id")
	body := func(members map[string]any) map[string]any {
		m := map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")}
		for k, v := range members {
			m[k] = v
		}
		return payment(m)
	}
	if r := c.pay("POST", "/payments", body(nil)).must(t, 200); r.str("connector") != "stripe_test" {
		t.Fatalf("default routing: %s", r.Raw)
	}
	r := c.pay("POST", "/payments", body(map[string]any{"connector": []any{"adyen", "stripe_test"}})).must(t, 200)
	if r.str("connector") != "adyen" || r.str("merchant_connector_id") != adyen || r.list("attempts")[0]["connector"] != "adyen" {
		t.Fatalf("connector preference: %s", r.Raw)
	}
	// Given on confirm.
	id := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	r = c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"connector": []any{"adyen"},
		"payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.str("connector") != "adyen" {
		t.Fatalf("connector preference on confirm: %s", r.Raw)
	}
	r = c.pay("POST", "/payments", body(map[string]any{"connector": []any{"worldpay"}}))
	if r.Status != 400 || r.errCode() != "IR_39" {
		t.Fatalf("no such connector account: %d %s", r.Status, r.Raw)
	}
}

// TestStateChangeAnswersAsGET: what a state change answers is the payment
// exactly as GET shows it right after (the answer is rendered from the rows
// read inside the change's transaction, for its event, not read again).
func TestStateChangeAnswersAsGET(t *testing.T) {
	c := newClient(t)
	same := func(what string, r response) {
		t.Helper()
		got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
		if !bytes.Equal(r.Raw, got.Raw) {
			t.Fatalf("%s answered\n%s\nGET shows\n%s", what, r.Raw, got.Raw)
		}
	}
	visa := card("4242424242424242")
	same("create+confirm", c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": visa,
		"customer_id": "cus_same", "description": "same"})).must(t, 200))
	same("sequential_automatic", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"capture_method": "sequential_automatic", "payment_method_data": visa})).must(t, 200))
	same("declined", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"payment_method_data": card("4000000000000002")})).must(t, 200))
	same("dispute card", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"payment_method_data": card("4000000000000259")})).must(t, 200))
	open := c.pay("POST", "/payments", payment(map[string]any{"capture_method": "manual_multiple"})).must(t, 200)
	same("confirm", c.pay("POST", "/payments/"+open.str("payment_id")+"/confirm", map[string]any{"payment_method_data": visa}).must(t, 200))
	same("partial capture", c.pay("POST", "/payments/"+open.str("payment_id")+"/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200))
	same("cancel", c.pay("POST", "/payments/"+open.str("payment_id")+"/cancel", nil).must(t, 200))
	unconfirmed := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	same("cancel unconfirmed", c.pay("POST", "/payments/"+unconfirmed.str("payment_id")+"/cancel", nil).must(t, 200))
}

// TestRefusedCreateWritesNothing: POST /payments with confirm: true that
// the confirm refuses (no payment method, an unknown mandate, another
// customer's mandate, a profile with no connector account) answers 4xx and
// leaves no payment and no customer behind: everything that can refuse the
// confirm runs in the transaction that would create the payment.
func TestRefusedCreateWritesNothing(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	mandate := setUpMandate(t, c, c.merchantKey(), "cus_refused_owner", nil)
	bare := c.do("POST", "/account/"+m+"/business_profile", c.merchantKey(), map[string]any{"profile_name": "no_connectors"}).
		must(t, 200).str("profile_id")
	count := func(table string) int {
		t.Helper()
		var n int
		if err := c.srv.Store.DB.QueryRow("SELECT COUNT(*) FROM " + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"no payment method", payment(map[string]any{"confirm": true, "customer_id": "cus_refused_1"}), 422, "IR_06"},
		{"unknown mandate", recurring("cus_refused_2", "man_doesnotexist", 500), 404, "HE_02"},
		{"another customer's mandate", recurring("cus_refused_3", mandate, 500), 400, "IR_16"},
		{"no connector on the profile", payment(map[string]any{"confirm": true, "customer_id": "cus_refused_4",
			"profile_id": bare, "payment_method": "card", "payment_method_data": card("4242424242424242")}), 400, "IR_39"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			payments, customers := count("payment_intents"), count("customers")
			r := c.pay("POST", "/payments", tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if p, cu := count("payment_intents"), count("customers"); p != payments || cu != customers {
				t.Fatalf("the refused call left %d payments and %d customers behind", p-payments, cu-customers)
			}
		})
	}
}
