package customer

import (
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/schema/schematype"
)

// attemptStatuses are every status an attempt may be in, with what each
// says of its authorization.
var attemptStatuses = []struct {
	status            paymentattempt.Status
	succeeded, failed bool
}{
	{paymentattempt.StatusStarted, false, false},
	{paymentattempt.StatusAuthenticationFailed, false, true},
	{paymentattempt.StatusRouterDeclined, false, false},
	{paymentattempt.StatusAuthenticationPending, false, false},
	{paymentattempt.StatusAuthenticationSuccessful, false, false},
	{paymentattempt.StatusAuthorized, true, false},
	{paymentattempt.StatusAuthorizationFailed, false, false},
	{paymentattempt.StatusCharged, true, false},
	{paymentattempt.StatusAuthorizing, false, false},
	{paymentattempt.StatusCodInitiated, false, false},
	{paymentattempt.StatusVoided, false, false},
	{paymentattempt.StatusVoidedPostCharge, false, false},
	{paymentattempt.StatusVoidInitiated, false, false},
	{paymentattempt.StatusCaptureInitiated, false, false},
	{paymentattempt.StatusCaptureFailed, false, false},
	{paymentattempt.StatusVoidFailed, false, false},
	{paymentattempt.StatusAutoRefunded, false, false},
	{paymentattempt.StatusPartialCharged, true, false},
	{paymentattempt.StatusPartiallyAuthorized, false, false},
	{paymentattempt.StatusPartialChargedAndChargeable, false, false},
	{paymentattempt.StatusUnresolved, false, false},
	{paymentattempt.StatusPending, false, false},
	{paymentattempt.StatusFailure, false, true},
	{paymentattempt.StatusPaymentMethodAwaited, false, false},
	{paymentattempt.StatusConfirmationAwaited, false, false},
	{paymentattempt.StatusDeviceDataCollectionPending, false, false},
	{paymentattempt.StatusIntegrityFailure, false, false},
	{paymentattempt.StatusExpired, false, false},
}

func TestAttemptOutcome(t *testing.T) {
	for _, tc := range attemptStatuses {
		if err := paymentattempt.StatusValidator(tc.status); err != nil {
			t.Fatalf("%s: %v", tc.status, err)
		}
		succeeded, failed := attemptOutcome(tc.status)
		if succeeded != tc.succeeded || failed != tc.failed {
			t.Errorf("%s: succeeded %v failed %v, want %v %v", tc.status, succeeded, failed, tc.succeeded, tc.failed)
		}
	}
}

// TestMandateStepFor: every shape of payment (sets a mandate up, charges
// one, keeps a card, none of these) against every attempt status, and a
// set-up's success with and without the connector's token.
func TestMandateStepFor(t *testing.T) {
	shapes := []struct {
		name  string
		facts mandateFacts
		// onSuccess, onFailure and otherwise are the steps for a status
		// that succeeded, failed, or neither.
		onSuccess, onFailure, otherwise mandateStep
	}{
		{"set-up with token", mandateFacts{SetsUpMandate: true, HasMethod: true, ConnectorToken: "tok"},
			stepActivateMandate, stepDropSetupMethod, stepNone},
		{"set-up without token", mandateFacts{SetsUpMandate: true, HasMethod: true},
			stepDropSetupMethod, stepDropSetupMethod, stepNone},
		{"set-up without saved method", mandateFacts{SetsUpMandate: true, ConnectorToken: "tok"},
			stepNone, stepNone, stepNone},
		{"recurring on a mandate", mandateFacts{ChargesMandate: true, HasMethod: true, ConnectorToken: "tok"},
			stepUseMandate, stepNone, stepNone},
		{"recurring without method", mandateFacts{ChargesMandate: true},
			stepUseMandate, stepNone, stepNone},
		{"kept or saved card", mandateFacts{HasMethod: true},
			stepSettleKeptCard, stepSettleKeptCard, stepSettleKeptCard},
		{"kept card with token", mandateFacts{HasMethod: true, ConnectorToken: "tok"},
			stepSettleKeptCard, stepSettleKeptCard, stepSettleKeptCard},
		{"plain payment", mandateFacts{}, stepNone, stepNone, stepNone},
		{"plain payment with token", mandateFacts{ConnectorToken: "tok"}, stepNone, stepNone, stepNone},
	}
	for _, sh := range shapes {
		for _, st := range attemptStatuses {
			f := sh.facts
			f.Status = st.status
			want := sh.otherwise
			switch {
			case st.succeeded:
				want = sh.onSuccess
			case st.failed:
				want = sh.onFailure
			}
			if got := mandateStepFor(f); got != want {
				t.Errorf("%s, %s: step %d, want %d", sh.name, st.status, got, want)
			}
		}
	}
}

func TestKeptCardStepFor(t *testing.T) {
	methods := []paymentmethod.Status{paymentmethod.StatusActive, paymentmethod.StatusInactive,
		paymentmethod.StatusProcessing, paymentmethod.StatusAwaitingData}
	for _, st := range attemptStatuses {
		for _, m := range methods {
			want := keptCardUnchanged
			switch {
			case st.succeeded:
				want = keptCardActivate
			case st.failed && m == paymentmethod.StatusProcessing:
				// A card new with this payment goes; one saved before stays.
				want = keptCardDrop
			}
			if got := keptCardStepFor(st.status, m); got != want {
				t.Errorf("%s, method %s: %d, want %d", st.status, m, got, want)
			}
		}
	}
}

