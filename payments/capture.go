package payments

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// CaptureInput captures all (AmountToCapture nil) or part of what is
// capturable.
type CaptureInput struct {
	AmountToCapture *int64
	// sequential is the capture that follows a sequential_automatic
	// authorization; it alone may capture a payment still processing.
	sequential bool
}

// CapturePayment captures an authorized payment. The amount is reserved
// (taken off amount_capturable) under the payment's row lock before the
// connector is called, so concurrent captures can never capture more than
// was authorized; a failed capture gives the reservation back.
func (s *Service) CapturePayment(ctx context.Context, paymentID string, in CaptureInput) (*PaymentView, error) {
	c := captureCall{paymentID: paymentID}
	call := s.captureCall(&c)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		var err error
		c.r, err = s.reserveCapture(ctx, tx, paymentID, in)
		return err == nil, err
	}
	return s.runCapture(ctx, &c, &call)
}

// completeCapture sends the capture r reserved (sequential_automatic's,
// in its authorization's transaction) and settles the answer. A process
// that dies in between leaves the capture pending: recovery asks the
// connector (SyncCapture) what became of it.
func (s *Service) completeCapture(ctx context.Context, paymentID string, r *captureReservation) (*PaymentView, error) {
	c := captureCall{paymentID: paymentID, r: r}
	call := s.captureCall(&c)
	return s.runCapture(ctx, &c, &call)
}

// captureCall is one capture's connector call: its reservation and answer.
type captureCall struct {
	paymentID string
	r         *captureReservation
	res       *connector.CaptureResult
	callErr   error
	view      *PaymentView
}

// captureCall is the connector call of c's reserved capture (its reserve
// step is CapturePayment's, or the authorization's).
func (s *Service) captureCall(c *captureCall) connectorcall.Call[*connector.CaptureResult] {
	return connectorcall.Call[*connector.CaptureResult]{
		Connect: func() (connector.Connector, connector.Account, error) {
			return s.connectorFor(c.r.pi, c.r.att, c.r.mca)
		},
		Call: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.CaptureResult, error) {
			return conn.Capture(ctx, &connector.CaptureRequest{
				Account:                acct,
				ConnectorTransactionID: deref(c.r.att.ConnectorTransactionID),
				CaptureID:              c.r.cp.ID,
				AmountToCapture:        c.r.cp.Amount,
				Currency:               string(c.r.att.Currency),
				ConnectorMetadata:      c.r.att.ConnectorMetadata,
			})
		},
		Sync: func(ctx context.Context, conn connector.Connector, acct connector.Account) (*connector.CaptureResult, error) {
			return conn.SyncCapture(ctx, &connector.CaptureSyncRequest{Account: acct,
				ConnectorTransactionID: deref(c.r.att.ConnectorTransactionID), CaptureID: c.r.cp.ID})
		},
		Synced: syncedCapture,
		Settle: func(ctx context.Context, tx *ent.Tx, res *connector.CaptureResult, callErr error) (err error) {
			c.res, c.callErr = res, callErr
			c.view, err = s.settleCapture(ctx, tx, c.paymentID, c.r.cp.ID, res, callErr)
			return err
		},
	}
}

// runCapture runs call and answers: a capture the connector declined is
// CE_03 (its failure recorded on the payment), else the payment's view.
func (s *Service) runCapture(ctx context.Context, c *captureCall, call *connectorcall.Call[*connector.CaptureResult]) (*PaymentView, error) {
	if _, err := call.Run(ctx, s.db); err != nil {
		return nil, err
	}
	if c.callErr == nil && c.res.Status == connector.StatusFailure {
		e := errs.ErrCaptureDeclined.New()
		if c.res.Decline != nil {
			e.Message += ": " + c.res.Decline.Message
		}
		return nil, e
	}
	return s.viewOr(ctx, c.view, c.paymentID)
}

