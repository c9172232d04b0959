package graph_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// TestEventDeliveryStateForTheEventLog: the dashboard's event log shows
// each event's delivery task (pending with its next automatic attempt,
// then delivered with none) and each attempt's answer body or network
// error, read over GraphQL.
func TestEventDeliveryStateForTheEventLog(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	var mu sync.Mutex
	answered := 0
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		answered++
		if answered == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte("not now"))
			return
		}
		_, _ = w.Write([]byte("thanks"))
	}))
	t.Cleanup(recv.Close)
	demo := webhookMerchant(t, srv, srv.Demo.MerchantID, srv.Demo.SecretKey, srv.Demo.ProfileID, recv.URL)
	demo.pay(t, srv)

	type attempt struct {
		DeliveryAttempt    string
		ResponseStatusCode *int
		ResponseBody       *string
		ErrorMessage       *string
	}
	type event struct {
		EventID          string
		DeliveryStatus   *string
		NextAttemptAt    *time.Time
		DeliveryAttempts struct {
			Edges []struct{ Node attempt }
		}
	}
	read := func() event {
		t.Helper()
		_, out := post(t, srv.URL, demo.key, `{ events(first: 1) { edges { node { eventID deliveryStatus nextAttemptAt
			deliveryAttempts(first: 5) { edges { node { deliveryAttempt responseStatusCode responseBody errorMessage } } } } } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
		raw, _ := json.Marshal(out["data"].(map[string]any)["events"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"])
		var ev event
		if err := json.Unmarshal(raw, &ev); err != nil {
			t.Fatal(err)
		}
		return ev
	}

	// Before any attempt: pending, due now.
	ev := read()
	if ev.DeliveryStatus == nil || *ev.DeliveryStatus != "pending" || ev.NextAttemptAt == nil || len(ev.DeliveryAttempts.Edges) != 0 {
		t.Fatalf("a new event: %+v", ev)
	}

	// The first attempt is refused: still pending, the next attempt later
	// (the schedule's first retry is a minute on), the answer's body kept.
	before := time.Now()
	if _, err := srv.Webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev = read()
	if ev.DeliveryStatus == nil || *ev.DeliveryStatus != "pending" || ev.NextAttemptAt == nil || !ev.NextAttemptAt.After(before.Add(30*time.Second)) {
		t.Fatalf("after a refused attempt: status %v, next %v", ev.DeliveryStatus, ev.NextAttemptAt)
	}
	if a := ev.DeliveryAttempts.Edges; len(a) != 1 || a[0].Node.ResponseStatusCode == nil || *a[0].Node.ResponseStatusCode != 503 ||
		a[0].Node.ResponseBody == nil || *a[0].Node.ResponseBody != "not now" || a[0].Node.ErrorMessage != nil {
		t.Fatalf("the refused attempt: %+v", a)
	}

	// A manual retry succeeds: delivered, nothing more scheduled.
	if _, err := srv.Webhooks.Retry(tenancy.ForMerchant(tenancy.System(context.Background()), demo.id), ev.EventID); err != nil {
		t.Fatal(err)
	}
	ev = read()
	if ev.DeliveryStatus == nil || *ev.DeliveryStatus != "delivered" || ev.NextAttemptAt != nil {
		t.Fatalf("after a delivered retry: status %v, next %v", ev.DeliveryStatus, ev.NextAttemptAt)
	}
	if a := ev.DeliveryAttempts.Edges; len(a) != 2 || a[0].Node.DeliveryAttempt != "manual_retry" || a[0].Node.ResponseBody == nil || *a[0].Node.ResponseBody != "thanks" {
		t.Fatalf("the attempts after the retry: %+v", a)
	}

	// A receiver that is gone: no answer, the network error instead.
	recv.Close()
	if _, err := srv.Webhooks.Retry(tenancy.ForMerchant(tenancy.System(context.Background()), demo.id), ev.EventID); err != nil {
		t.Fatal(err)
	}
	ev = read()
	if a := ev.DeliveryAttempts.Edges; len(a) != 3 || a[0].Node.ResponseBody != nil || a[0].Node.ErrorMessage == nil || *a[0].Node.ErrorMessage == "" {
		t.Fatalf("an attempt with no answer: %+v", a[0])
	}
}

// TestRetryFailedWebhookDeliveries: "retry every failed one" makes the
// merchant's refused deliveries due now (not the delivered ones, nor
// another merchant's), and the workers' next pass sends each once more;
// a profile that is not the merchant's is not found.
func TestRetryFailedWebhookDeliveries(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	var mu sync.Mutex
	refuse := true
	got := 0
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got++
		if refuse {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(recv.Close)
	demo := webhookMerchant(t, srv, srv.Demo.MerchantID, srv.Demo.SecretKey, srv.Demo.ProfileID, recv.URL)
	other := otherMerchant(t, srv, recv.URL)
	for range 3 {
		demo.pay(t, srv)
	}
	other.pay(t, srv)
	run := func() {
		t.Helper()
		if _, err := srv.Webhooks.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	run() // every first attempt refused: each waits a minute for its retry
	mu.Lock()
	first, refuse := got, false
	mu.Unlock()
	if first != 4 {
		t.Fatalf("%d first attempts, want 4", first)
	}
	run() // nothing due yet
	if mu.Lock(); got != first {
		t.Fatalf("a retry came before its time: %d", got)
	}
	mu.Unlock()

	retryAll := func(key, args string) (int, string) {
		_, out := post(t, srv.URL, key, `mutation { retryFailedWebhookDeliveries`+args+` { queued } }`)
		if msg := firstError(out); msg != "" {
			return 0, msg
		}
		return int(out["data"].(map[string]any)["retryFailedWebhookDeliveries"].(map[string]any)["queued"].(float64)), ""
	}
	if _, msg := retryAll(demo.key, `(profileID: "pro_not_mine")`); msg == "" {
		t.Fatal("another profile was retried")
	}
	if n, msg := retryAll(demo.key, ""); msg != "" || n != 3 {
		t.Fatalf("queued %d (%s), want the demo merchant's 3", n, msg)
	}
	run()
	mu.Lock()
	defer mu.Unlock()
	if got != first+3 {
		t.Fatalf("%d deliveries after the retry, want %d: the other merchant's stays on its schedule", got, first+3)
	}
	// Delivered now: nothing is left to retry.
	mu.Unlock()
	n, msg := retryAll(demo.key, "")
	mu.Lock()
	if msg != "" || n != 0 {
		t.Fatalf("a second retry queued %d (%s)", n, msg)
	}
}
