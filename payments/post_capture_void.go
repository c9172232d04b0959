package payments

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// postCaptureVoidableStates are the states a void after capture takes.
// Hyperswitch also lists partially_captured_and_capturable; that state is
// a plain cancel's here (it voids what is left), so the two never meet in
// settleVoid, which tells them apart by the payment's status.
var postCaptureVoidableStates = []paymentintent.Status{
	paymentintent.StatusSucceeded, paymentintent.StatusPartiallyCaptured,
}

// CancelPostCapture voids a captured payment on the day of its capture
// (Hyperswitch's void after capture): the money captured never settles,
// the payment becomes cancelled_post_capture (event
// payment_cancelled_post_capture) and refunds are refused from then on. It
// is one connector call, recorded as a void (the attempt void_initiated)
// before it is sent and settled, or recovered after a crash, like a
// cancel's.
func (s *Service) CancelPostCapture(ctx context.Context, paymentID string, reason *string) (*PaymentView, error) {
	if err := validate.MaxLen("cancellation_reason", reason, maxCancellationReason); err != nil {
		return nil, err
	}
	var v voidCall
	call := s.voidCall(&v, paymentID, reason, true)
	call.Reserve = func(ctx context.Context, tx *ent.Tx) (bool, error) {
		return true, s.reservePostCaptureVoid(ctx, tx, paymentID, reason, &v)
	}
	if _, err := call.Run(ctx, s.db); err != nil {
		return nil, err
	}
	if !v.voided {
		return nil, errs.ErrVoidFailed.New()
	}
	return s.viewOr(ctx, v.view, paymentID)
}

// voidPostCapture sends a void after capture to conn, when it takes one; a
// connector that does not answers that it refused.
func voidPostCapture(ctx context.Context, conn connector.Connector, req *connector.VoidRequest) (*connector.PaymentResult, error) {
	a, ok := connector.SupportsAuthorizationChanges(conn)
	if !ok {
		return &connector.PaymentResult{Status: connector.StatusFailure, Decline: &connector.Decline{
			Code: "not_supported", Message: "The connector does not void payments after capture."}}, nil
	}
	return a.VoidPostCapture(ctx, req)
}

// decidePostCaptureVoid says why a void after capture of pi (its active
// attempt att) is refused, or nil. refunded: the payment has a refund that
// did not fail; sameDay: the attempt's capture was today (UTC), before the
// connector settles it.
func decidePostCaptureVoid(pi *ent.PaymentIntent, att *ent.PaymentAttempt, refunded, sameDay bool) error {
	if !statusIn(pi.Status, postCaptureVoidableStates...) || att == nil {
		return ErrUnexpectedState("cancelled post capture", pi.Status, postCaptureVoidableStates)
	}
	if att.Status == paymentattempt.StatusVoidInitiated {
		return errs.ErrUnexpectedState.Newf("This Payment could not be cancelled post capture: a cancel is in progress")
	}
	if refunded {
		return errs.PreconditionFailed("Post-capture void cannot be performed after a refund has been issued")
	}
	if !sameDay {
		return errs.ErrUnexpectedState.Newf("This Payment could not be cancelled post capture: its capture has settled (a capture can be voided on the day it was made, UTC)")
	}
	return nil
}

// reservePostCaptureVoid is a void after capture's reserve step, inside
// tx: it locks the payment, checks it may be voided
// (decidePostCaptureVoid) and marks the attempt void_initiated.
func (s *Service) reservePostCaptureVoid(ctx context.Context, tx *ent.Tx, paymentID string, reason *string, v *voidCall) (err error) {
	if v.pi, err = s.lockPayment(ctx, tx, paymentID); err != nil {
		return err
	}
	if !statusIn(v.pi.Status, postCaptureVoidableStates...) || v.pi.ActiveAttemptID == nil {
		return ErrUnexpectedState("cancelled post capture", v.pi.Status, postCaptureVoidableStates)
	}
	if v.att, err = tx.PaymentAttempt.Get(ctx, *v.pi.ActiveAttemptID); err != nil {
		return errs.Internal(err)
	}
	refunded, err := tx.Refund.Query().Where(refund.PaymentIntentID(v.pi.ID), refund.StatusNEQ(refund.StatusFailed)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	now := s.db.Now().UTC()
	sameDay := v.att.ModifiedAt.UTC().Format("2006-01-02") == now.Format("2006-01-02")
	if err := decidePostCaptureVoid(v.pi, v.att, refunded, sameDay); err != nil {
		return err
	}
	if v.mca, err = tx.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ID(deref(v.att.MerchantConnectorID))).Only(ctx); err != nil {
		return errs.Internal(err)
	}
	if _, err := v.att.Update().SetStatus(paymentattempt.StatusVoidInitiated).
		SetNillableCancellationReason(reason).Save(ctx); err != nil {
		return errs.Internal(err)
	}
	return nil
}

// capturedAttemptStatus is the attempt status of a payment in a
// post-capture-voidable state: where a void after capture that did not
// happen puts the attempt back.
var capturedAttemptStatus = map[paymentintent.Status]paymentattempt.Status{
	paymentintent.StatusSucceeded:         paymentattempt.StatusCharged,
	paymentintent.StatusPartiallyCaptured: paymentattempt.StatusPartialCharged,
}

// decidePostCaptureVoidAnswer is decideVoidAnswer for a void after
// capture: voided, the attempt is voided_post_charge and the payment
// cancelled_post_capture; not voided, both stay as they were.
func decidePostCaptureVoidAnswer(pi *ent.PaymentIntent, res *connector.PaymentResult, callErr error) voidDecision {
	if callErr != nil || res.Status != connector.StatusVoided {
		d := voidDecision{status: capturedAttemptStatus[pi.Status]}
		if callErr != nil {
			d.unanswered, d.reason = true, callErr.Error()
		} else {
			d.decline = res.Decline
		}
		return d
	}
	return voidDecision{voided: true, status: paymentattempt.StatusVoidedPostCharge,
		intent: paymentintent.StatusCancelledPostCapture}
}
