// Package txn is the transaction helper every domain package writes
// through: one database transaction per state change (InTx), row locks
// where the database has them (ForUpdate), the clock, and the mapping of
// constraint violations to domain errors. It holds the ent client so that
// no domain package hands it out.
//
// It must not hold business rules, and imports no domain package.
package txn

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// DB is the database as the domain packages use it.
type DB struct {
	// Client is the pooled ent client; writes go through InTx.
	Client *ent.Client
	// Now is the clock (UTC).
	Now func() time.Time
	// rowLocks is false on SQLite, which has no SELECT … FOR UPDATE and
	// serialises writers anyway (one connection).
	rowLocks bool
	// concurrentReads lets independent reads run at once on the pool's
	// connections (MySQL; SQLite has one connection).
	concurrentReads bool
	// timePrecision is what the database keeps of a time: microseconds in
	// MySQL's datetime(6); SQLite keeps what it is given.
	timePrecision time.Duration
	// config caches profiles and their accounts (UseConfigVersions); nil
	// reads them each time.
	config *configCache
}

// New returns the DB over client, of the given ent dialect.
func New(client *ent.Client, dialectName string) *DB {
	db := &DB{
		Client:          client,
		Now:             func() time.Time { return time.Now().UTC() },
		rowLocks:        dialectName == dialect.MySQL,
		concurrentReads: dialectName == dialect.MySQL,
	}
	if dialectName == dialect.MySQL {
		db.timePrecision = time.Microsecond
	}
	client.PaymentIntent.Use(stopDrafts) // the first hook: see Draft
	client.Use(auditCreated)
	return db
}

// InTx runs fn in one transaction: committed if fn returns nil, rolled back
// otherwise (and on panic).
func (db *DB) InTx(ctx context.Context, fn func(tx *ent.Tx) error) error {
	tx, err := db.Client.Tx(ctx)
	if err != nil {
		return errs.Internal(fmt.Errorf("begin: %w", err))
	}
	defer func() {
		if v := recover(); v != nil {
			_ = tx.Rollback()
			panic(v)
		}
	}()
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	audited, err := writeAudit(ctx, tx)
	if err != nil {
		_ = tx.Rollback()
		return errs.Internal(fmt.Errorf("audit: %w", err))
	}
	if err := tx.Commit(); err != nil {
		return errs.Internal(fmt.Errorf("commit: %w", err))
	}
	audited()
	return nil
}

// lockable is every generated ent query.
type lockable[Q any] interface {
	ForUpdate(...sql.LockOption) Q
}

// ForUpdate locks the rows q reads until the transaction ends, where the
// database supports it.
func ForUpdate[Q lockable[Q]](db *DB, q Q) Q {
	if !db.rowLocks {
		return q
	}
	return q.ForUpdate()
}

// ReadInto is a read for RunReads: all's rows, stored in dst.
func ReadInto[T any](ctx context.Context, dst *[]T, all func(context.Context) ([]T, error)) func() error {
	return func() (err error) {
		*dst, err = all(ctx)
		return err
	}
}

// RunReads runs independent reads. On MySQL, through the pooled client,
// they run at once, each on its own connection, so a page waits for the
// slowest of its nested queries rather than their sum. In a transaction
// (one connection) and on SQLite (one connection anyway) they run one after
// the other.
func (db *DB) RunReads(c *ent.Client, reads []func() error) error {
	if c != db.Client || !db.concurrentReads {
		for _, read := range reads {
			if err := read(); err != nil {
				return err
			}
		}
		return nil
	}
	failures := make([]error, len(reads))
	var wg sync.WaitGroup
	for i, read := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			failures[i] = read()
		}()
	}
	wg.Wait()
	return errors.Join(failures...)
}

// Error turns a constraint violation into HE_01 and anything else that is
// not already a domain error into HE_00.
func Error(err error, what string) error {
	if ent.IsConstraintError(err) {
		e := errs.Duplicate("The %s with the specified details already exists in our records", what)
		e.Cause = errs.ErrUniqueKey
		return e
	}
	if _, ok := errs.As(err); ok {
		return err
	}
	return errs.Internal(fmt.Errorf("%s: %w", what, err))
}

// ReadError is a failed read as the domain shows it: the failure notFound
// makes when ent found no row, and an internal error otherwise.
func ReadError(err error, notFound func() *errs.Error) error {
	if ent.IsNotFound(err) {
		return notFound()
	}
	return errs.Internal(err)
}

// Read is a read's result as the domain returns it: v, or a failure as an
// internal error (a read of rows that may be none cannot fail otherwise).
func Read[T any](v T, err error) (T, error) {
	if err != nil {
		var none T
		return none, errs.Internal(err)
	}
	return v, nil
}

// ErrorOrNil is Error, or nil for nil.
func ErrorOrNil(err error, what string) error {
	if err == nil {
		return nil
	}
	return Error(err, what)
}

// Merchant is the merchant the principal in ctx acts for. Without one the
// merchant "does not exist" (HE_02), as for a foreign id.
func Merchant(ctx context.Context) (string, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.MerchantID == "" {
		return "", errs.NotFound("Merchant account")
	}
	return p.MerchantID, nil
}

// RequireMerchant checks the merchant in ctx exists, so a write for an
// unknown merchant is 404 rather than an orphan row.
func (db *DB) RequireMerchant(ctx context.Context) error {
	if _, err := Merchant(ctx); err != nil {
		return err
	}
	ok, err := db.Client.MerchantAccount.Query().Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if !ok {
		return errs.NotFound("Merchant account")
	}
	return nil
}

// SkipLocked locks the rows q reads until the transaction ends, skipping
// rows another transaction holds (SELECT … FOR UPDATE SKIP LOCKED), where
// the database supports it: concurrent claimers of due work take disjoint
// rows instead of waiting for each other.
func SkipLocked[Q lockable[Q]](db *DB, q Q) Q {
	if !db.rowLocks {
		return q
	}
	return q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
}
