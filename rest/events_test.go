package rest_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// hookReceiver records what it is sent and answers with the next status.
type hookReceiver struct {
	mu     sync.Mutex
	bodies [][]byte
	sigs   []string
	plan   []int
}

func (h *hookReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.bodies = append(h.bodies, b)
	h.sigs = append(h.sigs, r.Header.Get("X-Webhook-Signature-512"))
	status := 200
	if len(h.plan) > 0 {
		status, h.plan = h.plan[0], h.plan[1:]
	}
	h.mu.Unlock()
	w.WriteHeader(status)
	_, _ = w.Write([]byte("received"))
}

// withWebhook points the demo profile at a loopback receiver and returns
// its payment_response_hash_key.
func withWebhook(t *testing.T, c *client, h http.Handler, extra map[string]any) string {
	t.Helper()
	recv := httptest.NewServer(h)
	t.Cleanup(recv.Close)
	d := c.srv.Demo
	details := map[string]any{"webhook_url": recv.URL + "/hooks", "payment_statuses_enabled": []string{}, "refund_statuses_enabled": []string{}}
	for k, v := range extra {
		details[k] = v
	}
	prof := c.do("POST", "/account/"+d.MerchantID+"/business_profile/"+d.ProfileID, c.admin(),
		map[string]any{"webhook_details": details}).must(t, 200)
	return prof.str("payment_response_hash_key")
}

