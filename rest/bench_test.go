package rest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/ids"
	"switchyard/internal/store"
	"switchyard/internal/testenv"
)

// Create+confirm throughput and latency against MariaDB + Redis, as a ratio
// to plain database/sql writing the same rows, measured in the same run
// (docs/performance.md: benchmarks report ratios, never single absolute
// times; no test asserts a time).
//
//	SWITCHYARD_TEST_MYSQL_DSN='root@tcp(127.0.0.1:3306)/' \
//	SWITCHYARD_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \
//	go test ./rest -run '^$' -bench 'CreateConfirm' -benchtime 3s
//
// Without both variables the benchmarks skip: SQLite and the in-process
// Redis are not what they measure.
//
// BenchmarkCreateConfirmVsBaseline runs the two as sub-benchmarks, one after
// the other on the same database server, and then reports
// ratio = (create+confirm ns/op) / (baseline ns/op) in a third, "ratio".
// Each reports ns/op, payments/s and p50/p99 latency in ms.

// benchParallelism is goroutines per GOMAXPROCS for every side: 32
// concurrent clients on a 2-core machine.
const benchParallelism = 16

// benchEnv is a server on a fresh MariaDB database and the test Redis.
type benchEnv struct {
	srv *testenv.Server
	dsn string // the server's database, for the baseline's own pool
	// eventContent is what the fair floor writes as its event: the size of
	// the API's.
	eventContent string
	// tb is the benchmark the environment lives as long as; plain and
	// batched are its baselines' pools, opened on first use.
	tb             testing.TB
	plain, batched *sql.DB
}

