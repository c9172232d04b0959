// Command loadgen measures Switchyard under load on MariaDB/MySQL. Its
// default mode (-mode list) measures GET /payments/list at scale against a
// plain database/sql program doing the same work, in one run; -mode
// connections holds many keep-alive clients on a server process and reads
// its memory (see connections.go):
//
//	go run ./cmd/loadgen -payments 1000000 -dsn 'root@tcp(127.0.0.1:3306)/'
//	go run ./cmd/loadgen -mode connections -redis redis://127.0.0.1:6379/0
//	go run ./cmd/loadgen -mode analytics -requests 30
//
// -mode analytics times the dashboard's analytics queries (analytics.go);
// -mode passwords reads the server's memory under bursts of sign-ups and
// sign-ins on the embedded default (passwords.go).
// The rest of this comment describes the list mode.
//
// It prepares two sizes side by side, -small (10,000 by default) and
// -payments. For each it:
//
//  1. creates a fresh database on the server -dsn names and migrates it
//     (internal/store, through internal/app);
//  2. opens the real app on it (Redis from -redis, else the embedded one),
//     bootstraps the demo merchant and serves the real HTTP handler on a
//     loopback port;
//  3. seeds that many payments for the demo merchant with multi-row INSERTs
//     of -batch rows: created_at spread over about a year with ties, real
//     random ids, a mix of statuses, and attempts, captures, refunds,
//     disputes and customers on a share of them, so the page's nested
//     loading has work to do (see seed for how it stays fast);
//  4. EXPLAINs the statements the server sent for each scenario and fails
//     unless the page is read from the keyset index (merchant_id,
//     created_at, id) alone, as a range from the cursor or bound when there
//     is one; -v prints every plan row.
//
// Then it measures, for each scenario, -requests rounds after -warmup:
//
//	first   GET /payments/list?limit=100
//	deep    GET /payments/list?limit=100&starting_after=<the payment ~90% down>
//	range   GET /payments/list?limit=100&created.gte=…&created.lt=… (mid-list)
//
// A round calls, for each size, the server (over HTTP, keep-alive, whole
// body read) and the baseline back to back: a database/sql program on the
// app's DSN running the same statements (the cursor lookup for deep, the
// page's keys, its rows, one SELECT per nested kind) and encoding the rows
// as JSON. Sizes and sides take turns going first, so every figure of a
// scenario covers the same stretch of time.
//
// It prints the median and p95 of each, the ratio server/baseline (target
// ≤ 1.5×) both as a ratio of those quantiles and as the median of the
// back-to-back pairs ("paired", steadier on a busy machine), and the ratio
// of the page time at -payments to the page time at -small (target ≤ 1.3×).
// Absolute times depend on the machine; compare the ratios.
//
// Everything stays local: the HTTP listener is on 127.0.0.1, and the
// database and Redis must be loopback addresses. The run is bounded by
// -timeout (and every statement by MariaDB's max_statement_time), stops by
// itself, and drops its databases at the end, on error or on Ctrl-C too,
// unless -keep.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/go-sql-driver/mysql"
)

type options struct {
	mode            string
	payments, small int
	dsn, redis      string
	requests        int
	warmup          int
	batch           int
	nested          float64
	keep, verbose   bool
	timeout         time.Duration
	cpuProfile      string
	// The connections mode's (connections.go).
	clients   int
	duration  time.Duration
	bin       string
	serverLog string
	maxActive int
}

// Modes of -mode.
const (
	modeList        = "list"
	modeConnections = "connections"
	modeAnalytics   = "analytics"
	modePasswords   = "passwords"
)

