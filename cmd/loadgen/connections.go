package main

// -mode connections: memory and connections.
//
//	go run ./cmd/loadgen -mode connections -redis redis://127.0.0.1:6379/0
//
// It builds cmd/switchyard (or takes -bin), creates a fresh database on
// -dsn, runs `switchyard bootstrap` on it, seeds -payments payments (10,000
// by default; see seed) and starts `switchyard serve` on a loopback port as
// a process of its own, on that database and -redis (the embedded Redis
// when empty). Then, one target after the other, -clients workers (1,000)
// each send requests back to back for -duration (60 s) over keep-alive
// connections, at most one connection each (vegeta, no rate: constant
// concurrency):
//
//	rest     GET /payments/{id}, the seeded payments' ids in turn (api-key)
//	graphql  POST /graphql, a page of 20 payments with their attempts
//
// For each it prints the requests, the throughput, p50/p99/max latency, the
// errors (any transport error, a status other than 200, a GraphQL answer
// with errors), the connections loadgen dialled, those ESTABLISHED on the
// server's port (/proc/net/tcp) and those the server counts open
// (switchyard_http_connections_open) at the peak, the server's open files,
// goroutines, Go heap and stacks and its connections to MariaDB (the
// processlist), and the server process's RSS from /proc/<pid>/status: its
// peak during the target (VmHWM, reset before each) and at the end. It
// exits 1 unless every target had no error, held all its clients'
// connections at once, and kept the server's RSS within rssGoal.
// -max-active sets the server's SWITCHYARD_MAX_ACTIVE_REQUESTS (100000: no
// bound in practice, to see the server without it); -server-log its log
// level (warn: the access log's line per request is not written).

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
)

// rssGoal is the most the server's RSS may reach under -clients.
const rssGoal = 200 << 20

// requestTimeout bounds one request on the client; the server's own bounds
// (GraphQL's 15 s, its write timeout) are shorter, so an overloaded server
// shows as its own errors.
const requestTimeout = 60 * time.Second

// graphqlPage is the dashboard's page: 20 payments with their attempts, and
// where the next page starts.
const graphqlPage = `query Page($n: Int!) { payments(first: $n) {
	pageInfo { hasNextPage endCursor }
	edges { node {
		id paymentID status amount amountCaptured currency displayAmount createdAt connector paymentMethod cardNetwork
		attempts { id status amount connector errorMessage }
	} }
} }`

// connTarget is one kind of request the clients send.
type connTarget struct {
	name    string
	label   string
	targets []vegeta.Target
	// failed says why a 200 answer is still an error ("" when it is not).
	failed func(body []byte) string
}

func connTargets(baseURL, key string, paymentIDs []string) ([]connTarget, error) {
	header := http.Header{"Api-Key": {key}, "Accept": {"application/json"}}
	rest := connTarget{name: "rest", label: "GET /payments/{id}", failed: func([]byte) string { return "" }}
	for _, id := range paymentIDs {
		rest.targets = append(rest.targets, vegeta.Target{Method: http.MethodGet, URL: baseURL + "/payments/" + id, Header: header})
	}
	body, err := json.Marshal(map[string]any{"query": graphqlPage, "variables": map[string]any{"n": 20}})
	if err != nil {
		return nil, err
	}
	gqlHeader := header.Clone()
	gqlHeader.Set("Content-Type", "application/json")
	graphql := connTarget{name: "graphql", label: "POST /graphql (20 payments + attempts)",
		targets: []vegeta.Target{{Method: http.MethodPost, URL: baseURL + "/graphql", Body: body, Header: gqlHeader}},
		failed: func(b []byte) string {
			if bytes.Contains(b, []byte(`"errors"`)) {
				return "GraphQL errors: " + abbreviate(string(b), 200)
			}
			return ""
		}}
	return []connTarget{rest, graphql}, nil
}

// connResult is what one target measured.
type connResult struct {
	requests, errors int
	errorKinds       map[string]int
	elapsed          time.Duration
	p50, p99, max    time.Duration
	// dials are the connections loadgen opened; established the most the
	// server held at once; files its most open descriptors.
	dials, established, files int
	before, peak, end         int64
	// gauges are the most the server reported of each; dbConns the most
	// connections it had open to MariaDB.
	gauges
	dbConns int
}

func (r connResult) throughput() float64 {
	return float64(r.requests-r.errors) / r.elapsed.Seconds()
}