func newBenchEnv(b *testing.B) *benchEnv {
	b.Helper()
	if os.Getenv(testenv.EnvMySQLDSN) == "" || os.Getenv(testenv.EnvRedisURL) == "" {
		b.Skipf("%s and %s must both be set: the benchmark measures MariaDB + Redis", testenv.EnvMySQLDSN, testenv.EnvRedisURL)
	}
	db := testenv.MySQLDatabase(b)
	cfg := testenv.Config(b, db)
	// Each payment writes its event's delivery task, as the fair floor does;
	// no worker delivers them while payments are measured.
	cfg.WebhookWorkers = 0
	srv := testenv.NewServerWith(b, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	d := srv.Demo
	body, _ := json.Marshal(map[string]any{"webhook_details": map[string]any{"webhook_url": "http://127.0.0.1:9/hooks"}})
	req, _ := http.NewRequest("POST", srv.URL+"/account/"+d.MerchantID+"/business_profile/"+d.ProfileID, bytes.NewReader(body))
	req.Header.Set("api-key", srv.Config.AdminAPIKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		b.Fatalf("setting the demo profile's webhook: %d", resp.StatusCode)
	}
	env := &benchEnv{srv: srv, dsn: db.DSN, tb: b}
	env.eventContent = benchEventContent(b, env)
	return env
}

// benchEventContent is a stand-in for the event the API writes for the
// benchmark's payment, of its size (4,876 bytes on 2026-11-26: the
// payment object grows with the members Hyperswitch defines), taken from
// one payment made through the API. The fair floor writes it as its event
// and stores it as its Idempotency-Key's result.
func benchEventContent(b *testing.B, env *benchEnv) string {
	req, _ := http.NewRequest("POST", env.srv.URL+"/payments", bytes.NewReader(benchPaymentBody(b)))
	req.Header.Set("api-key", env.srv.Demo.SecretKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	var paid struct {
		PaymentID string `json:"payment_id"`
	}
	err = json.NewDecoder(resp.Body).Decode(&paid)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		b.Fatalf("a payment to size the event: %d %v", resp.StatusCode, err)
	}
	var size int
	if err := env.baselineDB().QueryRow("SELECT LENGTH(e.content) FROM events e JOIN payment_intents p ON p.id = e.payment_intent_id "+
		"WHERE p.payment_id = ? AND e.event_type = 'payment_succeeded'", paid.PaymentID).Scan(&size); err != nil {
		b.Fatal(err)
	}
	const head, tail = `{"type":"payment_succeeded","content":{"object":"`, `"}}`
	return head + strings.Repeat("x", max(0, size-len(head)-len(tail))) + tail
}

// benchPaymentBody is the benchmark's POST /payments: card 4242…, confirmed,
// captured automatically.
func benchPaymentBody(b *testing.B) []byte {
	body, err := json.Marshal(map[string]any{
		"amount": 1000, "currency": "USD", "confirm": true, "capture_method": "automatic",
		"payment_method_data": card("4242424242424242"),
	})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// baselineDB is the server's database opened as the app's store opens it:
// one pool for every baseline side and round, warm from the rounds before
// as the server's own pool is.
func (env *benchEnv) baselineDB() *sql.DB {
	if env.plain == nil {
		env.plain = testenv.BaselineDB(env.tb, env.dsn)
	}
	return env.plain
}

// row is what the baselines write about the demo merchant.
func (env *benchEnv) row() benchRow {
	d := env.srv.Demo
	return benchRow{merchant: d.MerchantID, profile: d.ProfileID, mca: d.ConnectorAccount, event: env.eventContent}
}

// batchedDB is baselineDB allowing several statements in one query, for the
// batched floor alone.
func (env *benchEnv) batchedDB(b *testing.B) *sql.DB {
	if env.batched == nil {
		driverDSN, err := store.DriverDSN(env.dsn)
		if err != nil {
			b.Fatal(err)
		}
		if env.batched, err = sql.Open("mysql", driverDSN+"&multiStatements=true"); err != nil {
			b.Fatal(err)
		}
		store.SizePool(env.batched)
		db := env.batched
		env.tb.Cleanup(func() { _ = db.Close() })
	}
	return env.batched
}

// benchResult is one side's final round.
type benchResult struct {
	n        int
	elapsed  time.Duration
	p50, p99 time.Duration
}

func (r benchResult) nsPerOp() float64 { return float64(r.elapsed.Nanoseconds()) / float64(r.n) }

// latencies gathers per-operation times from RunParallel's goroutines.
type latencies struct {
	mu  sync.Mutex
	all []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.all = append(l.all, d...)
	l.mu.Unlock()
}

// report adds the rate (named unit: "payments/s") and the latency
// percentiles to b's result.
func (l *latencies) report(b *testing.B, unit string) benchResult {
	slices.Sort(l.all)
	r := benchResult{n: b.N, elapsed: b.Elapsed()}
	if len(l.all) > 0 {
		r.p50 = l.all[len(l.all)/2]
		r.p99 = l.all[min(len(l.all)-1, len(l.all)*99/100)]
	}
	b.ReportMetric(float64(b.N)/r.elapsed.Seconds(), unit)
	b.ReportMetric(float64(r.p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(r.p99.Microseconds())/1000, "p99-ms")
	return r
}

// BenchmarkCreateConfirm is POST /payments with confirm: true (card 4242…,
// automatic capture, a fresh Idempotency-Key each time) through the real
// HTTP server.
func BenchmarkCreateConfirm(b *testing.B) {
	env := newBenchEnv(b)
	benchCreateConfirm(b, env)
}

// BenchmarkBaselineInserts writes, with plain database/sql, the rows a
// create+confirm leaves: one payment intent, one attempt and one capture,
// in one transaction.
func BenchmarkBaselineInserts(b *testing.B) {
	env := newBenchEnv(b)
	benchBaseline(b, env)
}

// BenchmarkCreateConfirmVsBaseline runs the baselines and the API on one
// database server, then reports the API's ratio to each: "ratio" to the
// plain inserts, "fair_ratio" to the fair floor (benchFairFloor) and, with
// -batched-floor, "batched_ratio" to the batched floor.
func BenchmarkCreateConfirmVsBaseline(b *testing.B) {
	env := newBenchEnv(b)
	// Each round runs the sides one after the other, so that all of them
	// meet the database at about the same size; the ratios pair the
	// API with each baseline of its own round. (With -count N instead, each
	// side would run N times before the next one starts.)
	var base, fair, batched, api benchRuns
	for r := 1; r <= *benchRounds; r++ {
		b.Run(fmt.Sprintf("round%d", r), func(b *testing.B) {
			// Each side starts once the database has written out what the
			// side before it left (benchSettle): the page flushing of one
			// side's rows would otherwise slow the commits of the next.
			b.Run("baseline", func(b *testing.B) { benchSettle(b, env); base.add(benchBaseline(b, env)) })
			b.Run("fair_floor", func(b *testing.B) { benchSettle(b, env); fair.add(benchFairFloor(b, env)) })
			if *benchBatched {
				b.Run("batched_floor", func(b *testing.B) { benchSettle(b, env); batched.add(benchBatchedFloor(b, env)) })
			}
			b.Run("create_confirm", func(b *testing.B) { benchSettle(b, env); api.add(benchCreateConfirm(b, env)) })
		})
	}
	if len(base) == 0 || len(api) == 0 || len(fair) == 0 || len(base) != len(api) || len(fair) != len(api) {
		return
	}
	benchCheckOutbox(b, env)
	b.Run("ratio", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(0, "ns/op")
		lo, mid, hi := api.ratios(base)
		b.ReportMetric(mid, "ratio")
		flo, fmid, fhi := api.ratios(fair)
		b.ReportMetric(fmid, "fair_ratio")
		b.ReportMetric(flo, "fair_ratio_min")
		b.ReportMetric(fhi, "fair_ratio_max")
		for i := range api {
			b.Logf("run %d: create+confirm %.0f payments/s (p50 %v, p99 %v); fair floor %.0f/s (p50 %v, p99 %v), %.2f×; baseline %.0f/s, %.2f×",
				i+1, 1e9/api[i].nsPerOp(), api[i].p50, api[i].p99, 1e9/fair[i].nsPerOp(), fair[i].p50, fair[i].p99,
				api[i].nsPerOp()/fair[i].nsPerOp(), 1e9/base[i].nsPerOp(), api[i].nsPerOp()/base[i].nsPerOp())
		}
		b.Logf("create+confirm over the baseline, %d runs: %.2f to %.2f; over the fair floor: %.2f to %.2f",
			len(api), lo, hi, flo, fhi)
		if len(batched) == len(api) {
			for i := range batched {
				b.Logf("run %d: batched floor %.0f payments/s (p50 %v, p99 %v); the fair floor takes %.2f× its time, create+confirm %.2f×",
					i+1, 1e9/batched[i].nsPerOp(), batched[i].p50, batched[i].p99,
					fair[i].nsPerOp()/batched[i].nsPerOp(), api[i].nsPerOp()/batched[i].nsPerOp())
			}
			_, bmid, _ := api.ratios(batched)
			b.ReportMetric(bmid, "batched_ratio")
		}
	})
}

// benchSettle waits, with the timer stopped, until InnoDB has written out
// what the sides before left in its redo log (a checkpoint age of at most
// a tenth of the most InnoDB allows, or no lower for 5 s, or 60 s at most),
// so that every side starts from a database at rest. Without it a side
// could start near the redo log's limit, where InnoDB flushes pages
// synchronously and every commit waits: create+confirm, run after the
// others, lost up to half its rate in some rounds.
func benchSettle(b *testing.B, env *benchEnv) {
	b.StopTimer()
	defer b.StartTimer()
	db := env.baselineDB()
	status := func(name string) int64 {
		var n string
		var v int64
		if err := db.QueryRow("SHOW GLOBAL STATUS LIKE ?", name).Scan(&n, &v); err != nil {
			b.Fatal(err)
		}
		return v
	}
	limit := status("Innodb_checkpoint_max_age")
	low, lowAt := limit, time.Now()
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		age := status("Innodb_checkpoint_age")
		if age <= limit/10 || time.Since(lowAt) > 5*time.Second {
			return // written out, or InnoDB has stopped writing at rest
		}
		if age < low {
			low, lowAt = age, time.Now()
		}
	}
}

// benchRounds is how many rounds BenchmarkCreateConfirmVsBaseline runs
// (go test ./rest -bench CreateConfirmVsBaseline -rounds=3).
var benchRounds = flag.Int("rounds", 1, "rounds of BenchmarkCreateConfirmVsBaseline")

// benchBatched adds benchBatchedFloor to each round
// (go test ./rest -bench CreateConfirmVsBaseline -batched-floor).
var benchBatched = flag.Bool("batched-floor", false, "BenchmarkCreateConfirmVsBaseline also runs the fair floor with each transaction in one round trip")

// benchRuns are one side's runs, one per round.
type benchRuns []benchResult

// add keeps r: testing runs each sub-benchmark once with b.N = 1 before
// its measured run, so a run of 1 starts a new entry and a longer one
// replaces it.
func (rs *benchRuns) add(r benchResult) {
	if r.n <= 1 || len(*rs) == 0 {
		*rs = append(*rs, r)
		return
	}
	(*rs)[len(*rs)-1] = r
}

// ratios are the lowest, the median and the highest of run i's time per
// payment over other's run i.
func (rs benchRuns) ratios(other benchRuns) (lo, mid, hi float64) {
	r := make([]float64, len(rs))
	for i := range rs {
		r[i] = rs[i].nsPerOp() / other[i].nsPerOp()
	}
	slices.Sort(r)
	return r[0], r[len(r)/2], r[len(r)-1]
}

func benchCreateConfirm(b *testing.B, env *benchEnv) benchResult {
	return benchPost(b, env, "/payments", benchPaymentBody(b), `"status":"succeeded"`, "payments/s")
}

// benchPost sends body to path from benchParallelism clients a core, each
// with a fresh Idempotency-Key, and fails on an answer that is not a 200
// holding want; unit names its rate.
func benchPost(b *testing.B, env *benchEnv, path string, body []byte, want, unit string) benchResult {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	hc := &http.Client{Transport: tr}
	defer tr.CloseIdleConnections()
	url, key := env.srv.URL+path, env.srv.Demo.SecretKey
	var lat latencies
	var failed sync.Once
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		var answer bytes.Buffer // each client reuses its buffer: the client is not what is measured
		for pb.Next() {
			start := time.Now()
			req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
			req.Header.Set("api-key", key)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", "bench-"+ids.Base62(20))
			resp, err := hc.Do(req)
			if err != nil {
				failed.Do(func() { b.Error(err) })
				return
			}
			answer.Reset()
			_, _ = answer.ReadFrom(resp.Body)
			resp.Body.Close()
			raw := answer.Bytes()
			mine = append(mine, time.Since(start))
			if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(want)) {
				failed.Do(func() { b.Errorf("POST %s: %d %s", path, resp.StatusCode, raw) })
				return
			}
		}
		lat.add(mine)
	})
	b.StopTimer()
	return lat.report(b, unit)
}

