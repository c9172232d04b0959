package testenv

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"entgo.io/ent/dialect"

	"switchyard/internal/app"
	"switchyard/internal/config"
	"switchyard/internal/store"
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

func (c *StatementCounter) add(ctx context.Context, query string, args []any) {
	id := app.RequestID(ctx)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byRequest[id] = append(c.byRequest[id], query)
	c.args[id] = append(c.args[id], args)
}

// Wrap returns drv with every Exec and Query (in or out of a transaction)
// recorded.
func (c *StatementCounter) Wrap(drv dialect.Driver) dialect.Driver {
	return store.Observe(drv, c.add)
}

// NewCountingServer is NewServer with the app's SQL statements recorded.
func NewCountingServer(t testing.TB, db config.Database) (*Server, *StatementCounter) {
	t.Helper()
	c := NewStatementCounter()
	srv := NewServerOptions(t, Config(t, db), slog.New(slog.NewJSONHandler(io.Discard, nil)),
		app.Options{Bootstrap: true, WrapDriver: c.Wrap})
	return srv, c
}