// runConnections is -mode connections.
func runConnections(ctx context.Context, o options, out io.Writer) error {
	targets, results, err := measureConnections(ctx, o, out)
	if err != nil {
		return err
	}
	return connSummary(out, o, targets, results)
}

// measureConnections sets up the server and runs every target on it.
func measureConnections(ctx context.Context, o options, out io.Writer) (targets []connTarget, results []connResult, err error) {
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	// Each side holds a descriptor per client, and the server its pools.
	limit, err := raiseFileLimit(uint64(o.clients) + 256)
	if err != nil {
		return nil, nil, err
	}
	var undo []func()
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}()
	work, err := os.MkdirTemp("", "loadgen-connections-")
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, func() { os.RemoveAll(work) })
	bin, err := buildServer(ctx, o, work)
	if err != nil {
		return nil, nil, err
	}
	db, drop, err := freshDatabase(ctx, o, out, fmt.Sprintf("connections: %s clients, %s payments", human(o.clients), human(o.payments)))
	undo = append(undo, drop)
	if err != nil {
		return nil, nil, err
	}
	dataDir := filepath.Join(work, "data")
	env, err := serverEnv(o, db, dataDir)
	if err != nil {
		return nil, nil, err
	}
	keys, err := bootstrapServer(ctx, bin, env, dataDir)
	if err != nil {
		return nil, nil, err
	}
	seedDB, err := db.openSeeder()
	if err != nil {
		return nil, nil, err
	}
	undo = append(undo, func() { seedDB.Close() })
	if err := seedAndAnalyze(ctx, &runEnv{o: o, n: o.payments, out: out, merchant: keys.MerchantID,
		profile: keys.ProfileID, connector: keys.ConnectorAccount, seedDB: seedDB,
		accounts: []account{{id: keys.ConnectorAccount, name: "stripe_test"}}}); err != nil {
		return nil, nil, err
	}
	paymentIDs, err := seededIDs(ctx, seedDB, keys.MerchantID)
	if err != nil {
		return nil, nil, err
	}
	seedDB.Close() // the server's pool is the only one on the database while it is measured
	// One connection, to no database, reads the server's from the processlist.
	probe, err := sql.Open("mysql", o.dsn)
	if err != nil {
		return nil, nil, err
	}
	probe.SetMaxOpenConns(1)
	undo = append(undo, func() { probe.Close() })

	srv, err := startServer(ctx, bin, env, dataDir)
	if err != nil {
		return nil, nil, err
	}
	defer func() {
		if stopErr := srv.stop(); stopErr != nil && err == nil {
			err = fmt.Errorf("%w\n%s", stopErr, srv.tail())
		}
	}()
	serverLimit, err := fileLimit(srv.pid())
	if err != nil {
		return nil, nil, err
	}
	if serverLimit < uint64(o.clients)+256 {
		return nil, nil, fmt.Errorf("the server's open-files limit is %d, too low for %d clients", serverLimit, o.clients)
	}
	redis := o.redis
	if redis == "" {
		redis = "embedded"
	}
	active := "its default"
	if o.maxActive > 0 {
		active = human(o.maxActive)
	}
	fmt.Fprintf(out, "server: pid %d on %s (MariaDB database %s, Redis %s, log level %s, active requests at most %s); open-files limit %d here, %d there\n",
		srv.pid(), srv.url, db.name, redis, o.serverLog, active, limit, serverLimit)

	targets, err = connTargets(srv.url, keys.SecretKey, paymentIDs)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range targets {
		if err := checkTarget(ctx, t); err != nil {
			return nil, nil, err
		}
		r, err := attackTarget(ctx, o, srv, probe, db.name, t)
		if err != nil {
			return nil, nil, err
		}
		printConnResult(out, o, t, r)
		results = append(results, r)
	}
	return targets, results, nil
}

// seededIDs are up to 10,000 of the seeded payments' ids, in id order
// (random ids: unrelated to time).
func seededIDs(ctx context.Context, db *sql.DB, merchant string) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SELECT payment_id FROM payment_intents WHERE merchant_id = ? ORDER BY id LIMIT 10000", merchant)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errors.New("no seeded payment")
	}
	return out, nil
}

// checkTarget sends one request of the target and fails unless it is
// answered as the attack expects, so a mistake shows once, with its body.
func checkTarget(ctx context.Context, t connTarget) error {
	tg := t.targets[0]
	req, err := tg.Request()
	if err != nil {
		return err
	}
	resp, err := oneShot.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s: %s", t.label, resp.Status, abbreviate(string(body), 300))
	}
	if why := t.failed(body); why != "" {
		return fmt.Errorf("%s: %s", t.label, why)
	}
	return nil
}

