package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"

	"switchyard/internal/app"
	"switchyard/internal/config"
	"switchyard/internal/ids"
	"switchyard/internal/store"
)

// setupSize prepares one size: a fresh database, the app on it serving on
// loopback, the seed, and the plans checked. cleanup stops the app and drops
// the database (unless -keep); it must be called even when err != nil.
func setupSize(ctx context.Context, o options, n int, out io.Writer) (env *runEnv, cleanup func(), err error) {
	env, cleanup, err = openSize(ctx, o, n, out)
	if err != nil {
		return nil, cleanup, err
	}
	if err := seedAndAnalyze(ctx, env); err != nil {
		return nil, cleanup, err
	}
	if env.scenarios, err = buildScenarios(ctx, env); err != nil {
		return nil, cleanup, err
	}
	if err := explainScenarios(ctx, env, env.scenarios); err != nil {
		return nil, cleanup, err
	}
	return env, cleanup, nil
}

// openSize makes a fresh database, opens the app on it serving on loopback
// (the demo merchant bootstrapped) and the pools loadgen reads and seeds
// through. cleanup stops the app and drops the database (unless -keep); it
// must be called even when err != nil.
func openSize(ctx context.Context, o options, n int, out io.Writer) (env *runEnv, cleanup func(), err error) {
	var undo []func()
	cleanup = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	db, dropDB, err := freshDatabase(ctx, o, out, fmt.Sprintf("%s payments", human(n)))
	undo = append(undo, dropDB)
	if err != nil {
		return nil, cleanup, err
	}
	dbCfg := db.config()
	dataDir, err := os.MkdirTemp("", "loadgen-")
	if err != nil {
		return nil, cleanup, err
	}
	undo = append(undo, func() { os.RemoveAll(dataDir) })
	environ := map[string]string{"SWITCHYARD_DATA_DIR": dataDir, "SWITCHYARD_ADDR": "127.0.0.1:0"}
	if o.redis != "" {
		environ["SWITCHYARD_REDIS_URL"] = o.redis
	}
	cfg, err := config.LoadFrom(environ)
	if err != nil {
		return nil, cleanup, err
	}
	cfg.Database = config.Database{Driver: config.DriverMySQL, DSN: dbCfg.FormatDSN()}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // loopback only
	if err != nil {
		return nil, cleanup, err
	}
	cfg.PublicURL = "http://" + ln.Addr().String()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	plans := newPlanCapture()
	a, err := app.Open(ctx, cfg, log, app.Options{Bootstrap: true, WrapDriver: plans.wrap})
	if err != nil {
		ln.Close()
		return nil, cleanup, fmt.Errorf("open app: %w", err)
	}
	undo = append(undo, a.Close)
	serveCtx, stopServing := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan error, 1)
	go func() { served <- a.Serve(serveCtx, ln) }()
	undo = append(undo, func() {
		stopServing()
		if err := <-served; err != nil && !errors.Is(err, context.Canceled) {
			fmt.Fprintf(os.Stderr, "loadgen: server: %v\n", err)
		}
	})

	seedDB, err := db.openSeeder()
	if err != nil {
		return nil, cleanup, err
	}
	undo = append(undo, func() { seedDB.Close() })
	baselineDSN, err := store.DriverDSN(dbCfg.FormatDSN())
	if err != nil {
		return nil, cleanup, err
	}
	baseline, err := sql.Open("mysql", baselineDSN) // the app's DSN, driver and pool settings
	if err != nil {
		return nil, cleanup, err
	}
	store.SizePool(baseline)
	undo = append(undo, func() { baseline.Close() })
	env = &runEnv{
		o: o, n: n, out: out, baseURL: cfg.PublicURL, key: a.Demo.SecretKey,
		merchant: a.Demo.MerchantID, profile: a.Demo.ProfileID, connector: a.Demo.ConnectorAccount,
		seedDB: seedDB, baseline: baseline, plans: plans, app: a,
		accounts: []account{{id: a.Demo.ConnectorAccount, name: app.DemoConnectorName}},
	}
	return env, cleanup, nil
}

