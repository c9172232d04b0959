package payments

import (
	"errors"
	"fmt"
	"testing"

	"switchyard/ent"
	"switchyard/ent/capture"
	"switchyard/ent/gsmrule"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/ent/schema/schematype"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
	"switchyard/payments/gsm"
)

// The decisions each connector call settles with, and the refusals of the
// operations that reserve one, table by table and without a database
// (transitions_internal_test.go has the status mappings and the states
// each operation accepts).

// refusal is how a test names a domain error: its code and the field it
// blames ("" for none); "" for no error.
func refusal(t *testing.T, err error) string {
	t.Helper()
	if err == nil {
		return ""
	}
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is not a domain error", err)
	}
	if e.Failure() == nil {
		t.Fatalf("%v names no failure of the catalogue", err)
	}
	if e.Field != "" {
		return e.Failure().Error() + " " + e.Field
	}
	return e.Failure().Error()
}

func redirectTo(id string) string { return "https://pay.test/sandbox/" + id }

// TestDecideAuthorization: what each connector answer makes of a pending
// attempt of 1000 and its payment, for each capture method it depends on.
func TestDecideAuthorization(t *testing.T) {
	decline := &connector.Decline{Code: "card_declined", Message: "Your card was declined."}
	dispute := &connector.DisputeSpec{Reason: "fraudulent", ReasonCode: "10.4"}
	type want struct {
		attempt           paymentattempt.Status
		intent            paymentintent.Status
		captured          int64 // the payment's amount_captured, -1 when unchanged
		capturable        int64 // the payment's amount_capturable
		attemptCapturable int64
		retry, charged    bool
		reserveCapture    bool
		dispute           bool
		nextAction        string
	}
	for _, tc := range []struct {
		name      string
		method    paymentintent.CaptureMethod
		res       connector.PaymentResult
		retryable bool
		want      want
	}{
		{"automatic, charged", paymentintent.CaptureMethodAutomatic, connector.PaymentResult{Status: connector.StatusCharged},
			false, want{paymentattempt.StatusCharged, paymentintent.StatusSucceeded, 1000, 0, 0, false, true, false, false, ""}},
		{"automatic, part charged (amount_to_capture)", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusCharged, AmountCaptured: 400},
			false, want{paymentattempt.StatusPartialCharged, paymentintent.StatusPartiallyCaptured, 400, 0, 0, false, true, false, false, ""}},
		{"charged, then disputed", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusCharged, DisputeAfterSuccess: dispute},
			false, want{paymentattempt.StatusCharged, paymentintent.StatusSucceeded, 1000, 0, 0, false, true, false, true, ""}},
		{"manual, authorized", paymentintent.CaptureMethodManual, connector.PaymentResult{Status: connector.StatusAuthorized},
			false, want{paymentattempt.StatusAuthorized, paymentintent.StatusRequiresCapture, -1, 1000, 1000, false, false, false, false, ""}},
		{"sequential_automatic, authorized: its capture is reserved", paymentintent.CaptureMethodSequentialAutomatic,
			connector.PaymentResult{Status: connector.StatusAuthorized},
			false, want{paymentattempt.StatusAuthorized, paymentintent.StatusProcessing, -1, 1000, 1000, false, false, true, false, ""}},
		{"3-D Secure: the customer is sent to the page", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusAuthenticationPending, RedirectRequired: true},
			false, want{paymentattempt.StatusAuthenticationPending, paymentintent.StatusRequiresCustomerAction, -1, 0, 0, false, false, false, false, "redirect_to_url"}},
		{"bank transfer to make", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusAuthenticationPending,
				Instructions: &connector.Instructions{Kind: connector.InstructionsBankTransfer, BankTransfer: map[string]any{}}},
			false, want{paymentattempt.StatusAuthenticationPending, paymentintent.StatusRequiresCustomerAction, -1, 0, 0, false, false, false, false, "display_bank_transfer_information"}},
		{"voucher to pay", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusAuthenticationPending,
				Instructions: &connector.Instructions{Kind: connector.InstructionsVoucher, Reference: "V1"}},
			false, want{paymentattempt.StatusAuthenticationPending, paymentintent.StatusRequiresCustomerAction, -1, 0, 0, false, false, false, false, "display_voucher_information"}},
		{"declined, the confirm holds the method: may retry", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusFailure, Decline: decline},
			true, want{paymentattempt.StatusFailure, paymentintent.StatusFailed, -1, 0, 0, true, false, false, false, ""}},
		{"declined, answered later (no method): fails", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusFailure, Decline: decline},
			false, want{paymentattempt.StatusFailure, paymentintent.StatusFailed, -1, 0, 0, false, false, false, false, ""}},
		{"failed without a decline: no retry", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusFailure},
			true, want{paymentattempt.StatusFailure, paymentintent.StatusFailed, -1, 0, 0, false, false, false, false, ""}},
		{"authentication failed: no retry", paymentintent.CaptureMethodAutomatic,
			connector.PaymentResult{Status: connector.StatusFailure, Decline: &connector.Decline{Code: "authentication_failed"}},
			true, want{paymentattempt.StatusAuthenticationFailed, paymentintent.StatusFailed, -1, 0, 0, false, false, false, false, ""}},
		{"still pending at the connector", paymentintent.CaptureMethodAutomatic, connector.PaymentResult{Status: connector.StatusPending},
			false, want{paymentattempt.StatusPending, paymentintent.StatusProcessing, -1, 0, 0, false, false, false, false, ""}},
		{"voided", paymentintent.CaptureMethodManual, connector.PaymentResult{Status: connector.StatusVoided},
			false, want{paymentattempt.StatusVoided, paymentintent.StatusCancelled, -1, 0, 0, false, false, false, false, ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pi := &ent.PaymentIntent{CaptureMethod: tc.method, AttemptCount: 1}
			att := &ent.PaymentAttempt{ID: "pa_1", NetAmount: 1000}
			d := decideAuthorization(pi, att, &tc.res, nil, tc.retryable, redirectTo)
			captured := int64(-1)
			if d.intent.setCaptured {
				captured = d.intent.captured
			}
			next := ""
			if d.nextAction != nil {
				next, _ = d.nextAction["type"].(string)
			}
			got := want{d.status, d.intent.status, captured, d.intent.capturable, d.attemptCapturable,
				d.retry, d.charged, d.reserveCapture, d.dispute != nil, next}
			if got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if d.unanswered {
				t.Error("an answer was taken for none")
			}
			if d.firstAttempt != (tc.res.DisputeAfterSuccess == nil) {
				t.Errorf("firstAttempt %v with dispute %v", d.firstAttempt, tc.res.DisputeAfterSuccess)
			}
		})
	}
}

