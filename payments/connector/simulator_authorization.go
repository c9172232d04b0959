package connector

import (
	"context"
	"strconv"
)

// The sandbox's changes to an authorization (docs/sandbox.md):
//
//   - An increment of a card authorization is approved unless its new
//     total exceeds MaxIncrementedAuthorization, or the card is
//     NoIncrementCard; both are declined with insufficient_funds, the
//     authorization unchanged. Only cards take increments.
//   - An extension of a card authorization still authorized is applied,
//     except for NoIncrementCard.
//   - A void after capture voids a card payment that has captured
//     something; any other payment is refused.
//
// The answers are recorded in the ledger (increments by their inc_… id,
// the attempt's state by its id) so the syncs answer after a crash.

// MaxIncrementedAuthorization is the largest total (minor units) the
// sandbox approves an increment to.
const MaxIncrementedAuthorization = 1_000_000

// NoIncrementCard is the sandbox's test card that authorizes and captures
// as usual but whose issuer declines every increment and extension.
const NoIncrementCard = "4000000000006975"

const noIncrementBehaviour = "noincrement"

func init() {
	behaviours[noIncrementBehaviour] = behaviour{key: noIncrementBehaviour}
	testCards[NoIncrementCard] = noIncrementBehaviour
}

var _ Authorizations = (*Simulator)(nil)

// SupportsAuthorizationChanges reports whether c changes authorizations.
func SupportsAuthorizationChanges(c Connector) (Authorizations, bool) {
	a, ok := c.(Authorizations)
	return a, ok
}

// IncrementAuthorization implements Authorizations.
func (s *Simulator) IncrementAuthorization(ctx context.Context, req *IncrementRequest) (*IncrementResult, error) {
	if req == nil {
		return nil, nilRequest("increment authorization")
	}
	_, st, err := beginOn(ctx, "increment authorization", &req.Account, req.ConnectorTransactionID, req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	res := &IncrementResult{ConnectorAuthorizationID: "sim_inc_" + req.IncrementID}
	switch {
	case req.Sandbox.Outage:
		res.Status, res.Decline = StatusFailure, outageDecline()
	case st == nil || st.PaymentMethod != MethodCard || st.Status != StatusAuthorized:
		res.Status = StatusFailure
		res.Decline = newDecline(CodeUnexpectedState, "Only an authorized card payment can be incremented (payment_intent_unexpected_state).")
	case req.Amount <= st.Amount:
		res.Status = StatusFailure
		res.Decline = newDecline(CodeInvalidAmount, "The new total must exceed the authorized amount (invalid_amount).")
	case st.Behaviour == noIncrementBehaviour || req.Amount > MaxIncrementedAuthorization:
		res.Status = StatusFailure
		res.Decline = declineFor("insufficient_funds")
		res.Decline.Message = "The issuer declined the increment to " + strconv.FormatInt(req.Amount, 10) + " (insufficient_funds)."
	default:
		res.Status = StatusCharged
		st.Amount = req.Amount
		s.remember(ctx, req.AttemptID, st)
		s.paymentChanged(ctx, req.Account, st, "increment_"+req.IncrementID)
		res.ConnectorMetadata = st.metadata()
	}
	s.record(ctx, req.IncrementID, res)
	return res, nil
}

// SyncIncrement implements Authorizations: the answer the simulator gave
// to the increment, from its ledger.
func (s *Simulator) SyncIncrement(ctx context.Context, req *IncrementSyncRequest) (*IncrementResult, error) {
	if req == nil {
		return nil, nilRequest("increment sync")
	}
	return syncRecorded[IncrementResult](ctx, s, "increment sync", &req.Account, req.ConnectorTransactionID, req.IncrementID)
}

// ExtendAuthorization implements Authorizations.
func (s *Simulator) ExtendAuthorization(ctx context.Context, req *ExtendRequest) (*ExtendResult, error) {
	if req == nil {
		return nil, nilRequest("extend authorization")
	}
	_, st, err := beginOn(ctx, "extend authorization", &req.Account, req.ConnectorTransactionID, req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	switch {
	case req.Sandbox.Outage:
		return &ExtendResult{Decline: outageDecline()}, nil
	case st == nil || st.PaymentMethod != MethodCard || st.Status != StatusAuthorized:
		return &ExtendResult{Decline: newDecline(CodeUnexpectedState,
			"Only an authorized card payment can have its authorization extended (payment_intent_unexpected_state).")}, nil
	case st.Behaviour == noIncrementBehaviour:
		d := declineFor("insufficient_funds")
		d.Message = "The issuer declined to extend the authorization (insufficient_funds)."
		return &ExtendResult{Decline: d}, nil
	}
	return &ExtendResult{Applied: true}, nil
}

// VoidPostCapture implements Authorizations.
func (s *Simulator) VoidPostCapture(ctx context.Context, req *VoidRequest) (*PaymentResult, error) {
	if req == nil {
		return nil, nilRequest("void post capture")
	}
	txnID, st, err := beginOn(ctx, "void post capture", &req.Account, req.ConnectorTransactionID, req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	refuse := func(d *Decline) (*PaymentResult, error) {
		r := &PaymentResult{ConnectorTransactionID: txnID}
		if st != nil {
			r = st.result(txnID)
		}
		r.Status, r.Decline = StatusFailure, d
		return r, nil
	}
	switch {
	case req.Sandbox.Outage:
		return refuse(outageDecline())
	case st == nil || st.PaymentMethod != MethodCard || st.AmountCaptured == 0 || st.Status != StatusCharged:
		return refuse(newDecline(CodeUnexpectedState, "Only a captured card payment can be voided after capture (payment_intent_unexpected_state)."))
	}
	st.Status = StatusVoided
	s.remember(ctx, req.AttemptID, st)
	s.paymentChanged(ctx, req.Account, st, "after_capture")
	return st.result(txnID), nil
}