// seedAndAnalyze seeds env.n payments (see seed), prints what it wrote, and
// has MariaDB refresh the tables' statistics.
func seedAndAnalyze(ctx context.Context, env *runEnv) error {
	st, err := seed(ctx, env)
	if err != nil {
		return fmt.Errorf("seed: %w", err)
	}
	fmt.Fprintf(env.out, "seeded %s payments, %s attempts, %s captures, %s refunds, %s disputes, %s customers in %s (%s rows/s; indexes rebuilt in %s)\n",
		human(st.payments), human(st.attempts), human(st.captures), human(st.refunds), human(st.disputes),
		human(st.customers), st.took.Round(time.Millisecond), human(int(float64(st.rows())/st.took.Seconds())),
		st.indexes.Round(time.Millisecond))
	// Statistics as a long-lived table has them, not as the bulk load left them.
	if _, err := env.seedDB.ExecContext(ctx, "ANALYZE TABLE payment_intents, payment_attempts, captures, refunds, disputes, incremental_authorizations, customers"); err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return nil
}

// database is a fresh database on the -dsn server, for one run.
type database struct {
	server *mysql.Config // -dsn
	name   string
}

// freshDatabase creates a database on the -dsn server; drop drops it (unless
// -keep) and closes the admin pool, and must be called even when err != nil.
func freshDatabase(ctx context.Context, o options, out io.Writer, title string) (db *database, drop func(), err error) {
	var undo []func()
	drop = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	server, err := mysql.ParseDSN(o.dsn)
	if err != nil {
		return nil, drop, err
	}
	admin, err := sql.Open("mysql", o.dsn)
	if err != nil {
		return nil, drop, err
	}
	undo = append(undo, func() { admin.Close() })
	name := "sy_loadgen_" + strings.ToLower(ids.Base62(10))
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"); err != nil {
		return nil, drop, fmt.Errorf("create database: %w", err)
	}
	fmt.Fprintf(out, "\n== %s (database %s) ==\n", title, name)
	undo = append(undo, func() {
		if o.keep {
			fmt.Fprintf(out, "kept database %s\n", name)
			return
		}
		// The run's context may be over (timeout, Ctrl-C): drop anyway.
		dctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		if _, err := admin.ExecContext(dctx, "DROP DATABASE IF EXISTS "+name); err != nil {
			fmt.Fprintf(os.Stderr, "loadgen: drop database %s: %v\n", name, err)
		}
	})
	return &database{server: server, name: name}, drop, nil
}

// openSeeder opens the pool seeding goes through: with client-side
// interpolation, so a batch is one statement whatever its number of
// placeholders.
func (db *database) openSeeder() (*sql.DB, error) {
	c := db.config()
	c.InterpolateParams = true
	return sql.Open("mysql", c.FormatDSN())
}

// config is the database's DSN for loadgen's own pools and the in-process
// app: UTC times, and no statement allowed to run away with the run
// (MariaDB's max_statement_time, in seconds; the driver sets unknown DSN
// parameters as session variables).
func (db *database) config() *mysql.Config {
	c := db.server.Clone()
	c.DBName, c.ParseTime, c.Loc = db.name, true, time.UTC
	if c.Params == nil {
		c.Params = map[string]string{}
	}
	c.Params["max_statement_time"] = "120"
	return c
}

// runEnv is what one size's steps share.
type runEnv struct {
	o        options
	n        int
	out      io.Writer
	baseURL  string
	key      string
	merchant string
	profile  string
	// connector is the demo merchant's connector account (mca_…).
	connector string
	seedDB    *sql.DB
	baseline  *sql.DB
	plans     *planCapture
	scenarios []*scenario
	app       *app.App
	// accounts are the connector accounts payments are spread over (the
	// demo's alone, but for the analytics mode).
	accounts []account
	// spread is how far back the seeded payments go (0: 30 s a payment on
	// average); varied mixes payment methods, refund and dispute statuses.
	spread time.Duration
	varied bool
}

// account is a connector account of the demo merchant.
type account struct{ id, name string }