// TestDecideAuthorizationDetails: no answer changes nothing but the note;
// the redirect names the attempt; the card keeps the connector's checks;
// a later attempt reads the payment's captures back.
func TestDecideAuthorizationDetails(t *testing.T) {
	pi := &ent.PaymentIntent{CaptureMethod: paymentintent.CaptureMethodAutomatic, AttemptCount: 1}
	att := &ent.PaymentAttempt{ID: "pa_1", NetAmount: 1000, Card: &schematype.CardDetails{}}

	if d := decideAuthorization(pi, att, nil, errors.New("timeout"), true, redirectTo); !d.unanswered || d.status != "" || d.retry {
		t.Errorf("no answer: %+v", d)
	}
	d := decideAuthorization(pi, att, &connector.PaymentResult{Status: connector.StatusAuthenticationPending, RedirectRequired: true}, nil, false, redirectTo)
	if got := d.nextAction["redirect_to_url"]; got != redirectTo("pa_1") {
		t.Errorf("redirect_to_url %v", got)
	}
	d = decideAuthorization(pi, att, &connector.PaymentResult{Status: connector.StatusCharged,
		PaymentChecks: &connector.PaymentChecks{CVCCheck: "pass", AddressLine1Check: "fail", AddressPostalCodeCheck: "unavailable"}}, nil, false, redirectTo)
	if d.card == nil || d.card.PaymentChecks["cvc_check"] != "pass" || d.card.PaymentChecks["address_line1_check"] != "fail" ||
		d.card.PaymentChecks["address_postal_code_check"] != "unavailable" || att.Card.PaymentChecks != nil {
		t.Errorf("card %+v (the loaded attempt's %+v must stay as it was)", d.card, att.Card)
	}
	if d = decideAuthorization(pi, att, &connector.PaymentResult{Status: connector.StatusCharged}, nil, false, redirectTo); d.card != nil {
		t.Errorf("no checks, yet the card changes: %+v", d.card)
	}
	retried := &ent.PaymentIntent{CaptureMethod: paymentintent.CaptureMethodAutomatic, AttemptCount: 2}
	if d = decideAuthorization(retried, att, &connector.PaymentResult{Status: connector.StatusCharged}, nil, false, redirectTo); d.firstAttempt {
		t.Error("a retry's attempt is not the payment's first")
	}
}