// captureReservation is what the capture's first transaction reserved: the
// pending capture of the payment's active attempt, and its connector account.
type captureReservation struct {
	callTarget
	cp *ent.Capture
}

// capturableState refuses a capture of pi in a state that takes none
// (sequential: the capture that follows a sequential_automatic
// authorization, which alone may capture a payment still processing).
func capturableState(pi *ent.PaymentIntent, sequential bool) error {
	if !statusIn(pi.Status, capturableStates...) && !(sequential && pi.Status == paymentintent.StatusProcessing) ||
		pi.ActiveAttemptID == nil {
		return ErrUnexpectedState("captured", pi.Status, capturableStates)
	}
	return nil
}

// decideCapture is the amount a capture of pi (its active attempt att)
// takes, or why it is refused. live is how many of the payment's captures
// have not failed.
func decideCapture(pi *ent.PaymentIntent, att *ent.PaymentAttempt, in CaptureInput, live int) (int64, error) {
	if err := capturableState(pi, in.sequential); err != nil {
		return 0, err
	}
	if att.Status == paymentattempt.StatusVoidInitiated {
		return 0, errs.ErrUnexpectedState.Newf("This Payment could not be captured: it is being cancelled")
	}
	amount := pi.AmountCapturable
	if in.sequential && pi.AmountToCapture != nil && *pi.AmountToCapture < amount {
		amount = *pi.AmountToCapture // sequential_automatic takes what the payment asked for
	}
	if in.AmountToCapture != nil {
		amount = *in.AmountToCapture
	}
	if amount <= 0 || amount > pi.AmountCapturable {
		return 0, errs.InvalidValue("amount_to_capture", "must be between 1 and the amount capturable (%d)", pi.AmountCapturable)
	}
	if pi.CaptureMethod != paymentintent.CaptureMethodManualMultiple && live > 0 {
		return 0, errs.ErrUnexpectedState.Newf("This Payment could not be captured again: capture_method %s allows one capture; use manual_multiple for several", pi.CaptureMethod)
	}
	return amount, nil
}

// reserveCapture is a capture's reserve step, inside tx (the payment's row
// locked): it checks the payment may be captured for the amount asked
// (decideCapture), records a pending capture and takes its amount off
// amount_capturable.
func (s *Service) reserveCapture(ctx context.Context, tx *ent.Tx, paymentID string, in CaptureInput) (*captureReservation, error) {
	var (
		r   captureReservation
		err error
	)
	if r.pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return nil, err
	}
	if err := capturableState(r.pi, in.sequential); err != nil {
		return nil, err // refused before reading what the refusal does not need
	}
	if r.att, err = tx.PaymentAttempt.Get(ctx, *r.pi.ActiveAttemptID); err != nil {
		return nil, errs.Internal(err)
	}
	n, err := tx.Capture.Query().Where(capture.PaymentIntentID(r.pi.ID)).Count(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	live := 0
	if r.pi.CaptureMethod != paymentintent.CaptureMethodManualMultiple {
		if live, err = tx.Capture.Query().Where(capture.PaymentIntentID(r.pi.ID), capture.StatusNEQ(capture.StatusFailed)).Count(ctx); err != nil {
			return nil, errs.Internal(err)
		}
	}
	amount, err := decideCapture(r.pi, r.att, in, live)
	if err != nil {
		return nil, err
	}
	r.cp, err = tx.Capture.Create().
		SetID(ids.New(ids.Capture)).
		SetPaymentIntentID(r.pi.ID).
		SetAuthorizedAttemptID(r.att.ID).
		SetStatus(capture.StatusPending).
		SetAmount(amount).
		SetCurrency(r.att.Currency).
		SetNillableConnector(r.att.Connector).
		SetCaptureSequence(n + 1).
		Save(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if r.att.MerchantConnectorID == nil {
		return nil, errs.Internal(nil)
	}
	if r.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(*r.att.MerchantConnectorID)).Only(ctx); err != nil {
		return nil, errs.Internal(err)
	}
	if _, err = r.pi.Update().AddAmountCapturable(-amount).AddVersion(1).Save(ctx); err != nil {
		return nil, txn.Error(err, "payment")
	}
	return &r, nil
}

