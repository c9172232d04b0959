package rest_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/ent/refund"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/customer"
)

// merchantCtx is a context acting as the merchant, for the domain calls
// tests make directly.
func merchantCtx(merchantID string) context.Context {
	return tenancy.ForMerchant(context.Background(), merchantID)
}

// testCard is the sandbox's always-succeeding card.
func testCard(number string) *customer.PaymentMethodInput {
	return &customer.PaymentMethodInput{Type: "card", Subtype: "credit", Card: &customer.CardInput{
		Number: number, ExpMonth: "12", ExpYear: "2035", CVC: "123"}}
}

// paidPayment creates a payment of the merchant with the card and
// confirm: true through POST /payments, and returns its payment_id.
func paidPayment(t *testing.T, c *client, merchantID string, profileID *string, amount int64, currency, card string) string {
	t.Helper()
	body := map[string]any{"amount": amount, "currency": currency, "confirm": true,
		"payment_method": "card", "payment_method_type": "credit",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": card,
			"card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123", "card_holder_name": "Jane Doe"}}}
	if profileID != nil {
		body["profile_id"] = *profileID
	}
	r := c.doWith("POST", "/payments", c.admin(), body, map[string]string{"X-Merchant-Id": merchantID})
	r.must(t, 200)
	id, status := r.str("payment_id"), r.str("status")
	n, _ := r.obj()["amount_received"].(float64)
	captured := int64(n)
	if card == "4242424242424242" && (status != "succeeded" || captured != amount) {
		t.Fatalf("payment %s: status %s, captured %d", id, status, captured)
	}
	return id
}

// normalized replaces run-specific values in raw (pairs of old, new)
// before a golden compare; the simulator's connector ids, which embed
// internal ids, become placeholders too.
func normalized(raw []byte, pairs ...string) []byte {
	out := strings.NewReplacer(pairs...).Replace(string(raw))
	out = connectorRefundID.ReplaceAllString(out, `"{connector refund id}"`)
	return []byte(connectorTransactionID.ReplaceAllString(out, `"{connector transaction id}"`))
}

var (
	connectorRefundID      = regexp.MustCompile(`"sim_ref_ref_[A-Za-z0-9]+"`)
	connectorTransactionID = regexp.MustCompile(`"sim_pa_[A-Za-z0-9]+"`)
)

// TestRefundLifecycle: partial refunds with and without a merchant
// refund_id, a last refund taking the rest by default, then one over the
// captured amount (IR_13); retrieve, update (reason alone keeps the
// metadata; metadata replaces) and the refunds nested on their payment.
func TestRefundLifecycle(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	pay := paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242")

	first := c.do("POST", "/refunds", d.SecretKey, map[string]any{
		"payment_id": pay, "refund_id": "merchant_ref_1", "amount": 300, "reason": "Customer returned the product",
		"refund_type": "instant", "metadata": map[string]any{"order": "A-1", "lines": 2},
		"merchant_connector_details": map[string]any{"creds_identifier": "ignored"},
	}).must(t, 200)
	golden(t, "refund", normalized(first.Raw, pay, "{payment id}", d.ConnectorAccount, "{mca id}"))
	want := map[string]any{"refund_id": "merchant_ref_1", "payment_id": pay, "amount": float64(300), "currency": "USD",
		"status": "succeeded", "connector": "stripe_test", "profile_id": d.ProfileID, "merchant_connector_id": d.ConnectorAccount,
		"reason": "Customer returned the product", "error_code": nil, "error_message": nil}
	for k, v := range want {
		if first.obj()[k] != v {
			t.Errorf("%s = %v, want %v", k, first.obj()[k], v)
		}
	}

	second := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "amount": 200}).must(t, 200)
	if id := second.str("refund_id"); !strings.HasPrefix(id, "ref_") || second.obj()["reason"] != nil || second.obj()["metadata"] != nil {
		t.Fatalf("generated refund: %s", second.Raw)
	}
	rest := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay}).must(t, 200)
	if rest.obj()["amount"] != float64(500) {
		t.Fatalf("default amount is what remains (500): %s", rest.Raw)
	}
	over := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "amount": 1})
	if over.Status != 400 || over.errCode() != "IR_13" {
		t.Fatalf("refund past the captured amount: %d %s", over.Status, over.Raw)
	}
	if again := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay}); again.errCode() != "IR_13" {
		t.Fatalf("nothing left to refund: %d %s", again.Status, again.Raw)
	}

	got := c.do("GET", "/refunds/merchant_ref_1", d.SecretKey, nil).must(t, 200)
	if string(got.Raw) != string(first.Raw) {
		t.Fatalf("retrieve differs from create:\n%s\n%s", got.Raw, first.Raw)
	}

	// Reason alone keeps the metadata; metadata replaces it whole.
	upd := c.do("POST", "/refunds/merchant_ref_1", d.SecretKey, map[string]any{"reason": "damaged"}).must(t, 200)
	if upd.str("reason") != "damaged" || upd.str("metadata", "order") != "A-1" {
		t.Fatalf("update reason: %s", upd.Raw)
	}
	upd = c.do("POST", "/refunds/merchant_ref_1", d.SecretKey, map[string]any{"metadata": map[string]any{"ticket": "T-9"}}).must(t, 200)
	if m := upd.obj()["metadata"].(map[string]any); len(m) != 1 || m["ticket"] != "T-9" || upd.str("reason") != "damaged" {
		t.Fatalf("update metadata: %s", upd.Raw)
	}
	if upd.obj()["amount"] != float64(300) || upd.str("payment_id") != pay {
		t.Fatalf("update changed the refund: %s", upd.Raw)
	}
	for _, bad := range []struct {
		body any
		code string
	}{
		{map[string]any{"amount": 5}, "IR_06"},
		{map[string]any{"reason": strings.Repeat("r", 256)}, "IR_07"},
		{map[string]any{"metadata": "x"}, "IR_06"},
	} {
		if r := c.do("POST", "/refunds/merchant_ref_1", d.SecretKey, bad.body); r.Status != 400 || r.errCode() != bad.code {
			t.Errorf("update %v: %d %s", bad.body, r.Status, r.Raw)
		}
	}
	if r := c.do("POST", "/refunds/ref_unknown", d.SecretKey, map[string]any{"reason": "x"}); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("update unknown: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/refunds/ref_unknown", d.SecretKey, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("retrieve unknown: %d %s", r.Status, r.Raw)
	}

	assertNestedRefunds(t, c, d.SecretKey, pay, []string{"merchant_ref_1", second.str("refund_id"), rest.str("refund_id")})
}