func main() {
	var o options
	flag.StringVar(&o.mode, "mode", modeList, "list: the payment list at scale against a baseline; connections: many keep-alive clients on a server process, its memory; analytics: the dashboard's analytics queries over 90 days of payments; passwords: bursts of sign-ups and sign-ins on the embedded default, the server's memory")
	flag.IntVar(&o.payments, "payments", 0, "payments to seed (default 1,000,000 for the list's large run, 10,000 for connections)")
	flag.IntVar(&o.small, "small", 10_000, "payments to seed for the small run the large one is compared with (0: skip it)")
	flag.StringVar(&o.dsn, "dsn", "root@tcp(127.0.0.1:3306)/", "MariaDB/MySQL server DSN (go-sql-driver form); a fresh database is created on it")
	flag.StringVar(&o.redis, "redis", "", "Redis URL for the app (default: the embedded in-process Redis)")
	flag.IntVar(&o.requests, "requests", 200, "measured requests per scenario (and as many baseline runs)")
	flag.IntVar(&o.warmup, "warmup", 20, "unmeasured requests per scenario first")
	flag.IntVar(&o.batch, "batch", 5000, "rows per multi-row INSERT while seeding")
	flag.Float64Var(&o.nested, "nested", 0.2, "share of payments with captures and a refund (most payments also have an attempt)")
	flag.BoolVar(&o.keep, "keep", false, "keep the databases (their names are printed)")
	flag.BoolVar(&o.verbose, "v", false, "print every EXPLAIN row and progress")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "bound on the whole run")
	flag.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the measurements (server and baseline) to this file")
	flag.IntVar(&o.clients, "clients", 0, "connections: concurrent keep-alive clients, each with its own connection (default 1000); passwords: requests a burst (default 100)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "connections: how long each target is loaded")
	flag.StringVar(&o.bin, "bin", "", "connections: a switchyard binary to run (default: go build ./cmd/switchyard)")
	flag.StringVar(&o.serverLog, "server-log", "warn", "connections: the server's SWITCHYARD_LOG_LEVEL (info logs every request)")
	flag.IntVar(&o.maxActive, "max-active", 0, "connections: the server's SWITCHYARD_MAX_ACTIVE_REQUESTS (0: its default; 100000: no bound in practice)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "loadgen: unexpected arguments %q\n", flag.Args())
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	if o.payments == 0 {
		o.payments = 1_000_000
		if o.mode == modeConnections {
			o.payments = 10_000
		}
	}
	if o.clients == 0 {
		o.clients = 1000
		if o.mode == modePasswords {
			o.clients = 100
		}
	}
	start := run
	switch o.mode {
	case modePasswords:
		start = runPasswords
	case modeConnections:
		start = runConnections
	case modeAnalytics:
		start = runAnalytics
	}
	if err := start(ctx, o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadgen: "+err.Error())
		os.Exit(1)
	}
}

func run(ctx context.Context, o options, out io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	var sizes []int
	if o.small > 0 && o.small != o.payments {
		sizes = append(sizes, o.small)
	}
	sizes = append(sizes, o.payments)
	var envs []*runEnv
	for _, n := range sizes {
		env, cleanup, err := setupSize(ctx, o, n, out)
		defer cleanup()
		if err != nil {
			return err
		}
		envs = append(envs, env)
	}
	results, err := measure(ctx, envs)
	if err != nil {
		return err
	}
	if len(envs) == 2 {
		small, big := envs[0].n, envs[1].n
		fmt.Fprintf(out, "\nscale: page time at %s payments / page time at %s, measured side by side (target ≤ 1.30×)\n", human(big), human(small))
		fmt.Fprintf(out, "%-6s %14s %14s\n", "", "server p50", "baseline p50")
		for _, s := range scenarioNames {
			b, sm := results[1][s], results[0][s]
			fmt.Fprintf(out, "%-6s %13.2f× %13.2f×\n", s, ratio(b.server.p50, sm.server.p50), ratio(b.baseline.p50, sm.baseline.p50))
		}
	}
	return nil
}

// check refuses what the tool must not do: leave loopback, or run unbounded.
func (o options) check() error {
	if o.payments < 1000 {
		return errors.New("-payments must be at least 1000")
	}
	switch o.mode {
	case "", modeList, modeAnalytics:
	case modeConnections:
		if o.clients < 1 || o.clients > 10_000 || o.duration < time.Second || o.duration > time.Hour || o.maxActive < 0 {
			return errors.New("-clients 1..10000, -duration 1s..1h, -max-active ≥ 0")
		}
		switch o.serverLog {
		case "debug", "info", "warn", "error":
		default:
			return errors.New("-server-log: debug, info, warn or error")
		}
	default:
		return fmt.Errorf("-mode %q: want list, connections or analytics", o.mode)
	}
	if o.small < 0 || (o.small > 0 && o.small < 1000) {
		return errors.New("-small must be 0 or at least 1000")
	}
	if o.requests < 10 || o.warmup < 0 || o.batch < 1 || o.batch > 20000 || o.nested < 0 || o.nested > 1 {
		return errors.New("-requests ≥ 10, -warmup ≥ 0, -batch 1..20000, -nested 0..1")
	}
	cfg, err := mysql.ParseDSN(o.dsn)
	if err != nil {
		return fmt.Errorf("-dsn: %w", err)
	}
	if cfg.DBName != "" {
		return errors.New("-dsn must name the server only (…/), loadgen creates its own database")
	}
	if err := loopback(cfg.Addr); err != nil {
		return fmt.Errorf("-dsn: %w", err)
	}
	if o.redis != "" {
		u, err := url.Parse(o.redis)
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		if err := loopback(u.Host); err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
	}
	return nil
}

func loopback(hostport string) error {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%q is not a loopback address; loadgen only runs against local servers", hostport)
	}
	return nil
}

// human writes 1000000 as 1,000,000.
func human(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func ratio(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
