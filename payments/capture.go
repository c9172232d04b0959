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
	var r *captureReservation
	err := s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		r, err = s.reserveCapture(ctx, tx, paymentID, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.completeCapture(ctx, paymentID, r)
}

// completeCapture sends the capture r reserved to the connector and records
// its answer. A process that dies in between leaves the capture pending:
// recovery asks the connector (SyncCapture) what became of it.
func (s *Service) completeCapture(ctx context.Context, paymentID string, r *captureReservation) (*PaymentView, error) {
	conn, acct, err := s.connectorFor(r.pi, r.att, r.mca)
	if err != nil {
		return nil, err
	}
	res, callErr := conn.Capture(ctx, &connector.CaptureRequest{
		Account:                acct,
		ConnectorTransactionID: deref(r.att.ConnectorTransactionID),
		CaptureID:              r.cp.ID,
		AmountToCapture:        r.cp.Amount,
		Currency:               string(r.att.Currency),
		ConnectorMetadata:      r.att.ConnectorMetadata,
	})
	var view *PaymentView
	err = s.db.InTx(ctx, func(tx *ent.Tx) (err error) {
		view, err = s.settleCapture(ctx, tx, paymentID, r.cp.ID, res, callErr)
		return err
	})
	if err != nil {
		return nil, err
	}
	if callErr == nil && res.Status == connector.StatusFailure {
		e := errs.New(errs.KindInvalid, "CE_03", "Capture attempt failed while processing with connector")
		e.Cause = errs.ErrCaptureDeclined
		if res.Decline != nil {
			e.Message += ": " + res.Decline.Message
		}
		return nil, e
	}
	return s.viewOr(ctx, view, paymentID)
}

// captureReservation is what the capture's first transaction reserved: the
// pending capture of the payment's active attempt, and its connector account.
type captureReservation struct {
	pi  *ent.PaymentIntent
	att *ent.PaymentAttempt
	cp  *ent.Capture
	mca *ent.MerchantConnectorAccount
}

