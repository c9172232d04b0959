package connector

import (
	"context"
	"errors"
	"fmt"
)

// The sandbox's syncs: what its ledger (or the attempt's metadata)
// records of an attempt, a capture or a refund.

// Sync implements Connector: the attempt's status as the ledger records
// it (the latest, even when its caller never recorded the answer), else as
// ConnectorMetadata records it; ErrTransactionNotFound when neither knows
// the attempt (it was never sent).
func (s *Simulator) Sync(ctx context.Context, req *SyncRequest) (*PaymentResult, error) {
	if req == nil {
		return nil, nilRequest("sync")
	}
	txnID, err := beginSync(ctx, "sync", &req.Account, req.ConnectorTransactionID)
	if err != nil {
		return nil, err
	}
	st, ledgerErr := s.recalled(ctx, req.AttemptID)
	if st != nil {
		return st.result(txnID), nil
	}
	if st, err = decodeState(req.ConnectorMetadata); err != nil {
		return nil, err
	}
	switch {
	case st != nil:
		return st.result(txnID), nil
	case ledgerErr != nil:
		return nil, ledgerErr // not found, or the ledger cannot be read now
	}
	return nil, fmt.Errorf("%w: missing; pass the metadata the connector returned", ErrInvalidMetadata)
}

// SyncCapture implements Connector: the answer the simulator gave to the
// capture, from its ledger.
func (s *Simulator) SyncCapture(ctx context.Context, req *CaptureSyncRequest) (*CaptureResult, error) {
	if req == nil {
		return nil, nilRequest("capture sync")
	}
	return syncRecorded[CaptureResult](ctx, s, "capture sync", &req.Account, req.ConnectorTransactionID, req.CaptureID)
}

// SyncRefund implements Connector: the answer the simulator gave to the
// refund, from its ledger.
func (s *Simulator) SyncRefund(ctx context.Context, req *RefundSyncRequest) (*RefundResult, error) {
	if req == nil {
		return nil, nilRequest("refund sync")
	}
	return syncRecorded[RefundResult](ctx, s, "refund sync", &req.Account, req.ConnectorTransactionID, req.RefundID)
}

// syncRecorded is a capture's or a refund's sync (op): the answer the
// simulator gave to id, as its ledger recorded it.
func syncRecorded[T any](ctx context.Context, s *Simulator, op string, a *Account, txnID, id string) (*T, error) {
	if _, err := beginSync(ctx, op, a, txnID); err != nil {
		return nil, err
	}
	var res T
	if err := s.recall(ctx, id, &res); err != nil {
		return nil, syncError(err)
	}
	return &res, nil
}

// syncError is a sync's error: without a ledger the simulator cannot say.
func syncError(err error) error {
	if errors.Is(err, errNoLedger) {
		return fmt.Errorf("%w: the sandbox keeps no ledger to sync from", ErrInvalidRequest)
	}
	return err
}