// benchRow is what the baseline writes about the demo merchant.
type benchRow struct {
	merchant, profile, mca string
	event                  string // the fair floor's event content
}

func benchBaseline(b *testing.B, env *benchEnv) benchResult {
	db, row := env.baselineDB(), env.row()
	return benchParallel(b, "payments/s", func(ctx context.Context) error { return benchInsertPayment(ctx, db, row) })
}

// benchParallel times pay from benchParallelism clients a core, after one
// untimed call that warms the pool and checks the SQL; unit names its
// rate.
func benchParallel(b *testing.B, unit string, pay func(context.Context) error) benchResult {
	if err := pay(context.Background()); err != nil {
		b.Fatal(err)
	}
	var lat latencies
	var failed sync.Once
	b.SetParallelism(benchParallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		ctx := context.Background()
		for pb.Next() {
			start := time.Now()
			if err := pay(ctx); err != nil {
				failed.Do(func() { b.Error(err) })
				return
			}
			mine = append(mine, time.Since(start))
		}
		lat.add(mine)
	})
	b.StopTimer()
	return lat.report(b, unit)
}

// The baseline's rows carry what a succeeded automatic card payment's rows
// carry: the same columns and about the same JSON.
const (
	benchCard = `{"last4":"4242","card_isin":"424242","card_extended_bin":"42424242","card_network":"Visa",` +
		`"card_type":"credit","card_issuer":"Stripe Test Bank","card_issuing_country":"US","card_exp_month":"12",` +
		`"card_exp_year":"2035","card_holder_name":"Jane Doe","payment_checks":{"address_line1_check":"unavailable",` +
		`"address_postal_code_check":"unavailable","cvc_check":"pass"}}`
	benchConnectorMetadata = `{"amount":1000,"amount_captured":1000,"capture_method":"automatic","captures":1,` +
		`"card_behaviour":"ok","card_last4":"4242","card_network":"Visa","currency":"USD",` +
		`"network_transaction_id":"sim_nti_%s","payment_checks":{"address_line1_check":"unavailable",` +
		`"address_postal_code_check":"unavailable","cvc_check":"pass"},"payment_method":"card",` +
		`"simulator":"switchyard_sandbox_v1","status":"charged"}`
)