// attackTarget runs one target: -clients workers for -duration, then closes
// its connections and waits for the server to see them gone.
func attackTarget(ctx context.Context, o options, srv *serverProcess, probe *sql.DB, dbName string, t connTarget) (connResult, error) {
	r := connResult{errorKinds: map[string]int{}}
	// loadgen's own transport, so it can count the connections it dials and
	// close them after the target; vegeta's options set its pool.
	var dials atomic.Int64
	dialer := &net.Dialer{KeepAlive: 30 * time.Second}
	transport := &http.Transport{DisableCompression: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err == nil {
				dials.Add(1)
			}
			return c, err
		}}
	n := uint64(o.clients)
	attacker := vegeta.NewAttacker(
		vegeta.Client(&http.Client{Transport: transport}),
		vegeta.Workers(n), vegeta.MaxWorkers(n), // exactly -clients requests in flight
		vegeta.Connections(o.clients),    // idle connections kept per host
		vegeta.MaxConnections(o.clients), // and open at most
		vegeta.KeepAlive(true),
		vegeta.Timeout(requestTimeout),
		vegeta.Redirects(vegeta.NoFollow),
	)
	defer transport.CloseIdleConnections()

	mem, err := readMemory(srv.pid())
	if err != nil {
		return r, err
	}
	r.before = mem.rss
	if err := resetPeak(srv.pid()); err != nil {
		return r, fmt.Errorf("reset the server's VmHWM: %w", err)
	}
	watch := startWatch(srv, probe, dbName)
	stopOnCancel := context.AfterFunc(ctx, func() { attacker.Stop() })
	defer stopOnCancel()

	start := time.Now()
	latencies := make([]time.Duration, 0, 1<<16)
	// Zero rate: each worker sends its next request as soon as its last is
	// answered.
	for res := range attacker.Attack(vegeta.NewStaticTargeter(t.targets...), vegeta.ConstantPacer{}, o.duration, t.name) {
		r.requests++
		latencies = append(latencies, res.Latency)
		why := res.Error
		if why == "" && res.Code != http.StatusOK {
			why = "status " + strconv.Itoa(int(res.Code))
		}
		if why == "" {
			why = t.failed(res.Body)
		}
		if why != "" {
			r.errors++
			r.errorKinds[abbreviate(why, 200)]++
		}
	}
	r.elapsed = time.Since(start)
	mem, memErr := readMemory(srv.pid())
	w := watch.stop()
	if memErr != nil {
		return r, memErr
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	r.end, r.peak = mem.rss, max(mem.peak, w.rss)
	r.dials, r.established, r.files, r.gauges, r.dbConns = int(dials.Load()), w.established, w.files, w.gauges, w.dbConns
	slices.Sort(latencies)
	if len(latencies) > 0 {
		at := func(q float64) time.Duration { return latencies[min(len(latencies)-1, int(q*float64(len(latencies))))] }
		r.p50, r.p99, r.max = at(0.50), at(0.99), latencies[len(latencies)-1]
	}

	// The next target starts from no connection.
	transport.CloseIdleConnections()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if n, err := establishedOn(srv.port); err != nil || n == 0 {
			break
		}
	}
	return r, nil
}

// watch samples the server while a target runs, keeping the most of each
// figure: connections ESTABLISHED on its port, open descriptors and RSS
// five times a second, its runtime's gauges once a second.
type watch struct {
	stopc chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	seen  watched
}

type watched struct {
	established, files int
	rss                int64
	gauges
	// dbConns are the server's connections to MariaDB (its processlist).
	dbConns int
}

func startWatch(srv *serverProcess, db *sql.DB, dbName string) *watch {
	w := &watch{stopc: make(chan struct{})}
	w.wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			var now watched
			now.established, _ = establishedOn(srv.port)
			now.files, _ = openFiles(srv.pid())
			if m, err := readMemory(srv.pid()); err == nil {
				now.rss = m.rss
			}
			if i%5 == 0 {
				now.gauges, _ = readGauges(srv.url)
				_ = db.QueryRow("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = ?", dbName).Scan(&now.dbConns)
			}
			w.mu.Lock()
			w.seen = watched{max(w.seen.established, now.established), max(w.seen.files, now.files), max(w.seen.rss, now.rss),
				gauges{max(w.seen.connections, now.connections), max(w.seen.goroutines, now.goroutines),
					max(w.seen.heap, now.heap), max(w.seen.stacks, now.stacks)}, max(w.seen.dbConns, now.dbConns)}
			w.mu.Unlock()
			select {
			case <-w.stopc:
				return
			case <-tick.C:
			}
		}
	})
	return w
}