func TestMandateTypeOf(t *testing.T) {
	if got := mandateTypeOf(&MandateRequest{SingleUse: true}); got != mandate.MandateTypeSingleUse {
		t.Errorf("single_use: %s", got)
	}
	if got := mandateTypeOf(&MandateRequest{}); got != mandate.MandateTypeMultiUse {
		t.Errorf("default: %s", got)
	}
}

func TestCheckRevocable(t *testing.T) {
	for _, tc := range []struct {
		status mandate.Status
		want   *refusal
	}{
		{mandate.StatusActive, nil},
		{mandate.StatusInactive, nil}, // a spent single_use mandate
		{mandate.StatusPending, nil},
		{mandate.StatusRevoked, mandateInvalid("mandate_id", "already been revoked")},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			checkRefusal(t, checkRevocable(&ent.Mandate{Status: tc.status}), tc.want)
		})
	}
}

// TestCheckMandateCharge: each refusal of a mandate charge before its
// uses are counted, in the order they are checked, and the limits of its
// dates and amount.
func TestCheckMandateCharge(t *testing.T) {
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)
	usd := schematype.Currency("USD")
	active := func(edit func(m *ent.Mandate)) *ent.Mandate {
		m := &ent.Mandate{Status: mandate.StatusActive, CustomerID: "cus_row", MandateType: mandate.MandateTypeMultiUse}
		if edit != nil {
			edit(m)
		}
		return m
	}
	singleUse := func(amount *int64) func(m *ent.Mandate) {
		return func(m *ent.Mandate) { m.MandateType, m.Amount = mandate.MandateTypeSingleUse, amount }
	}
	notActive := precondition("mandate_id", msgMandateNotActive)
	outside := mandateInvalid("mandate_id", "not valid at this time")
	over := mandateInvalid("amount", "greater than mandate amount")
	cases := []struct {
		name   string
		m      *ent.Mandate
		charge int64
		want   *refusal
	}{
		{"active multi_use", active(nil), 1000, nil},
		{"inactive", active(func(m *ent.Mandate) { m.Status = mandate.StatusInactive }), 1000, notActive},
		{"revoked", active(func(m *ent.Mandate) { m.Status = mandate.StatusRevoked }), 1000, notActive},
		{"pending", active(func(m *ent.Mandate) { m.Status = mandate.StatusPending }), 1000, notActive},
		{"other customer", active(func(m *ent.Mandate) { m.CustomerID = "cus_other" }), 1000,
			precondition("customer_id", msgMandateOtherCustomer)},
		{"before start", active(func(m *ent.Mandate) { m.StartDate = ptr(now.Add(time.Second)) }), 1000, outside},
		{"at start", active(func(m *ent.Mandate) { m.StartDate = ptr(now) }), 1000, nil},
		{"before end", active(func(m *ent.Mandate) { m.EndDate = ptr(now.Add(time.Second)) }), 1000, nil},
		{"at end", active(func(m *ent.Mandate) { m.EndDate = ptr(now) }), 1000, outside},
		{"after end", active(func(m *ent.Mandate) { m.EndDate = ptr(now.Add(-time.Hour)) }), 1000, outside},
		{"same currency", active(func(m *ent.Mandate) { m.Currency = &usd }), 1000, nil},
		{"other currency", active(func(m *ent.Mandate) { m.Currency = ptr(schematype.Currency("EUR")) }), 1000,
			mandateInvalid("currency", "cross currency")},
		{"single_use at its amount", active(singleUse(ptr(int64(1000)))), 1000, nil},
		{"single_use over its amount", active(singleUse(ptr(int64(1000)))), 1001, over},
		{"single_use without amount", active(singleUse(nil)), 1, over},
		{"multi_use over its amount", active(func(m *ent.Mandate) { m.Amount = ptr(int64(10)) }), 1000, nil}, // counted with its uses
		{"revoked and other customer", active(func(m *ent.Mandate) {
			m.Status, m.CustomerID = mandate.StatusRevoked, "cus_other"
		}), 1000, notActive},
	}
	pi := &ent.PaymentIntent{CustomerID: ptr("cus_row"), Currency: usd}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, checkMandateCharge(tc.m, pi, tc.charge, now), tc.want)
		})
	}
	t.Run("payment without customer", func(t *testing.T) {
		err := checkMandateCharge(active(nil), &ent.PaymentIntent{Currency: usd}, 1, now)
		checkRefusal(t, err, precondition("customer_id", msgMandateOtherCustomer))
	})
}

func TestCheckMultiUseTotal(t *testing.T) {
	over := mandateInvalid("amount", "greater than mandate amount")
	for _, tc := range []struct {
		name     string
		amount   *int64
		charge   int64
		received []int
		want     *refusal
	}{
		{"no amount", nil, 1 << 40, []int{1 << 30}, nil},
		{"first use at the amount", ptr(int64(1000)), 1000, nil, nil},
		{"first use over the amount", ptr(int64(1000)), 1001, nil, over},
		{"uses reach the amount", ptr(int64(1000)), 400, []int{300, 300}, nil},
		{"uses pass the amount by one", ptr(int64(1000)), 401, []int{300, 300}, over},
		{"nothing received yet", ptr(int64(1000)), 1000, []int{0, 0}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, checkMultiUseTotal(&ent.Mandate{Amount: tc.amount}, tc.charge, tc.received), tc.want)
		})
	}
}
