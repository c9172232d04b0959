package webhooks_test

// Whole-process tests: the real switchyard binary on the shared MariaDB and
// Redis, killed with SIGKILL mid-delivery (crash safety) or run twice side by
// side (scale-out), delivering to a receiver in the test.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// TestMain empties the test Redis database and removes the binary the
// process tests built (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// cluster is the processes of one test and the receiver they deliver to.
type cluster struct {
	*testenv.Cluster
	t       *testing.T
	recvURL string
}

// newCluster makes a fresh cluster (testenv.NewCluster) whose events go to
// receiver.
func newCluster(t *testing.T, receiver http.Handler, extra map[string]string) *cluster {
	t.Helper()
	c := &cluster{Cluster: testenv.NewCluster(t, extra), t: t}
	recv := httptest.NewServer(receiver)
	t.Cleanup(recv.Close)
	c.recvURL = recv.URL
	return c
}

func (c *cluster) serve() *testenv.Process { return c.Serve() }

// setWebhook points the demo profile at the test's receiver.
func (c *cluster) setWebhook(p *testenv.Process) {
	c.t.Helper()
	status, body, err := testenv.Call(p.URL, "POST", "/account/"+c.Keys.MerchantID+"/business_profile/"+c.Keys.ProfileID, testenv.ProcessAdminKey,
		map[string]any{"webhook_details": map[string]any{"webhook_url": c.recvURL + "/hooks"}})
	if err != nil || status != 200 {
		c.t.Fatalf("set webhook_url: %d %s %v", status, body, err)
	}
}

var paymentBody = map[string]any{
	"amount": 1000, "currency": "USD", "confirm": true, "payment_method": "card",
	"payment_method_data": map[string]any{"card": map[string]any{
		"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3),
		"card_holder_name": "Jane Doe", "card_cvc": "123",
	}},
}

