package connector

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"switchyard/payments/cards"
)

// Simulator is the sandbox connector. It serves every connector name the
// same way, following the sandbox card table (docs/sandbox.md), which wins over
// Hyperswitch's dummy connector where they differ (4000000000009995 is
// declined for insufficient funds on stripe_test too). It keeps no state: what
// it must remember about an attempt travels in ConnectorMetadata, and its ids
// derive from the domain's ids, so they are deterministic:
//
//	ConnectorTransactionID  "sim_" + AttemptID
//	NetworkTransactionID    "sim_nti_" + AttemptID (successful cards)
//	ConnectorCaptureID      "sim_cap_" + CaptureID ("sim_cap_" + AttemptID + "_" + n without one)
//	ConnectorRefundID       "sim_ref_" + RefundID
//	ConnectorMandateID      "sim_pm_" + behaviour + "_" + last4 + "_" + AttemptID
//
// Cards (Authorize with PaymentMethod.Type "card"):
//   - The success numbers are Charged with automatic or sequential_automatic
//     capture, Authorized with manual or manual_multiple; so is any other
//     Luhn-valid number of 12 to 19 digits.
//   - The decline numbers fail with Decline.Code card_declined (Reason
//     generic_decline, insufficient_funds, lost_card, stolen_card) or their
//     own code (expired_card, incorrect_cvc, processing_error).
//   - PaymentChecks: each check is "pass" when the request carries the datum
//     (CVC, billing line1, billing zip) and "unavailable" when not, except
//     that 4000000000000101 fails cvc_check, 4000000000000036 fails
//     address_postal_code_check and 4000000000000028 fails
//     address_line1_check whatever the request carries (and succeed).
//   - The 3-D Secure numbers return AuthenticationPending with
//     RedirectRequired, whatever the AuthenticationType; CompleteAuthentication
//     with Approved succeeds (declined insufficient_funds for
//     4000008260003178), without it fails with authentication_failed.
//     4000002500003155 is challenged on-session only: with OffSession it
//     succeeds at once. AuthenticationType three_ds on any other card is a
//     frictionless success.
//   - 4000000000000259 and 4000000000002685 succeed with
//     DisputeAfterSuccess (fraudulent, product_not_received).
//   - 4000000000000341 can be saved but not charged: a zero-amount
//     verification succeeds, SetupFutureUsage returns a ConnectorMandateID
//     even though the charge itself is declined (generic_decline), and any
//     charge with an amount, saved or not, is declined.
//   - A number that is not 8 to 19 digits or fails the Luhn check fails with
//     invalid_card_data, as does a malformed expiry; an expired one fails with
//     expired_card; a number of fewer than 12 digits (which the API takes, as
//     Hyperswitch does) is declined with incorrect_number, as no network
//     issues one. Any CVC is accepted.
//   - With SetupFutureUsage a successful card payment returns a
//     ConnectorMandateID; a later Authorize may pass it as
//     PaymentMethod.ConnectorMandateID instead of a Card and the card behaves
//     as before (4000002500003155 needs no challenge with OffSession).
//
// Redirect methods: UPI collect with VPA success@upi (and UPI intent/QR)
// return AuthenticationPending with RedirectRequired; CompleteAuthentication
// decides (approve: success per capture method; decline:
// customer_declined). UPI failure@upi fails at once
// (payment_not_successful); any other VPA is declined with invalid_upi_id.
// The other families (wallets, pay later, bank redirects and transfers,
// bank debits, vouchers, gift cards, crypto, reward) are described in
// simulator_methods.go.
//
// An account's sandbox object (Account.Sandbox, see SandboxFailures) fails
// calls before any of the above: with Outage every Authorize fails with
// service_unavailable, Capture, Void and Refund are refused with it
// (nothing done, the attempt's state unchanged) and the syncs return an
// error (no answer now); with Timeout, Authorize returns ErrSandboxTimeout
// and records the attempt as failed with code timeout, which is what Sync
// then answers; with FailureRate, that share of Authorize calls is declined
// with ErrorCode (default processing_error). CompleteAuthentication is not
// affected: the customer's answer is the sandbox's own page.
//
// Capture charges what it is asked (Charged), Void returns Voided, Refund
// returns RefundSucceeded: the domain enforces amounts and states. They fail
// only where the metadata shows there is nothing to act on (see each method).
// Sync returns the latest status the ledger or ConnectorMetadata records;
// SyncCapture and SyncRefund return what the ledger recorded of a capture
// or a refund.
type Simulator struct {
	// Now is the clock for card expiry checks; nil means time.Now.
	Now func() time.Time
	// Ledger, when set, keeps what the simulator decided for each attempt,
	// so Sync can answer for an attempt whose caller never recorded the
	// answer (a crash); see ledger.go.
	Ledger Ledger
}

