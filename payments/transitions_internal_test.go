package payments

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"switchyard/ent"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// The payment's rules that decide without a database, each with its table:
// what a connector's answer makes of the attempt and of the payment, which
// answers may still settle a payment, which states each operation accepts,
// and when a customer may try again.

var attemptStatuses = []paymentattempt.Status{
	paymentattempt.StatusStarted, paymentattempt.StatusAuthenticationFailed, paymentattempt.StatusRouterDeclined,
	paymentattempt.StatusAuthenticationPending, paymentattempt.StatusAuthenticationSuccessful,
	paymentattempt.StatusAuthorized, paymentattempt.StatusAuthorizationFailed, paymentattempt.StatusCharged,
	paymentattempt.StatusAuthorizing, paymentattempt.StatusCodInitiated, paymentattempt.StatusVoided,
	paymentattempt.StatusVoidedPostCharge, paymentattempt.StatusVoidInitiated, paymentattempt.StatusCaptureInitiated,
	paymentattempt.StatusCaptureFailed, paymentattempt.StatusVoidFailed, paymentattempt.StatusAutoRefunded,
	paymentattempt.StatusPartialCharged, paymentattempt.StatusPartiallyAuthorized,
	paymentattempt.StatusPartialChargedAndChargeable, paymentattempt.StatusUnresolved, paymentattempt.StatusPending,
	paymentattempt.StatusFailure, paymentattempt.StatusPaymentMethodAwaited, paymentattempt.StatusConfirmationAwaited,
	paymentattempt.StatusDeviceDataCollectionPending, paymentattempt.StatusIntegrityFailure, paymentattempt.StatusExpired,
}

var intentStatuses = []paymentintent.Status{
	paymentintent.StatusSucceeded, paymentintent.StatusFailed, paymentintent.StatusCancelled,
	paymentintent.StatusCancelledPostCapture, paymentintent.StatusProcessing,
	paymentintent.StatusRequiresCustomerAction, paymentintent.StatusRequiresMerchantAction,
	paymentintent.StatusRequiresPaymentMethod, paymentintent.StatusRequiresConfirmation,
	paymentintent.StatusRequiresCapture, paymentintent.StatusPartiallyCaptured,
	paymentintent.StatusPartiallyCapturedAndCapturable, paymentintent.StatusPartiallyAuthorizedAndRequiresCapture,
	paymentintent.StatusPartiallyCapturedAndProcessing, paymentintent.StatusConflicted, paymentintent.StatusExpired,
}

// TestStatusListsAreWhole: the tables below cover every status the schema
// has, so a new one cannot slip past them.
func TestStatusListsAreWhole(t *testing.T) {
	for _, s := range attemptStatuses {
		if err := paymentattempt.StatusValidator(s); err != nil {
			t.Errorf("attempt status %s: %v", s, err)
		}
	}
	for _, s := range intentStatuses {
		if err := paymentintent.StatusValidator(s); err != nil {
			t.Errorf("intent status %s: %v", s, err)
		}
	}
	if len(attemptStatuses) != 28 || len(intentStatuses) != 16 {
		t.Fatalf("%d attempt and %d intent statuses listed; the schema has 28 and 16", len(attemptStatuses), len(intentStatuses))
	}
}

// TestIntentStatusOf is Hyperswitch's attempt → intent mapping, row by row.
func TestIntentStatusOf(t *testing.T) {
	want := map[paymentattempt.Status]paymentintent.Status{
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
		paymentattempt.StatusStarted:                     paymentintent.StatusProcessing,
		paymentattempt.StatusAuthenticationSuccessful:    paymentintent.StatusProcessing,
		paymentattempt.StatusAuthorizing:                 paymentintent.StatusProcessing,
		paymentattempt.StatusCodInitiated:                paymentintent.StatusProcessing,
		paymentattempt.StatusVoidInitiated:               paymentintent.StatusProcessing,
		paymentattempt.StatusCaptureInitiated:            paymentintent.StatusProcessing,
		paymentattempt.StatusPending:                     paymentintent.StatusProcessing,
	}
	for _, a := range attemptStatuses {
		w, ok := want[a]
		if !ok {
			t.Errorf("no row for attempt status %s", a)
			continue
		}
		if got := intentStatusOf(a); got != w {
			t.Errorf("intentStatusOf(%s) = %s, want %s", a, got, w)
		}
	}
}

