package store

import (
	"context"
	"database/sql"
	"fmt"

	"entgo.io/ent/dialect"
)

// StatementObserver is told of each SQL statement before the driver sends
// it, with the context of the call (so it can tell which request sent it).
type StatementObserver func(ctx context.Context, query string, args []any)

// Observe returns drv with every Exec and Query, in or out of a
// transaction, passed to observe first. The tests count a request's
// statements with it, and loadgen EXPLAINs what the server ran.
func Observe(drv dialect.Driver, observe StatementObserver) dialect.Driver {
	return observedDriver{observed{drv, observe}, drv}
}

// observed runs statements on an ExecQuerier (the driver or one of its
// transactions) once observe has seen each.
type observed struct {
	on      dialect.ExecQuerier
	observe StatementObserver
}

func (o observed) Exec(ctx context.Context, query string, args, v any) error {
	o.observe(ctx, query, argList(args))
	return o.on.Exec(ctx, query, args, v)
}

func (o observed) Query(ctx context.Context, query string, args, v any) error {
	o.observe(ctx, query, argList(args))
	return o.on.Query(ctx, query, args, v)
}

type observedDriver struct {
	observed
	drv dialect.Driver
}

func (d observedDriver) Dialect() string { return d.drv.Dialect() }

func (d observedDriver) Close() error { return d.drv.Close() }

func (d observedDriver) Tx(ctx context.Context) (dialect.Tx, error) {
	return d.observedTx(d.drv.Tx(ctx))
}

// BeginTx is the driver's, when it has one (ent's client.BeginTx needs it:
// the webhook workers begin their transactions with an isolation level).
func (d observedDriver) BeginTx(ctx context.Context, opts *sql.TxOptions) (dialect.Tx, error) {
	b, ok := d.drv.(interface {
		BeginTx(context.Context, *sql.TxOptions) (dialect.Tx, error)
	})
	if !ok {
		return nil, fmt.Errorf("store: driver %T has no BeginTx", d.drv)
	}
	return d.observedTx(b.BeginTx(ctx, opts))
}

func (d observedDriver) observedTx(tx dialect.Tx, err error) (dialect.Tx, error) {
	if err != nil {
		return nil, err
	}
	return observedTx{observed{tx, d.observe}, tx}, nil
}

type observedTx struct {
	observed
	tx dialect.Tx
}

func (t observedTx) Commit() error { return t.tx.Commit() }

func (t observedTx) Rollback() error { return t.tx.Rollback() }

// argList is a statement's arguments as ent's SQL driver passes them.
func argList(args any) []any {
	list, _ := args.([]any)
	return list
}