// reserveCapture checks the payment may be captured for the amount asked,
// records a pending capture and takes its amount off amount_capturable,
// inside tx (the payment's row locked).
func (s *Service) reserveCapture(ctx context.Context, tx *ent.Tx, paymentID string, in CaptureInput) (*captureReservation, error) {
	var (
		r   captureReservation
		err error
	)
	if r.pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return nil, err
	}
	if !statusIn(r.pi.Status, capturableStates...) && !(in.sequential && r.pi.Status == paymentintent.StatusProcessing) {
		return nil, ErrUnexpectedState("captured", r.pi.Status, capturableStates)
	}
	if r.pi.ActiveAttemptID == nil {
		return nil, ErrUnexpectedState("captured", r.pi.Status, capturableStates)
	}
	if r.att, err = tx.PaymentAttempt.Get(ctx, *r.pi.ActiveAttemptID); err != nil {
		return nil, errs.Internal(err)
	}
	if r.att.Status == paymentattempt.StatusVoidInitiated {
		return nil, errs.New(errs.KindInvalid, "IR_14", "This Payment could not be captured: it is being cancelled")
	}
	amount := r.pi.AmountCapturable
	if in.sequential && r.pi.AmountToCapture != nil && *r.pi.AmountToCapture < amount {
		amount = *r.pi.AmountToCapture // sequential_automatic takes what the payment asked for
	}
	if in.AmountToCapture != nil {
		amount = *in.AmountToCapture
	}
	if amount <= 0 || amount > r.pi.AmountCapturable {
		return nil, errs.InvalidValue("amount_to_capture", "must be between 1 and the amount capturable (%d)", r.pi.AmountCapturable)
	}
	n, err := tx.Capture.Query().Where(capture.PaymentIntentID(r.pi.ID)).Count(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if r.pi.CaptureMethod != paymentintent.CaptureMethodManualMultiple {
		live, err := tx.Capture.Query().Where(capture.PaymentIntentID(r.pi.ID), capture.StatusNEQ(capture.StatusFailed)).Count(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		if live > 0 {
			return nil, errs.New(errs.KindInvalid, "IR_14", "This Payment could not be captured again: capture_method %s allows one capture; use manual_multiple for several", r.pi.CaptureMethod)
		}
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

// settleCapture records the connector's answer to a pending capture, inside
// tx: an unknown outcome keeps the reservation for a sync, a failure gives
// it back, a success moves the payment to what it has captured. A capture
// no longer pending under the row lock was settled already (by recovery, or
// by the call this answer belongs to): the answer changes nothing twice.
func (s *Service) settleCapture(ctx context.Context, tx *ent.Tx, paymentID, captureID string,
	res *connector.CaptureResult, callErr error) (*PaymentView, error) {
	pi, err := s.lockPayment(ctx, tx, paymentID)
	if err != nil {
		return nil, err
	}
	cp, err := tx.Capture.Get(ctx, captureID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if cp.Status != capture.StatusPending {
		lateAnswer(ctx, "capture", cp.ID, callErr)
		return nil, nil
	}
	att, err := tx.PaymentAttempt.Get(ctx, cp.AuthorizedAttemptID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	capUpd := cp.Update()
	attUpd := att.Update()
	piUpd := pi.Update().AddVersion(1)
	switch {
	case callErr != nil:
		// Unknown outcome: keep the reservation and the pending capture.
		_, err := capUpd.SetErrorMessage("the connector did not answer; the capture will be synced").
			SetErrorReason(callErr.Error()).Save(ctx)
		return nil, txn.ErrorOrNil(err, "capture")
	case res.Status == connector.StatusFailure:
		capUpd.SetStatus(capture.StatusFailed)
		if d := res.Decline; d != nil {
			capUpd.SetErrorCode(d.Code).SetErrorMessage(d.Message).SetNillableErrorReason(validate.NonEmpty(d.Reason))
		}
		piUpd.AddAmountCapturable(cp.Amount)
		if pi.Status == paymentintent.StatusProcessing { // a sequential capture that failed
			piUpd.SetStatus(paymentintent.StatusRequiresCapture)
		}
	case res.Status == connector.StatusPending:
		capUpd.SetNillableConnectorCaptureID(validate.NonEmpty(res.ConnectorCaptureID))
		attUpd.SetStatus(paymentattempt.StatusCaptureInitiated)
		if pi.AmountCaptured > 0 {
			piUpd.SetStatus(paymentintent.StatusPartiallyCapturedAndProcessing)
		} else {
			piUpd.SetStatus(paymentintent.StatusProcessing)
		}
	default: // charged
		capUpd.SetStatus(capture.StatusCharged).SetNillableConnectorCaptureID(validate.NonEmpty(res.ConnectorCaptureID))
		captured := pi.AmountCaptured + cp.Amount
		piUpd.SetAmountCaptured(captured)
		var status paymentattempt.Status
		switch {
		case captured >= att.NetAmount:
			status = paymentattempt.StatusCharged
			piUpd.SetAmountCapturable(0)
		case pi.CaptureMethod == paymentintent.CaptureMethodManualMultiple && pi.AmountCapturable > 0:
			status = paymentattempt.StatusPartialChargedAndChargeable
		default:
			// One partial capture ends the authorization: the rest is released.
			status = paymentattempt.StatusPartialCharged
			piUpd.SetAmountCapturable(0)
		}
		attUpd.SetStatus(status)
		piUpd.SetStatus(intentStatusOf(status))
		if res.ConnectorMetadata != nil {
			attUpd.SetConnectorMetadata(res.ConnectorMetadata)
		}
		if res.DisputeAfterSuccess != nil && status == paymentattempt.StatusCharged {
			if err := s.openDispute(ctx, tx, pi, att, res.DisputeAfterSuccess, captured); err != nil {
				return nil, err
			}
		}
	}
	if _, err := capUpd.Save(ctx); err != nil {
		return nil, errs.Internal(err)
	}
	if att, err = attUpd.Save(ctx); err != nil {
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

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
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
		SetConnectorDisputeID("sim_dp_" + att.ID).
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