// TestOutcomeOf: what a connector's answer makes of the attempt, and what
// an automatic capture takes (all of the attempt, or less).
func TestOutcomeOf(t *testing.T) {
	att := &ent.PaymentAttempt{NetAmount: 1000}
	for _, tc := range []struct {
		name         string
		res          connector.PaymentResult
		wantStatus   paymentattempt.Status
		wantCaptured int64
	}{
		{"charged whole", connector.PaymentResult{Status: connector.StatusCharged, AmountCaptured: 1000}, paymentattempt.StatusCharged, 1000},
		{"charged, amount not said", connector.PaymentResult{Status: connector.StatusCharged}, paymentattempt.StatusCharged, 1000},
		{"charged part (amount_to_capture)", connector.PaymentResult{Status: connector.StatusCharged, AmountCaptured: 400}, paymentattempt.StatusPartialCharged, 400},
		{"charged one unit short", connector.PaymentResult{Status: connector.StatusCharged, AmountCaptured: 999}, paymentattempt.StatusPartialCharged, 999},
		{"charged more than asked", connector.PaymentResult{Status: connector.StatusCharged, AmountCaptured: 1001}, paymentattempt.StatusCharged, 1000},
		{"authorized", connector.PaymentResult{Status: connector.StatusAuthorized}, paymentattempt.StatusAuthorized, 1000},
		{"3-D Secure pending", connector.PaymentResult{Status: connector.StatusAuthenticationPending}, paymentattempt.StatusAuthenticationPending, 1000},
		{"voided", connector.PaymentResult{Status: connector.StatusVoided}, paymentattempt.StatusVoided, 1000},
		{"declined", connector.PaymentResult{Status: connector.StatusFailure, Decline: &connector.Decline{Code: "card_declined"}}, paymentattempt.StatusFailure, 1000},
		{"authentication failed", connector.PaymentResult{Status: connector.StatusFailure, Decline: &connector.Decline{Code: "authentication_failed"}}, paymentattempt.StatusAuthenticationFailed, 1000},
		{"pending", connector.PaymentResult{Status: connector.StatusPending}, paymentattempt.StatusPending, 1000},
		{"an answer it does not know", connector.PaymentResult{Status: "mystery"}, paymentattempt.StatusPending, 1000},
	} {
		status, captured := outcomeOf(&tc.res, att)
		if status != tc.wantStatus || captured != tc.wantCaptured {
			t.Errorf("%s: (%s, %d), want (%s, %d)", tc.name, status, captured, tc.wantStatus, tc.wantCaptured)
		}
	}
}

// TestSettleable: only a payment waiting for an answer, whose attempt is
// still pending, takes one; a second answer (a double click on the 3-D
// Secure page, a late sync) changes nothing.
func TestSettleable(t *testing.T) {
	waiting := []paymentintent.Status{paymentintent.StatusProcessing, paymentintent.StatusRequiresCustomerAction}
	open := []paymentattempt.Status{paymentattempt.StatusPending, paymentattempt.StatusAuthenticationPending}
	for _, is := range intentStatuses {
		for _, as := range attemptStatuses {
			want := slices.Contains(waiting, is) && slices.Contains(open, as)
			if got := settleable(&ent.PaymentIntent{Status: is}, &ent.PaymentAttempt{Status: as}); got != want {
				t.Errorf("settleable(%s, %s) = %v, want %v", is, as, got, want)
			}
		}
	}
}