const noCaptureAnswerMessage = "the connector did not answer; the capture will be synced"

// captureAnswerDecision is what a connector's answer to a pending capture
// changes. An empty status leaves that row's status as it is.
type captureAnswerDecision struct {
	// unanswered: no answer came; the reservation and the pending capture
	// stay, for a sync.
	unanswered bool
	capture    capture.Status
	attempt    paymentattempt.Status
	intent     paymentintent.Status
	// captured is the payment's new amount_captured (when setCaptured).
	setCaptured bool
	captured    int64
	// giveBack returns the reservation to amount_capturable; release ends
	// the authorization (amount_capturable 0).
	giveBack int64
	release  bool
	// dispute: a network opened one on the now fully captured payment.
	dispute bool
}

// decideCaptureAnswer is what res (or callErr, no answer) makes of the
// pending capture cp of pi's authorized attempt att: an unknown outcome
// keeps the reservation, a failure gives it back, a success moves the
// payment to what it has captured.
func decideCaptureAnswer(pi *ent.PaymentIntent, att *ent.PaymentAttempt, cp *ent.Capture, res *connector.CaptureResult, callErr error) captureAnswerDecision {
	var d captureAnswerDecision
	switch {
	case callErr != nil:
		d.unanswered = true
	case res.Status == connector.StatusFailure:
		d.capture, d.giveBack = capture.StatusFailed, cp.Amount
		if pi.Status == paymentintent.StatusProcessing { // a sequential capture that failed
			d.intent = paymentintent.StatusRequiresCapture
		}
	case res.Status == connector.StatusPending:
		d.attempt, d.intent = paymentattempt.StatusCaptureInitiated, paymentintent.StatusProcessing
		if pi.AmountCaptured > 0 {
			d.intent = paymentintent.StatusPartiallyCapturedAndProcessing
		}
	default: // charged
		d.capture, d.setCaptured, d.captured = capture.StatusCharged, true, pi.AmountCaptured+cp.Amount
		switch {
		case d.captured >= att.NetAmount:
			d.attempt, d.release = paymentattempt.StatusCharged, true
		case pi.CaptureMethod == paymentintent.CaptureMethodManualMultiple && pi.AmountCapturable > 0:
			d.attempt = paymentattempt.StatusPartialChargedAndChargeable
		default:
			// One partial capture ends the authorization: the rest is released.
			d.attempt, d.release = paymentattempt.StatusPartialCharged, true
		}
		d.intent = intentStatusOf(d.attempt)
		d.dispute = res.DisputeAfterSuccess != nil && d.attempt == paymentattempt.StatusCharged
	}
	return d
}