func (w *watch) stop() watched {
	close(w.stopc)
	w.wg.Wait()
	return w.seen
}

// gauges are the server's own figures, from its /metrics.
type gauges struct {
	connections, goroutines int
	heap, stacks            int64 // bytes in use
}

// readGauges reads the server's /metrics: its count of open connections,
// and its runtime's goroutines (one per connection, at least) and heap and
// stacks in use.
func readGauges(baseURL string) (gauges, error) {
	resp, err := oneShot.Get(baseURL + "/metrics")
	if err != nil {
		return gauges{}, err
	}
	defer resp.Body.Close()
	var g gauges
	found := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			continue
		}
		switch name {
		case "switchyard_http_connections_open":
			g.connections = int(v) - 1 // less this scrape's own
		case "go_goroutines":
			g.goroutines = int(v)
		case "go_memstats_heap_inuse_bytes":
			g.heap = int64(v)
		case "go_memstats_stack_inuse_bytes":
			g.stacks = int64(v)
		default:
			continue
		}
		found++
	}
	if found != 4 {
		return gauges{}, fmt.Errorf("%s/metrics lacks the connections or the Go runtime's gauges", baseURL)
	}
	return g, sc.Err()
}

func mb(b int64) string { return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MB" }

func printConnResult(out io.Writer, o options, t connTarget, r connResult) {
	fmt.Fprintf(out, "\n%s: %s keep-alive clients for %s\n", t.label, human(o.clients), o.duration)
	fmt.Fprintf(out, "  requests     %s in %s: %s/s answered, %d errors\n", human(r.requests),
		r.elapsed.Round(time.Millisecond), human(int(r.throughput())), r.errors)
	for why, n := range r.errorKinds {
		fmt.Fprintf(out, "    %d× %s\n", n, why)
	}
	fmt.Fprintf(out, "  latency      p50 %s, p99 %s, max %s\n", ms(r.p50), ms(r.p99), ms(r.max))
	fmt.Fprintf(out, "  connections  %s dialled by loadgen; at the peak %s ESTABLISHED on the server's port, %s open by the server's count\n",
		human(r.dials), human(r.established), human(r.connections))
	fmt.Fprintf(out, "  server       at the peak %s open files, %s goroutines, %d connections to MariaDB\n",
		human(r.files), human(r.goroutines), r.dbConns)
	fmt.Fprintf(out, "  server RSS   peak %s, at the end %s (before %s; goal ≤ %s); Go heap in use %s, stacks %s at the peak\n",
		mb(r.peak), mb(r.end), mb(r.before), mb(rssGoal), mb(r.heap), mb(r.stacks))
}

// connSummary prints one line per target and fails unless every goal held.
func connSummary(out io.Writer, o options, targets []connTarget, results []connResult) error {
	fmt.Fprintf(out, "\n%-8s %10s %9s %10s %10s %7s %12s %10s %10s\n", "target", "requests", "req/s", "p50", "p99", "errors",
		"connections", "RSS peak", "RSS end")
	var failed []string
	for i, r := range results {
		t := targets[i]
		fmt.Fprintf(out, "%-8s %10s %9s %10s %10s %7d %12s %10s %10s\n", t.name, human(r.requests), human(int(r.throughput())),
			ms(r.p50), ms(r.p99), r.errors, human(r.established), mb(r.peak), mb(r.end))
		if r.errors > 0 {
			failed = append(failed, fmt.Sprintf("%s: %d errors", t.name, r.errors))
		}
		if r.established < o.clients {
			failed = append(failed, fmt.Sprintf("%s: %d connections open at the peak, not %d", t.name, r.established, o.clients))
		}
		if r.peak > rssGoal {
			failed = append(failed, fmt.Sprintf("%s: the server's RSS peaked at %s, over %s", t.name, mb(r.peak), mb(rssGoal)))
		}
	}
	if len(failed) > 0 {
		return errors.New("goals not met: " + strings.Join(failed, "; "))
	}
	fmt.Fprintf(out, "goals met: no error, %s connections held at once, server RSS ≤ %s\n", human(o.clients), mb(rssGoal))
	return nil
}
