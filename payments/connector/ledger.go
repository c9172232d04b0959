package connector

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
)

// A real connector remembers every transaction it was sent, whatever
// happens to its caller: after a crash between the call and the recording
// of its answer, Switchyard asks it (Sync) what became of the attempt. The
// simulator runs in the very process that calls it, so it keeps that memory
// outside the process, in a Ledger (Redis, internal/redisstore): what it
// decided for an attempt is written there before it answers.

// Ledger keeps the simulator's state of each attempt it was sent, by
// attempt id. It holds what ConnectorMetadata holds: never a PAN or CVC.
type Ledger interface {
	Put(ctx context.Context, attemptID string, state []byte) error
	// Get is the state of the attempt; nil and no error when there is none.
	Get(ctx context.Context, attemptID string) ([]byte, error)
}

// ErrTransactionNotFound is Sync's answer for an attempt the connector has
// no record of: it was never sent, so nothing was authorized or charged.
var ErrTransactionNotFound = errors.New("connector: no such transaction")

// remember writes st for attemptID to the ledger, if there is one. The
// sandbox stands in for a remote connector, whose answers do not depend on
// Switchyard's Redis: when the ledger cannot be written the answer still
// stands, and a warning says that a Sync after a crash will not find it
// (it then settles the attempt as never sent, which for a simulated card
// moves no money).
func (s *Simulator) remember(ctx context.Context, attemptID string, st *state) {
	if s == nil || s.Ledger == nil {
		return
	}
	b, err := json.Marshal(st.metadata())
	if err == nil {
		err = s.Ledger.Put(context.WithoutCancel(ctx), attemptID, b)
	}
	if err != nil {
		slog.WarnContext(ctx, "the sandbox could not record a transaction; a sync after a crash will not find it",
			"attempt_id", attemptID, "err", err)
	}
}

// recalled is the attempt's state as the ledger holds it, for a Sync that
// comes without metadata (the caller never recorded the answer).
func (s *Simulator) recalled(ctx context.Context, attemptID string) (*state, error) {
	if s == nil || s.Ledger == nil {
		return nil, fmt.Errorf("%w: missing; pass the metadata the connector returned", ErrInvalidMetadata)
	}
	b, err := s.Ledger.Get(ctx, attemptID)
	if err != nil {
		return nil, fmt.Errorf("connector: the sandbox could not read its records: %w", err)
	}
	if b == nil {
		return nil, ErrTransactionNotFound
	}
	var md map[string]any
	if err := json.Unmarshal(b, &md); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidMetadata, err)
	}
	return requireState(md)
}
