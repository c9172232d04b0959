package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/ent/event"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

var crashPayment = map[string]any{
	"amount": 1200, "currency": "USD", "confirm": true, "payment_method": "card",
	"payment_method_data": map[string]any{"card": map[string]any{
		"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3),
		"card_cvc": "123",
	}},
}

// TestCrashMidPaymentKill9 kills the server with SIGKILL during a burst of
// confirmed payments, each sent with its own Idempotency-Key, restarts it,
// and retries every request with its key. Then, once the recovery window
// has passed: no payment is left processing, each key made exactly one
// payment (a retry answered with the payment its first try made), and every
// settled payment has its event.
func TestCrashMidPaymentKill9(t *testing.T) {
	const n, workers = 400, 24
	c := testenv.NewCluster(t, map[string]string{
		"SWITCHYARD_RECOVERY_AFTER":    "3s",
		"SWITCHYARD_IDEMPOTENCY_LEASE": "2s",
	})
	p := c.Serve()
	run := ids.Base62(8)
	key := func(i int) string { return fmt.Sprintf("crash-%s-%d", run, i) }
	pay := func(base string, i int) (int, string) {
		status, body, err := testenv.Call(base, "POST", "/payments", c.Keys.SecretKey, crashPayment, "Idempotency-Key", key(i))
		if err != nil {
			return 0, ""
		}
		var out struct {
			PaymentID string `json:"payment_id"`
		}
		_ = json.Unmarshal(body, &out)
		return status, out.PaymentID
	}

	// The burst; the kill comes once a third of it has been answered.
	first := make([]string, n)
	var answered atomic.Int64
	burst := inParallel(n, workers, func(i int) bool {
		status, id := pay(p.URL, i)
		if status == 0 {
			return false // the server is gone
		}
		if status == http.StatusOK {
			first[i] = id
		}
		answered.Add(1)
		return true
	})
	deadline := time.Now().Add(60 * time.Second)
	for answered.Load() < n/3 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d payments answered in 60 s", answered.Load())
		}
		time.Sleep(time.Millisecond)
	}
	p.Kill()
	burst.Wait()
	ctx := tenancy.System(context.Background())
	stranded, err := c.Store.Client.PaymentAttempt.Query().Where(paymentattempt.StatusEQ(paymentattempt.StatusPending)).Count(ctx)
	if err != nil {
		t.Fatal(err)
	}

	// Restart; retry every request with its key until it is answered.
	p2 := c.Serve()
	retried := make([]string, n)
	var failed atomic.Int64
	inParallel(n, workers, func(i int) bool {
		for attempt := 0; ; attempt++ {
			status, id := pay(p2.URL, i)
			if status == http.StatusOK {
				retried[i] = id
				return true
			}
			if status != http.StatusConflict || attempt > 100 { // 409: the dead request's lease
				failed.Add(1)
				return true
			}
			time.Sleep(100 * time.Millisecond)
		}
	}).Wait()
	if f := failed.Load(); f > 0 {
		t.Fatalf("%d retries were not answered 200", f)
	}
	for i := range n {
		if first[i] != "" && retried[i] != first[i] {
			t.Fatalf("key %d: first answered %s, the retry %s", i, first[i], retried[i])
		}
	}

	// After the recovery window, nothing is left processing.
	deadline = time.Now().Add(30 * time.Second)
	var processing int
	for {
		processing, err = c.Store.Client.PaymentIntent.Query().Where(paymentintent.StatusEQ(paymentintent.StatusProcessing)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if processing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d payments still processing 30 s after the restart", processing)
		}
		time.Sleep(200 * time.Millisecond)
	}
	pis, err := c.Store.Client.PaymentIntent.Query().Where(paymentintent.IdempotencyKeyHasPrefix("crash-" + run + "-")).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pis) != n {
		t.Fatalf("%d payments for %d keys", len(pis), n)
	}
	byKey := map[string]string{}
	statuses := map[string]int{}
	for _, pi := range pis {
		if prev, dup := byKey[*pi.IdempotencyKey]; dup {
			t.Fatalf("key %s made two payments: %s and %s", *pi.IdempotencyKey, prev, pi.PaymentID)
		}
		byKey[*pi.IdempotencyKey] = pi.PaymentID
		statuses[string(pi.Status)]++
		want := map[paymentintent.Status]event.EventType{paymentintent.StatusSucceeded: event.EventTypePaymentSucceeded,
			paymentintent.StatusFailed: event.EventTypePaymentFailed}[pi.Status]
		if want == "" {
			t.Fatalf("payment %s is %s", pi.PaymentID, pi.Status)
		}
		ok, err := c.Store.Client.Event.Query().Where(event.PaymentIntentID(pi.ID), event.EventTypeEQ(want)).Exist(ctx)
		if err != nil || !ok {
			t.Fatalf("payment %s is %s without its %s event (%v)", pi.PaymentID, pi.Status, want, err)
		}
	}
	for i := range n {
		if byKey[key(i)] != retried[i] {
			t.Fatalf("key %d: the retry answered %s, the database holds %s", i, retried[i], byKey[key(i)])
		}
	}
	answeredFirst := 0
	for _, id := range first {
		if id != "" {
			answeredFirst++
		}
	}
	t.Logf("SIGKILL after %d of %d payments answered, %d attempts left pending; after the restart every key answered "+
		"with one payment: %v", answeredFirst, n, stranded, statuses)
	if !strings.Contains(fmt.Sprint(statuses), "succeeded") {
		t.Fatal("no payment succeeded")
	}
}

// inParallel calls do(i) for i in [0, n) from workers goroutines; a worker
// stops when do answers false. Wait on the result for all of them.
func inParallel(n, workers int, do func(i int) bool) *sync.WaitGroup {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				if !do(i) {
					return
				}
			}
		})
	}
	return &wg
}
