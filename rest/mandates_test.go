package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// Mandates: set up by a customer-initiated card payment, charged by later
// merchant-initiated ones, read and revoked through /mandates.

// acceptance is an online customer_acceptance.
var acceptance = map[string]any{"acceptance_type": "online", "accepted_at": "2025-01-02T03:04:05Z",
	"online": map[string]any{"ip_address": "203.0.113.7", "user_agent": "Mozilla/5.0"}}

// setupBody is a confirmed card payment that sets up a mandate for customer.
func setupBody(customer, number string, mandateType map[string]any) map[string]any {
	data := map[string]any{"customer_acceptance": acceptance}
	if mandateType != nil {
		data["mandate_type"] = mandateType
	}
	return payment(map[string]any{"confirm": true, "customer_id": customer, "setup_future_usage": "off_session",
		"payment_method": "card", "payment_method_data": card(number), "mandate_data": data})
}

// setUpMandate sets a mandate up with key and returns its id.
func setUpMandate(t *testing.T, c *client, key, customer string, mandateType map[string]any) string {
	t.Helper()
	r := c.do("POST", "/payments", key, setupBody(customer, "4242424242424242", mandateType)).must(t, 200)
	id := r.str("mandate_id")
	if r.str("status") != "succeeded" || !strings.HasPrefix(id, "man_") {
		t.Fatalf("setup payment: %s", r.Raw)
	}
	return id
}

// recurring is a merchant-initiated payment on a mandate.
func recurring(customer, mandateID string, amount int) map[string]any {
	return map[string]any{"amount": amount, "currency": "USD", "confirm": true, "off_session": true,
		"customer_id": customer, "mandate_id": mandateID}
}

// TestMandateSetup: a confirmed card payment with setup_future_usage
// off_session, a customer and mandate_data saves the card and makes an
// active mandate (mandate_active, its content.object what GET shows); a
// top-level customer_acceptance makes a multi_use one; a declined payment
// makes none.
func TestMandateSetup(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	rc := &hookReceiver{}
	withWebhook(t, c, rc, nil)

	id := setUpMandate(t, c, c.merchantKey(), "cus_setup", map[string]any{
		"single_use": map[string]any{"amount": 8000, "currency": "USD", "end_date": "2099-01-01T00:00:00Z"}})
	got := c.pay("GET", "/mandates/"+id, nil).must(t, 200)
	if got.str("status") != "active" || got.str("payment_method") != "card" || !strings.HasPrefix(got.str("payment_method_id"), "pm_") ||
		got.str("card", "last4_digits") != "4242" || got.str("card", "card_fingerprint") == "" ||
		got.str("customer_acceptance", "online", "ip_address") != "203.0.113.7" {
		t.Fatalf("GET /mandates/%s: %s", id, got.Raw)
	}
	// The fingerprint is keyed by the server's secret: the same card, the
	// same fingerprint, on this server only.
	golden(t, "mandate", []byte(strings.ReplaceAll(string(got.Raw), got.str("card", "card_fingerprint"), "keyed-fingerprint")))

	c.deliverAll(t)
	events := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": id}).must(t, 200)
	items, _ := events.obj()["events"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["event_type"] != "mandate_active" ||
		items[0].(map[string]any)["event_class"] != "mandates" {
		t.Fatalf("events of the mandate: %s", events.Raw)
	}
	var sent struct {
		EventType string `json:"event_type"`
		Content   struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		} `json:"content"`
	}
	rc.mu.Lock()
	for _, b := range rc.bodies {
		if strings.Contains(string(b), `"mandate_active"`) {
			_ = json.Unmarshal(b, &sent)
		}
	}
	rc.mu.Unlock()
	if sent.Content.Type != "mandate_details" || !jsonEqual(t, sent.Content.Object, got.Raw) {
		t.Fatalf("mandate_active delivery %+v differs from GET: %s", sent, got.Raw)
	}

	// A top-level customer_acceptance alone: multi_use.
	r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "customer_id": "cus_setup",
		"setup_future_usage": "off_session", "payment_method_data": card("5555555555554444"),
		"customer_acceptance": map[string]any{"acceptance_type": "offline"}})).must(t, 200)
	if !strings.HasPrefix(r.str("mandate_id"), "man_") {
		t.Fatalf("customer_acceptance setup: %s", r.Raw)
	}
	// A declined setup: no mandate.
	r = c.pay("POST", "/payments", setupBody("cus_setup", "4000000000000002", nil)).must(t, 200)
	if r.str("status") != "failed" || r.obj()["mandate_id"] != nil {
		t.Fatalf("declined setup: %s", r.Raw)
	}
	list := c.pay("GET", "/customers/cus_setup/mandates", nil).must(t, 200)
	arr, _ := list.Body.([]any)
	if len(arr) != 2 || arr[1].(map[string]any)["mandate_id"] != id {
		t.Fatalf("customer mandates: %s", list.Raw)
	}
	// Created, then confirmed: the mandate_data waits on the payment.
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_setup", "setup_future_usage": "off_session",
		"mandate_data": map[string]any{"customer_acceptance": acceptance}})).must(t, 200)
	r = c.pay("POST", "/payments/"+created.str("payment_id")+"/confirm", map[string]any{"payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.str("status") != "succeeded" || !strings.HasPrefix(r.str("mandate_id"), "man_") {
		t.Fatalf("confirmed setup: %s", r.Raw)
	}
	if r := c.pay("GET", "/customers/cus_nobody/mandates", nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown customer: %d %s", r.Status, r.Raw)
	}
}

