package connector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
)

// A real connector remembers every transaction it was sent, whatever
// happens to its caller: after a crash between a call and the recording of
// its answer, Switchyard asks it (Sync, SyncCapture, SyncRefund) what became
// of the attempt, the capture or the refund. The simulator runs in the very
// process that calls it, so it keeps that memory outside the process, in a
// Ledger (Redis, internal/redisstore): what it decided is written there
// before it answers.

// Ledger keeps the simulator's records by the domain's id: an attempt's
// state (what ConnectorMetadata holds), a capture's or a refund's result.
// The ids carry their kind's prefix (pa_, cap_, ref_), so they never meet.
// No record holds a PAN or CVC.
type Ledger interface {
	Put(ctx context.Context, id string, record []byte) error
	// Get is the record of id; nil and no error when there is none.
	Get(ctx context.Context, id string) ([]byte, error)
}

// ErrTransactionNotFound is a sync's answer for a call the connector has no
// record of: it was never sent, so nothing was authorized, captured or
// refunded.
var ErrTransactionNotFound = errors.New("connector: no such transaction")

// errNoLedger is recall's answer when the simulator keeps no ledger.
var errNoLedger = errors.New("connector: the sandbox keeps no ledger")

// record writes v for id to the ledger, if there is one. The sandbox stands
// in for a remote connector, whose answers do not depend on Switchyard's
// Redis: when the ledger cannot be written the answer still stands, and a
// warning says that a sync after a crash will not find it (it then settles
// the call as never sent, which for a simulated card moves no money).
func (s *Simulator) record(ctx context.Context, id string, v any) {
	if s == nil || s.Ledger == nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		err = s.Ledger.Put(context.WithoutCancel(ctx), id, b)
	}
	if err != nil {
		slog.WarnContext(ctx, "the sandbox could not record a transaction; a sync after a crash will not find it",
			"id", id, "err", err)
	}
}

// recall reads the ledger's record of id into v: ErrTransactionNotFound
// when there is none, errNoLedger without a ledger.
func (s *Simulator) recall(ctx context.Context, id string, v any) error {
	if s == nil || s.Ledger == nil {
		return errNoLedger
	}
	b, err := s.Ledger.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("connector: the sandbox could not read its records: %w", err)
	}
	if b == nil {
		return ErrTransactionNotFound
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("connector: the sandbox's record of %s is unreadable: %w", id, err)
	}
	return nil
}

// remember records the attempt's state.
func (s *Simulator) remember(ctx context.Context, attemptID string, st *state) {
	s.record(ctx, attemptID, st.metadata())
}

// recalled is the attempt's state as the ledger holds it: nil, nil when the
// simulator keeps no ledger.
func (s *Simulator) recalled(ctx context.Context, attemptID string) (*state, error) {
	var md map[string]any
	switch err := s.recall(ctx, attemptID, &md); {
	case errors.Is(err, errNoLedger):
		return nil, nil
	case err != nil:
		return nil, err
	}
	return requireState(md)
}
