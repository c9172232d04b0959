package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/ent/event"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/connector"
)

// crashPayout is a payout that is created and fulfilled at once.
var crashPayout = map[string]any{
	"amount": int64(1500), "currency": "USD", "confirm": true, "auto_fulfill": true, "payout_type": "card",
	"payout_method_data": map[string]any{"card": map[string]any{
		"card_number": "4242424242424242", "expiry_month": "12", "expiry_year": fmt.Sprint(time.Now().Year() + 3),
		"card_holder_name": "Ada Lovelace",
	}},
}

// TestCrashMidPayoutKill9 kills the server with SIGKILL during a burst of
// auto-fulfilled payouts, each with its own Idempotency-Key, restarts it
// and retries every request with its key. Then, once the recovery window
// has passed: no payout is left requires_creation, initiated or pending;
// each key made one payout, the one its first answer named; every payout
// succeeded with its payout_success event; and the sandbox balance moved
// exactly once per payout.
func TestCrashMidPayoutKill9(t *testing.T) {
	const n, workers = 200, 16
	c := testenv.NewCluster(t, map[string]string{
		"SWITCHYARD_RECOVERY_AFTER":    "3s",
		"SWITCHYARD_IDEMPOTENCY_LEASE": "2s",
	})
	p := c.Serve()
	status, body, err := testenv.Call(p.URL, "POST", "/account/"+c.Keys.MerchantID+"/connectors", c.Keys.SecretKey, map[string]any{
		"connector_type": "payout_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_payout_crash"},
	})
	if err != nil || status != http.StatusOK {
		t.Fatalf("payout processor: %d %s %v", status, body, err)
	}
	var mca struct {
		ID string `json:"merchant_connector_id"`
	}
	_ = json.Unmarshal(body, &mca)
	run := ids.Base62(8)
	key := func(i int) string { return fmt.Sprintf("payout-crash-%s-%d", run, i) }
	send := func(base string, i int) (int, string) {
		status, body, err := testenv.Call(base, "POST", "/payouts/create", c.Keys.SecretKey, crashPayout, "Idempotency-Key", key(i))
		if err != nil {
			return 0, ""
		}
		var out struct {
			PayoutID string `json:"payout_id"`
		}
		_ = json.Unmarshal(body, &out)
		return status, out.PayoutID
	}
	first := make([]string, n)
	var answered atomic.Int64
	burst := inParallel(n, workers, func(i int) bool {
		status, id := send(p.URL, i)
		if status == 0 {
			return false
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
			t.Fatalf("only %d payouts answered in 60 s", answered.Load())
		}
		time.Sleep(time.Millisecond)
	}
	p.Kill()
	burst.Wait()
	stranded, err := c.Store.Client.PayoutAttempt.Query().Where(payoutattempt.StatusIn(payoutattempt.StatusRequiresCreation,
		payoutattempt.StatusInitiated, payoutattempt.StatusPending)).Count(tenancy.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("SIGKILL after %d of %d payouts answered, %d attempts left mid-call", answered.Load(), n, stranded)

	p2 := c.Serve()
	retried := make([]string, n)
	var failed atomic.Int64
	inParallel(n, workers, func(i int) bool {
		for attempt := 0; ; attempt++ {
			status, id := send(p2.URL, i)
			if status == http.StatusOK {
				retried[i] = id
				return true
			}
			if status != http.StatusConflict || attempt > 100 {
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
	checkPayoutsSettled(t, c, p2.URL, "payout-crash-"+run+"-", n)
	opts, err := redis.ParseURL(c.Env["SWITCHYARD_REDIS_URL"])
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	defer rdb.Close()
	balance, err := rdb.Get(context.Background(), "simbal:{"+mca.ID+"}").Int64()
	if want := connector.SandboxPayoutBalance - n*crashPayout["amount"].(int64); err != nil || balance != want {
		t.Fatalf("the sandbox balance is %d (%v), want %d: each payout debited once", balance, err, want)
	}
}

// checkPayoutsSettled waits until no payout of the keys is mid-way, then
// checks each key made one payout that succeeded with its event.
func checkPayoutsSettled(t *testing.T, c *testenv.Cluster, base, prefix string, n int) {
	t.Helper()
	ctx := tenancy.System(context.Background())
	midway := []payout.Status{payout.StatusRequiresCreation, payout.StatusInitiated, payout.StatusPending, payout.StatusRequiresFulfillment}
	deadline := time.Now().Add(30 * time.Second)
	for {
		left, err := c.Store.Client.Payout.Query().Where(payout.IdempotencyKeyHasPrefix(prefix), payout.StatusIn(midway...)).All(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d payouts still mid-way 30 s after the restart (first: %s %s)", len(left), left[0].ID, left[0].Status)
		}
		for _, po := range left {
			if po.Status == payout.StatusRequiresFulfillment {
				// A crash between creation and fulfilment: the merchant's fulfil.
				_, _, _ = testenv.Call(base, "POST", "/payouts/"+po.ID+"/fulfill", c.Keys.SecretKey, nil)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	pos, err := c.Store.Client.Payout.Query().Where(payout.IdempotencyKeyHasPrefix(prefix)).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(pos) != n {
		t.Fatalf("%d payouts for %d keys", len(pos), n)
	}
	statuses := map[payout.Status]int{}
	for _, po := range pos {
		statuses[po.Status]++
		if po.Status != payout.StatusSuccess {
			t.Fatalf("payout %s is %s (%v)", po.ID, po.Status, po.ErrorMessage)
		}
		ok, err := c.Store.Client.Event.Query().Where(event.ObjectID(po.ID), event.EventTypeEQ(event.EventTypePayoutSuccess)).Exist(ctx)
		if err != nil || !ok {
			t.Fatalf("payout %s succeeded without its payout_success event (%v)", po.ID, err)
		}
	}
	t.Logf("after the restart every key answered with one payout: %v", statuses)
}
