package rest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"switchyard/internal/tenancy"
)

// TestPayoutsExpireWithTheirSession: a payout still waiting for its method
// or its confirmation when its session_expiry passes becomes expired, with
// payout_expired delivered signed; one the processor created waits on; two
// sweeps at once expire each payout once; an expired payout cannot be
// confirmed or cancelled (IR_06), and an action on one past its session
// before the sweep comes by finds it expired too.
func TestPayoutsExpireWithTheirSession(t *testing.T) {
	c, rc, key := payoutsWithWebhook(t)
	short := map[string]any{"session_expiry": 60}
	waiting := createPayout(t, c, short).str("payout_id")
	noMethod := createPayout(t, c, map[string]any{"session_expiry": 60, "payout_method_data": nil, "payout_type": nil}).str("payout_id")
	lazy := createPayout(t, c, short).str("payout_id")
	created := createPayout(t, c, map[string]any{"session_expiry": 60, "confirm": true}).str("payout_id")
	fresh := createPayout(t, c, nil).str("payout_id") // 900 s
	c.srv.Clock.Advance(61 * time.Second)

	// Before any sweep, a confirm finds the payout expired.
	if r := c.do("POST", "/payouts/"+lazy+"/confirm", c.merchantKey(), map[string]any{}); r.Status != 422 || r.errCode() != "IR_06" {
		t.Fatalf("a confirm past the session: %d %s", r.Status, r.Raw)
	}
	var wg sync.WaitGroup
	counts := make([]int, 2)
	for i := range counts {
		wg.Go(func() {
			n, err := c.srv.Payouts.ExpireDue(tenancy.System(context.Background()), 100)
			if err != nil {
				t.Errorf("sweep %d: %v", i, err)
			}
			counts[i] = n
		})
	}
	wg.Wait()
	if counts[0]+counts[1] != 2 {
		t.Fatalf("the sweeps expired %v, want 2 in all", counts)
	}
	for id, want := range map[string]string{waiting: "expired", noMethod: "expired", lazy: "expired",
		created: "requires_fulfillment", fresh: "requires_confirmation"} {
		if got := payoutStatus(t, c, id); got != want {
			t.Errorf("payout %s is %s, want %s", id, got, want)
		}
	}
	for _, path := range []string{"/payouts/" + waiting + "/confirm", "/payouts/" + noMethod + "/cancel", "/payouts/" + waiting} {
		if r := c.do("POST", path, c.merchantKey(), map[string]any{}); r.Status != 422 || r.errCode() != "IR_06" {
			t.Errorf("POST %s on an expired payout: %d %s", path, r.Status, r.Raw)
		}
	}
	assertExpiredEvents(t, c, rc, key, waiting, noMethod, lazy)
}

// assertExpiredEvents: each id has one payout_expired event, delivered
// signed with the payout as GET shows it.
func assertExpiredEvents(t *testing.T, c *client, rc *hookReceiver, key string, ids ...string) {
	t.Helper()
	c.deliverAll(t)
	for _, id := range ids {
		list := c.do("POST", "/events/"+c.srv.Demo.MerchantID, c.admin(), map[string]any{"object_id": id}).must(t, 200)
		events := list.obj()["events"].([]any)
		if len(events) != 1 || events[0].(map[string]any)["event_type"] != "payout_expired" {
			t.Fatalf("payout %s: events %v, want one payout_expired", id, events)
		}
	}
	for i, sent := range payoutDeliveries(t, rc, key, len(ids)) {
		if sent.EventType != "payout_expired" || sent.Content.Object["status"] != "expired" {
			t.Fatalf("delivery %d: %+v", i, sent)
		}
	}
}
