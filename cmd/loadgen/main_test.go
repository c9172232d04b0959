package main

import (
	"bytes"
	"context"
	"database/sql"
	"regexp"
	"strings"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// TestLoadgenSmall runs the whole tool at a small size against the test
// MariaDB: it seeds, checks the plans, measures both sides and drops its
// databases. The figures are printed, never asserted (no timed assertions).
func TestLoadgenSmall(t *testing.T) {
	dsn := testenv.MySQLServerDSN(t)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	o := options{payments: 2000, small: 1000, dsn: dsn, redis: testenv.RedisURL(t), requests: 10, warmup: 1,
		batch: 500, nested: 0.2, timeout: 5 * time.Minute}
	if err := run(ctx, o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
	for _, want := range []string{
		"seeded 2,000 payments", "seeded 1,000 payments",
		"plan deep   page keys: type=range key=" + keysetIndex,
		"plan range  page keys: type=range key=" + keysetIndex,
		"at 2,000 payments: server", "scale: page time at 2,000 payments / page time at 1,000",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	for _, m := range regexp.MustCompile(`database (sy_loadgen_[a-z0-9]+)`).FindAllStringSubmatch(out.String(), -1) {
		var n int
		if err := admin.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", m[1]).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("database %s was not dropped", m[1])
		}
	}
}

// TestConnectionsSmall runs -mode connections at a small scale: 20 clients
// for 2 s per target on a switchyard process over a fresh database of the
// test MariaDB. It asserts what holds on any machine: no error, every
// client's connection open at once, the server's RSS read, its database
// pool bounded, and the database dropped; the figures are printed.
func TestConnectionsSmall(t *testing.T) {
	dsn := testenv.MySQLServerDSN(t)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	o := options{mode: modeConnections, payments: 1000, dsn: dsn, redis: testenv.RedisURL(t), requests: 10, batch: 500,
		nested: 0.2, clients: 20, duration: 2 * time.Second, serverLog: "warn", timeout: 5 * time.Minute}
	targets, results, err := measureConnections(ctx, o, &out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if err := connSummary(&out, o, targets, results); err != nil {
		t.Error(err)
	}
	t.Log(out.String())
	if len(results) != 2 {
		t.Fatalf("%d targets measured, want rest and graphql", len(results))
	}
	for i, r := range results {
		name := targets[i].name
		if r.requests == 0 || r.errors != 0 {
			t.Errorf("%s: %d requests, %d errors %v", name, r.requests, r.errors, r.errorKinds)
		}
		if r.dials != o.clients || r.established < o.clients || r.connections < o.clients {
			t.Errorf("%s: %d connections dialled, %d established, %d by the server's count; want %d of each",
				name, r.dials, r.established, r.connections, o.clients)
		}
		if r.peak <= 0 || r.end <= 0 || r.peak < r.end || r.heap <= 0 {
			t.Errorf("%s: RSS peak %d, end %d, heap %d: not read", name, r.peak, r.end, r.heap)
		}
		if r.dbConns < 1 || r.dbConns > 64 {
			t.Errorf("%s: the server had %d connections to MariaDB, want 1 to its pool's 64", name, r.dbConns)
		}
	}
	checkDropped(t, dsn, out.String())
}

// checkDropped fails unless the run's output names a database and the
// server no longer has it.
func checkDropped(t *testing.T, dsn, out string) {
	t.Helper()
	name := regexp.MustCompile(`database (sy_loadgen_[a-z0-9]+)`).FindStringSubmatch(out)
	if name == nil {
		t.Fatal("no database named in the output")
	}
	admin, err := sql.Open("mysql", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	var n int
	if err := admin.QueryRow("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", name[1]).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("database %s was not dropped", name[1])
	}
}

// TestAnalyticsSmall runs -mode analytics at a small size against the test
// MariaDB: it seeds, checks every query's plan reads its covering index
// alone, times each query and drops its database. The figures are printed,
// never asserted.
func TestAnalyticsSmall(t *testing.T) {
	dsn := testenv.MySQLServerDSN(t)
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	o := options{mode: modeAnalytics, payments: 3000, dsn: dsn, redis: testenv.RedisURL(t), requests: 10, warmup: 1,
		batch: 500, nested: 0.2, timeout: 5 * time.Minute}
	if err := runAnalytics(ctx, o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	t.Log(out.String())
	for _, w := range analyticsWindows {
		for _, q := range analyticsQueries {
			if !regexp.MustCompile(`plan ` + w.name + ` +` + q.name + ` +table=\S+ type=range key=` + q.index).MatchString(out.String()) {
				t.Errorf("no plan on %s for %s, %s", q.index, w.name, q.name)
			}
		}
	}
	if !strings.Contains(out.String(), "analytics at 3,000 payments") {
		t.Error("no figures")
	}
	checkDropped(t, dsn, out.String())
}

// TestOptionsRefuse: loadgen stays on loopback and within its bounds.
func TestOptionsRefuse(t *testing.T) {
	ok := options{payments: 1000, small: 0, dsn: "root@tcp(127.0.0.1:3306)/", requests: 10, batch: 10, nested: 0.1}
	if err := ok.check(); err != nil {
		t.Fatalf("a valid configuration: %v", err)
	}
	for name, o := range map[string]options{
		"remote database": {payments: 1000, dsn: "root@tcp(10.1.2.3:3306)/", requests: 10, batch: 10},
		"named database":  {payments: 1000, dsn: "root@tcp(127.0.0.1:3306)/prod", requests: 10, batch: 10},
		"remote redis":    {payments: 1000, dsn: "root@tcp(127.0.0.1:3306)/", redis: "redis://cache.example:6379/0", requests: 10, batch: 10},
		"tiny":            {payments: 10, dsn: "root@tcp(127.0.0.1:3306)/", requests: 10, batch: 10},
		"unknown mode":    {mode: "soak", payments: 1000, dsn: "root@tcp(127.0.0.1:3306)/", requests: 10, batch: 10},
		"no client": {mode: modeConnections, payments: 1000, dsn: "root@tcp(127.0.0.1:3306)/", requests: 10, batch: 10,
			duration: time.Second, serverLog: "warn"},
		"endless": {mode: modeConnections, payments: 1000, dsn: "root@tcp(127.0.0.1:3306)/", requests: 10, batch: 10,
			clients: 10, duration: 24 * time.Hour, serverLog: "warn"},
	} {
		if err := o.check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestMain empties the test Redis database the tests used (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }
