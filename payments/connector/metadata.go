package connector

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Errors a Connector returns when no outcome is known (see the package doc).
var (
	// ErrInvalidRequest: the request lacks what the call needs (an attempt
	// id, a refund id, …) or names another transaction.
	ErrInvalidRequest = errors.New("connector: invalid request")
	// ErrInvalidMetadata: ConnectorMetadata is missing where it is needed,
	// or was not produced by this connector.
	ErrInvalidMetadata = errors.New("connector: invalid connector metadata")
)

// simulatorMarker tags the metadata the simulator writes.
const simulatorMarker = "switchyard_sandbox_v1"

// state is everything the simulator knows about an attempt. It travels as
// ConnectorMetadata (through JSON, so numbers come back as float64) and never
// holds a PAN or CVC: the card's last four digits at most.
type state struct {
	Simulator     string            `json:"simulator"`
	Status        Status            `json:"status"`
	PaymentMethod PaymentMethodType `json:"payment_method"`
	CaptureMethod CaptureMethod     `json:"capture_method"`
	Amount        int64             `json:"amount"`
	Currency      string            `json:"currency,omitempty"`
	// AmountCaptured and Captures count the captures so far.
	AmountCaptured int64 `json:"amount_captured"`
	Captures       int   `json:"captures,omitempty"`
	// AmountToCapture is what an automatic capture takes (0: all of Amount).
	AmountToCapture int64 `json:"amount_to_capture,omitempty"`
	// ThreeDS is "challenge", "frictionless", "exempt_off_session",
	// "external" (authenticated before the authorization) or "".
	ThreeDS string `json:"three_ds,omitempty"`
	// Behaviour is the test card's behaviour key; it decides what happens
	// after a challenge.
	Behaviour   string `json:"card_behaviour,omitempty"`
	CardLast4   string `json:"card_last4,omitempty"`
	CardNetwork string `json:"card_network,omitempty"`
	// AccountLast4 is a bank debit account's last four characters.
	AccountLast4     string         `json:"account_last4,omitempty"`
	SetupFutureUsage bool           `json:"setup_future_usage,omitempty"`
	Checks           *PaymentChecks `json:"payment_checks,omitempty"`
	Decline          *Decline       `json:"decline,omitempty"`
	Dispute          *DisputeSpec   `json:"dispute_after_success,omitempty"`
	NetworkTxnID     string         `json:"network_transaction_id,omitempty"`
	MandateID        string         `json:"connector_mandate_id,omitempty"`
	// Instructions: a bank transfer or voucher waiting for the money.
	Instructions *Instructions `json:"instructions,omitempty"`
}

// metadata encodes st as a JSON-shaped map.
func (st *state) metadata() map[string]any {
	st.Simulator = simulatorMarker
	b, err := json.Marshal(st)
	if err != nil {
		panic(err) // plain data; cannot fail
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return m
}

// decodeState reads the simulator's state back from ConnectorMetadata. It
// returns nil, nil for empty metadata.
func decodeState(md map[string]any) (*state, error) {
	if len(md) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(md)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidMetadata, err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidMetadata, err)
	}
	if st.Simulator != simulatorMarker {
		return nil, fmt.Errorf("%w: not written by the sandbox simulator", ErrInvalidMetadata)
	}
	switch st.Status {
	case StatusCharged, StatusAuthorized, StatusAuthenticationPending, StatusPending, StatusFailure, StatusVoided:
	default:
		return nil, fmt.Errorf("%w: unknown status %q", ErrInvalidMetadata, st.Status)
	}
	return &st, nil
}

// requireState is decodeState for calls that cannot work without metadata.
func requireState(md map[string]any) (*state, error) {
	st, err := decodeState(md)
	if err == nil && st == nil {
		err = fmt.Errorf("%w: missing; pass the metadata the connector returned", ErrInvalidMetadata)
	}
	return st, err
}