// benchInsertPayment writes one payment intent, its attempt and its capture
// in one transaction.
func benchInsertPayment(ctx context.Context, db *sql.DB, r benchRow) error {
	now := time.Now().UTC().Truncate(time.Microsecond)
	payID, attID, capID := ids.New(ids.Payment), ids.New(ids.Attempt), ids.New(ids.Capture)
	return runTransaction(ctx, db, statement{"payment_intents", "INSERT INTO `payment_intents` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
		"`payment_id`, `profile_id`, `status`, `amount`, `currency`, `amount_captured`, `amount_capturable`, " +
		"`capture_method`, `client_secret`, `session_expiry`, `expires_on`, `active_attempt_id`, `attempt_count`, " +
		"`connector`, `merchant_connector_id`, `payment_method`, `card_network`, `version`) " +
		"VALUES (?, ?, ?, ?, ?, ?, 'succeeded', 1000, 'USD', 1000, 0, 'automatic', ?, 900, ?, ?, 1, 'stripe_test', ?, 'card', 'Visa', 1)",
		[]any{payID, r.merchant, now, now, payID, r.profile, payID + "_secret_" + ids.Base62(24), now.Add(15 * time.Minute),
			attID, r.mca}},
		statement{"payment_attempts", "INSERT INTO `payment_attempts` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`status`, `amount`, `net_amount`, `amount_capturable`, `currency`, `connector`, `merchant_connector_id`, " +
			"`connector_transaction_id`, `capture_method`, `payment_method`, `card`, `network_transaction_id`, " +
			"`connector_metadata`, `payment_intent_id`) " +
			"VALUES (?, ?, ?, ?, 'charged', 1000, 1000, 0, 'USD', 'stripe_test', ?, ?, 'automatic', 'card', ?, ?, ?, ?)",
			[]any{attID, r.merchant, now, now, r.mca, "sim_" + attID, benchCard, "sim_nti_" + attID,
				fmt.Sprintf(benchConnectorMetadata, attID), payID}},
		statement{"captures", "INSERT INTO `captures` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`authorized_attempt_id`, `status`, `amount`, `currency`, `connector`, `capture_sequence`, " +
			"`connector_capture_id`, `payment_intent_id`) VALUES (?, ?, ?, ?, ?, 'charged', 1000, 'USD', 'stripe_test', 1, ?, ?)",
			[]any{capID, r.merchant, now, now, attID, "sim_" + attID, payID}})
}