// TestRecurringPayment: a multi_use mandate is charged, without a card, by
// mandate_id and by recurring_details, through the connector account that
// set it up, again and again; the payment records the mandate.
func TestRecurringPayment(t *testing.T) {
	c := newClient(t)
	id := setUpMandate(t, c, c.merchantKey(), "cus_rec", nil)
	first := c.pay("GET", "/mandates/"+id, nil).must(t, 200)
	for i, body := range []map[string]any{
		recurring("cus_rec", id, 2500),
		{"amount": 2600, "currency": "USD", "confirm": true, "off_session": true, "customer_id": "cus_rec",
			"recurring_details": map[string]any{"type": "mandate_id", "data": id}},
		recurring("cus_rec", id, 2700),
	} {
		r := c.pay("POST", "/payments", body).must(t, 200)
		if r.str("status") != "succeeded" || r.str("mandate_id") != id || r.str("payment_method") != "card" ||
			r.str("connector_mandate_id") == "" {
			t.Fatalf("recurring payment %d: %s", i, r.Raw)
		}
		if pmd, _ := r.obj()["payment_method_data"].(map[string]any); pmd == nil || !strings.Contains(string(r.Raw), `"last4":"4242"`) {
			t.Fatalf("recurring payment %d shows no saved card: %s", i, r.Raw)
		}
	}
	if after := c.pay("GET", "/mandates/"+id, nil).must(t, 200); !jsonEqual(t, after.Raw, first.Raw) {
		t.Fatalf("a multi_use mandate changed by its payments: %s", after.Raw)
	}
	// The saved card keeps its behaviour: the 3155 card, challenged
	// on-session, is charged off-session without one.
	r := c.pay("POST", "/payments", setupBody("cus_rec", "4000002500003155", nil)).must(t, 200)
	if r.str("status") != "requires_customer_action" {
		t.Fatalf("3155 setup: %s", r.Raw)
	}
	authenticate(t, r, "Approve")
	r = c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
	if r.str("status") != "succeeded" || !strings.HasPrefix(r.str("mandate_id"), "man_") {
		t.Fatalf("3155 setup after 3-D Secure: %s", r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_rec", r.str("mandate_id"), 1000)).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("3155 off-session: %s", r.Raw)
	}
	// Another customer may not charge it.
	if r := c.pay("POST", "/payments", recurring("cus_other", id, 1000)); r.Status != 400 || r.errCode() != "IR_16" ||
		!strings.Contains(r.str("error", "message"), "customer_id must match mandate customer_id") {
		t.Fatalf("another customer's mandate: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_rec", "man_unknownunknownunknown", 1000)); r.Status != 404 || r.errCode() != "HE_02" ||
		r.str("error", "message") != "Mandate does not exist in our records" {
		t.Fatalf("unknown mandate: %d %s", r.Status, r.Raw)
	}
}

// TestSingleUseMandate: a single_use mandate charges one payment within its
// amount and currency, and is then inactive.
func TestSingleUseMandate(t *testing.T) {
	c := newClient(t)
	id := setUpMandate(t, c, c.merchantKey(), "cus_single", map[string]any{
		"single_use": map[string]any{"amount": 5000, "currency": "USD"}})
	if r := c.pay("POST", "/payments", recurring("cus_single", id, 5001)); r.Status != 400 || r.errCode() != "HE_03" ||
		!strings.Contains(r.str("error", "message"), "request amount is greater than mandate amount") {
		t.Fatalf("over the amount: %d %s", r.Status, r.Raw)
	}
	eur := recurring("cus_single", id, 100)
	eur["currency"] = "EUR"
	if r := c.pay("POST", "/payments", eur); r.Status != 400 || r.errCode() != "HE_03" ||
		!strings.Contains(r.str("error", "message"), "cross currency mandates not supported") {
		t.Fatalf("another currency: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_single", id, 5000)).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("single use: %s", r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_single", id, 100)); r.Status != 400 || r.errCode() != "IR_16" ||
		r.str("error", "message") != "mandate is not active" {
		t.Fatalf("single use, twice: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("GET", "/mandates/"+id, nil).must(t, 200); r.str("status") != "inactive" {
		t.Fatalf("a spent single_use mandate: %s", r.Raw)
	}
}

// TestRevokeMandate: a revoked mandate charges nothing more, writes
// mandate_revoked, and cannot be revoked again.
func TestRevokeMandate(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	id := setUpMandate(t, c, c.merchantKey(), "cus_rev", nil)
	r := c.pay("POST", "/mandates/revoke/"+id, nil).must(t, 200)
	if r.str("mandate_id") != id || r.str("status") != "revoked" || r.obj()["error_code"] != nil {
		t.Fatalf("revoke: %s", r.Raw)
	}
	golden(t, "mandate_revoked", r.Raw)
	if r := c.pay("GET", "/mandates/"+id, nil).must(t, 200); r.str("status") != "revoked" {
		t.Fatalf("after revoke: %s", r.Raw)
	}
	ev := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": id, "event_types": []string{"mandate_revoked"}}).must(t, 200)
	if ev.obj()["total_count"] != float64(1) {
		t.Fatalf("mandate_revoked events: %s", ev.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_rev", id, 1000)); r.Status != 400 || r.errCode() != "IR_16" ||
		r.str("error", "message") != "mandate is not active" {
		t.Fatalf("charging a revoked mandate: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/mandates/revoke/"+id, map[string]any{}); r.Status != 400 || r.errCode() != "HE_03" ||
		!strings.Contains(r.str("error", "message"), "Mandate has already been revoked") {
		t.Fatalf("revoked twice: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/mandates/revoke/man_unknownunknownunknown", nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("revoking an unknown mandate: %d %s", r.Status, r.Raw)
	}
}

// TestMandateForeign: another merchant's mandate is not found, to read, to
// revoke or to charge.
func TestMandateForeign(t *testing.T) {
	c := newClient(t)
	b := makeMerchant(t, c, "merchant_b")
	id := setUpMandate(t, c, b.key, "cus_b", nil)
	for _, r := range []response{
		c.pay("GET", "/mandates/"+id, nil),
		c.pay("POST", "/mandates/revoke/"+id, nil),
		c.pay("GET", "/customers/cus_b/mandates", nil),
		c.pay("POST", "/payments", recurring("cus_b", id, 1000)),
	} {
		if r.Status != 404 || r.errCode() != "HE_02" || strings.Contains(string(r.Raw), id) {
			t.Fatalf("A on B's mandate: %d %s", r.Status, r.Raw)
		}
	}
	if r := c.do("GET", "/mandates/"+id, b.key, nil).must(t, 200); r.str("status") != "active" {
		t.Fatalf("B's mandate: %s", r.Raw)
	}
}

// TestMandateValidation: mandate members are closed objects, checked
// before anything is written, with the member named.
func TestMandateValidation(t *testing.T) {
	c := newClient(t)
	id := setUpMandate(t, c, c.merchantKey(), "cus_val", nil)
	with := func(members map[string]any) map[string]any {
		return patched(setupBody("cus_val", "4242424242424242", nil), members)
	}
	md := func(members map[string]any) map[string]any {
		d := map[string]any{"customer_acceptance": acceptance}
		for k, v := range members {
			d[k] = v
		}
		return map[string]any{"mandate_data": d}
	}
	rec := func(members map[string]any) map[string]any {
		return patched(recurring("cus_val", id, 1000), members)
	}
	cases := []struct {
		name string
		body map[string]any
		code string
		want string // in the message
	}{
		{"unknown member", with(md(map[string]any{"extra": 1})), "IR_06", "mandate_data.extra"},
		{"unknown acceptance member", with(md(map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "offline", "x": 1}})), "IR_06", "mandate_data.customer_acceptance.x"},
		{"acceptance type", with(md(map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "verbal"}})), "IR_07", "mandate_data.customer_acceptance.acceptance_type"},
		{"acceptance type missing", with(md(map[string]any{"customer_acceptance": map[string]any{}})), "IR_04", "mandate_data.customer_acceptance.acceptance_type"},
		{"online without online", with(md(map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "online"}})), "IR_16", "customer_acceptance.online"},
		{"online without user_agent", with(md(map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "online", "online": map[string]any{"ip_address": "203.0.113.7"}}})), "IR_04", "mandate_data.customer_acceptance.online.user_agent"},
		{"bad accepted_at", with(md(map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "offline", "accepted_at": "yesterday"}})), "IR_06", "ISO 8601"},
		{"two mandate types", with(md(map[string]any{"mandate_type": map[string]any{"single_use": map[string]any{"amount": 1, "currency": "USD"}, "multi_use": nil}})), "IR_07", "mandate_data.mandate_type"},
		{"unknown mandate type", with(md(map[string]any{"mandate_type": map[string]any{"weekly": nil}})), "IR_06", "mandate_data.mandate_type.weekly"},
		{"single_use null", with(md(map[string]any{"mandate_type": map[string]any{"single_use": nil}})), "IR_04", "mandate_data.mandate_type.single_use"},
		{"single_use without amount", with(md(map[string]any{"mandate_type": map[string]any{"single_use": map[string]any{"currency": "USD"}}})), "IR_04", "single_use.amount"},
		{"single_use amount string", with(md(map[string]any{"mandate_type": map[string]any{"single_use": map[string]any{"amount": "10", "currency": "USD"}}})), "IR_06", "single_use.amount"},
		{"single_use zero", with(md(map[string]any{"mandate_type": map[string]any{"single_use": map[string]any{"amount": 0, "currency": "USD"}}})), "IR_07", "single_use.amount"},
		{"single_use currency", with(md(map[string]any{"mandate_type": map[string]any{"single_use": map[string]any{"amount": 5, "currency": "XXX"}}})), "IR_07", "single_use.currency"},
		{"dates reversed", with(md(map[string]any{"mandate_type": map[string]any{"multi_use": map[string]any{"amount": 5, "currency": "USD",
			"start_date": "2030-01-01T00:00:00Z", "end_date": "2029-01-01T00:00:00Z"}}})), "IR_16", "start_date"},
		{"update_mandate_id", with(md(map[string]any{"update_mandate_id": id})), "IR_07", "mandate_data.update_mandate_id"},
		{"no customer", with(map[string]any{"customer_id": nil}), "IR_16", "`customer_id` is mandatory for mandates"},
		{"on_session", with(map[string]any{"setup_future_usage": "on_session"}), "IR_16", "`setup_future_usage` must be `off_session` for mandates"},
		{"no setup_future_usage", with(map[string]any{"setup_future_usage": nil}), "IR_16", "`setup_future_usage` must be `off_session` for mandates"},
		{"not a card", with(map[string]any{"payment_method": "wallet", "payment_method_data": map[string]any{"wallet": map[string]any{"paypal_redirect": map[string]any{}}}}), "IR_07", "mandate_data"},
		{"both setup and charge", with(map[string]any{"mandate_id": id, "off_session": true}), "IR_07", "recurring_details"},
		{"card with mandate", rec(map[string]any{"payment_method_data": card("4242424242424242")}), "IR_07", "payment_method_data"},
		{"charge without confirm", rec(map[string]any{"confirm": nil}), "IR_16", "`confirm` must be `true` for mandates"},
		{"charge without off_session", rec(map[string]any{"off_session": nil}), "IR_04", "off_session"},
		{"charge on session", rec(map[string]any{"off_session": false}), "IR_16", "`off_session` should be `true` for mandates"},
		{"charge without customer", rec(map[string]any{"customer_id": nil}), "IR_04", "customer_id"},
		{"recurring_details type", rec(map[string]any{"mandate_id": nil, "recurring_details": map[string]any{"type": "payment_method_id", "data": "pm_1"}}), "IR_07", "recurring_details.type"},
		{"recurring_details without data", rec(map[string]any{"mandate_id": nil, "recurring_details": map[string]any{"type": "mandate_id"}}), "IR_04", "recurring_details.data"},
		{"recurring_details data object", rec(map[string]any{"mandate_id": nil, "recurring_details": map[string]any{"type": "mandate_id", "data": map[string]any{}}}), "IR_06", "recurring_details.data"},
		{"recurring_details unknown member", rec(map[string]any{"recurring_details": map[string]any{"type": "mandate_id", "data": id, "x": 1}}), "IR_06", "recurring_details.x"},
		{"recurring_details another mandate", rec(map[string]any{"recurring_details": map[string]any{"type": "mandate_id", "data": "man_other"}}), "IR_07", "recurring_details.data"},
		{"mandate_id empty", rec(map[string]any{"mandate_id": ""}), "IR_07", "mandate_id"},
	}
	before := countPayments(t, c)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", tc.body)
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.want) {
				t.Fatalf("%d %s, want 400 %s naming %q", r.Status, r.Raw, tc.code, tc.want)
			}
		})
	}
	// The setup checks that need the payment as a whole run at confirm;
	// all the others refuse the call before the payment is written.
	if n := countPayments(t, c) - before; n > 3 {
		t.Fatalf("%d refused calls wrote a payment", n)
	}
	// A mandate charged by an update must be confirmed with it.
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_val"})).must(t, 200)
	if r := c.pay("POST", "/payments/"+created.str("payment_id"), map[string]any{"mandate_id": id}); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("mandate_id on an update: %d %s", r.Status, r.Raw)
	}
	r := c.pay("POST", "/payments/"+created.str("payment_id"), map[string]any{"mandate_id": id, "off_session": true, "confirm": true}).must(t, 200)
	if r.str("status") != "succeeded" || r.str("mandate_id") != id {
		t.Fatalf("update and confirm on a mandate: %s", r.Raw)
	}
}

