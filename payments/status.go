package payments

import (
	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// intentStatusOf is Hyperswitch's mapping from the active attempt's status
// to the intent's status. Every one of the spec's 16 intent statuses is the
// image of some attempt status, except requires_confirmation and
// requires_payment_method before any attempt exists, and the capture-driven
// partial states that a capture's answer decides (decideCaptureAnswer).
func intentStatusOf(a paymentattempt.Status) paymentintent.Status {
	if s, ok := intentStatusOfAttempt[a]; ok {
		return s
	}
	// started, authentication_successful, authorizing, cod_initiated,
	// void_initiated, capture_initiated, pending
	return paymentintent.StatusProcessing
}

var intentStatusOfAttempt = map[paymentattempt.Status]paymentintent.Status{
	paymentattempt.StatusCharged:                     paymentintent.StatusSucceeded,
	paymentattempt.StatusAutoRefunded:                paymentintent.StatusSucceeded,
	paymentattempt.StatusConfirmationAwaited:         paymentintent.StatusRequiresConfirmation,
	paymentattempt.StatusPaymentMethodAwaited:        paymentintent.StatusRequiresPaymentMethod,
	paymentattempt.StatusAuthorized:                  paymentintent.StatusRequiresCapture,
	paymentattempt.StatusAuthenticationPending:       paymentintent.StatusRequiresCustomerAction,
	paymentattempt.StatusDeviceDataCollectionPending: paymentintent.StatusRequiresCustomerAction,
	paymentattempt.StatusUnresolved:                  paymentintent.StatusRequiresMerchantAction,
	paymentattempt.StatusIntegrityFailure:            paymentintent.StatusConflicted,
	paymentattempt.StatusPartialCharged:              paymentintent.StatusPartiallyCaptured,
	paymentattempt.StatusPartialChargedAndChargeable: paymentintent.StatusPartiallyCapturedAndCapturable,
	paymentattempt.StatusPartiallyAuthorized:         paymentintent.StatusPartiallyAuthorizedAndRequiresCapture,
	paymentattempt.StatusVoided:                      paymentintent.StatusCancelled,
	paymentattempt.StatusVoidedPostCharge:            paymentintent.StatusCancelledPostCapture,
	paymentattempt.StatusExpired:                     paymentintent.StatusExpired,
	paymentattempt.StatusAuthenticationFailed:        paymentintent.StatusFailed,
	paymentattempt.StatusAuthorizationFailed:         paymentintent.StatusFailed,
	paymentattempt.StatusVoidFailed:                  paymentintent.StatusFailed,
	paymentattempt.StatusRouterDeclined:              paymentintent.StatusFailed,
	paymentattempt.StatusCaptureFailed:               paymentintent.StatusFailed,
	paymentattempt.StatusFailure:                     paymentintent.StatusFailed,
}

// manualRetryAllowed is Hyperswitch's is_manual_retry_allowed: whether the
// customer may try the payment again (manual_retry_allowed, which the
// checkout SDK and shops branch on). Only a failed payment may, and only
// when its attempt failed at the connector (declined, or its
// authentication failed), not when the router refused it or a capture or
// void failed. A connector that gave no answer leaves the payment
// processing: not yet. Nil while the payment still waits for something
// (the customer, the merchant, a payment method, a confirm).
func manualRetryAllowed(intent paymentintent.Status, active *ent.PaymentAttempt) *bool {
	var allowed bool
	switch intent {
	case paymentintent.StatusRequiresCustomerAction, paymentintent.StatusRequiresMerchantAction,
		paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation:
		return nil
	case paymentintent.StatusFailed:
		if active == nil {
			return nil
		}
		switch active.Status {
		case paymentattempt.StatusAuthenticationFailed, paymentattempt.StatusAuthorizationFailed, paymentattempt.StatusFailure:
			allowed = true
		case paymentattempt.StatusRouterDeclined, paymentattempt.StatusCaptureFailed, paymentattempt.StatusVoidFailed:
		default: // no other attempt status fails a payment (intentStatusOf)
			return nil
		}
	}
	return &allowed
}

func statusIn(s paymentintent.Status, set ...paymentintent.Status) bool {
	for _, v := range set {
		if s == v {
			return true
		}
	}
	return false
}

// Which states each operation accepts (Hyperswitch's validate_request
// checks).
var (
	updatableStates = []paymentintent.Status{
		paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation,
	}
	confirmableStates = []paymentintent.Status{
		paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation,
	}
	capturableStates = []paymentintent.Status{
		paymentintent.StatusRequiresCapture, paymentintent.StatusPartiallyCapturedAndCapturable,
		paymentintent.StatusPartiallyAuthorizedAndRequiresCapture,
	}
	cancellableStates = []paymentintent.Status{
		paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation,
		paymentintent.StatusRequiresCapture, paymentintent.StatusRequiresCustomerAction,
		paymentintent.StatusPartiallyCapturedAndCapturable,
		paymentintent.StatusPartiallyAuthorizedAndRequiresCapture,
	}
	refundableStates = []paymentintent.Status{
		paymentintent.StatusSucceeded, paymentintent.StatusPartiallyCaptured,
		paymentintent.StatusPartiallyCapturedAndCapturable,
	}
)

// ErrUnexpectedState is IR_14 in Hyperswitch's words.
func ErrUnexpectedState(flow string, current paymentintent.Status, expected []paymentintent.Status) *errs.Error {
	names := make([]string, len(expected))
	for i, s := range expected {
		names[i] = string(s)
	}
	return errs.ErrUnexpectedState.Newf(
		"This Payment could not be %s because it has a status of %s. The expected state is %s",
		flow, current, validate.JoinOr(names))
}
