// Package testenv gives tests their backends: a fresh MariaDB/MySQL database
// per test when SWITCHYARD_TEST_MYSQL_DSN points at a server (CI sets it),
// else embedded SQLite; the real Redis of SWITCHYARD_TEST_REDIS_URL (a
// database of the test process's own, emptied when it ends: Main), else an
// in-process one; and the Redis Cluster of SWITCHYARD_TEST_REDIS_CLUSTER
// for the tests that need one. With CI=true a missing variable fails the
// test instead of quietly falling back, so integration tests never skip in CI;
// elsewhere Skip skips them and Main names them in a line go test shows. A
// Server runs on a Clock the test moves forward instead of sleeping.
package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"switchyard/internal/app"
	"switchyard/internal/config"
	"switchyard/internal/ids"
	"switchyard/internal/store"
)

// Environment variables the tests read.
const (
	EnvMySQLDSN = "SWITCHYARD_TEST_MYSQL_DSN" // server DSN, e.g. root@tcp(127.0.0.1:3306)/
	EnvRedisURL = "SWITCHYARD_TEST_REDIS_URL" // e.g. redis://127.0.0.1:6379/0
	// EnvRedisCluster: a Redis Cluster's seed nodes, comma-separated, e.g.
	// 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003 (CI starts one).
	EnvRedisCluster = "SWITCHYARD_TEST_REDIS_CLUSTER"
)

// InCI reports whether the tests run under CI, where backends are required.
func InCI() bool { return os.Getenv("CI") == "true" }

// MySQLServerDSN returns the server DSN, failing in CI when it is unset and
// skipping elsewhere. Use it for tests that only make sense on MySQL.
func MySQLServerDSN(t testing.TB) string {
	t.Helper()
	return required(t, EnvMySQLDSN, "MySQL test skipped outside CI")
}

// required is the variable's value; unset, it fails the test in CI and
// skips it elsewhere, saying skipped.
func required(t testing.TB, name, skipped string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		if InCI() {
			t.Fatalf("%s must be set in CI", name)
		}
		Skip(t, "no "+name, skipped)
	}
	return v
}

// MySQLDatabase creates a fresh database on the test server, dropped when
// the test ends, and returns its config.
func MySQLDatabase(t testing.TB) config.Database {
	t.Helper()
	server := MySQLServerDSN(t)
	cfg, err := mysql.ParseDSN(server)
	if err != nil {
		t.Fatalf("%s: %v", EnvMySQLDSN, err)
	}
	name := "sy_test_" + strings.ToLower(ids.Base62(12))
	admin, err := sql.Open("mysql", server)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name + " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"); err != nil {
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name)
		_ = admin.Close()
	})
	cfg.DBName = name
	cfg.ParseTime = true
	cfg.Loc = nil
	return config.Database{Driver: config.DriverMySQL, DSN: cfg.FormatDSN()}
}

// MySQLURL is the SWITCHYARD_DATABASE_URL form of a fresh test database.
func MySQLURL(t testing.TB) string {
	t.Helper()
	db := MySQLDatabase(t)
	c, err := mysql.ParseDSN(db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	userinfo := c.User
	if c.Passwd != "" {
		userinfo += ":" + c.Passwd
	}
	return fmt.Sprintf("mysql://%s@%s/%s", userinfo, c.Addr, c.DBName)
}

// SQLiteDatabase is an embedded database in the test's temp dir.
func SQLiteDatabase(t testing.TB) config.Database {
	t.Helper()
	path := filepath.Join(t.TempDir(), "switchyard.db")
	return config.Database{Driver: config.DriverSQLite,
		DSN: "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)"}
}

// Database is MySQL when the test server is configured, else SQLite.
func Database(t testing.TB) config.Database {
	t.Helper()
	if os.Getenv(EnvMySQLDSN) != "" || InCI() {
		return MySQLDatabase(t)
	}
	return SQLiteDatabase(t)
}

// Backend names a database choice for tests that run on both.
type Backend struct {
	Name string
	Open func(t testing.TB) config.Database
}

// Backends is SQLite always, plus MySQL when configured (always in CI).
func Backends(t testing.TB) []Backend {
	out := []Backend{{"sqlite", SQLiteDatabase}}
	if os.Getenv(EnvMySQLDSN) != "" || InCI() {
		out = append(out, Backend{"mysql", MySQLDatabase})
	}
	return out
}

// Config is a complete configuration for db and the test Redis, with its
// data directory in the test's temp dir.
func Config(t testing.TB, db config.Database) *config.Config {
	t.Helper()
	dir := t.TempDir()
	environ := map[string]string{"SWITCHYARD_DATA_DIR": dir}
	if u := RedisURL(t); u != "" {
		environ["SWITCHYARD_REDIS_URL"] = u
	}
	cfg, err := config.LoadFrom(environ)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Database = db
	return cfg
}

// Server is an app behind an httptest server.
type Server struct {
	*app.App
	URL string
	// Clock is the app's clock (app.Options.Now): the wall clock until
	// the test advances it. Nil when the test gave the app a clock of its
	// own.
	Clock *Clock
}

// NewServer opens an app on db (bootstrapping the demo merchant) and serves it.
func NewServer(t testing.TB, db config.Database) *Server {
	t.Helper()
	return NewServerWith(t, Config(t, db), slog.New(slog.NewJSONHandler(io.Discard, nil)))
}

// NewServerWith is NewServer for a configuration of the test's own (a
// private Redis, say), logging to log.
func NewServerWith(t testing.TB, cfg *config.Config, log *slog.Logger) *Server {
	t.Helper()
	return NewServerOptions(t, cfg, log, app.Options{Bootstrap: true})
}

// NewServerOptions is NewServerWith with the app's options of the test's
// own (a driver wrapper, say).
func NewServerOptions(t testing.TB, cfg *config.Config, log *slog.Logger, opts app.Options) *Server {
	t.Helper()
	return serve(t, httptest.NewUnstartedServer(nil), cfg, log, opts)
}

// NewServerAt is NewServerWith on a fixed address (a browser client that
// allows one backend origin needs it there). An address in use fails the
// test.
func NewServerAt(t testing.TB, addr string, cfg *config.Config, log *slog.Logger) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{}}
	return serve(t, srv, cfg, log, app.Options{Bootstrap: true})
}

// serve opens the app on cfg behind srv, not yet started.
func serve(t testing.TB, srv *httptest.Server, cfg *config.Config, log *slog.Logger, opts app.Options) *Server {
	t.Helper()
	// The server's address is known before the app opens, so the links it
	// hands out (3-D Secure pages) point at it.
	cfg.PublicURL = "http://" + srv.Listener.Addr().String()
	var clock *Clock
	if opts.Now == nil {
		clock = &Clock{}
		opts.Now = clock.Now
	}
	a, err := app.Open(context.Background(), cfg, log, opts)
	if err != nil {
		srv.Close()
		t.Fatalf("open app: %v", err)
	}
	srv.Config.Handler = a.Handler()
	srv.Start()
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return &Server{App: a, URL: srv.URL, Clock: clock}
}

// BaselineDB opens a MariaDB database (its DSN as MySQLDatabase gives it)
// with the driver settings and the pool sizes of the app's store, for the
// database/sql baselines benchmarks measure the app against; it is closed
// when the benchmark ends.
func BaselineDB(tb testing.TB, dsn string) *sql.DB {
	tb.Helper()
	driverDSN, err := store.DriverDSN(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("mysql", driverDSN)
	if err != nil {
		tb.Fatal(err)
	}
	store.SizePool(db)
	tb.Cleanup(func() { _ = db.Close() })
	return db
}
