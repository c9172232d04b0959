package webhooks_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// Webhook delivery against MariaDB + Redis, to a receiver on loopback:
//
//	SWITCHYARD_TEST_MYSQL_DSN='root@tcp(127.0.0.1:3306)/' \
//	SWITCHYARD_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \
//	go test ./webhooks -run '^$' -bench . -benchtime 3s
//
// Without both variables the benchmarks skip: SQLite is not what they
// measure. All figures come from one run on one server (docs/performance.md:
// no test asserts a time).
//
//   - deliver/workers=K: a backlog of b.N due events (written as the outbox
//     writes them), drained by K copies of the server's worker (the
//     defaults: batches of DefaultBatchSize, SKIP LOCKED claims). Reports deliveries/s.
//   - latency: events written one by one at half the rate workers=2
//     delivered in the same run, while the server's default two workers
//     deliver them. Reports the event-to-first-attempt latency, from the
//     commit of the event to its first POST reaching the receiver (p50/p99).
//   - floor/workers=K: the same backlog drained by K loops of the fair
//     floor (floor_bench_test.go): database/sql and net/http doing the
//     least a batch must.
//   - ratio: deliveries/s of 2 and 4 workers over 1, and the worker's time
//     per delivery over the floor's, at 1 and 2 workers.

// benchReceiver answers 200 at once and notes when each event first arrived.
type benchReceiver struct {
	mu       sync.Mutex
	expected map[string]bool
	first    map[string]time.Time
	want     int
	reached  chan struct{}
}

func (r *benchReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	now := time.Now()
	// A receiver that answers at once: the event id is found, not parsed.
	b, _ := io.ReadAll(req.Body)
	id := eventIDOf(b)
	r.mu.Lock()
	if _, ok := r.first[id]; !ok && r.expected[id] {
		r.first[id] = now
		if len(r.first) == r.want {
			close(r.reached)
		}
	}
	r.mu.Unlock()
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, "ok")
}

// eventIDOf finds the event_id member of a delivery's body.
func eventIDOf(body []byte) string {
	const member = `"event_id":"`
	i := bytes.Index(body, []byte(member))
	if i < 0 {
		return ""
	}
	rest := body[i+len(member):]
	if j := bytes.IndexByte(rest, '"'); j >= 0 {
		return string(rest[:j])
	}
	return ""
}

// expect resets the receiver for n new events.
func (r *benchReceiver) expect(n int) <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.first, r.want, r.reached = make(map[string]time.Time, n), n, make(chan struct{})
	r.expected = make(map[string]bool, n)
	return r.reached
}

// await adds id to the events the receiver counts: an event of an earlier
// sub-benchmark can arrive again (its workers were stopped between its
// POST and its record, so it was sent again when its lease ended, at least
// once), and must not count.
func (r *benchReceiver) await(id string) {
	r.mu.Lock()
	r.expected[id] = true
	r.mu.Unlock()
}

type webhookBench struct {
	srv      *testenv.Server
	recv     *benchReceiver
	sys      context.Context
	template string // a real payment_succeeded body, its event_id replaced per event
	floor    *floorLoop
	// deliveries/s by number of workers, of the server's worker and of the
	// fair floor
	rates, floorRates map[int]float64
}

func newWebhookBench(b *testing.B) *webhookBench {
	b.Helper()
	if os.Getenv(testenv.EnvMySQLDSN) == "" || os.Getenv(testenv.EnvRedisURL) == "" {
		b.Skipf("%s and %s must both be set: the benchmark measures MariaDB + Redis", testenv.EnvMySQLDSN, testenv.EnvRedisURL)
	}
	db := testenv.MySQLDatabase(b)
	srv := testenv.NewServer(b, db)
	recv := &benchReceiver{}
	hook := httptest.NewServer(recv)
	b.Cleanup(hook.Close)
	sys := tenancy.System(context.Background())
	url := hook.URL + "/hooks"
	if _, err := srv.Store.Client.Profile.UpdateOneID(srv.Demo.ProfileID).
		SetWebhookDetails(&schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: &url}}).Save(sys); err != nil {
		b.Fatal(err)
	}
	// One real payment, for a realistic body (the REST JSON of a payment).
	body, _ := json.Marshal(paymentBody)
	req, _ := http.NewRequest("POST", srv.URL+"/payments", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", srv.Demo.SecretKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	ev, err := srv.Store.Client.Event.Query().Only(sys)
	if err != nil {
		b.Fatalf("the payment's event: %v", err)
	}
	if _, err := srv.Store.Client.WebhookDeliveryTask.Delete().Exec(sys); err != nil {
		b.Fatal(err)
	}
	return &webhookBench{srv: srv, recv: recv, sys: sys, floor: newFloorLoop(b, db.DSN, url),
		template: strings.Replace(ev.Content, ev.ID, "{{event_id}}", 1), rates: map[int]float64{}, floorRates: map[int]float64{}}
}

// eventRow is one event and its task, as the outbox writes them.
func (e *webhookBench) eventRow(tx *ent.Tx) (*ent.EventCreate, *ent.WebhookDeliveryTaskCreate, string) {
	id := ids.New(ids.Event)
	e.recv.await(id)
	d := e.srv.Demo
	ev := tx.Event.Create().SetID(id).SetMerchantID(d.MerchantID).SetProfileID(d.ProfileID).
		SetObjectID("pay_" + id[4:]).SetEventType(event.EventTypePaymentSucceeded).SetEventClass(event.EventClassPayments).
		SetIdempotentEventID(id + "_payment_succeeded").SetContent(strings.Replace(e.template, "{{event_id}}", id, 1))
	task := tx.WebhookDeliveryTask.Create().SetMerchantID(d.MerchantID).SetEventID(id).SetNextAttemptAt(time.Now().UTC())
	return ev, task, id
}

