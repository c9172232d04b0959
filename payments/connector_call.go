package payments

import (
	"context"
	"errors"

	"switchyard/ent"
	"switchyard/payments/connector"
	"switchyard/payments/txn"
)

// connectorCall is one request that moves money at a connector, in the one
// shape that survives a process killed at any line. Authorize, capture,
// void and refund all run through it (and payouts will):
//
//   - reserve: one transaction records the request as pending before it is
//     sent (an attempt pending, a capture or refund pending with its amount
//     held, an attempt void_initiated), so a crash leaves a row to find;
//   - call: the connector is called outside any transaction;
//   - settle: a second transaction locks the payment, rechecks that the row
//     is still pending (else the answer is late and changes nothing twice),
//     decides what the answer makes of it (a pure decideX) and applies that
//     with its events (applyX);
//   - recover: a row a crash left pending is settled by the same settle step
//     with the answer of the connector's sync (see recovery.go).
//
// The steps are closures over the caller's values, so the piece knows
// nothing of what is reserved; A is the connector's answer.
type connectorCall[A any] struct {
	// reserve records the request as pending in the first transaction and
	// reports whether there is a call to make (a cancel before any
	// authorization has none). Nil when the caller's transaction reserved
	// it already (a confirm records its attempt with the payment).
	reserve func(ctx context.Context, tx *ent.Tx) (bool, error)
	// connect is the connector the request goes to, and its account.
	connect func() (connector.Connector, connector.Account, error)
	// call sends the request (run). Its error is a transport failure: the
	// outcome is unknown, and settle records it so without moving money.
	call func(ctx context.Context, conn connector.Connector, acct connector.Account) (A, error)
	// sync asks the connector what became of the request (recover), and
	// synced turns its answer into the one to record, or none yet.
	sync   func(ctx context.Context, conn connector.Connector, acct connector.Account) (A, error)
	synced func(answer A, err error) (A, bool)
	// settle records an answer (callErr: none came) in the second
	// transaction.
	settle func(ctx context.Context, tx *ent.Tx, answer A, callErr error) error
}

// run reserves, calls and settles. It reports whether the connector was
// called; the caller finishes what follows the commit.
func (c *connectorCall[A]) run(ctx context.Context, db *txn.DB) (called bool, err error) {
	if c.reserve != nil {
		call := false
		err := db.InTx(ctx, func(tx *ent.Tx) (err error) {
			call, err = c.reserve(ctx, tx)
			return err
		})
		if err != nil || !call {
			return false, err
		}
	}
	conn, acct, err := c.connect()
	if err != nil {
		return false, err
	}
	answer, callErr := c.call(ctx, conn, acct)
	return true, db.InTx(ctx, func(tx *ent.Tx) error { return c.settle(ctx, tx, answer, callErr) })
}

// recover settles a request a crash interrupted: it asks the connector
// (sync) and records what synced makes of the answer through the same
// settle step as a returned call. It reports whether it recorded one;
// false with no error means the connector cannot say yet, and the next
// pass asks again.
func (c *connectorCall[A]) recover(ctx context.Context, db *txn.DB) (bool, error) {
	conn, acct, err := c.connect()
	if err != nil {
		return false, err
	}
	answer, ok := c.synced(c.sync(ctx, conn, acct))
	if !ok {
		return false, nil
	}
	err = db.InTx(ctx, func(tx *ent.Tx) error { return c.settle(ctx, tx, answer, nil) })
	return err == nil, err
}

// syncedAnswer is what recovery records for a sync's answer: the answer
// once it is final; neverSent's when the connector has no record of the
// request (it never arrived, so it moved no money); nothing while the
// connector cannot say (an error) or the request is still pending there.
func syncedAnswer[A any](answer A, err error, pending func(A) bool, neverSent func() A) (A, bool) {
	var none A
	switch {
	case errors.Is(err, connector.ErrTransactionNotFound):
		return neverSent(), true
	case err != nil, pending(answer):
		return none, false
	}
	return answer, true
}

// CodeNeverSent is the error_code of an attempt, capture or refund that
// recovery failed because the connector never received it.
const CodeNeverSent = "connector_transaction_not_found"

const neverSentMessage = "The connector never received this request (the process that was sending it stopped); nothing was charged."

var neverSentDecline = connector.Decline{Code: CodeNeverSent, Message: neverSentMessage}

// syncedAttempt is what recovery records for a sync of a pending attempt.
// young says the attempt is inside the recovery window: one the connector
// has no record of may still have its call on its way, so it waits.
func syncedAttempt(res *connector.PaymentResult, err error, young bool) (*connector.PaymentResult, bool) {
	if young && errors.Is(err, connector.ErrTransactionNotFound) {
		return nil, false
	}
	return syncedAnswer(res, err, func(r *connector.PaymentResult) bool { return r.Status == connector.StatusPending },
		func() *connector.PaymentResult {
			d := neverSentDecline
			return &connector.PaymentResult{Status: connector.StatusFailure, Decline: &d}
		})
}

// syncedVoid is what recovery records for a sync of an attempt left
// void_initiated: any answer but voided leaves the authorization standing
// (decideVoidAnswer), and a void the connector never saw voided nothing.
func syncedVoid(res *connector.PaymentResult, err error) (*connector.PaymentResult, bool) {
	return syncedAnswer(res, err, func(*connector.PaymentResult) bool { return false },
		func() *connector.PaymentResult { return &connector.PaymentResult{Status: connector.StatusFailure} })
}

// syncedCapture is what recovery records for a sync of a pending capture.
func syncedCapture(res *connector.CaptureResult, err error) (*connector.CaptureResult, bool) {
	return syncedAnswer(res, err, func(r *connector.CaptureResult) bool { return r.Status == connector.StatusPending },
		func() *connector.CaptureResult {
			d := neverSentDecline
			return &connector.CaptureResult{Status: connector.StatusFailure, Decline: &d}
		})
}

// syncedRefund is what recovery records for a sync of a pending refund.
func syncedRefund(res *connector.RefundResult, err error) (*connector.RefundResult, bool) {
	return syncedAnswer(res, err, func(r *connector.RefundResult) bool { return r.Status == connector.RefundPending },
		func() *connector.RefundResult {
			d := neverSentDecline
			return &connector.RefundResult{Status: connector.RefundFailed, Decline: &d}
		})
}
