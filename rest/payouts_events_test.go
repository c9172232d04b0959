package rest_test

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"slices"
	"testing"
)

// TestPayoutEventsAreDelivered: each payout status that maps to an event
// writes it with the change (the outbox), and the worker delivers it signed
// like a payment's, its content.object what GET /payouts/{id} shows.
func TestPayoutEventsAreDelivered(t *testing.T) {
	c, rc, key := payoutsWithWebhook(t)
	m := c.srv.Demo.MerchantID
	ok := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true}).str("payout_id")
	failed := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "payout_method_data": payoutCard("4000000000000002")}).str("payout_id")
	reversed := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "payout_method_data": payoutCard("4000000000005126")}).str("payout_id")
	c.do("GET", "/payouts/"+reversed+"?force_sync=true", c.merchantKey(), nil).must(t, 200)
	pending := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "payout_method_data": payoutCard("4000000000000259")}).str("payout_id")
	cancelled := createPayout(t, c, nil).str("payout_id")
	c.do("POST", "/payouts/"+cancelled+"/cancel", c.merchantKey(), nil).must(t, 200)
	c.deliverAll(t)

	want := map[string][]string{
		ok: {"payout_initiated", "payout_success"}, failed: {"payout_failed", "payout_initiated"},
		reversed: {"payout_initiated", "payout_reversed", "payout_success"}, pending: {"payout_initiated", "payout_processing"},
		cancelled: {"payout_cancelled"},
	}
	for id, types := range want {
		list := c.do("POST", "/events/"+m, c.admin(), map[string]any{"object_id": id}).must(t, 200)
		var got []string
		for _, e := range list.obj()["events"].([]any) {
			ev := e.(map[string]any)
			if ev["event_class"] != "payouts" {
				t.Fatalf("event class: %v", ev)
			}
			got = append(got, ev["event_type"].(string))
		}
		slices.Sort(got)
		if !slices.Equal(got, types) {
			t.Fatalf("payout %s: events %v, want %v", id, got, types)
		}
	}
	for i, sent := range payoutDeliveries(t, rc, key, 10) {
		if sent.Content.Type != "payout_details" || sent.Content.Object["payout_id"] == nil {
			t.Fatalf("delivery %d: %+v", i, sent)
		}
		if sent.EventType == "payout_success" && sent.Content.Object["status"] != "success" {
			t.Fatalf("payout_success with the object %v", sent.Content.Object)
		}
	}
}

// payoutDelivery is a payout event as the webhook receiver got it.
type payoutDelivery struct {
	EventType string `json:"event_type"`
	Content   struct {
		Type   string         `json:"type"`
		Object map[string]any `json:"object"`
	} `json:"content"`
}

// payoutDeliveries are the n deliveries rc received, each signed with key.
func payoutDeliveries(t *testing.T, rc *hookReceiver, key string, n int) []payoutDelivery {
	t.Helper()
	rc.mu.Lock()
	bodies, sigs := rc.bodies, rc.sigs
	rc.mu.Unlock()
	if len(bodies) != n {
		t.Fatalf("%d deliveries, want %d", len(bodies), n)
	}
	out := make([]payoutDelivery, len(bodies))
	for i, b := range bodies {
		mac := hmac.New(sha512.New, []byte(key))
		mac.Write(b)
		if sigs[i] != hex.EncodeToString(mac.Sum(nil)) {
			t.Fatalf("delivery %d: bad signature", i)
		}
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatalf("delivery %d: %s", i, b)
		}
	}
	return out
}