// backlog writes n due events, 500 per transaction.
func (e *webhookBench) backlog(b *testing.B, n int) {
	b.Helper()
	for done := 0; done < n; {
		k := min(500, n-done)
		tx, err := e.srv.Store.Client.Tx(e.sys)
		if err != nil {
			b.Fatal(err)
		}
		evs := make([]*ent.EventCreate, k)
		tasks := make([]*ent.WebhookDeliveryTaskCreate, k)
		for i := range k {
			evs[i], tasks[i], _ = e.eventRow(tx)
		}
		if err := tx.Event.CreateBulk(evs...).Exec(e.sys); err != nil {
			b.Fatal(err)
		}
		if err := tx.WebhookDeliveryTask.CreateBulk(tasks...).Exec(e.sys); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		done += k
	}
}

// reset deletes the events, tasks and attempts of the run that ended, so
// that every run (and every -count) meets tables of the same size.
func (e *webhookBench) reset(b *testing.B) {
	b.Helper()
	c := e.srv.Store.Client
	if _, err := c.EventDeliveryAttempt.Delete().Exec(e.sys); err != nil {
		b.Fatal(err)
	}
	if _, err := c.WebhookDeliveryTask.Delete().Exec(e.sys); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Event.Delete().Exec(e.sys); err != nil {
		b.Fatal(err)
	}
}

// workers runs k copies of the server's worker until stop is called.
func (e *webhookBench) workers(k int) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range k {
		wg.Go(func() { e.srv.Webhooks.Run(ctx) })
	}
	return func() { cancel(); wg.Wait() }
}

func (e *webhookBench) wait(b *testing.B, reached <-chan struct{}, n int) {
	b.Helper()
	select {
	case <-reached:
	case <-time.After(5*time.Minute + time.Duration(n)*10*time.Millisecond):
		b.Fatalf("%d events not delivered in time", n)
	}
}

func BenchmarkWebhooks(b *testing.B) {
	e := newWebhookBench(b)
	for _, k := range []int{1, 2} {
		b.Run(fmt.Sprintf("floor/workers=%d", k), func(b *testing.B) {
			reached := e.recv.expect(b.N)
			e.backlog(b, b.N)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			b.ResetTimer()
			for range k {
				wg.Go(func() { e.floor.run(ctx, b) })
			}
			e.wait(b, reached, b.N)
			b.StopTimer()
			cancel()
			wg.Wait()
			e.reset(b)
			rate := float64(b.N) / b.Elapsed().Seconds()
			e.floorRates[k] = rate
			b.ReportMetric(rate, "deliveries/s")
		})
	}
	for _, k := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("deliver/workers=%d", k), func(b *testing.B) {
			reached := e.recv.expect(b.N)
			e.backlog(b, b.N)
			b.ResetTimer()
			stop := e.workers(k)
			e.wait(b, reached, b.N)
			b.StopTimer()
			stop()
			e.reset(b)
			rate := float64(b.N) / b.Elapsed().Seconds()
			e.rates[k] = rate
			b.ReportMetric(rate, "deliveries/s")
		})
	}

	b.Run("latency", func(b *testing.B) {
		rate := e.rates[2] / 2
		if rate == 0 {
			rate = 100
		}
		reached := e.recv.expect(b.N)
		stop := e.workers(2)
		defer stop()
		var mu sync.Mutex
		committed := make(map[string]time.Time, b.N)
		sem := make(chan struct{}, 8)
		var wg sync.WaitGroup
		b.ResetTimer()
		start := time.Now()
		for i := range b.N {
			time.Sleep(time.Until(start.Add(time.Duration(float64(i) / rate * float64(time.Second)))))
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				tx, err := e.srv.Store.Client.Tx(e.sys)
				if err != nil {
					b.Error(err)
					return
				}
				ev, task, id := e.eventRow(tx)
				if err := ev.Exec(e.sys); err != nil {
					b.Error(err)
				}
				if err := task.Exec(e.sys); err != nil {
					b.Error(err)
				}
				if err := tx.Commit(); err != nil {
					b.Error(err)
				}
				e.srv.Webhooks.Wake() // as the payments service does once its outbox commits
				mu.Lock()
				committed[id] = time.Now()
				mu.Unlock()
			})
		}
		wg.Wait()
		e.wait(b, reached, b.N)
		b.StopTimer()
		e.recv.mu.Lock()
		lat := make([]time.Duration, 0, b.N)
		for id, at := range e.recv.first {
			if c, ok := committed[id]; ok { // its commit was noted (see await)
				lat = append(lat, max(0, at.Sub(c)))
			}
		}
		e.recv.mu.Unlock()
		slices.Sort(lat)
		ms := func(q float64) float64 {
			return float64(lat[min(len(lat)-1, int(q*float64(len(lat))))].Microseconds()) / 1000
		}
		b.ReportMetric(rate, "events/s")
		b.ReportMetric(ms(0.50), "p50-ms")
		b.ReportMetric(ms(0.99), "p99-ms")
	})

	b.Run("ratio", func(b *testing.B) {
		if e.rates[1] == 0 {
			b.Skip("the deliver sub-benchmarks did not run")
		}
		for range b.N {
		}
		b.ReportMetric(e.rates[2]/e.rates[1], "workers2/workers1")
		b.ReportMetric(e.rates[4]/e.rates[1], "workers4/workers1")
		if e.floorRates[1] > 0 && e.floorRates[2] > 0 {
			// how many times the fair floor's time per delivery the worker takes
			b.ReportMetric(e.floorRates[1]/e.rates[1], "x-floor-workers1")
			b.ReportMetric(e.floorRates[2]/e.rates[2], "x-floor-workers2")
		}
	})
}