// assertNestedRefunds checks that GET /payments/{id} shows the payment's
// refunds, oldest first.
func assertNestedRefunds(t *testing.T, c *client, key, paymentID string, want []string) {
	t.Helper()
	r := c.do("GET", "/payments/"+paymentID, key, nil)
	r.must(t, 200)
	refs, _ := r.obj()["refunds"].([]any)
	var got []string
	for _, x := range refs {
		ref := x.(map[string]any)
		if ref["payment_id"] != paymentID {
			t.Errorf("nested refund of %v", ref["payment_id"])
		}
		got = append(got, ref["refund_id"].(string))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("GET /payments/%s refunds = %v, want %v", paymentID, got, want)
	}
}

// TestRefundRefusals: the payment must have succeeded (HE_03), a refund_id
// is unique per merchant (HE_01), and the request is a closed object with
// its limits.
func TestRefundRefusals(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	ctx := merchantCtx(d.MerchantID)
	svc := c.srv.Payments
	pay := paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242")

	// Payments that have not succeeded: never confirmed, declined, authorized
	// only (manual capture).
	pending, err := svc.CreatePayment(ctx, payments.PaymentInput{Amount: 500, Currency: "USD"})
	if err != nil {
		t.Fatal(err)
	}
	declined := paidPayment(t, c, d.MerchantID, nil, 500, "USD", "4000000000000002")
	manual := "manual"
	authorized, err := svc.CreatePayment(ctx, payments.PaymentInput{Amount: 500, Currency: "USD", Confirm: true,
		PaymentFields: payments.PaymentFields{CaptureMethod: &manual, PaymentMethod: testCard("4242424242424242")}})
	if err != nil || authorized.Intent.Status != "requires_capture" {
		t.Fatalf("manual capture payment: %v", err)
	}
	for _, id := range []string{pending.Intent.PaymentID, declined, authorized.Intent.PaymentID} {
		r := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": id, "amount": 100})
		if r.Status != 400 || r.errCode() != "HE_03" ||
			r.str("error", "message") != "The payment has not succeeded yet. Please pass a successful payment to initiate refund" {
			t.Errorf("refund of %s: %d %s", id, r.Status, r.Raw)
		}
	}

	// A merchant refund_id is unique per merchant, across payments.
	c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "refund_id": "dup_1", "amount": 100}).must(t, 200)
	other := paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242")
	for _, p := range []string{pay, other} {
		r := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": p, "refund_id": "dup_1", "amount": 100})
		if r.Status != 400 || r.errCode() != "HE_01" ||
			r.str("error", "message") != "Duplicate refund request. Refund already attempted with the refund ID" {
			t.Errorf("duplicate refund_id on %s: %d %s", p, r.Status, r.Raw)
		}
	}

	// Another merchant may use the same refund_id, and sees none of ours.
	_, otherKey, _ := otherMerchant(t, c, "merchant_refunds_b")
	if r := c.do("GET", "/refunds/dup_1", otherKey, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("foreign refund: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/refunds/dup_1", otherKey, map[string]any{"reason": "x"}); r.Status != 404 {
		t.Fatalf("foreign refund update: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/refunds", otherKey, map[string]any{"payment_id": pay}); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("refund of a foreign payment: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/refunds/list", otherKey, map[string]any{}).must(t, 200); r.obj()["total_count"] != float64(0) {
		t.Fatalf("foreign list: %s", r.Raw)
	}

	cases := []struct {
		name   string
		body   any
		status int
		code   string
		field  string
	}{
		{"missing payment_id", map[string]any{"amount": 100}, 400, "IR_04", "payment_id"},
		{"empty payment_id", map[string]any{"payment_id": ""}, 400, "IR_04", "payment_id"},
		{"unknown payment", map[string]any{"payment_id": "pay_unknown"}, 404, "HE_02", "Payment"},
		{"zero amount", map[string]any{"payment_id": pay, "amount": 0}, 400, "IR_07", "amount"},
		{"negative amount", map[string]any{"payment_id": pay, "amount": -5}, 400, "IR_07", "amount"},
		{"amount over the captured", map[string]any{"payment_id": pay, "amount": 901}, 400, "IR_13", "exceeds the amount captured"},
		{"amount as a string", map[string]any{"payment_id": pay, "amount": "100"}, 400, "IR_06", "amount"},
		{"refund_type", map[string]any{"payment_id": pay, "refund_type": "Instant"}, 400, "IR_07", "refund_type"},
		{"reason too long", map[string]any{"payment_id": pay, "reason": strings.Repeat("x", 256)}, 400, "IR_07", "reason"},
		{"refund_id charset", map[string]any{"payment_id": pay, "refund_id": "bad id!"}, 400, "IR_07", "refund_id"},
		{"refund_id too long", map[string]any{"payment_id": pay, "refund_id": strings.Repeat("r", 65)}, 400, "IR_07", "refund_id"},
		{"unknown member", map[string]any{"payment_id": pay, "refund_reason": "x"}, 400, "IR_06", "refund_reason"},
		{"metadata not an object", map[string]any{"payment_id": pay, "metadata": []any{1}}, 400, "IR_06", "metadata"},
		{"split_refunds", map[string]any{"payment_id": pay, "split_refunds": map[string]any{"stripe_split_refund": map[string]any{}}}, 400, "IR_06", "split_refunds"},
		{"another merchant_id", map[string]any{"payment_id": pay, "merchant_id": "merchant_refunds_b"}, 400, "IR_07", "merchant_id"},
		{"malformed JSON", `{"payment_id": `, 400, "IR_06", "JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", "/refunds", d.SecretKey, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field) {
				t.Fatalf("%d %s, want %d %s naming %q", r.Status, r.Raw, tc.status, tc.code, tc.field)
			}
		})
	}
	// merchant_id naming the caller is accepted.
	c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "merchant_id": d.MerchantID, "amount": 1}).must(t, 200)

	// Keys: none is 401; the admin key acts for the merchant of
	// X-Merchant-Id, and without it has no merchant to refund for.
	if r := c.do("POST", "/refunds", "", map[string]any{"payment_id": pay}); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("no key: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/refunds/dup_1", c.admin(), nil); r.Status != 400 || r.errCode() != "IR_04" ||
		!strings.Contains(r.str("error", "message"), "X-Merchant-Id") {
		t.Fatalf("admin without a merchant: %d %s", r.Status, r.Raw)
	}
	adm := c.doWith("GET", "/refunds/dup_1", c.admin(), nil, map[string]string{"X-Merchant-Id": d.MerchantID}).must(t, 200)
	if adm.str("payment_id") != pay {
		t.Fatalf("admin as the merchant: %s", adm.Raw)
	}
	if r := c.doWith("GET", "/refunds/dup_1", c.admin(), nil, map[string]string{"X-Merchant-Id": "merchant_refunds_b"}); r.Status != 404 {
		t.Fatalf("admin as another merchant: %d %s", r.Status, r.Raw)
	}
	// A refund of another profile than X-Profile-Id names is hidden.
	prof := c.do("POST", "/account/"+d.MerchantID+"/business_profile", d.SecretKey, map[string]any{"profile_name": "other"}).must(t, 200).str("profile_id")
	if r := c.doWith("GET", "/refunds/dup_1", d.SecretKey, nil, map[string]string{"X-Profile-Id": prof}); r.Status != 404 {
		t.Fatalf("refund of another profile: %d %s", r.Status, r.Raw)
	}
	if r := c.doWith("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "amount": 1}, map[string]string{"X-Profile-Id": prof}); r.Status != 404 {
		t.Fatalf("refunding a payment of another profile: %d %s", r.Status, r.Raw)
	}
	c.doWith("GET", "/refunds/dup_1", d.SecretKey, nil, map[string]string{"X-Profile-Id": d.ProfileID}).must(t, 200)
}

