package connector

import (
	"context"
	"errors"
	"fmt"
	"strconv"
)

// The sandbox's calls on an attempt it answered before: the customer's
// answer to a redirect (CompleteAuthentication); capture, void and refund,
// which fail only where the attempt's metadata shows nothing to act on;
// and the syncs, which answer what its ledger (or the attempt's metadata)
// records of an attempt, a capture or a refund.

// CompleteAuthentication implements Connector. Called on an attempt that is
// no longer AuthenticationPending it changes nothing and returns its status,
// so a repeated click is harmless.
func (s *Simulator) CompleteAuthentication(ctx context.Context, req *CompleteAuthenticationRequest) (*PaymentResult, error) {
	if req == nil {
		return nil, nilRequest("complete_authentication")
	}
	txnID, err := begin(ctx, "complete_authentication", &req.Account, req.ConnectorTransactionID)
	if err != nil {
		return nil, err
	}
	st, err := requireState(req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	if st.Status != StatusAuthenticationPending {
		return st.result(txnID), nil
	}
	if st.Amount == 0 && req.Amount > 0 {
		st.Amount = req.Amount
	}
	if st.Currency == "" {
		st.Currency = req.Currency
	}
	if st.CaptureMethod == "" && req.CaptureMethod.valid() {
		st.CaptureMethod = req.CaptureMethod
	}
	switch {
	case !req.Approved && st.PaymentMethod == MethodCard:
		st.fail(declineFor("authentication_failed"))
	case !req.Approved && st.Instructions != nil && st.Instructions.Kind == InstructionsBankTransfer:
		st.fail(declineFor("funds_not_received"))
	case !req.Approved && st.Instructions != nil:
		st.fail(declineFor("voucher_expired"))
	case !req.Approved:
		st.fail(declineFor("customer_declined"))
	case behaviours[st.Behaviour].declineAfterChallenge != "":
		st.fail(declineFor(behaviours[st.Behaviour].declineAfterChallenge))
	default:
		st.succeed(req.AttemptID)
	}
	s.remember(ctx, req.AttemptID, st)
	s.paymentChanged(ctx, req.Account, st, "")
	return st.result(txnID), nil
}

// Capture implements Connector. It charges the amount asked (the domain
// enforces the totals) and returns the updated metadata; it fails only for a
// non-positive amount or an attempt whose metadata shows it failed, was voided
// or still awaits authentication.
func (s *Simulator) Capture(ctx context.Context, req *CaptureRequest) (*CaptureResult, error) {
	if req == nil {
		return nil, nilRequest("capture")
	}
	_, st, err := beginOn(ctx, "capture", &req.Account, req.ConnectorTransactionID, req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	n := 1
	if st != nil {
		n = st.Captures + 1
	}
	id := "sim_cap_" + req.AttemptID + "_" + strconv.Itoa(n)
	if req.CaptureID != "" {
		id = "sim_cap_" + req.CaptureID
	}
	res := &CaptureResult{ConnectorCaptureID: id}
	if req.Sandbox.Outage {
		// Refused at the door: nothing captured, the attempt's state as it was.
		res.Status = StatusFailure
		res.Decline = outageDecline()
		if req.CaptureID != "" {
			s.record(ctx, req.CaptureID, res)
		}
		return res, nil
	}
	switch {
	case req.AmountToCapture <= 0:
		res.Status = StatusFailure
		res.Decline = newDecline(CodeInvalidAmount, "The amount to capture must be positive (invalid_amount).")
	case st != nil && (st.Status == StatusFailure || st.Status == StatusVoided || st.Status == StatusAuthenticationPending):
		res.Status = StatusFailure
		res.Decline = newDecline(CodeUnexpectedState, "The payment is "+string(st.Status)+" and cannot be captured (payment_intent_unexpected_state).")
	default:
		res.Status = StatusCharged
		if st != nil {
			st.Status = StatusCharged
			st.AmountCaptured += req.AmountToCapture
			st.Captures = n
			if b, ok := behaviours[st.Behaviour]; ok && st.PaymentMethod == MethodCard {
				st.Dispute = b.dispute
			}
			res.DisputeAfterSuccess = st.Dispute
			s.paymentChanged(ctx, req.Account, st, "capture_"+strconv.Itoa(n))
		}
	}
	if st != nil {
		s.remember(ctx, req.AttemptID, st)
		res.ConnectorMetadata = st.metadata()
	}
	if req.CaptureID != "" {
		s.record(ctx, req.CaptureID, res)
	}
	return res, nil
}

// Void implements Connector. Voiding an attempt that failed, or that is
// captured with nothing left to capture, returns Status Failure with
// payment_intent_unexpected_state and the attempt's metadata unchanged;
// voiding a voided attempt returns Voided again.
func (s *Simulator) Void(ctx context.Context, req *VoidRequest) (*PaymentResult, error) {
	if req == nil {
		return nil, nilRequest("void")
	}
	txnID, st, err := beginOn(ctx, "void", &req.Account, req.ConnectorTransactionID, req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	if req.Sandbox.Outage {
		// Refused at the door: the authorization stands as it was.
		r := &PaymentResult{ConnectorTransactionID: txnID}
		if st != nil {
			r = st.result(txnID)
		}
		r.Status = StatusFailure
		r.Decline = outageDecline()
		return r, nil
	}
	if st == nil {
		st = &state{Status: StatusVoided}
		return st.result(txnID), nil
	}
	if st.Status == StatusFailure || (st.Status == StatusCharged && st.result(txnID).AmountCapturable == 0) {
		// Nothing to void: refuse, and leave the recorded state as it was.
		r := st.result(txnID)
		r.Status = StatusFailure
		r.Decline = newDecline(CodeUnexpectedState, "The payment is "+string(st.Status)+" and cannot be voided (payment_intent_unexpected_state).")
		return r, nil
	}
	st.Status = StatusVoided
	s.remember(ctx, req.AttemptID, st)
	s.paymentChanged(ctx, req.Account, st, "")
	return st.result(txnID), nil
}

// Refund implements Connector. It succeeds unless the amount is not
// positive or the metadata shows the payment never captured anything (failed,
// voided before any capture, or still awaiting authentication).
func (s *Simulator) Refund(ctx context.Context, req *RefundRequest) (*RefundResult, error) {
	if req == nil {
		return nil, nilRequest("refund")
	}
	if _, err := begin(ctx, "refund", &req.Account, req.ConnectorTransactionID); err != nil {
		return nil, err
	}
	if req.RefundID == "" {
		return nil, fmt.Errorf("%w: refund: refund id is required", ErrInvalidRequest)
	}
	st, err := decodeState(req.ConnectorMetadata)
	if err != nil {
		return nil, err
	}
	res := &RefundResult{ConnectorRefundID: "sim_ref_" + req.RefundID, Status: RefundSucceeded}
	switch {
	case req.Sandbox.Outage:
		res.Status = RefundFailed
		res.Decline = outageDecline()
	case req.Amount <= 0:
		res.Status = RefundFailed
		res.Decline = newDecline(CodeInvalidAmount, "The refund amount must be positive (invalid_amount).")
	case st != nil && st.AmountCaptured == 0 &&
		(st.Status == StatusFailure || st.Status == StatusVoided || st.Status == StatusAuthenticationPending || st.Status == StatusPending):
		res.Status = RefundFailed
		res.Decline = &Decline{Code: CodeUnexpectedState, Reason: ReasonPaymentNotSucceeded,
			Message: "The payment has not succeeded and cannot be refunded (payment_not_successful)."}
	}
	s.record(ctx, req.RefundID, res)
	if !req.Sandbox.Outage {
		s.queueWebhook(ctx, req.Account, webhookChange{Object: WebhookRefund, Reference: req.RefundID,
			Change: map[bool]string{true: "succeeded", false: "failed"}[res.Status == RefundSucceeded]})
	}
	return res, nil
}

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
