package rest_test

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent/dispute"
	"switchyard/payments/merchant"
)

// The sandbox cards that succeed and then have a dispute opened
// (docs/sandbox.md).
const (
	disputeFraudCard       = "4000000000000259" // reason fraudulent
	disputeNotReceivedCard = "4000000000002685" // reason product_not_received
)

// disputedPayment pays 10000 USD with a dispute card through POST /payments
// and returns the payment_id and the id of the dispute nested on it.
func disputedPayment(t *testing.T, c *client, key, cardNumber string) (paymentID, disputeID string) {
	t.Helper()
	r := c.do("POST", "/payments", key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card(cardNumber)})).must(t, 200)
	disputes := r.list("disputes")
	if r.str("status") != "succeeded" || len(disputes) != 1 {
		t.Fatalf("payment with %s: %s", cardNumber, r.Raw)
	}
	return r.str("payment_id"), disputes[0]["dispute_id"].(string)
}

// disputeIDs are the dispute_ids of a GET /disputes/list body, in order.
func disputeIDs(t *testing.T, r response) []string {
	t.Helper()
	items, ok := r.Body.([]any)
	if !ok {
		t.Fatalf("the list is not an array: %s", r.Raw)
	}
	ids := []string{}
	for _, x := range items {
		ids = append(ids, x.(map[string]any)["dispute_id"].(string))
	}
	return ids
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

// TestDisputeRetrieveAndList: a payment with a dispute card opens a dispute
// that GET /disputes/{id} shows (Hyperswitch's DisputeResponse, pinned by a
// golden file) and GET /disputes/list lists, newest first, with each filter
// alone, under X-Profile-Id and with the admin key; is_already_refunded
// turns true once a lost dispute and the refunds exceed the captured amount.
func TestDisputeRetrieveAndList(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	key := d.SecretKey

	pay1, dp1 := disputedPayment(t, c, key, disputeFraudCard)
	paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242") // no dispute
	c.srv.Clock.Advance(2 * time.Second)                                  // received_time compares at whole seconds
	mid := c.srv.Clock.Now().Truncate(time.Second)
	_, dp2 := disputedPayment(t, c, key, disputeNotReceivedCard)

	got := c.do("GET", "/disputes/"+dp1, key, nil).must(t, 200)
	attempt := c.do("GET", "/payments/"+pay1, key, nil).must(t, 200).list("attempts")[0]["attempt_id"].(string)
	// The simulator's connector_dispute_id embeds the attempt id.
	golden(t, "dispute", normalized(got.Raw, pay1, "{payment id}", attempt, "{attempt id}", d.ConnectorAccount, "{mca id}", d.ProfileID, "{profile id}"))
	want := map[string]any{"dispute_id": dp1, "payment_id": pay1, "attempt_id": attempt, "amount": "10000",
		"currency": "USD", "dispute_stage": "dispute", "dispute_status": "dispute_opened", "connector": "stripe_test",
		"connector_status": "needs_response", "connector_reason": "fraudulent", "profile_id": d.ProfileID,
		"merchant_connector_id": d.ConnectorAccount, "is_already_refunded": false}
	for k, v := range want {
		if got.obj()[k] != v {
			t.Errorf("%s = %v, want %v", k, got.obj()[k], v)
		}
	}
	c.do("GET", "/disputes/"+dp1+"?force_sync=true", key, nil).must(t, 200)

	list := func(query string, headers map[string]string) []string {
		t.Helper()
		return disputeIDs(t, c.doWith("GET", "/disputes/list"+query, key, nil, headers).must(t, 200))
	}
	// Each list element is what GET /disputes/{id} shows.
	all := c.do("GET", "/disputes/list", key, nil).must(t, 200)
	if ids := disputeIDs(t, all); !slices.Equal(ids, []string{dp2, dp1}) {
		t.Fatalf("list %v, want newest first %v", ids, []string{dp2, dp1})
	}
	elem, _ := json.Marshal(all.Body.([]any)[1])
	if !jsonEqual(t, elem, got.Raw) {
		t.Fatalf("list element differs from GET:\n%s\n%s", elem, got.Raw)
	}

	prof := c.do("POST", "/account/"+d.MerchantID+"/business_profile", key, map[string]any{"profile_name": "other"}).must(t, 200).str("profile_id")
	q := func(kv ...string) string {
		v := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		return "?" + v.Encode()
	}
	ts := func(t time.Time) string { return t.Format(time.RFC3339) }
	both, none := []string{dp2, dp1}, []string{}
	cases := []struct {
		name    string
		query   string
		headers map[string]string
		want    []string
	}{
		{"everything", "", nil, both},
		{"limit", q("limit", "1"), nil, []string{dp2}},
		{"limit 100", q("limit", "100"), nil, both},
		{"dispute_status", q("dispute_status", "dispute_opened"), nil, both},
		{"dispute_status none", q("dispute_status", "dispute_won"), nil, none},
		{"dispute_stage", q("dispute_stage", "dispute"), nil, both},
		{"dispute_stage none", q("dispute_stage", "pre_arbitration"), nil, none},
		{"reason", q("reason", "fraudulent"), nil, []string{dp1}},
		{"reason other", q("reason", "product_not_received"), nil, []string{dp2}},
		{"connector", q("connector", "stripe_test"), nil, both},
		{"connector none", q("connector", "adyen"), nil, none},
		{"profile_id", q("profile_id", d.ProfileID), nil, both},
		{"profile_id other", q("profile_id", prof), nil, none},
		{"received_time.gte", q("received_time.gte", ts(mid)), nil, []string{dp2}},
		{"received_time.lt", q("received_time.lt", ts(mid)), nil, []string{dp1}},
		{"received_time_lt", q("received_time_lt", ts(mid)), nil, []string{dp1}},
		{"received_time.gt", q("received_time.gt", ts(mid.Add(-24*time.Hour))), nil, both},
		{"received_time.lte", q("received_time.lte", ts(mid.Add(-24*time.Hour))), nil, none},
		{"received_time", q("received_time", ts(mid.Add(-24*time.Hour))), nil, none},
		{"combined", q("reason", "fraudulent", "dispute_status", "dispute_opened", "connector", "stripe_test"), nil, []string{dp1}},
		{"X-Profile-Id", "", map[string]string{"X-Profile-Id": d.ProfileID}, both},
		{"X-Profile-Id other", "", map[string]string{"X-Profile-Id": prof}, none},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := list(tc.query, tc.headers); !slices.Equal(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
	// X-Profile-Id hides another profile's dispute, and a profile_id
	// filter naming another profile than the header is 404, as refunds are.
	if r := c.doWith("GET", "/disputes/"+dp1, key, nil, map[string]string{"X-Profile-Id": prof}); r.Status != 404 || r.errCode() != "HE_04" {
		t.Fatalf("dispute of another profile: %d %s", r.Status, r.Raw)
	}
	c.doWith("GET", "/disputes/"+dp1, key, nil, map[string]string{"X-Profile-Id": d.ProfileID}).must(t, 200)
	if r := c.doWith("GET", "/disputes/list"+q("profile_id", d.ProfileID), key, nil, map[string]string{"X-Profile-Id": prof}); r.Status != 404 {
		t.Fatalf("profile_id against X-Profile-Id: %d %s", r.Status, r.Raw)
	}

	// Keys: the admin key acts for X-Merchant-Id's merchant; without it it
	// has no merchant; no key is 401.
	adm := c.doWith("GET", "/disputes/"+dp1, c.admin(), nil, map[string]string{"X-Merchant-Id": d.MerchantID}).must(t, 200)
	if string(adm.Raw) != string(got.Raw) {
		t.Fatalf("admin as the merchant:\n%s\n%s", adm.Raw, got.Raw)
	}
	if ids := disputeIDs(t, c.doWith("GET", "/disputes/list", c.admin(), nil, map[string]string{"X-Merchant-Id": d.MerchantID}).must(t, 200)); !slices.Equal(ids, both) {
		t.Fatalf("admin list %v", ids)
	}
	for _, path := range []string{"/disputes/" + dp1, "/disputes/list"} {
		if r := c.do("GET", path, c.admin(), nil); r.Status != 400 || r.errCode() != "IR_04" || !strings.Contains(r.str("error", "message"), "X-Merchant-Id") {
			t.Errorf("admin without a merchant on %s: %d %s", path, r.Status, r.Raw)
		}
		if r := c.do("GET", path, "", nil); r.Status != 401 || r.errCode() != "IR_01" {
			t.Errorf("no key on %s: %d %s", path, r.Status, r.Raw)
		}
		if r := c.do("POST", path, key, nil); r.Status != 405 {
			t.Errorf("POST %s: %d %s", path, r.Status, r.Raw)
		}
	}

	// is_already_refunded: the payment refunded in full, then its dispute
	// lost, has given the money back twice.
	c.do("POST", "/refunds", key, map[string]any{"payment_id": pay1}).must(t, 200)
	if r := c.do("GET", "/disputes/"+dp1, key, nil).must(t, 200); r.obj()["is_already_refunded"] != false {
		t.Fatalf("refunded, dispute still open: %s", r.Raw)
	}
	if _, err := c.srv.Store.Client.Dispute.UpdateOneID(dp1).SetDisputeStatus(dispute.DisputeStatusDisputeLost).
		Save(merchantCtx(d.MerchantID)); err != nil {
		t.Fatal(err)
	}
	if r := c.do("GET", "/disputes/"+dp1, key, nil).must(t, 200); r.obj()["is_already_refunded"] != true || r.str("dispute_status") != "dispute_lost" {
		t.Fatalf("refunded and lost: %s", r.Raw)
	}
	if r := c.do("GET", "/disputes/"+dp2, key, nil).must(t, 200); r.obj()["is_already_refunded"] != false {
		t.Fatalf("the other payment's dispute: %s", r.Raw)
	}
	if ids := list(q("dispute_status", "dispute_lost"), nil); !slices.Equal(ids, []string{dp1}) {
		t.Fatalf("lost disputes %v", ids)
	}
}

// TestDisputeOpenedEvent: opening a dispute writes a dispute_opened event
// (class disputes, content type dispute_details) in the payment's
// transaction, its content.object exactly what GET /disputes/{id} shows. A
// profile's payment status list does not silence it; its
// enabled_event_types does (the event is still recorded).
func TestDisputeOpenedEvent(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	rc := &hookReceiver{}
	withWebhook(t, c, rc, map[string]any{"payment_statuses_enabled": []string{"failed"}})

	_, dp := disputedPayment(t, c, c.merchantKey(), disputeFraudCard)
	c.deliverAll(t)
	events := c.do("POST", "/events/"+m, c.admin(), map[string]any{"event_classes": []string{"disputes"}}).must(t, 200)
	items := events.obj()["events"].([]any)
	if len(items) != 1 {
		t.Fatalf("dispute events: %s", events.Raw)
	}
	ev := items[0].(map[string]any)
	if ev["event_type"] != "dispute_opened" || ev["event_class"] != "disputes" || ev["object_id"] != dp ||
		ev["is_delivery_successful"] != true {
		t.Fatalf("dispute event: %v", ev)
	}
	byObject := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": dp, "event_types": []string{"dispute_opened"}}).must(t, 200)
	if byObject.obj()["total_count"] != float64(1) {
		t.Fatalf("events of the dispute: %s", byObject.Raw)
	}

	rc.mu.Lock()
	bodies := rc.bodies
	rc.mu.Unlock()
	if len(bodies) != 1 {
		t.Fatalf("receiver got %d deliveries, want the dispute's alone (payment statuses: failed only)", len(bodies))
	}
	var sent struct {
		MerchantID string `json:"merchant_id"`
		EventID    string `json:"event_id"`
		EventType  string `json:"event_type"`
		Content    struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		} `json:"content"`
	}
	if err := json.Unmarshal(bodies[0], &sent); err != nil {
		t.Fatal(err)
	}
	if sent.EventID != ev["event_id"] || sent.MerchantID != m || sent.EventType != "dispute_opened" || sent.Content.Type != "dispute_details" {
		t.Fatalf("webhook body %s", bodies[0])
	}
	got := c.do("GET", "/disputes/"+dp, c.merchantKey(), nil).must(t, 200)
	if !jsonEqual(t, sent.Content.Object, got.Raw) {
		t.Fatalf("content.object differs from GET /disputes/%s:\n%s\n%s", dp, sent.Content.Object, got.Raw)
	}
	atts := c.do("GET", "/events/"+m+"/"+sent.EventID+"/attempts", c.admin(), nil).must(t, 200).Body.([]any)
	if len(atts) != 1 || atts[0].(map[string]any)["event_class"] != "disputes" {
		t.Fatalf("attempts: %v", atts)
	}

	// enabled_event_types without dispute_opened (set through the domain,
	// as GraphQL's updateProfileWebhookSettings does): recorded, not sent.
	rc2 := &hookReceiver{}
	withWebhook(t, c, rc2, nil)
	if _, err := c.srv.Merchants.UpdateProfileWebhookSettings(merchantCtx(m), c.srv.Demo.ProfileID,
		merchant.WebhookSettingsPatch{EnabledEventTypes: []string{"payment_succeeded"}}); err != nil {
		t.Fatal(err)
	}
	_, dp2 := disputedPayment(t, c, c.merchantKey(), disputeNotReceivedCard)
	c.deliverAll(t)
	rc2.mu.Lock()
	n := len(rc2.bodies)
	var only string
	if n == 1 {
		only = string(rc2.bodies[0])
	}
	rc2.mu.Unlock()
	if n != 1 || !strings.Contains(only, `"event_type":"payment_succeeded"`) {
		t.Fatalf("with enabled_event_types [payment_succeeded]: %d deliveries %s", n, only)
	}
	r := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": dp2}).must(t, 200)
	if r.obj()["total_count"] != float64(1) || r.obj()["events"].([]any)[0].(map[string]any)["is_delivery_successful"] != false {
		t.Fatalf("the undelivered dispute event: %s", r.Raw)
	}
}

// TestDisputeNotFound: an unknown id and another merchant's dispute are both
// 404 HE_04 (Hyperswitch's DisputeNotFound), and another merchant's list
// holds none of ours.
func TestDisputeNotFound(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	_, dp := disputedPayment(t, c, d.SecretKey, disputeFraudCard)
	b, bKey, _ := otherMerchant(t, c, "merchant_disputes_b")

	for _, tc := range []struct {
		name, id, key string
		headers       map[string]string
	}{
		{"unknown", "dp_unknown", d.SecretKey, nil},
		{"too long", strings.Repeat("d", 300), d.SecretKey, nil},
		{"another merchant's", dp, bKey, nil},
		{"admin as another merchant", dp, c.admin(), map[string]string{"X-Merchant-Id": b}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.doWith("GET", "/disputes/"+tc.id, tc.key, nil, tc.headers)
			if r.Status != 404 || r.errCode() != "HE_04" || r.str("error", "message") != "Dispute does not exist in our records" ||
				r.str("error", "type") != "invalid_request" {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
	if r := c.do("GET", "/disputes/list", bKey, nil).must(t, 200); len(disputeIDs(t, r)) != 0 {
		t.Fatalf("another merchant's list: %s", r.Raw)
	}
}

// TestDisputeListRefusals: each malformed, unknown or out-of-range list
// parameter is a 400 naming it.
func TestDisputeListRefusals(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	cases := []struct {
		name, query, code, names string
	}{
		{"limit 0", "limit=0", "IR_07", "limit"},
		{"limit 101", "limit=101", "IR_07", "limit"},
		{"limit not a number", "limit=ten", "IR_07", "limit"},
		{"limit negative", "limit=-1", "IR_07", "limit"},
		{"limit given twice", "limit=1&limit=2", "IR_07", "limit"},
		{"empty value", "dispute_status=", "IR_07", "dispute_status"},
		{"unknown status", "dispute_status=opened", "IR_07", "dispute_status"},
		{"unknown stage", "dispute_stage=final", "IR_07", "dispute_stage"},
		{"unknown connector", "connector=no_such_connector", "IR_07", "connector"},
		{"reason too long", "reason=" + strings.Repeat("r", 256), "IR_07", "reason"},
		{"profile_id too long", "profile_id=" + strings.Repeat("p", 65), "IR_07", "profile_id"},
		{"received_time", "received_time=yesterday", "IR_07", "received_time"},
		{"received_time.lt", "received_time.lt=2024-13-01T00:00:00Z", "IR_07", "received_time.lt"},
		{"received_time_gte spelling", "received_time_gte=soon", "IR_07", "received_time_gte"},
		{"both spellings", "received_time.lt=2024-01-01T00:00:00Z&received_time_lt=2024-01-01T00:00:00Z", "IR_07", "received_time"},
		{"unknown parameter", "status=dispute_opened", "IR_06", `"status"`},
		{"offset is not a parameter", "offset=10", "IR_06", `"offset"`},
		{"malformed query", "limit=%zz", "IR_06", "query string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("GET", "/disputes/list?"+tc.query, key, nil)
			if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.names) {
				t.Fatalf("%d %s, want 400 %s naming %s", r.Status, r.Raw, tc.code, tc.names)
			}
		})
	}
	if r := c.do("GET", "/disputes/dp_x?force_sync=maybe", key, nil); r.Status != 400 || r.errCode() != "IR_07" ||
		!strings.Contains(r.str("error", "message"), "force_sync") {
		t.Fatalf("force_sync=maybe: %d %s", r.Status, r.Raw)
	}
}

// TestAcceptDispute: the merchant accepts an open dispute; the dispute is
// dispute_accepted with a dispute_accepted event whose object is the new
// GET body; accepting again, another merchant's dispute, or an unknown one
// is refused.
func TestAcceptDispute(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	_, dp := disputedPayment(t, c, c.merchantKey(), disputeFraudCard)

	accepted := c.do("POST", "/disputes/accept/"+dp, c.merchantKey(), nil).must(t, 200)
	if accepted.str("dispute_status") != "dispute_accepted" || accepted.str("dispute_id") != dp {
		t.Fatalf("accept: %s", accepted.Raw)
	}
	got := c.do("GET", "/disputes/"+dp, c.merchantKey(), nil).must(t, 200)
	if !bytes.Equal(got.Raw, accepted.Raw) {
		t.Fatalf("GET after accept differs:\n%s\n%s", got.Raw, accepted.Raw)
	}
	events := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": dp, "event_types": []string{"dispute_accepted"}}).must(t, 200)
	items := events.obj()["events"].([]any)
	if len(items) != 1 {
		t.Fatalf("dispute_accepted events: %s", events.Raw)
	}

	again := c.do("POST", "/disputes/accept/"+dp, c.merchantKey(), nil)
	if again.Status != 400 || again.errCode() != "HE_03" || !strings.Contains(again.str("error", "message"), "dispute_accepted") {
		t.Fatalf("accept twice: %d %s", again.Status, again.Raw)
	}
	other := makeMerchant(t, c, "merchant_dispute_accept_other")
	for _, tc := range []struct{ name, key, id string }{
		{"another merchant's dispute", other.key, dp},
		{"unknown dispute", c.merchantKey(), "dp_unknown"},
	} {
		r := c.do("POST", "/disputes/accept/"+tc.id, tc.key, nil)
		if r.Status != 404 || r.errCode() != "HE_04" {
			t.Fatalf("%s: %d %s", tc.name, r.Status, r.Raw)
		}
	}
	if got := c.do("GET", "/disputes/"+dp, c.merchantKey(), nil).must(t, 200); got.str("dispute_status") != "dispute_accepted" {
		t.Fatalf("%s", got.Raw)
	}
}