// TestRefundList: POST /refunds/list with each filter alone and the
// paging members.
func TestRefundList(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	key := d.SecretKey
	ctx := merchantCtx(d.MerchantID)

	// A second profile with an adyen connector account.
	prof := c.do("POST", "/account/"+d.MerchantID+"/business_profile", key, map[string]any{"profile_name": "eu"}).must(t, 200).str("profile_id")
	adyen := c.do("POST", "/account/"+d.MerchantID+"/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen", "profile_id": prof,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "adyen_key_for_tests"},
	}).must(t, 200).str("merchant_connector_id")

	usd := paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242")
	eur := paidPayment(t, c, d.MerchantID, &prof, 2000, "EUR", "4242424242424242")
	newRefund := func(pay string, amount int) string {
		return c.do("POST", "/refunds", key, map[string]any{"payment_id": pay, "amount": amount}).must(t, 200).str("refund_id")
	}
	r1 := newRefund(usd, 100)
	r2 := newRefund(usd, 250)
	time.Sleep(20 * time.Millisecond)
	mid := time.Now().UTC()
	time.Sleep(20 * time.Millisecond)
	r3 := newRefund(eur, 400)
	r4 := newRefund(eur, 900)
	// The simulator's refunds succeed; one is recorded as failed, as a
	// connector decline would leave it, for the status filter.
	if _, err := c.srv.Store.Client.Refund.Update().Where(refund.RefundID(r4)).SetStatus(refund.StatusFailed).Save(ctx); err != nil {
		t.Fatal(err)
	}
	end := time.Now().UTC().Add(time.Second)

	list := func(body map[string]any) []string {
		t.Helper()
		r := c.do("POST", "/refunds/list", key, body).must(t, 200)
		data := r.obj()["data"].([]any)
		if r.obj()["count"] != float64(len(data)) {
			t.Fatalf("count %v for %d refunds", r.obj()["count"], len(data))
		}
		var ids []string
		for _, x := range data {
			ids = append(ids, x.(map[string]any)["refund_id"].(string))
		}
		return ids
	}
	all := []string{r4, r3, r2, r1} // newest first
	ts := func(t time.Time) string { return t.Format(time.RFC3339Nano) }
	cases := []struct {
		name string
		body map[string]any
		want []string
	}{
		{"everything", map[string]any{}, all},
		{"payment_id", map[string]any{"payment_id": usd}, []string{r2, r1}},
		{"payment_id unknown", map[string]any{"payment_id": "pay_nothing"}, nil},
		{"refund_id", map[string]any{"refund_id": r3}, []string{r3}},
		{"profile_id", map[string]any{"profile_id": prof}, []string{r4, r3}},
		{"limit", map[string]any{"limit": 2}, []string{r4, r3}},
		{"limit and offset", map[string]any{"limit": 2, "offset": 1}, []string{r3, r2}},
		{"offset past the end", map[string]any{"offset": 10}, nil},
		{"start_time", map[string]any{"start_time": ts(mid)}, []string{r4, r3}},
		{"start_time and end_time", map[string]any{"start_time": ts(mid.Add(-time.Hour)), "end_time": ts(mid)}, []string{r2, r1}},
		{"time_range object", map[string]any{"time_range": map[string]any{"start_time": ts(mid), "end_time": ts(end)}}, []string{r4, r3}},
		{"amount_filter start", map[string]any{"amount_filter": map[string]any{"start_amount": 250}}, []string{r4, r3, r2}},
		{"amount_filter range", map[string]any{"amount_filter": map[string]any{"start_amount": 100, "end_amount": 400}}, []string{r3, r2, r1}},
		{"connector", map[string]any{"connector": []string{"adyen"}}, []string{r4, r3}},
		{"connectors", map[string]any{"connector": []string{"adyen", "stripe_test"}}, all},
		{"merchant_connector_id", map[string]any{"merchant_connector_id": []string{d.ConnectorAccount}}, []string{r2, r1}},
		{"currency", map[string]any{"currency": []string{"EUR"}}, []string{r4, r3}},
		{"refund_status", map[string]any{"refund_status": []string{"failed"}}, []string{r4}},
		{"refund_statuses", map[string]any{"refund_status": []string{"succeeded", "pending"}}, []string{r3, r2, r1}},
		{"combined", map[string]any{"currency": []string{"EUR"}, "refund_status": []string{"succeeded"}, "connector": []string{"adyen"}}, []string{r3}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := list(tc.body); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	// total_count counts every match, not the page.
	page := c.do("POST", "/refunds/list", key, map[string]any{"limit": 1}).must(t, 200)
	if page.obj()["count"] != float64(1) || page.obj()["total_count"] != float64(4) {
		t.Fatalf("page: %s", page.Raw)
	}
	// X-Profile-Id narrows the list to that profile.
	scoped := c.doWith("POST", "/refunds/list", key, map[string]any{}, map[string]string{"X-Profile-Id": prof}).must(t, 200)
	if scoped.obj()["total_count"] != float64(2) {
		t.Fatalf("list under X-Profile-Id: %s", scoped.Raw)
	}
	_ = adyen

	bad := []struct {
		name  string
		body  any
		code  string
		field string
	}{
		{"limit 0", map[string]any{"limit": 0}, "IR_07", "limit"},
		{"limit 101", map[string]any{"limit": 101}, "IR_07", "limit"},
		{"negative offset", map[string]any{"offset": -1}, "IR_07", "offset"},
		{"bad currency", map[string]any{"currency": []string{"XXX"}}, "IR_07", "currency[0]"},
		{"bad status", map[string]any{"refund_status": []string{"done"}}, "IR_07", "refund_status[0]"},
		{"bad time", map[string]any{"start_time": "yesterday"}, "IR_06", "yesterday"},
		{"end before start", map[string]any{"start_time": ts(end), "end_time": ts(mid)}, "IR_07", "end_time"},
		{"end without start", map[string]any{"end_time": ts(mid)}, "IR_04", "start_time"},
		{"amounts reversed", map[string]any{"amount_filter": map[string]any{"start_amount": 10, "end_amount": 5}}, "IR_07", "end_amount"},
		{"unknown member", map[string]any{"status": "x"}, "IR_06", "status"},
		{"connector not an array", map[string]any{"connector": "adyen"}, "IR_06", "connector"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", "/refunds/list", key, tc.body)
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field) {
				t.Fatalf("%d %s, want 400 %s naming %q", r.Status, r.Raw, tc.code, tc.field)
			}
		})
	}
}