// TestOperationStates: which payment states each operation accepts
// (Hyperswitch's validate_request checks), for every state.
func TestOperationStates(t *testing.T) {
	type ops struct{ update, confirm, capture, cancel, refund bool }
	want := map[paymentintent.Status]ops{
		paymentintent.StatusRequiresPaymentMethod:                 {update: true, confirm: true, cancel: true},
		paymentintent.StatusRequiresConfirmation:                  {update: true, confirm: true, cancel: true},
		paymentintent.StatusRequiresCapture:                       {capture: true, cancel: true},
		paymentintent.StatusPartiallyCapturedAndCapturable:        {capture: true, cancel: true, refund: true},
		paymentintent.StatusPartiallyAuthorizedAndRequiresCapture: {capture: true, cancel: true},
		paymentintent.StatusRequiresCustomerAction:                {cancel: true},
		paymentintent.StatusSucceeded:                             {refund: true},
		paymentintent.StatusPartiallyCaptured:                     {refund: true},
	}
	for _, s := range intentStatuses {
		w := want[s] // absent: the state accepts none of them
		got := ops{
			update:  statusIn(s, updatableStates...),
			confirm: statusIn(s, confirmableStates...),
			capture: statusIn(s, capturableStates...),
			cancel:  statusIn(s, cancellableStates...),
			refund:  statusIn(s, refundableStates...),
		}
		if got != w {
			t.Errorf("%s accepts %+v, want %+v", s, got, w)
		}
	}
}

// TestUnexpectedStateNamesWhatWasExpected: the refusal is IR_14, names the
// flow, the state and every state that would do.
func TestUnexpectedStateNamesWhatWasExpected(t *testing.T) {
	err := ErrUnexpectedState("captured", paymentintent.StatusSucceeded, capturableStates)
	if !errors.Is(err, errs.ErrUnexpectedState) || err.Kind != errs.KindInvalid {
		t.Fatalf("%s %v", err.Code, err.Kind)
	}
	for _, part := range []string{"could not be captured", "status of succeeded",
		"requires_capture, partially_captured_and_capturable or partially_authorized_and_requires_capture"} {
		if !strings.Contains(err.Message, part) {
			t.Errorf("message %q does not say %q", err.Message, part)
		}
	}
}

// TestManualRetryAllowed: only a payment that failed at the connector may
// be tried again by its customer; nil while it still waits for something.
func TestManualRetryAllowed(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		intent  paymentintent.Status
		attempt *paymentattempt.Status
		want    *bool
	}{
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusFailure), &yes},
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusAuthorizationFailed), &yes},
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusAuthenticationFailed), &yes},
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusRouterDeclined), &no},
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusCaptureFailed), &no},
		{paymentintent.StatusFailed, ptr(paymentattempt.StatusVoidFailed), &no},
		{paymentintent.StatusFailed, nil, nil},
		{paymentintent.StatusRequiresCustomerAction, ptr(paymentattempt.StatusAuthenticationPending), nil},
		{paymentintent.StatusRequiresPaymentMethod, nil, nil},
		{paymentintent.StatusRequiresConfirmation, nil, nil},
		{paymentintent.StatusRequiresMerchantAction, ptr(paymentattempt.StatusUnresolved), nil},
		{paymentintent.StatusSucceeded, ptr(paymentattempt.StatusCharged), &no},
		{paymentintent.StatusProcessing, ptr(paymentattempt.StatusPending), &no},
		{paymentintent.StatusCancelled, ptr(paymentattempt.StatusVoided), &no},
	} {
		var att *ent.PaymentAttempt
		if tc.attempt != nil {
			att = &ent.PaymentAttempt{Status: *tc.attempt}
		}
		got := manualRetryAllowed(tc.intent, att)
		if (got == nil) != (tc.want == nil) || got != nil && *got != *tc.want {
			t.Errorf("manualRetryAllowed(%s, %v) = %v, want %v", tc.intent, tc.attempt, show(got), show(tc.want))
		}
	}
}

func show(b *bool) string {
	if b == nil {
		return "nil"
	}
	if *b {
		return "true"
	}
	return "false"
}
