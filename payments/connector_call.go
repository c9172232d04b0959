package payments

import (
	"errors"

	"switchyard/payments/connector"
	"switchyard/payments/connectorcall"
)

// CodeNeverSent is the error_code of an attempt, capture or refund that
// recovery failed because the connector never received it.
const CodeNeverSent = "connector_transaction_not_found"

const neverSentMessage = "The connector never received this request (the process that was sending it stopped); nothing was charged."

var neverSentDecline = connector.Decline{Code: CodeNeverSent, Message: neverSentMessage}

// syncedAttempt is what recovery records for a sync of a pending attempt.
// young says the attempt is inside the recovery window: one the connector
// has no record of may still have its call on its way, so it waits.
func syncedAttempt(res *connector.PaymentResult, err error, young bool) (*connector.PaymentResult, bool) {
	if young && errors.Is(err, connector.ErrTransactionNotFound) {
		return nil, false
	}
	return connectorcall.SyncedAnswer(res, err, func(r *connector.PaymentResult) bool { return r.Status == connector.StatusPending },
		func() *connector.PaymentResult {
			d := neverSentDecline
			return &connector.PaymentResult{Status: connector.StatusFailure, Decline: &d}
		})
}

// syncedVoid is what recovery records for a sync of an attempt left
// void_initiated: any answer but voided leaves the authorization standing
// (decideVoidAnswer), and a void the connector never saw voided nothing.
func syncedVoid(res *connector.PaymentResult, err error) (*connector.PaymentResult, bool) {
	return connectorcall.SyncedAnswer(res, err, func(*connector.PaymentResult) bool { return false },
		func() *connector.PaymentResult { return &connector.PaymentResult{Status: connector.StatusFailure} })
}

// syncedCapture is what recovery records for a sync of a pending capture.
func syncedCapture(res *connector.CaptureResult, err error) (*connector.CaptureResult, bool) {
	return connectorcall.SyncedAnswer(res, err, func(r *connector.CaptureResult) bool { return r.Status == connector.StatusPending },
		func() *connector.CaptureResult {
			d := neverSentDecline
			return &connector.CaptureResult{Status: connector.StatusFailure, Decline: &d}
		})
}

// syncedRefund is what recovery records for a sync of a pending refund.
func syncedRefund(res *connector.RefundResult, err error) (*connector.RefundResult, bool) {
	return connectorcall.SyncedAnswer(res, err, func(r *connector.RefundResult) bool { return r.Status == connector.RefundPending },
		func() *connector.RefundResult {
			d := neverSentDecline
			return &connector.RefundResult{Status: connector.RefundFailed, Decline: &d}
		})
}
