// Package connectorcall owns the one shape of every request that moves
// money at a connector, so that it survives a process killed at any line:
// reserve (a transaction records the request as pending) → call (outside
// any transaction) → settle (a second transaction records the answer) →
// recover (the same settle step, fed by the connector's sync, after a
// crash). Payments' authorize, capture, void and refund and payouts'
// fulfil all run through Call; what they reserve and record stays theirs.
package connectorcall

import (
	"context"
	"errors"
	"fmt"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Call is one request that moves money at a connector:
//
//   - reserve: one transaction records the request as pending before it is
//     sent (an attempt pending, a capture or refund pending with its amount
//     held, an attempt void_initiated, a payout attempt initiated), so a
//     crash leaves a row to find;
//   - call: the connector is called outside any transaction;
//   - settle: a second transaction locks the owning row, rechecks that the
//     request is still pending (else the answer is late and changes nothing
//     twice), decides what the answer makes of it and applies that with its
//     events;
//   - recover: a row a crash left pending is settled by the same settle step
//     with the answer of the connector's sync.
//
// The steps are closures over the caller's values, so the piece knows
// nothing of what is reserved; A is the connector's answer.
type Call[A any] struct {
	// Reserve records the request as pending in the first transaction and
	// reports whether there is a call to make (a cancel before any
	// authorization has none). Nil when the caller's transaction reserved
	// it already (a confirm records its attempt with the payment).
	Reserve func(ctx context.Context, tx *ent.Tx) (bool, error)
	// Connect is the connector the request goes to, and its account.
	Connect func() (connector.Connector, connector.Account, error)
	// Call sends the request (Run). Its error is a transport failure: the
	// outcome is unknown, and Settle records it so without moving money.
	Call func(ctx context.Context, conn connector.Connector, acct connector.Account) (A, error)
	// Sync asks the connector what became of the request (Recover), and
	// Synced turns its answer into the one to record, or none yet.
	Sync   func(ctx context.Context, conn connector.Connector, acct connector.Account) (A, error)
	Synced func(answer A, err error) (A, bool)
	// Settle records an answer (callErr: none came) in the second
	// transaction.
	Settle func(ctx context.Context, tx *ent.Tx, answer A, callErr error) error
}

// Run reserves, calls and settles. It reports whether the connector was
// called; the caller finishes what follows the commit.
func (c *Call[A]) Run(ctx context.Context, db *txn.DB) (called bool, err error) {
	if c.Reserve != nil {
		call := false
		err := db.InTx(ctx, func(tx *ent.Tx) (err error) {
			call, err = c.Reserve(ctx, tx)
			return err
		})
		if err != nil || !call {
			return false, err
		}
	}
	conn, acct, err := c.Connect()
	if err != nil {
		return false, err
	}
	answer, callErr := c.Call(ctx, conn, acct)
	return true, db.InTx(ctx, func(tx *ent.Tx) error { return c.Settle(ctx, tx, answer, callErr) })
}

// Recover settles a request a crash interrupted: it asks the connector
// (Sync) and records what Synced makes of the answer through the same
// Settle step as a returned call. It reports whether it recorded one;
// false with no error means the connector cannot say yet, and the next
// pass asks again.
func (c *Call[A]) Recover(ctx context.Context, db *txn.DB) (bool, error) {
	conn, acct, err := c.Connect()
	if err != nil {
		return false, err
	}
	answer, ok := c.Synced(c.Sync(ctx, conn, acct))
	if !ok {
		return false, nil
	}
	err = db.InTx(ctx, func(tx *ent.Tx) error { return c.Settle(ctx, tx, answer, nil) })
	return err == nil, err
}

// SyncedAnswer is what recovery records for a sync's answer: the answer
// once it is final; neverSent's when the connector has no record of the
// request (it never arrived, so it moved no money); nothing while the
// connector cannot say (an error) or the request is still pending there.
func SyncedAnswer[A any](answer A, err error, pending func(A) bool, neverSent func() A) (A, bool) {
	var none A
	switch {
	case errors.Is(err, connector.ErrTransactionNotFound):
		return neverSent(), true
	case err != nil, pending(answer):
		return none, false
	}
	return answer, true
}

// RecoverEach runs recoverOne on each stranded row a sweep's query found
// (queryErr: the query failed, and nothing is recovered), in the context of
// the row's merchant (ctx is the system's), and counts those it settled. A
// row whose settling fails is reported and left for the next pass. key
// names a row: its merchant and its id.
func RecoverEach[T any](ctx context.Context, rows []T, queryErr error, key func(T) (merchantID, id string),
	recoverOne func(context.Context, T) (bool, error)) (int, error) {
	if queryErr != nil {
		return 0, errs.Internal(queryErr)
	}
	settled := 0
	var failures []error
	for _, row := range rows {
		merchantID, id := key(row)
		ok, err := recoverOne(tenancy.ForMerchant(ctx, merchantID), row)
		if err != nil {
			failures = append(failures, fmt.Errorf("%s: %w", id, err))
		}
		if ok {
			settled++
		}
	}
	return settled, errors.Join(failures...)
}