// TestConcurrentRefunds: 20 partial refunds at once on one payment never
// refund more than was captured; exactly as many succeed as fit.
func TestConcurrentRefunds(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	const captured, each, workers = 1000, 150, 20
	pay := paidPayment(t, c, d.MerchantID, nil, captured, "USD", "4242424242424242")

	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		codes  = map[string]int{}
		amount int64
	)
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "amount": each,
				"refund_id": fmt.Sprintf("conc_%02d", i)})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case r.Status == 200 && r.str("status") == "succeeded":
				codes["ok"]++
				amount += each
			case r.Status == 400:
				codes[r.errCode()]++
			default:
				codes[fmt.Sprintf("%d %s", r.Status, r.Raw)]++
			}
		}()
	}
	wg.Wait()
	if amount > captured || codes["ok"] != captured/each || codes["IR_13"] != workers-captured/each {
		t.Fatalf("outcomes %v, refunded %d of %d", codes, amount, captured)
	}
	// The stored refunds agree.
	v, err := c.srv.Payments.GetPayment(merchantCtx(d.MerchantID), pay)
	if err != nil {
		t.Fatal(err)
	}
	var stored int64
	for _, r := range v.Refunds {
		if r.Status == refund.StatusSucceeded {
			stored += r.Amount
		}
	}
	if stored != amount || stored > v.Intent.AmountCaptured {
		t.Fatalf("stored succeeded refunds %d, counted %d, captured %d", stored, amount, v.Intent.AmountCaptured)
	}
	// The remainder is still refundable, and no more.
	c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay}).must(t, 200)
	if r := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": pay, "amount": 1}); r.errCode() != "IR_13" {
		t.Fatalf("after the remainder: %d %s", r.Status, r.Raw)
	}
}
