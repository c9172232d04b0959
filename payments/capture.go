package payments

import (
	"context"

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
	var (
		pi   *ent.PaymentIntent
		att  *ent.PaymentAttempt
		cp   *ent.Capture
		mca  *ent.MerchantConnectorAccount
		view *PaymentView
	)
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		if pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
			return err
		}
		if !statusIn(pi.Status, capturableStates...) && !(in.sequential && pi.Status == paymentintent.StatusProcessing) {
			return ErrUnexpectedState("captured", pi.Status, capturableStates)
		}
		if pi.ActiveAttemptID == nil {
			return ErrUnexpectedState("captured", pi.Status, capturableStates)
		}
		if att, err = tx.PaymentAttempt.Get(ctx, *pi.ActiveAttemptID); err != nil {
			return errs.Internal(err)
		}
		if att.Status == paymentattempt.StatusVoidInitiated {
			return errs.New(errs.KindInvalid, "IR_14", "This Payment could not be captured: it is being cancelled")
		}
		amount := pi.AmountCapturable
		if in.sequential && pi.AmountToCapture != nil && *pi.AmountToCapture < amount {
			amount = *pi.AmountToCapture // sequential_automatic takes what the payment asked for
		}
		if in.AmountToCapture != nil {
			amount = *in.AmountToCapture
		}
		if amount <= 0 || amount > pi.AmountCapturable {
			e := errs.InvalidValue("amount_to_capture", "must be between 1 and the amount capturable (%d)", pi.AmountCapturable)
			return e
		}
		n, err := tx.Capture.Query().Where(capture.PaymentIntentID(pi.ID)).Count(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if pi.CaptureMethod != paymentintent.CaptureMethodManualMultiple {
			live, err := tx.Capture.Query().Where(capture.PaymentIntentID(pi.ID), capture.StatusNEQ(capture.StatusFailed)).Count(ctx)
			if err != nil {
				return errs.Internal(err)
			}
			if live > 0 {
				return errs.New(errs.KindInvalid, "IR_14", "This Payment could not be captured again: capture_method %s allows one capture; use manual_multiple for several", pi.CaptureMethod)
			}
		}
		cp, err = tx.Capture.Create().
			SetID(ids.New(ids.Capture)).
			SetPaymentIntentID(pi.ID).
			SetAuthorizedAttemptID(att.ID).
			SetStatus(capture.StatusPending).
			SetAmount(amount).
			SetCurrency(att.Currency).
			SetNillableConnector(att.Connector).
			SetCaptureSequence(n + 1).
			Save(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if att.MerchantConnectorID == nil {
			return errs.Internal(nil)
		}
		if mca, err = tx.MerchantConnectorAccount.Query().
			Where(merchantconnectoraccount.ID(*att.MerchantConnectorID)).Only(ctx); err != nil {
			return errs.Internal(err)
		}
		_, err = pi.Update().AddAmountCapturable(-amount).AddVersion(1).Save(ctx)
		return txn.ErrorOrNil(err, "payment")
	})
	if err != nil {
		return nil, err
	}

	conn, acct, err := s.connectorFor(pi, att, mca)
	if err != nil {
		return nil, err
	}
	res, callErr := conn.Capture(ctx, &connector.CaptureRequest{
		Account:                acct,
		ConnectorTransactionID: deref(att.ConnectorTransactionID),
		CaptureID:              cp.ID,
		AmountToCapture:        cp.Amount,
		Currency:               string(att.Currency),
		ConnectorMetadata:      att.ConnectorMetadata,
	})
	failed := false
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		pi, err := s.lockPayment(ctx, tx, paymentID)
		if err != nil {
			return err
		}
		att, err := tx.PaymentAttempt.Get(ctx, att.ID)
		if err != nil {
			return errs.Internal(err)
		}
		// cp was read in the first transaction, which has ended: update it
		// through this one.
		capUpd := tx.Capture.UpdateOneID(cp.ID)
		attUpd := att.Update()
		piUpd := pi.Update().AddVersion(1)
		switch {
		case callErr != nil:
			// Unknown outcome: keep the reservation and the pending capture.
			_, err := capUpd.SetErrorMessage("the connector did not answer; the capture will be synced").
				SetErrorReason(callErr.Error()).Save(ctx)
			return txn.ErrorOrNil(err, "capture")
		case res.Status == connector.StatusFailure:
			failed = true
			capUpd.SetStatus(capture.StatusFailed)
			if d := res.Decline; d != nil {
				capUpd.SetErrorCode(d.Code).SetErrorMessage(d.Message).SetNillableErrorReason(nonEmpty(d.Reason))
			}
			piUpd.AddAmountCapturable(cp.Amount)
			if pi.Status == paymentintent.StatusProcessing { // a sequential capture that failed
				piUpd.SetStatus(paymentintent.StatusRequiresCapture)
			}
		case res.Status == connector.StatusPending:
			capUpd.SetNillableConnectorCaptureID(nonEmpty(res.ConnectorCaptureID))
			attUpd.SetStatus(paymentattempt.StatusCaptureInitiated)
			if pi.AmountCaptured > 0 {
				piUpd.SetStatus(paymentintent.StatusPartiallyCapturedAndProcessing)
			} else {
				piUpd.SetStatus(paymentintent.StatusProcessing)
			}
		default: // charged
			capUpd.SetStatus(capture.StatusCharged).SetNillableConnectorCaptureID(nonEmpty(res.ConnectorCaptureID))
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
					return err
				}
			}
		}
		if _, err := capUpd.Save(ctx); err != nil {
			return errs.Internal(err)
		}
		if att, err = attUpd.Save(ctx); err != nil {
			return errs.Internal(err)
		}
		if pi, err = piUpd.Save(ctx); err != nil {
			return errs.Internal(err)
		}
		if _, err = att.Update().SetAmountCapturable(pi.AmountCapturable).Save(ctx); err != nil {
			return txn.Error(err, "payment attempt")
		}
		view, err = s.emitPaymentEvent(ctx, tx, pi)
		return err
	})
	if err != nil {
		return nil, err
	}
	if failed {
		e := errs.New(errs.KindInvalid, "CE_03", "Capture attempt failed while processing with connector")
		if res.Decline != nil {
			e.Message += ": " + res.Decline.Message
		}
		return nil, e
	}
	return s.viewOr(ctx, view, paymentID)
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