// recorded names what recovery records for a sync's answer: its status
// and decline code, or "wait" when it records nothing yet.
func recorded(res any, ok bool) string {
	if !ok {
		return "wait"
	}
	var status string
	var d *connector.Decline
	switch r := res.(type) {
	case *connector.PaymentResult:
		status, d = string(r.Status), r.Decline
	case *connector.CaptureResult:
		status, d = string(r.Status), r.Decline
	case *connector.RefundResult:
		status, d = string(r.Status), r.Decline
	}
	if d != nil {
		return status + " " + d.Code
	}
	return status
}

// TestSyncedAnswers: what recovery records for each sync answer, per kind
// of request a crash interrupted.
func TestSyncedAnswers(t *testing.T) {
	notFound := fmt.Errorf("sync: %w", connector.ErrTransactionNotFound)
	down := errors.New("connection refused")
	payment := func(s connector.Status) *connector.PaymentResult { return &connector.PaymentResult{Status: s} }
	capt := func(s connector.Status) *connector.CaptureResult { return &connector.CaptureResult{Status: s} }
	ref := func(s connector.RefundStatus) *connector.RefundResult { return &connector.RefundResult{Status: s} }
	failed, neverSent := string(connector.StatusFailure), string(connector.StatusFailure)+" "+CodeNeverSent
	for _, tc := range []struct {
		name      string
		got, want string
	}{
		{"attempt charged", recorded(syncedAttempt(payment(connector.StatusCharged), nil, false)), string(connector.StatusCharged)},
		{"attempt declined", recorded(syncedAttempt(payment(connector.StatusFailure), nil, false)), failed},
		{"attempt still pending", recorded(syncedAttempt(payment(connector.StatusPending), nil, false)), "wait"},
		{"attempt, connector down", recorded(syncedAttempt(nil, down, false)), "wait"},
		{"attempt never sent", recorded(syncedAttempt(nil, notFound, false)), neverSent},
		{"young attempt never seen: its call may be on its way", recorded(syncedAttempt(nil, notFound, true)), "wait"},
		{"young attempt answered", recorded(syncedAttempt(payment(connector.StatusAuthorized), nil, true)), string(connector.StatusAuthorized)},
		{"void done", recorded(syncedVoid(payment(connector.StatusVoided), nil)), string(connector.StatusVoided)},
		{"void refused", recorded(syncedVoid(payment(connector.StatusAuthorized), nil)), string(connector.StatusAuthorized)},
		{"void pending is recorded (not voided)", recorded(syncedVoid(payment(connector.StatusPending), nil)), string(connector.StatusPending)},
		{"void, connector down", recorded(syncedVoid(nil, down)), "wait"},
		{"void never sent: nothing voided", recorded(syncedVoid(nil, notFound)), failed},
		{"capture charged", recorded(syncedCapture(capt(connector.StatusCharged), nil)), string(connector.StatusCharged)},
		{"capture pending", recorded(syncedCapture(capt(connector.StatusPending), nil)), "wait"},
		{"capture, connector down", recorded(syncedCapture(nil, down)), "wait"},
		{"capture never sent", recorded(syncedCapture(nil, notFound)), neverSent},
		{"refund succeeded", recorded(syncedRefund(ref(connector.RefundSucceeded), nil)), string(connector.RefundSucceeded)},
		{"refund pending", recorded(syncedRefund(ref(connector.RefundPending), nil)), "wait"},
		{"refund, connector down", recorded(syncedRefund(nil, down)), "wait"},
		{"refund never sent", recorded(syncedRefund(nil, notFound)), string(connector.RefundFailed) + " " + CodeNeverSent},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestDecideCaptureStates: a capture of every payment state, its attempt
// authorized: refused (IR_14) unless the state takes captures; the
// sequential capture alone takes a processing payment.
func TestDecideCaptureStates(t *testing.T) {
	att := &ent.PaymentAttempt{Status: paymentattempt.StatusAuthorized, NetAmount: 1000}
	for _, sequential := range []bool{false, true} {
		for _, s := range intentStatuses {
			pi := &ent.PaymentIntent{Status: s, AmountCapturable: 1000, ActiveAttemptID: ptr("pa_1"),
				CaptureMethod: paymentintent.CaptureMethodManual}
			want := ""
			if !statusIn(s, capturableStates...) && !(sequential && s == paymentintent.StatusProcessing) {
				want = "unexpected_state"
			}
			_, err := decideCapture(pi, att, CaptureInput{sequential: sequential}, 0)
			if got := refusal(t, err); got != want {
				t.Errorf("capture (sequential %v) of %s: %q, want %q", sequential, s, got, want)
			}
			if got := refusal(t, capturableState(pi, sequential)); got != want {
				t.Errorf("capturableState (sequential %v) of %s: %q, want %q", sequential, s, got, want)
			}
		}
	}
	noAttempt := &ent.PaymentIntent{Status: paymentintent.StatusRequiresCapture, AmountCapturable: 1000}
	if got := refusal(t, capturableState(noAttempt, false)); got != "unexpected_state" {
		t.Errorf("a payment without an attempt: %q", got)
	}
}

// TestDecideCapture: the amount a capture takes, at its limits, and the
// refusals that depend on the attempt and the captures already made.
func TestDecideCapture(t *testing.T) {
	authorized := &ent.PaymentAttempt{Status: paymentattempt.StatusAuthorized, NetAmount: 1000}
	cancelling := &ent.PaymentAttempt{Status: paymentattempt.StatusVoidInitiated, NetAmount: 1000}
	payment := func(method paymentintent.CaptureMethod, capturable int64, toCapture *int64) *ent.PaymentIntent {
		return &ent.PaymentIntent{Status: paymentintent.StatusRequiresCapture, AmountCapturable: capturable,
			ActiveAttemptID: ptr("pa_1"), CaptureMethod: method, AmountToCapture: toCapture}
	}
	manual, multiple := paymentintent.CaptureMethodManual, paymentintent.CaptureMethodManualMultiple
	for _, tc := range []struct {
		name   string
		pi     *ent.PaymentIntent
		att    *ent.PaymentAttempt
		in     CaptureInput
		live   int
		amount int64
		err    string
	}{
		{"all, unsaid", payment(manual, 1000, nil), authorized, CaptureInput{}, 0, 1000, ""},
		{"0", payment(manual, 1000, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](0)}, 0, 0, "invalid_value amount_to_capture"},
		{"-1", payment(manual, 1000, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](-1)}, 0, 0, "invalid_value amount_to_capture"},
		{"1", payment(manual, 1000, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](1)}, 0, 1, ""},
		{"exactly capturable", payment(manual, 1000, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](1000)}, 0, 1000, ""},
		{"capturable + 1", payment(manual, 1000, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](1001)}, 0, 0, "invalid_value amount_to_capture"},
		{"nothing left to capture", payment(multiple, 0, nil), authorized, CaptureInput{}, 1, 0, "invalid_value amount_to_capture"},
		{"being cancelled", payment(manual, 1000, nil), cancelling, CaptureInput{}, 0, 0, "unexpected_state"},
		{"manual, captured once already", payment(manual, 1000, nil), authorized, CaptureInput{}, 1, 0, "unexpected_state"},
		{"manual_multiple, the second", payment(multiple, 600, nil), authorized, CaptureInput{AmountToCapture: ptr[int64](600)}, 1, 600, ""},
		{"sequential takes amount_to_capture", payment(paymentintent.CaptureMethodSequentialAutomatic, 1000, ptr[int64](700)),
			authorized, CaptureInput{sequential: true}, 0, 700, ""},
		{"sequential, amount_to_capture over what is capturable", payment(paymentintent.CaptureMethodSequentialAutomatic, 1000, ptr[int64](1200)),
			authorized, CaptureInput{sequential: true}, 0, 1000, ""},
		{"amount_to_capture is sequential's alone", payment(manual, 1000, ptr[int64](700)), authorized, CaptureInput{}, 0, 1000, ""},
	} {
		amount, err := decideCapture(tc.pi, tc.att, tc.in, tc.live)
		if got := refusal(t, err); got != tc.err || amount != tc.amount {
			t.Errorf("%s: (%d, %q), want (%d, %q)", tc.name, amount, got, tc.amount, tc.err)
		}
	}
}

