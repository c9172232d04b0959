package connector

import (
	"context"
	"fmt"
	"strconv"
	"time"
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
//	connector dispute id    "sim_dp_" + AttemptID (SandboxDisputeID)
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
//     4000008260003178), without it fails with authentication_failed. An
//     authorization carrying an authenticated ExternalThreeDS (Y or A) is
//     not challenged: it goes on as an approved challenge would.
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
	// Webhooks, when set, queues the webhooks the simulator sends for an
	// account whose sandbox object asks for them (simulator_webhooks.go).
	Webhooks WebhookOutbox
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

// beginOn is begin for a call on an attempt the simulator answered
// before: it also reads the state the attempt's metadata records (nil when
// it records none).
func beginOn(ctx context.Context, op string, a *Account, txnID string, md map[string]any) (string, *state, error) {
	id, err := begin(ctx, op, a, txnID)
	if err != nil {
		return "", nil, err
	}
	st, err := decodeState(md)
	return id, st, err
}

// beginSync is begin for a sync, which an outage leaves unanswered.
func beginSync(ctx context.Context, op string, a *Account, txnID string) (string, error) {
	id, err := begin(ctx, op, a, txnID)
	if err == nil && a.Sandbox.Outage {
		err = errSandboxOutage
	}
	return id, err
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
		if !req.Sandbox.Outage {
			// A connector that is down tells nothing; one that declined
			// or timed out tells of the failure it recorded.
			s.paymentChanged(ctx, req.Account, st, "")
		}
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
	s.paymentChanged(ctx, req.Account, st, "")
	return st.result(txnID), nil
}
