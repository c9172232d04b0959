package testenv

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"

	"entgo.io/ent/dialect"

	"switchyard/internal/app"
	"switchyard/internal/config"
)

// StatementCounter records the SQL statements an app's ent client sends,
// grouped by the HTTP request they serve (its x-request-id), so a test can
// assert how many statements one call costs. Statements sent outside a
// request are grouped under "".
type StatementCounter struct {
	mu        sync.Mutex
	byRequest map[string][]string
	args      map[string][][]any
}

// NewStatementCounter returns an empty counter; pass its Wrap as
// app.Options.WrapDriver.
func NewStatementCounter() *StatementCounter {
	return &StatementCounter{byRequest: map[string][]string{}, args: map[string][][]any{}}
}

// Statements returns the statements sent for the request with that id.
func (c *StatementCounter) Statements(requestID string) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.byRequest[requestID]...)
}

// Args returns the arguments of the request's statements, in the order of
// Statements (so a test can EXPLAIN one).
func (c *StatementCounter) Args(requestID string) [][]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([][]any(nil), c.args[requestID]...)
}

func (c *StatementCounter) add(ctx context.Context, query string, args any) {
	id := app.RequestID(ctx)
	list, _ := args.([]any)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byRequest[id] = append(c.byRequest[id], query)
	c.args[id] = append(c.args[id], list)
}

// Wrap returns drv with every Exec and Query (in or out of a transaction)
// recorded.
func (c *StatementCounter) Wrap(drv dialect.Driver) dialect.Driver {
	return countingDriver{Driver: drv, c: c}
}

type countingDriver struct {
	dialect.Driver
	c *StatementCounter
}

func (d countingDriver) Exec(ctx context.Context, query string, args, v any) error {
	d.c.add(ctx, query, args)
	return d.Driver.Exec(ctx, query, args, v)
}

func (d countingDriver) Query(ctx context.Context, query string, args, v any) error {
	d.c.add(ctx, query, args)
	return d.Driver.Query(ctx, query, args, v)
}

func (d countingDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	tx, err := d.Driver.Tx(ctx)
	if err != nil {
		return nil, err
	}
	return countingTx{Tx: tx, c: d.c}, nil
}

// BeginTx is the driver's, when it has one (ent's client.BeginTx needs it).
func (d countingDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	b, ok := d.Driver.(interface {
		BeginTx(context.Context, *sql.TxOptions) (dialect.Tx, error)
	})
	if !ok {
		return nil, fmt.Errorf("testenv: driver %T has no BeginTx", d.Driver)
	}
	tx, err := b.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return countingTx{Tx: tx, c: d.c}, nil
}

type countingTx struct {
	dialect.Tx
	c *StatementCounter
}

func (t countingTx) Exec(ctx context.Context, query string, args, v any) error {
	t.c.add(ctx, query, args)
	return t.Tx.Exec(ctx, query, args, v)
}

func (t countingTx) Query(ctx context.Context, query string, args, v any) error {
	t.c.add(ctx, query, args)
	return t.Tx.Query(ctx, query, args, v)
}

// NewCountingServer is NewServer with the app's SQL statements recorded.
func NewCountingServer(t testing.TB, db config.Database) (*Server, *StatementCounter) {
	t.Helper()
	c := NewStatementCounter()
	srv := NewServerOptions(t, Config(t, db), slog.New(slog.NewJSONHandler(io.Discard, nil)),
		app.Options{Bootstrap: true, WrapDriver: c.Wrap})
	return srv, c
}