// settleCapture is a capture's settle step, inside tx: it locks the
// payment and applies what the answer decides (decideCaptureAnswer). A
// capture no longer pending under the row lock was settled already (by
// recovery, or by the call this answer belongs to): the answer changes
// nothing twice.
func (s *Service) settleCapture(ctx context.Context, tx *ent.Tx, paymentID, captureID string,
	res *connector.CaptureResult, callErr error) (*PaymentView, error) {
	pi, cp, late, err := lockPending(ctx, s, tx, paymentID, "capture", captureID, callErr, tx.Capture.Get,
		func(cp *ent.Capture) bool { return cp.Status == capture.StatusPending })
	if late || err != nil {
		return nil, err
	}
	att, err := tx.PaymentAttempt.Get(ctx, cp.AuthorizedAttemptID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	d := decideCaptureAnswer(pi, att, cp, res, callErr)
	if d.unanswered {
		_, err := cp.Update().SetErrorMessage(noCaptureAnswerMessage).SetErrorReason(callErr.Error()).Save(ctx)
		return nil, txn.ErrorOrNil(err, "capture")
	}
	return s.applyCaptureAnswer(ctx, tx, pi, att, cp, res, &d)
}

// applyCaptureAnswer writes d: the capture, the attempt, the payment (and
// the attempt's amount_capturable after it), a dispute, and the event.
func (s *Service) applyCaptureAnswer(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt, cp *ent.Capture,
	res *connector.CaptureResult, d *captureAnswerDecision) (*PaymentView, error) {
	capUpd := cp.Update()
	if d.capture != "" {
		capUpd.SetStatus(d.capture)
	}
	if d.capture == capture.StatusFailed {
		if dec := res.Decline; dec != nil {
			capUpd.SetErrorCode(dec.Code).SetErrorMessage(dec.Message).SetNillableErrorReason(validate.NonEmpty(dec.Reason))
		}
	} else {
		capUpd.SetNillableConnectorCaptureID(validate.NonEmpty(res.ConnectorCaptureID))
	}
	attUpd := att.Update()
	if d.attempt != "" {
		attUpd.SetStatus(d.attempt)
	}
	if res.ConnectorMetadata != nil && d.capture == capture.StatusCharged {
		attUpd.SetConnectorMetadata(res.ConnectorMetadata)
	}
	piUpd := pi.Update().AddVersion(1)
	if d.intent != "" {
		piUpd.SetStatus(d.intent)
	}
	if d.setCaptured {
		piUpd.SetAmountCaptured(d.captured)
	}
	if d.giveBack != 0 {
		piUpd.AddAmountCapturable(d.giveBack)
	}
	if d.release {
		piUpd.SetAmountCapturable(0)
	}
	if d.dispute {
		if err := s.openDispute(ctx, tx, pi, att, res.DisputeAfterSuccess, d.captured); err != nil {
			return nil, err
		}
	}
	if _, err := capUpd.Save(ctx); err != nil {
		return nil, errs.Internal(err)
	}
	att, err := attUpd.Save(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if pi, err = piUpd.Save(ctx); err != nil {
		return nil, errs.Internal(err)
	}
	if _, err = att.Update().SetAmountCapturable(pi.AmountCapturable).Save(ctx); err != nil {
		return nil, txn.Error(err, "payment attempt")
	}
	return s.emitPaymentEvent(ctx, tx, pi)
}

// deref is *v, or T's zero value when v is nil.
func deref[T any](v *T) T {
	var zero T
	if v == nil {
		return zero
	}
	return *v
}

// openDispute records the dispute a network opened on a successful payment,
// and its dispute_opened event in the same transaction (the outbox).
// captured is what the payment has received once the change that opens the
// dispute is written: the dispute is for that amount.
func (s *Service) openDispute(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, att *ent.PaymentAttempt, spec *connector.DisputeSpec, captured int64) error {
	now := s.db.Now()
	d, err := tx.Dispute.Create().
		SetCreatedAt(now.Truncate(time.Microsecond)). // received_time: the service's clock, as a payment's created_at
		SetPaymentIntentID(pi.ID).
		SetAttemptID(att.ID).
		SetProfileID(pi.ProfileID).
		SetNillableMerchantConnectorID(att.MerchantConnectorID).
		SetAmount(captured).
		SetCurrency(schematype.Currency(att.Currency)).
		SetConnector(deref(att.Connector)).
		SetConnectorStatus("needs_response").
		SetConnectorDisputeID(connector.SandboxDisputeID(att.ID)).
		SetConnectorReason(spec.Reason).
		SetConnectorReasonCode(spec.ReasonCode).
		SetChallengeRequiredBy(now.AddDate(0, 0, 7)).
		SetConnectorCreatedAt(now).
		SetConnectorUpdatedAt(now).
		Save(ctx)
	if err != nil {
		return txn.Error(err, "dispute")
	}
	// The callers write the payment's new amount_captured after this.
	return s.emitDisputeEvent(ctx, tx, d, pi, captured)
}