// benchFairFloor is the least a confirmed, auto-captured payment must cost,
// written with database/sql and go-redis: the Idempotency-Key's lease (one
// SET NX with an expiry); a first transaction recording the payment (with
// its Idempotency-Key, so that a retry after Redis lost the key still finds
// it) and its pending attempt, which must commit before the connector is
// called; a second recording the outcome (the attempt charged, the payment
// succeeded, its capture, its event and the event's delivery task); then
// the key's stored result (one SET). Nothing is read back.
func benchFairFloor(b *testing.B, env *benchEnv) benchResult {
	return benchFloor(b, env, env.baselineDB(), runTransaction)
}

// benchBatchedFloor is the fair floor with each transaction sent as one
// multi-statement round trip (START TRANSACTION; …; COMMIT) instead of one
// per statement: the same rows and Redis calls, with 2 database round trips
// instead of 11. It measures what this machine's database can give, with
// the fewest round trips there can be; the API does not batch statements
// (a multi-statement connection makes any injected SQL run).
func benchBatchedFloor(b *testing.B, env *benchEnv) benchResult {
	return benchFloor(b, env, env.batchedDB(b), runBatched)
}

// benchFloor runs the fair floor's payment from benchParallelism clients,
// sending each transaction with run.
func benchFloor(b *testing.B, env *benchEnv, db *sql.DB, run runStatements) benchResult {
	rdb, row := env.srv.Redis.Client, env.row()
	return benchParallel(b, "payments/s", func(ctx context.Context) error { return benchFairPayment(ctx, db, rdb, row, run) })
}