func (c *client) deliverAll(t *testing.T) {
	t.Helper()
	for i := 0; i < 20; i++ {
		n, err := c.srv.Webhooks.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

// TestPaymentEventsAreDelivered: a successful payment and its refund write
// events in the same transaction; the worker delivers them signed, with the
// object exactly as the REST API shows it, and every attempt is listed.
func TestPaymentEventsAreDelivered(t *testing.T) {
	c := newClient(t)
	rc := &hookReceiver{plan: []int{500}}
	key := withWebhook(t, c, rc, nil)
	m := c.srv.Demo.MerchantID

	pay := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")}))
	payID := pay.str("payment_id")
	c.deliverAll(t) // the first delivery of the payment's event fails (500)
	c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": payID, "amount": 2500}).must(t, 200)
	c.deliverAll(t) // a batch is delivered concurrently: the refund's event comes on its own

	list := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": payID}).must(t, 200)
	events := list.obj()["events"].([]any)
	if len(events) != 1 || events[0].(map[string]any)["event_type"] != "payment_succeeded" {
		t.Fatalf("events of the payment: %s", list.Raw)
	}
	evtID := events[0].(map[string]any)["event_id"].(string)
	all := c.do("POST", "/events/"+m, c.admin(), map[string]any{"event_classes": []string{"refunds"}}).must(t, 200)
	if all.obj()["total_count"].(float64) != 1 {
		t.Fatalf("refund events: %s", all.Raw)
	}
	for _, tc := range []struct{ member, known, unknown, field string }{
		{"event_classes", "refunds", "payouts_x", "event_classes[1]"},
		{"event_types", "refund_succeeded", "payment_paid", "event_types[1]"},
	} {
		r := c.do("POST", "/events/"+m, c.admin(), map[string]any{tc.member: []string{tc.known, tc.unknown}})
		r.must(t, 400)
		if !strings.Contains(string(r.Raw), tc.field) {
			t.Errorf("an unknown %s member is refused naming %s: %s", tc.member, tc.field, r.Raw)
		}
	}

	rc.mu.Lock()
	bodies, sigs := rc.bodies, rc.sigs
	rc.mu.Unlock()
	if len(bodies) != 2 {
		t.Fatalf("receiver got %d deliveries, want 2 (payment failed once, refund)", len(bodies))
	}
	for i, b := range bodies {
		mac := hmac.New(sha512.New, []byte(key))
		mac.Write(b)
		if sigs[i] != hex.EncodeToString(mac.Sum(nil)) {
			t.Fatalf("delivery %d: bad signature", i)
		}
	}
	var sent struct {
		MerchantID string `json:"merchant_id"`
		EventID    string `json:"event_id"`
		EventType  string `json:"event_type"`
		Content    struct {
			Type   string          `json:"type"`
			Object json.RawMessage `json:"object"`
		} `json:"content"`
		Timestamp string `json:"timestamp"`
	}
	if err := json.Unmarshal(bodies[0], &sent); err != nil {
		t.Fatal(err)
	}
	if sent.EventID != evtID || sent.MerchantID != m || sent.EventType != "payment_succeeded" || sent.Content.Type != "payment_details" {
		t.Fatalf("webhook body %s", bodies[0])
	}
	var object map[string]any
	_ = json.Unmarshal(sent.Content.Object, &object)
	if object["payment_id"] != payID || object["status"] != "succeeded" || object["amount_received"].(float64) != 10000 {
		t.Fatalf("content.object %s", sent.Content.Object)
	}

	// The retry schedule is an hour in tests by default: a manual retry now.
	retry := c.do("POST", "/events/"+m+"/"+evtID+"/retry", c.admin(), nil).must(t, 200)
	if retry.str("delivery_attempt") != "manual_retry" || retry.obj()["is_delivery_successful"] != true {
		t.Fatalf("retry: %s", retry.Raw)
	}
	atts := c.do("GET", "/events/"+m+"/"+evtID+"/attempts", c.admin(), nil).must(t, 200)
	golden(t, "event_attempts", scrubAttempts(t, atts.Raw))
	items := atts.Body.([]any)
	if len(items) != 2 {
		t.Fatalf("attempts: %s", atts.Raw)
	}
	first, second := items[0].(map[string]any), items[1].(map[string]any)
	if first["event_id"] != evtID || first["initial_attempt_id"] != evtID || first["is_delivery_successful"] != false ||
		first["response"].(map[string]any)["status_code"].(float64) != 500 || first["delivery_attempt"] != "initial_attempt" {
		t.Fatalf("first attempt %v", first)
	}
	if second["initial_attempt_id"] != evtID || second["event_id"] == evtID || second["is_delivery_successful"] != true {
		t.Fatalf("second attempt %v", second)
	}
	// Each attempt shows the body that was sent, byte for byte.
	for i, it := range items {
		if got := it.(map[string]any)["request"].(map[string]any)["body"]; got != string(bodies[0]) {
			t.Fatalf("attempt %d request.body %q, sent %q", i, got, bodies[0])
		}
	}

	// Unknown or foreign events are 404; a merchant key is refused.
	if r := c.do("GET", "/events/"+m+"/evt_nope/attempts", c.admin(), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown event: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/events/"+m+"/"+evtID+"/attempts", c.merchantKey(), nil); r.Status != 401 {
		t.Fatalf("merchant key: %d", r.Status)
	}
	c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": "merchant_events_other"}).must(t, 200)
	if r := c.do("GET", "/events/merchant_events_other/"+evtID+"/attempts", c.admin(), nil); r.Status != 404 {
		t.Fatalf("another merchant's path: %d %s", r.Status, r.Raw)
	}
}

// TestEventDeliverySettings: a profile can limit delivery to some event
// types; the events are still recorded.
func TestEventDeliverySettings(t *testing.T) {
	c := newClient(t)
	rc := &hookReceiver{}
	withWebhook(t, c, rc, map[string]any{"payment_statuses_enabled": []string{"failed"}})
	ok := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")}))
	declined := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4000000000000002")})).must(t, 200)
	c.deliverAll(t)
	rc.mu.Lock()
	n := len(rc.bodies)
	rc.mu.Unlock()
	if n != 1 {
		t.Fatalf("delivered %d events, want only the failed payment's", n)
	}
	for _, id := range []string{ok.str("payment_id"), declined.str("payment_id")} {
		r := c.do("POST", "/events/"+c.srv.Demo.MerchantID, c.admin(), map[string]any{"object_id": id}).must(t, 200)
		if r.obj()["total_count"].(float64) != 1 {
			t.Fatalf("events of %s: %s", id, r.Raw)
		}
	}
}

// scrubAttempts replaces what differs between runs inside the attempts
// (the signed body, its signature, the receiver's Date, attempt ids) so the
// shape can be pinned.
func scrubAttempts(t *testing.T, raw []byte) []byte {
	t.Helper()
	var items []map[string]any
	if err := json.Unmarshal(raw, &items); err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if id, _ := it["event_id"].(string); strings.HasPrefix(id, "wha_") {
			it["event_id"] = "<attempt id>"
		}
		req := it["request"].(map[string]any)
		req["body"] = "<signed body>"
		for _, h := range req["headers"].([]any) {
			if pair := h.([]any); pair[0] == "X-Webhook-Signature-512" {
				pair[1] = "<signature>"
			}
		}
		for _, h := range it["response"].(map[string]any)["headers"].([]any) {
			if pair := h.([]any); pair[0] == "Date" {
				pair[1] = "<date>"
			}
		}
	}
	out, _ := json.Marshal(items)
	return out
}

// TestWebhookSentWithoutWaitingForThePoll: a payment's event wakes the
// delivery workers when its transaction commits, so it is sent at once even
// when the workers would otherwise poll only hourly.
func TestWebhookSentWithoutWaitingForThePoll(t *testing.T) {
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.WebhookPollInterval = time.Hour
	c := &client{t: t, srv: testenv.NewServerWith(t, cfg, slog.New(slog.DiscardHandler))}
	recv := &hookReceiver{}
	withWebhook(t, c, recv, nil)
	ctx, stop := context.WithCancel(context.Background())
	var workers sync.WaitGroup
	workers.Go(func() { c.srv.Webhooks.Run(ctx) })
	t.Cleanup(func() { stop(); workers.Wait() })
	time.Sleep(100 * time.Millisecond) // the worker's first claim found nothing: it now waits

	paid := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})).must(t, 200)
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		recv.mu.Lock()
		n := len(recv.bodies)
		var body []byte
		if n > 0 {
			body = recv.bodies[0]
		}
		recv.mu.Unlock()
		if n > 0 {
			if !strings.Contains(string(body), paid.str("payment_id")) || !strings.Contains(string(body), `"payment_succeeded"`) {
				t.Fatalf("delivered %s", body)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the event was not delivered: the worker was not woken")
		}
	}
}