// createPayments creates n confirmed card payments with some concurrency,
// spread round-robin over procs.
func (c *cluster) createPayments(n, concurrency int, procs ...*testenv.Process) {
	c.t.Helper()
	var next atomic.Int64
	errs := make(chan error, concurrency)
	var wg sync.WaitGroup
	for w := 0; w < concurrency; w++ {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				status, body, err := testenv.Call(procs[int(i)%len(procs)].URL, "POST", "/payments", c.Keys.SecretKey, paymentBody)
				if err == nil && (status != 200 || !bytes.Contains(body, []byte(`"status":"succeeded"`))) {
					err = fmt.Errorf("payment %d: %d %s", i, status, body)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		c.t.Fatal(err)
	}
}

// eventIDs lists every event of the database.
func (c *cluster) eventIDs() []string {
	c.t.Helper()
	ids, err := c.Store.Client.Event.Query().IDs(tenancy.System(context.Background()))
	if err != nil {
		c.t.Fatal(err)
	}
	return ids
}

// pendingTasks counts the delivery tasks not settled yet.
func (c *cluster) pendingTasks() int {
	c.t.Helper()
	n, err := c.Store.Client.WebhookDeliveryTask.Query().
		Where(webhookdeliverytask.StatusNEQ(webhookdeliverytask.StatusDelivered)).Count(tenancy.System(context.Background()))
	if err != nil {
		c.t.Fatal(err)
	}
	return n
}

// tally is a receiver that answers 200 and counts each event it acknowledged.
// While delay is set it holds each request that long first; a request whose
// sender goes away meanwhile is not acknowledged.
type tally struct {
	mu       sync.Mutex
	acked    map[string]int
	requests int
	inFlight atomic.Int32
	delay    atomic.Int64 // time.Duration
	// holdAfter sets delay to hold once this many events are acknowledged.
	holdAfter int
	hold      time.Duration
}

func newTally() *tally { return &tally{acked: map[string]int{}} }

func (tl *tally) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tl.inFlight.Add(1)
	defer tl.inFlight.Add(-1)
	var body struct {
		EventID string `json:"event_id"`
	}
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil || body.EventID == "" {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	tl.mu.Lock()
	tl.requests++
	tl.mu.Unlock()
	if d := time.Duration(tl.delay.Load()); d > 0 {
		select {
		case <-r.Context().Done():
			return // the sender is gone (killed): not acknowledged
		case <-time.After(d):
		}
	}
	tl.mu.Lock()
	tl.acked[body.EventID]++
	if tl.holdAfter > 0 && len(tl.acked) >= tl.holdAfter {
		tl.delay.Store(int64(tl.hold))
	}
	tl.mu.Unlock()
	w.WriteHeader(http.StatusOK)
}

// stats: events acknowledged, acknowledgements (an event more than once
// when a delivery was acknowledged but its sender died before recording
// it), and requests (some cut short by the kill).
func (tl *tally) stats() (distinct, acks, requests int) {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	for _, k := range tl.acked {
		acks += k
	}
	return len(tl.acked), acks, tl.requests
}

// missing lists the ids the receiver has not acknowledged.
func (tl *tally) missing(ids []string) []string {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []string
	for _, id := range ids {
		if tl.acked[id] == 0 {
			out = append(out, id)
		}
	}
	return out
}

// waitDelivered waits (bounded) until every event of the database has been
// acknowledged by the receiver and every task is settled.
func (c *cluster) waitDelivered(tl *tally, bound time.Duration) []string {
	c.t.Helper()
	deadline := time.Now().Add(bound)
	for {
		ids := c.eventIDs()
		missing := tl.missing(ids)
		if len(missing) == 0 && c.pendingTasks() == 0 {
			return ids
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("after %s, %d of %d events never reached the receiver (e.g. %v); %d tasks unsettled",
				bound, len(missing), len(ids), missing[:min(len(missing), 5)], c.pendingTasks())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestCrashSafetyKill9 creates 2,000 payments on a server process, kills it
// with SIGKILL while deliveries are in flight, restarts it, and checks that
// every event of the database reaches the receiver: none is lost.
func TestCrashSafetyKill9(t *testing.T) {
	const n = 2000
	tl := newTally()
	// From 30 % on, the receiver answers slowly, so the kill finds
	// deliveries in flight.
	tl.holdAfter, tl.hold = n*30/100, 1500*time.Millisecond
	c := newCluster(t, tl, map[string]string{
		"SWITCHYARD_WEBHOOK_RETRY_SCHEDULE": "50ms,100ms,200ms,500ms,1s,1s,2s,2s,2s,2s",
		"SWITCHYARD_WEBHOOK_TIMEOUT":        "2s",
		"SWITCHYARD_WEBHOOK_WORKERS":        "2",
	})
	start := time.Now()
	p1 := c.serve()
	c.setWebhook(p1)
	c.createPayments(n, 16, p1)
	created := time.Since(start)

	// Kill once the receiver has acknowledged 30 % and holds requests.
	deadline := time.Now().Add(30 * time.Second)
	for {
		acked, _, _ := tl.stats()
		if acked >= tl.holdAfter && tl.inFlight.Load() > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the receiver acknowledged %d events in 30 s, with %d in flight", acked, tl.inFlight.Load())
		}
		time.Sleep(5 * time.Millisecond)
	}
	inFlight := tl.inFlight.Load()
	p1.Kill()
	ackedAtKill, _, requestsAtKill := tl.stats()
	if ackedAtKill >= n {
		t.Fatalf("every event was delivered before the kill; nothing was in flight")
	}
	tl.mu.Lock()
	tl.holdAfter = 0
	tl.delay.Store(0)
	tl.mu.Unlock()
	if len(c.eventIDs()) != n {
		t.Fatalf("%d events for %d payments", len(c.eventIDs()), n)
	}

	restart := time.Now()
	c.serve()
	ids := c.waitDelivered(tl, 60*time.Second)
	distinct, acks, requests := tl.stats()
	t.Logf("%d payments in %s; SIGKILL with %d/%d events acknowledged (%d requests, %d in flight); "+
		"after the restart all %d delivered in %s; %d requests in all, %d cut by the kill, %d events acknowledged twice",
		n, created.Round(time.Millisecond), ackedAtKill, n, requestsAtKill, inFlight, len(ids),
		time.Since(restart).Round(time.Millisecond), requests, requests-acks, acks-distinct)
}

// TestScaleOutDeliversOnce runs two server processes, each with its
// workers, on the same MariaDB and Redis: with a receiver that always
// answers 200, every event is delivered exactly once.
func TestScaleOutDeliversOnce(t *testing.T) {
	const n = 500
	tl := newTally()
	c := newCluster(t, tl, map[string]string{"SWITCHYARD_WEBHOOK_WORKERS": "2"})
	p1, p2 := c.serve(), c.serve()
	c.setWebhook(p1)
	c.createPayments(n, 8, p1, p2)
	ids := c.waitDelivered(tl, 60*time.Second)
	if len(ids) != n {
		t.Fatalf("%d events for %d payments", len(ids), n)
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var dups []string
	for id, k := range tl.acked {
		if k != 1 {
			dups = append(dups, fmt.Sprintf("%s×%d", id, k))
		}
	}
	if len(dups) > 0 || tl.requests != n {
		t.Fatalf("%d requests for %d events; delivered more than once: %v", tl.requests, n, dups)
	}
	atts, err := c.Store.Client.EventDeliveryAttempt.Query().Count(tenancy.System(context.Background()))
	if err != nil || atts != n {
		t.Fatalf("%d attempts recorded for %d events (%v)", atts, n, err)
	}
}