// statement is one SQL statement of a transaction, with its arguments.
type statement struct {
	name, query string
	args        []any
}

// runStatements sends statements as one transaction.
type runStatements func(ctx context.Context, db *sql.DB, statements ...statement) error

// runTransaction sends each statement on its own, between BEGIN and COMMIT.
func runTransaction(ctx context.Context, db *sql.DB, statements ...statement) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck // after Commit it does nothing
	for _, st := range statements {
		if _, err := tx.ExecContext(ctx, st.query, st.args...); err != nil {
			return fmt.Errorf("%s: %w", st.name, err)
		}
	}
	return tx.Commit()
}

// runBatched sends the transaction as one multi-statement query. A failed
// statement stops the batch with its transaction open, so the connection
// rolls it back before going back to the pool.
func runBatched(ctx context.Context, db *sql.DB, statements ...statement) error {
	var query strings.Builder
	var args []any
	query.WriteString("START TRANSACTION;")
	for _, st := range statements {
		query.WriteString(st.query)
		query.WriteString(";")
		args = append(args, st.args...)
	}
	query.WriteString("COMMIT")
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, query.String(), args...); err != nil {
		_, _ = conn.ExecContext(ctx, "ROLLBACK")
		return err
	}
	return nil
}

func benchFairPayment(ctx context.Context, db *sql.DB, rdb redis.UniversalClient, r benchRow, run runStatements) error {
	idemKey := "fair-" + ids.Base62(20)
	key := "bench-fair:{" + r.merchant + "}:" + idemKey
	if err := rdb.SetArgs(ctx, key, "lease", redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Err(); err != nil {
		return fmt.Errorf("lease: %w", err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	payID, attID, capID, evtID := ids.New(ids.Payment), ids.New(ids.Attempt), ids.New(ids.Capture), ids.New(ids.Event)
	err := run(ctx, db, statement{"payment_intents", "INSERT INTO `payment_intents` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
		"`payment_id`, `profile_id`, `status`, `amount`, `currency`, `amount_captured`, `amount_capturable`, " +
		"`capture_method`, `client_secret`, `session_expiry`, `expires_on`, `active_attempt_id`, `attempt_count`, " +
		"`connector`, `merchant_connector_id`, `payment_method`, `card_network`, `version`, " +
		"`idempotency_key`, `idempotency_fingerprint`) " +
		"VALUES (?, ?, ?, ?, ?, ?, 'processing', 1000, 'USD', 0, 0, 'automatic', ?, 900, ?, ?, 1, 'stripe_test', ?, 'card', 'Visa', 1, ?, ?)",
		[]any{payID, r.merchant, now, now, payID, r.profile, payID + "_secret_" + ids.Base62(24), now.Add(15 * time.Minute),
			attID, r.mca, idemKey, fmt.Sprintf("%x", sha256.Sum256([]byte(idemKey)))}},
		statement{"payment_attempts", "INSERT INTO `payment_attempts` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`status`, `amount`, `net_amount`, `amount_capturable`, `currency`, `connector`, `merchant_connector_id`, " +
			"`capture_method`, `payment_method`, `card`, `payment_intent_id`) " +
			"VALUES (?, ?, ?, ?, 'pending', 1000, 1000, 0, 'USD', 'stripe_test', ?, 'automatic', 'card', ?, ?)",
			[]any{attID, r.merchant, now, now, r.mca, benchCard, payID}})
	if err != nil {
		return err
	}
	// The connector is called here, outside any transaction.
	err = run(ctx, db, statement{"attempt outcome", "UPDATE `payment_attempts` SET `status` = 'charged', `modified_at` = ?, " +
		"`connector_transaction_id` = ?, `network_transaction_id` = ?, `connector_metadata` = ? WHERE `id` = ?",
		[]any{now, "sim_" + attID, "sim_nti_" + attID, fmt.Sprintf(benchConnectorMetadata, attID), attID}},
		statement{"payment outcome", "UPDATE `payment_intents` SET `status` = 'succeeded', `amount_captured` = 1000, " +
			"`modified_at` = ?, `version` = `version` + 1 WHERE `id` = ?", []any{now, payID}},
		statement{"captures", "INSERT INTO `captures` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`authorized_attempt_id`, `status`, `amount`, `currency`, `connector`, `capture_sequence`, " +
			"`connector_capture_id`, `payment_intent_id`) VALUES (?, ?, ?, ?, ?, 'charged', 1000, 'USD', 'stripe_test', 1, ?, ?)",
			[]any{capID, r.merchant, now, now, attID, "sim_" + attID, payID}},
		statement{"events", "INSERT INTO `events` (`id`, `merchant_id`, `created_at`, `modified_at`, `profile_id`, " +
			"`object_id`, `event_type`, `event_class`, `idempotent_event_id`, `content`, `is_delivered`, " +
			"`primary_object_created_at`, `payment_intent_id`) VALUES (?, ?, ?, ?, ?, ?, 'payment_succeeded', 'payments', ?, ?, 0, ?, ?)",
			[]any{evtID, r.merchant, now, now, r.profile, payID, payID + "_payment_succeeded", r.event, now, payID}},
		statement{"webhook_delivery_tasks", "INSERT INTO `webhook_delivery_tasks` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`status`, `retry_count`, `next_attempt_at`, `event_id`) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)",
			[]any{ids.New(ids.WebhookTask), r.merchant, now, now, now, evtID}})
	if err != nil {
		return err
	}
	if err := rdb.Set(ctx, key, r.event, 24*time.Hour).Err(); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	return nil
}

// benchCheckOutbox fails unless every payment the API took wrote its event
// and the event's delivery task, as the fair floor does.
func benchCheckOutbox(b *testing.B, env *benchEnv) {
	db := env.baselineDB()
	var payments, delivered int
	err := db.QueryRow("SELECT COUNT(*), COUNT(w.id) FROM payment_intents p "+
		"LEFT JOIN events e ON e.payment_intent_id = p.id AND e.event_type = 'payment_succeeded' "+
		"LEFT JOIN webhook_delivery_tasks w ON w.event_id = e.id "+
		"WHERE p.idempotency_key LIKE 'bench-%'").Scan(&payments, &delivered)
	if err != nil {
		b.Fatal(err)
	}
	if payments == 0 || delivered != payments {
		b.Fatalf("%d payments taken, %d with their event's delivery task", payments, delivered)
	}
}