// TestDecideCaptureAnswer: what a connector's answer to a pending capture
// of 400 makes of the capture, the attempt (authorized for 1000) and the
// payment.
func TestDecideCaptureAnswer(t *testing.T) {
	att := &ent.PaymentAttempt{NetAmount: 1000}
	cp := &ent.Capture{Amount: 400}
	dispute := &connector.DisputeSpec{Reason: "fraudulent"}
	reqCapture, multiple := paymentintent.StatusRequiresCapture, paymentintent.CaptureMethodManualMultiple
	payment := func(status paymentintent.Status, method paymentintent.CaptureMethod, captured, capturable int64) *ent.PaymentIntent {
		return &ent.PaymentIntent{Status: status, CaptureMethod: method, AmountCaptured: captured, AmountCapturable: capturable}
	}
	for _, tc := range []struct {
		name    string
		pi      *ent.PaymentIntent
		res     *connector.CaptureResult
		callErr error
		want    captureAnswerDecision
	}{
		{"no answer: the reservation stays", payment(reqCapture, paymentintent.CaptureMethodManual, 0, 600), nil, errors.New("timeout"),
			captureAnswerDecision{unanswered: true}},
		{"declined: the reservation comes back", payment(reqCapture, paymentintent.CaptureMethodManual, 0, 600),
			&connector.CaptureResult{Status: connector.StatusFailure}, nil,
			captureAnswerDecision{capture: capture.StatusFailed, giveBack: 400}},
		{"sequential's capture declined: the payment can be captured again",
			payment(paymentintent.StatusProcessing, paymentintent.CaptureMethodSequentialAutomatic, 0, 600),
			&connector.CaptureResult{Status: connector.StatusFailure}, nil,
			captureAnswerDecision{capture: capture.StatusFailed, giveBack: 400, intent: paymentintent.StatusRequiresCapture}},
		{"pending at the connector", payment(reqCapture, paymentintent.CaptureMethodManual, 0, 600),
			&connector.CaptureResult{Status: connector.StatusPending}, nil,
			captureAnswerDecision{attempt: paymentattempt.StatusCaptureInitiated, intent: paymentintent.StatusProcessing}},
		{"pending after an earlier capture", payment(paymentintent.StatusPartiallyCapturedAndCapturable, multiple, 300, 300),
			&connector.CaptureResult{Status: connector.StatusPending}, nil,
			captureAnswerDecision{attempt: paymentattempt.StatusCaptureInitiated, intent: paymentintent.StatusPartiallyCapturedAndProcessing}},
		{"manual, part captured: the rest is released", payment(reqCapture, paymentintent.CaptureMethodManual, 0, 600),
			&connector.CaptureResult{Status: connector.StatusCharged}, nil,
			captureAnswerDecision{capture: capture.StatusCharged, setCaptured: true, captured: 400, release: true,
				attempt: paymentattempt.StatusPartialCharged, intent: paymentintent.StatusPartiallyCaptured}},
		{"manual_multiple, part captured, more capturable", payment(reqCapture, multiple, 0, 600),
			&connector.CaptureResult{Status: connector.StatusCharged}, nil,
			captureAnswerDecision{capture: capture.StatusCharged, setCaptured: true, captured: 400,
				attempt: paymentattempt.StatusPartialChargedAndChargeable, intent: paymentintent.StatusPartiallyCapturedAndCapturable}},
		{"manual_multiple, the last 400 of 1000", payment(paymentintent.StatusPartiallyCapturedAndCapturable, multiple, 600, 0),
			&connector.CaptureResult{Status: connector.StatusCharged, DisputeAfterSuccess: dispute}, nil,
			captureAnswerDecision{capture: capture.StatusCharged, setCaptured: true, captured: 1000, release: true, dispute: true,
				attempt: paymentattempt.StatusCharged, intent: paymentintent.StatusSucceeded}},
		{"a dispute waits for the whole capture", payment(reqCapture, paymentintent.CaptureMethodManual, 0, 600),
			&connector.CaptureResult{Status: connector.StatusCharged, DisputeAfterSuccess: dispute}, nil,
			captureAnswerDecision{capture: capture.StatusCharged, setCaptured: true, captured: 400, release: true,
				attempt: paymentattempt.StatusPartialCharged, intent: paymentintent.StatusPartiallyCaptured}},
	} {
		if got := decideCaptureAnswer(tc.pi, att, cp, tc.res, tc.callErr); got != tc.want {
			t.Errorf("%s:\n got  %+v\n want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDecideCancel: a cancel of every payment state, before any attempt
// and with an authorized one: refused (IR_14), recorded outright, or a
// void at the connector; and the cancel refused beside a capture or
// another cancel.
func TestDecideCancel(t *testing.T) {
	for _, s := range intentStatuses {
		for _, att := range []*ent.PaymentAttempt{nil, {Status: paymentattempt.StatusAuthorized, NetAmount: 1000}} {
			pi := &ent.PaymentIntent{Status: s, AmountCapturable: 1000}
			void, err := decideCancel(pi, att)
			wantErr, wantVoid := "", att != nil && statusIn(s, capturableStates...)
			if !statusIn(s, cancellableStates...) {
				wantErr, wantVoid = "unexpected_state", false
			}
			if got := refusal(t, err); got != wantErr || void != wantVoid {
				t.Errorf("cancel of %s (attempt %v): (void %v, %q), want (void %v, %q)", s, att != nil, void, got, wantVoid, wantErr)
			}
		}
	}
	for _, tc := range []struct {
		name                 string
		attempt              paymentattempt.Status
		captured, capturable int64
		void                 bool
		err                  string
	}{
		{"authorized", paymentattempt.StatusAuthorized, 0, 1000, true, ""},
		{"after a capture of 300", paymentattempt.StatusPartialChargedAndChargeable, 300, 700, true, ""},
		{"a capture reserved 300", paymentattempt.StatusAuthorized, 0, 700, false, "unexpected_state"},
		{"a cancel in progress", paymentattempt.StatusVoidInitiated, 0, 1000, false, "unexpected_state"},
	} {
		pi := &ent.PaymentIntent{Status: paymentintent.StatusPartiallyCapturedAndCapturable, AmountCaptured: tc.captured, AmountCapturable: tc.capturable}
		void, err := decideCancel(pi, &ent.PaymentAttempt{Status: tc.attempt, NetAmount: 1000})
		if got := refusal(t, err); got != tc.err || void != tc.void {
			t.Errorf("%s: (void %v, %q), want (void %v, %q)", tc.name, void, got, tc.void, tc.err)
		}
	}
}

// TestDecideVoidAnswer: a void answered voided cancels the payment (its
// captures stand); any other answer, or none, leaves the authorization
// standing with the attempt back where it was.
func TestDecideVoidAnswer(t *testing.T) {
	decline := &connector.Decline{Code: "void_refused", Message: "too late"}
	for _, tc := range []struct {
		name     string
		captured int64
		res      *connector.PaymentResult
		callErr  error
		want     voidDecision
	}{
		{"voided", 0, &connector.PaymentResult{Status: connector.StatusVoided}, nil,
			voidDecision{voided: true, status: paymentattempt.StatusVoided, intent: paymentintent.StatusCancelled}},
		{"voided after a capture", 300, &connector.PaymentResult{Status: connector.StatusVoided}, nil,
			voidDecision{voided: true, status: paymentattempt.StatusPartialCharged, intent: paymentintent.StatusPartiallyCaptured}},
		{"refused", 0, &connector.PaymentResult{Status: connector.StatusFailure, Decline: decline}, nil,
			voidDecision{status: paymentattempt.StatusAuthorized, decline: decline}},
		{"refused after a capture", 300, &connector.PaymentResult{Status: connector.StatusFailure, Decline: decline}, nil,
			voidDecision{status: paymentattempt.StatusPartialChargedAndChargeable, decline: decline}},
		{"still pending is not voided", 0, &connector.PaymentResult{Status: connector.StatusPending}, nil,
			voidDecision{status: paymentattempt.StatusAuthorized}},
		{"no answer", 0, nil, errors.New("timeout"),
			voidDecision{status: paymentattempt.StatusAuthorized, unanswered: true, reason: "timeout"}},
	} {
		if got := decideVoidAnswer(&ent.PaymentIntent{AmountCaptured: tc.captured}, tc.res, tc.callErr); got != tc.want {
			t.Errorf("%s:\n got  %+v\n want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDecideRefund: a refund of every payment state, and its amount at
// its limits against 1000 captured.
func TestDecideRefund(t *testing.T) {
	for _, s := range intentStatuses {
		pi := &ent.PaymentIntent{Status: s, AmountCaptured: 1000, ActiveAttemptID: ptr("pa_1")}
		want := ""
		if !statusIn(s, refundableStates...) {
			want = "payment_not_succeeded"
		}
		if _, err := decideRefund(pi, 0, nil); refusal(t, err) != want {
			t.Errorf("refund of %s: %q, want %q", s, refusal(t, err), want)
		}
	}
	succeeded := func(captured int64, attempt *string) *ent.PaymentIntent {
		return &ent.PaymentIntent{Status: paymentintent.StatusSucceeded, AmountCaptured: captured, ActiveAttemptID: attempt}
	}
	for _, tc := range []struct {
		name     string
		pi       *ent.PaymentIntent
		refunded int64
		asked    *int64
		amount   int64
		err      string
	}{
		{"all, unsaid", succeeded(1000, ptr("pa_1")), 0, nil, 1000, ""},
		{"the rest, unsaid", succeeded(1000, ptr("pa_1")), 300, nil, 700, ""},
		{"0", succeeded(1000, ptr("pa_1")), 0, ptr[int64](0), 0, "refund_exceeds_captured"},
		{"1", succeeded(1000, ptr("pa_1")), 0, ptr[int64](1), 1, ""},
		{"exactly what is left", succeeded(1000, ptr("pa_1")), 300, ptr[int64](700), 700, ""},
		{"one more than is left", succeeded(1000, ptr("pa_1")), 300, ptr[int64](701), 0, "refund_exceeds_captured"},
		{"already refunded whole", succeeded(1000, ptr("pa_1")), 1000, nil, 0, "refund_exceeds_captured"},
		{"already refunded whole, 1 more", succeeded(1000, ptr("pa_1")), 1000, ptr[int64](1), 0, "refund_exceeds_captured"},
		{"nothing captured", succeeded(0, ptr("pa_1")), 0, nil, 0, "payment_not_succeeded"},
		{"no attempt", succeeded(1000, nil), 0, nil, 0, "payment_not_succeeded"},
	} {
		amount, err := decideRefund(tc.pi, tc.refunded, tc.asked)
		if got := refusal(t, err); got != tc.err || amount != tc.amount {
			t.Errorf("%s: (%d, %q), want (%d, %q)", tc.name, amount, got, tc.amount, tc.err)
		}
	}
}

// TestDecideRefundAnswer: what the connector's answer makes of a pending
// refund.
func TestDecideRefundAnswer(t *testing.T) {
	decline := &connector.Decline{Code: "refund_refused"}
	for _, tc := range []struct {
		name    string
		res     *connector.RefundResult
		callErr error
		want    refundDecision
	}{
		{"succeeded", &connector.RefundResult{Status: connector.RefundSucceeded}, nil, refundDecision{status: refund.StatusSucceeded}},
		{"failed", &connector.RefundResult{Status: connector.RefundFailed, Decline: decline}, nil, refundDecision{status: refund.StatusFailed, decline: decline}},
		{"pending at the connector", &connector.RefundResult{Status: connector.RefundPending}, nil, refundDecision{}},
		{"no answer", nil, errors.New("timeout"), refundDecision{unanswered: true}},
	} {
		if got := decideRefundAnswer(tc.res, tc.callErr); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestDecideRetry: a definite failure is retried only when the merchant's
// verdict, the payment method, the profile's switch and its budget all
// allow it; a step-up rule sends it back with 3-D Secure first.
func TestDecideRetry(t *testing.T) {
	stepUpRule := &ent.GsmRule{StepUpPossible: true, Decision: gsmrule.DecisionRetry}
	on := func(budget *int) *ent.Profile {
		return &ent.Profile{IsAutoRetriesEnabled: true, MaxAutoRetriesEnabled: budget}
	}
	card := &customer.PaymentMethodInput{Type: "card"}
	threeDS := paymentattempt.AuthenticationTypeThreeDs
	for _, tc := range []struct {
		name          string
		verdict       gsm.Verdict
		pi            *ent.PaymentIntent
		att           *ent.PaymentAttempt
		m             *customer.PaymentMethodInput
		prof          *ent.Profile
		retry, stepUp bool
	}{
		{"allowed, first try, default budget", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{}, card, on(nil), true, false},
		{"default budget spent", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 2}, &ent.PaymentAttempt{}, card, on(nil), false, false},
		{"budget 3, third try", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 3}, &ent.PaymentAttempt{}, card, on(ptr(3)), true, false},
		{"budget 3 spent", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 4}, &ent.PaymentAttempt{}, card, on(ptr(3)), false, false},
		{"budget 0", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{}, card, on(ptr(0)), false, false},
		{"retries off", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{}, card, &ent.Profile{}, false, false},
		{"the verdict says no", gsm.Verdict{Why: "hard_decline"}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{}, card, on(nil), false, false},
		{"a recurring payment", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1, MandateID: ptr("man_1")}, &ent.PaymentAttempt{}, card, on(nil), false, false},
		{"setting up a mandate", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1, MandateData: map[string]any{}}, &ent.PaymentAttempt{}, card, on(nil), false, false},
		{"a saved card", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{},
			&customer.PaymentMethodInput{Saved: &ent.PaymentMethod{}}, on(nil), false, false},
		{"a mandate's card", gsm.Verdict{Retry: true}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{},
			&customer.PaymentMethodInput{Mandate: &ent.Mandate{}}, on(nil), false, false},
		{"step up", gsm.Verdict{Retry: true, Rule: stepUpRule}, &ent.PaymentIntent{AttemptCount: 1}, &ent.PaymentAttempt{}, card, on(nil), true, true},
		{"already 3-D Secure: no step up", gsm.Verdict{Retry: true, Rule: stepUpRule}, &ent.PaymentIntent{AttemptCount: 1},
			&ent.PaymentAttempt{AuthenticationType: &threeDS}, card, on(nil), true, false},
	} {
		retry, stepUp := decideRetry(tc.verdict, tc.pi, tc.att, tc.m, tc.prof)
		if retry != tc.retry || stepUp != tc.stepUp {
			t.Errorf("%s: (retry %v, step up %v), want (%v, %v)", tc.name, retry, stepUp, tc.retry, tc.stepUp)
		}
		if eligible := retryEligible(tc.verdict, tc.pi, tc.m); tc.retry && !eligible {
			t.Errorf("%s: retried, yet not eligible", tc.name)
		}
	}
}