// TestMultiUseMandateLimits: a multi_use mandate with an amount charges in
// total no more than it, and none before its start_date.
func TestMultiUseMandateLimits(t *testing.T) {
	c := newClient(t)
	id := setUpMandate(t, c, c.merchantKey(), "cus_multi", map[string]any{
		"multi_use": map[string]any{"amount": 3000, "currency": "USD"}})
	if r := c.pay("POST", "/payments", recurring("cus_multi", id, 2000)).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("first charge: %s", r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_multi", id, 1500)); r.Status != 400 || r.errCode() != "HE_03" {
		t.Fatalf("over the total: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments", recurring("cus_multi", id, 1000)).must(t, 200); r.str("status") != "succeeded" {
		t.Fatalf("up to the total: %s", r.Raw)
	}
	later := setUpMandate(t, c, c.merchantKey(), "cus_multi", map[string]any{
		"multi_use": map[string]any{"amount": 3000, "currency": "USD", "start_date": "2098-01-01T00:00:00Z"}})
	if r := c.pay("POST", "/payments", recurring("cus_multi", later, 100)); r.Status != 400 || r.errCode() != "HE_03" ||
		!strings.Contains(r.str("error", "message"), "start_date") {
		t.Fatalf("before its start_date: %d %s", r.Status, r.Raw)
	}
}

// TestOnSessionAcceptanceIsNoMandate: with setup_future_usage on_session,
// a top-level customer_acceptance is consent to keep the card for the
// customer's next checkout, as in Hyperswitch: the payment succeeds and
// sets up no mandate. mandate_data still needs off_session (IR_16, as in
// Hyperswitch).
func TestOnSessionAcceptanceIsNoMandate(t *testing.T) {
	c := newClient(t)
	r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "customer_id": "cus_on_session",
		"setup_future_usage": "on_session", "customer_acceptance": acceptance,
		"payment_method": "card", "payment_method_data": card("4242424242424242")})).must(t, 200)
	if r.str("status") != "succeeded" || r.obj()["mandate_id"] != nil {
		t.Fatalf("on_session with customer_acceptance: %s", r.Raw)
	}
	body := setupBody("cus_on_session", "4242424242424242", nil)
	body["setup_future_usage"] = "on_session"
	if r := c.do("POST", "/payments", c.merchantKey(), body); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("mandate_data on_session: %d %s", r.Status, r.Raw)
	}
}