// NewSimulator returns a Simulator on the wall clock.
func NewSimulator() *Simulator { return &Simulator{} }

var _ Connector = (*Simulator)(nil)

func (s *Simulator) now() time.Time {
	if s != nil && s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// begin checks what every call needs and returns the transaction id.
func begin(ctx context.Context, op string, a *Account, txnID string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if a.AttemptID == "" {
		return "", fmt.Errorf("%w: %s: attempt id is required", ErrInvalidRequest, op)
	}
	id := "sim_" + a.AttemptID
	if txnID != "" && txnID != id {
		return "", fmt.Errorf("%w: %s: transaction %q does not belong to attempt %q", ErrInvalidRequest, op, txnID, a.AttemptID)
	}
	return id, nil
}

func nilRequest(op string) error { return fmt.Errorf("%w: %s: nil request", ErrInvalidRequest, op) }

// result renders st as a PaymentResult.
func (st *state) result(txnID string) *PaymentResult {
	r := &PaymentResult{
		Status:                 st.Status,
		ConnectorTransactionID: txnID,
		AmountCaptured:         st.AmountCaptured,
		RedirectRequired:       st.Status == StatusAuthenticationPending && st.Instructions == nil,
		PaymentChecks:          st.Checks,
		NetworkTransactionID:   st.NetworkTxnID,
		ConnectorMandateID:     st.MandateID,
		DisputeAfterSuccess:    st.Dispute,
	}
	switch st.Status {
	case StatusAuthorized:
		r.AmountCapturable = st.Amount - st.AmountCaptured
	case StatusCharged:
		if st.CaptureMethod == CaptureManualMultiple && st.AmountCaptured < st.Amount {
			r.AmountCapturable = st.Amount - st.AmountCaptured
		}
	case StatusFailure:
		r.Decline = st.Decline
	case StatusAuthenticationPending:
		r.Instructions = st.Instructions
	}
	if r.AmountCapturable < 0 {
		r.AmountCapturable = 0
	}
	r.ConnectorMetadata = st.metadata()
	return r
}

// fail records a decline.
func (st *state) fail(d *Decline) {
	st.Status = StatusFailure
	st.Decline = d
	st.AmountCaptured = 0
}

// succeed records a successful authorization for attemptID.
func (st *state) succeed(attemptID string) {
	if st.CaptureMethod.automatic() {
		st.Status = StatusCharged
		st.AmountCaptured = st.Amount
		if st.AmountToCapture > 0 && st.AmountToCapture < st.Amount {
			st.AmountCaptured = st.AmountToCapture
		}
		if st.Amount > 0 {
			st.Captures = 1
		}
	} else {
		st.Status = StatusAuthorized
	}
	st.Decline = nil
	if st.PaymentMethod == MethodBankDebit && st.SetupFutureUsage {
		st.MandateID = debitMandateToken(st.AccountLast4, attemptID)
	}
	if st.PaymentMethod != MethodCard {
		return
	}
	st.NetworkTxnID = "sim_nti_" + attemptID
	if b, ok := behaviours[st.Behaviour]; ok {
		st.Dispute = b.dispute
	}
	if st.SetupFutureUsage {
		st.MandateID = mandateToken(st.Behaviour, st.CardLast4, attemptID)
	}
}

// mandateToken is a saved card's connector token: the card's behaviour, not
// its number.
func mandateToken(behaviourKey, last4, attemptID string) string {
	return "sim_pm_" + behaviourKey + "_" + last4 + "_" + attemptID
}

// parseMandateToken returns the behaviour key and last4 of a token.
func parseMandateToken(tok string) (string, string, bool) {
	rest, ok := strings.CutPrefix(tok, "sim_pm_")
	if !ok {
		return "", "", false
	}
	parts := strings.SplitN(rest, "_", 3)
	if len(parts) != 3 || parts[2] == "" {
		return "", "", false
	}
	if _, known := behaviours[parts[0]]; !known {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// Authorize implements Connector.
func (s *Simulator) Authorize(ctx context.Context, req *AuthorizeRequest) (*PaymentResult, error) {
	if req == nil {
		return nil, nilRequest("authorize")
	}
	txnID, err := begin(ctx, "authorize", &req.Account, "")
	if err != nil {
		return nil, err
	}
	st := &state{
		Status:          StatusPending,
		PaymentMethod:   req.PaymentMethod.Type,
		CaptureMethod:   req.CaptureMethod,
		Amount:          req.Amount,
		AmountToCapture: req.AmountToCapture,
		Currency:        req.Currency,
	}
	if st.CaptureMethod == "" {
		st.CaptureMethod = CaptureAutomatic
	}
	if d, timedOut := req.Sandbox.authorizeFailure(); d != nil {
		// The account's sandbox object fails the call before the payment
		// method is looked at. The ledger keeps the failure, so a sync
		// (after a timeout, the only answer there is) reports it.
		st.fail(d)
		s.remember(ctx, req.AttemptID, st)
		if timedOut {
			return nil, ErrSandboxTimeout
		}
		return st.result(txnID), nil
	}
	switch {
	case req.Amount < 0:
		st.fail(newDecline(CodeInvalidAmount, "The amount must not be negative (invalid_amount)."))
	case !req.CaptureMethod.valid():
		st.fail(newDecline(CodeCaptureNotSupported,
			"Capture method "+strconv.Quote(string(req.CaptureMethod))+" is not supported (capture_method_not_supported)."))
	default:
		typ := req.PaymentMethod.Type
		if typ == "" && (req.PaymentMethod.Card != nil || req.PaymentMethod.ConnectorMandateID != "") {
			typ = MethodCard
			st.PaymentMethod = MethodCard
		}
		switch typ {
		case MethodCard:
			s.authorizeCard(req, st, req.AttemptID)
		case MethodUPI:
			authorizeUPI(req, st)
		default:
			s.authorizeOther(req, st)
		}
	}
	s.remember(ctx, req.AttemptID, st)
	return st.result(txnID), nil
}

func (s *Simulator) authorizeCard(req *AuthorizeRequest, st *state, attemptID string) {
	pm := req.PaymentMethod
	var b behaviour
	cvcGiven := false
	switch {
	case pm.Card != nil:
		digits, err := cards.ValidateNumber(pm.Card.Number)
		if err != nil {
			st.fail(invalidCardData(err))
			return
		}
		if len(digits) < shortestCard {
			// Hyperswitch takes 8 digits and more; no network issues so short a card.
			st.fail(newDecline(CodeIncorrectNumber, "Your card number is incorrect (incorrect_number)."))
			return
		}
		if pm.Card.ExpMonth != "" || pm.Card.ExpYear != "" {
			if err := cards.ValidateExpiry(pm.Card.ExpMonth, pm.Card.ExpYear, s.now()); err != nil {
				if errors.Is(err, cards.ErrExpired) {
					st.fail(declineFor("expired_card"))
				} else {
					st.fail(invalidCardData(err))
				}
				return
			}
		}
		key, ok := testCards[digits]
		if !ok {
			key = "ok"
		}
		b = behaviours[key]
		st.CardLast4 = digits[len(digits)-4:]
		st.CardNetwork = cards.Network(digits)
		cvcGiven = strings.TrimSpace(pm.Card.CVC) != ""
	case pm.ConnectorMandateID != "":
		key, l4, ok := parseMandateToken(pm.ConnectorMandateID)
		if !ok {
			st.fail(newDecline(CodeInvalidMandate, "No such saved payment method (resource_missing)."))
			return
		}
		b = behaviours[key]
		st.CardLast4 = l4
	default:
		st.fail(newDecline(CodeInvalidCardData, "The card data is invalid: card details are missing (invalid_card_data)."))
		return
	}
	st.Behaviour = b.key
	st.SetupFutureUsage = req.SetupFutureUsage
	st.Checks = &PaymentChecks{
		CVCCheck:               check(cvcGiven, b.cvcFail),
		AddressLine1Check:      check(strings.TrimSpace(req.Billing.Line1) != "", b.line1Fail),
		AddressPostalCodeCheck: check(strings.TrimSpace(req.Billing.Zip) != "", b.zipFail),
	}
	switch {
	case b.decline != "":
		st.fail(declineFor(b.decline))
	case b.chargeDeclined && req.Amount > 0:
		st.fail(declineFor("charge_declined"))
		if req.SetupFutureUsage {
			st.MandateID = mandateToken(b.key, st.CardLast4, attemptID)
		}
	case b.challenge || (b.challengeOnSession && !req.OffSession):
		st.Status = StatusAuthenticationPending
		st.ThreeDS = "challenge"
	default:
		switch {
		case b.challengeOnSession:
			st.ThreeDS = "exempt_off_session"
		case req.AuthenticationType == ThreeDS:
			st.ThreeDS = "frictionless"
		}
		st.succeed(attemptID)
	}
}

func check(given, fail bool) string {
	switch {
	case fail:
		return CheckFail
	case given:
		return CheckPass
	}
	return CheckUnavailable
}

// invalidCardData turns a cards validation error (which names last4 at
// most) into a decline.
func invalidCardData(err error) *Decline {
	reason := "the card data is invalid"
	if e, ok := cards.AsError(err); ok {
		reason = e.Field + ": " + e.Reason
	}
	return newDecline(CodeInvalidCardData, "The card data is invalid: "+reason+" (invalid_card_data).")
}

func authorizeUPI(req *AuthorizeRequest, st *state) {
	pm := req.PaymentMethod
	vpa := strings.ToLower(strings.TrimSpace(pm.VPA))
	if vpa == "" && pm.Subtype != "" && pm.Subtype != "upi_collect" {
		// UPI intent or QR: the customer approves in their app.
		st.Status = StatusAuthenticationPending
		return
	}
	switch vpa {
	case "success@upi":
		st.Status = StatusAuthenticationPending
	case "failure@upi":
		st.fail(declineFor("upi_failure"))
	default:
		st.fail(declineFor("invalid_upi_id"))
	}
}

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
	_, err := begin(ctx, "capture", &req.Account, req.ConnectorTransactionID)
	if err != nil {
		return nil, err
	}
	st, err := decodeState(req.ConnectorMetadata)
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
	txnID, err := begin(ctx, "void", &req.Account, req.ConnectorTransactionID)
	if err != nil {
		return nil, err
	}
	st, err := decodeState(req.ConnectorMetadata)
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
	txnID, err := begin(ctx, "sync", &req.Account, req.ConnectorTransactionID)
	if err != nil {
		return nil, err
	}
	if req.Sandbox.Outage {
		return nil, errSandboxOutage
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
	if _, err := begin(ctx, "capture sync", &req.Account, req.ConnectorTransactionID); err != nil {
		return nil, err
	}
	if req.Sandbox.Outage {
		return nil, errSandboxOutage
	}
	var res CaptureResult
	if err := s.recall(ctx, req.CaptureID, &res); err != nil {
		return nil, syncError(err)
	}
	return &res, nil
}

// SyncRefund implements Connector: the answer the simulator gave to the
// refund, from its ledger.
func (s *Simulator) SyncRefund(ctx context.Context, req *RefundSyncRequest) (*RefundResult, error) {
	if req == nil {
		return nil, nilRequest("refund sync")
	}
	if _, err := begin(ctx, "refund sync", &req.Account, req.ConnectorTransactionID); err != nil {
		return nil, err
	}
	if req.Sandbox.Outage {
		return nil, errSandboxOutage
	}
	var res RefundResult
	if err := s.recall(ctx, req.RefundID, &res); err != nil {
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
