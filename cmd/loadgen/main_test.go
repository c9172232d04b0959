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
	} {
		if err := o.check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
