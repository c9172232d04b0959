package payments

import (
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/payments/customer"
	"switchyard/payments/validate"
)

// The rules of creating and updating a payment, without a database: what
// a create refuses before it writes, how a new payment starts, which
// statuses take an update and what an update refuses against the payment
// as it stands, and which columns a change writes.

// TestPaymentInputCheck is a create's refusals in the order the client is
// told them, and the payment_id it keeps.
func TestPaymentInputCheck(t *testing.T) {
	valid := func(edit func(*PaymentInput)) PaymentInput {
		in := PaymentInput{Amount: 1000, Currency: "USD"}
		if edit != nil {
			edit(&in)
		}
		return in
	}
	for _, tc := range []struct {
		name      string
		in        PaymentInput
		want      string
		paymentID string
	}{
		{name: "the least a create takes", in: valid(nil)},
		{name: "the merchant's payment_id", in: valid(func(in *PaymentInput) { in.PaymentID = str("order-42_a") }), paymentID: "order-42_a"},
		{name: "payment_id at its limit", in: valid(func(in *PaymentInput) { in.PaymentID = str(strings.Repeat("p", maxPaymentID)) }), paymentID: strings.Repeat("p", maxPaymentID)},
		{name: "payment_id over its limit", in: valid(func(in *PaymentInput) { in.PaymentID = str(strings.Repeat("p", maxPaymentID+1)) }), want: "invalid_value payment_id"},
		{name: "payment_id empty", in: valid(func(in *PaymentInput) { in.PaymentID = str("") }), want: "invalid_value payment_id"},
		{name: "payment_id with a space", in: valid(func(in *PaymentInput) { in.PaymentID = str("order 42") }), want: "invalid_value payment_id"},
		{name: "currency missing", in: valid(func(in *PaymentInput) { in.Currency = "" }), want: "missing_field currency"},
		{name: "currency before amount", in: valid(func(in *PaymentInput) { in.Currency, in.Amount = "ZZZ", 0 }), want: "invalid_value currency"},
		{name: "amount zero", in: valid(func(in *PaymentInput) { in.Amount = 0 }), want: "invalid_value amount"},
		{name: "amount zero setting up a mandate", in: valid(func(in *PaymentInput) { in.Amount, in.PaymentType = 0, str("setup_mandate") })},
		{name: "amount before the members", in: valid(func(in *PaymentInput) { in.Amount, in.CaptureMethod = -1, str("later") }), want: "invalid_value amount"},
		{name: "a member", in: valid(func(in *PaymentInput) { in.CaptureMethod = str("later") }), want: "invalid_value capture_method"},
		{name: "a member before payment_id", in: valid(func(in *PaymentInput) { in.CaptureMethod, in.PaymentID = str("later"), str("") }), want: "invalid_value capture_method"},
		{name: "a mandate charged without confirm", in: valid(func(in *PaymentInput) { in.MandateID = str("man_1") }), want: "precondition_failed confirm"},
		{name: "a mandate charged at create needs its customer", in: valid(func(in *PaymentInput) { in.MandateID, in.Confirm = str("man_1"), true }), want: "missing_field customer_id"},
	} {
		paymentID, err := tc.in.check()
		checkRefusal(t, tc.name, err, tc.want)
		if err == nil && paymentID != tc.paymentID {
			t.Errorf("%s: payment_id %q, want %q", tc.name, paymentID, tc.paymentID)
		}
	}
}

func TestStartOf(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	shop := "https://shop.example/back"
	for _, tc := range []struct {
		name       string
		in         PaymentInput
		prof       ent.Profile
		expiry     int64
		returnURL  *string
		vaultUntil time.Duration
	}{
		{name: "the profile's lifetime", prof: ent.Profile{SessionExpiry: 900}, expiry: 900, vaultUntil: 900 * time.Second},
		{name: "the request's lifetime", in: PaymentInput{PaymentFields: PaymentFields{SessionExpiry: i64(60)}},
			prof: ent.Profile{SessionExpiry: 900}, expiry: 60, vaultUntil: 60 * time.Second},
		{name: "a lifetime of nothing", in: PaymentInput{PaymentFields: PaymentFields{SessionExpiry: i64(0)}},
			prof: ent.Profile{SessionExpiry: 900}, expiry: 0},
		{name: "the profile's return_url", prof: ent.Profile{SessionExpiry: 900, ReturnURL: &shop}, expiry: 900, returnURL: &shop, vaultUntil: 900 * time.Second},
		{name: "the request's return_url stands", in: PaymentInput{PaymentFields: PaymentFields{ReturnURL: str("https://other.example")}},
			prof: ent.Profile{SessionExpiry: 900, ReturnURL: &shop}, expiry: 900, vaultUntil: 900 * time.Second},
	} {
		st := startOf(&tc.in, &tc.prof, now)
		if st.sessionExpiry != tc.expiry || !st.expiresOn.Equal(now.Add(time.Duration(tc.expiry)*time.Second)) {
			t.Errorf("%s: session_expiry %d expires_on %s, want %d from %s", tc.name, st.sessionExpiry, st.expiresOn, tc.expiry, now)
		}
		if (st.returnURL == nil) != (tc.returnURL == nil) || st.returnURL != nil && *st.returnURL != *tc.returnURL {
			t.Errorf("%s: return_url %v, want %v", tc.name, st.returnURL, tc.returnURL)
		}
		// The vault keeps a card for the request's lifetime, else the default's.
		want := tc.vaultUntil
		if tc.in.SessionExpiry == nil {
			want = defaultSessionExpiry * time.Second
		}
		if got := vaultExpiry(tc.in.SessionExpiry); got != want {
			t.Errorf("%s: vault expiry %s, want %s", tc.name, got, want)
		}
	}
}

// TestCheckUpdatable: only a payment not confirmed yet takes an update.
func TestCheckUpdatable(t *testing.T) {
	for _, s := range intentStatuses {
		var want error
		if s != paymentintent.StatusRequiresPaymentMethod && s != paymentintent.StatusRequiresConfirmation {
			want = ErrUnexpectedState("updated", s, updatableStates)
		}
		if err := checkUpdatable(s); !sameError(err, want) {
			t.Errorf("update of a payment %s: %v, want %v", s, err, want)
		}
	}
}

// TestPatchCheck is what an update refuses against the payment as it
// stands: its amount, payment type, order lines and amount_to_capture.
func TestPatchCheck(t *testing.T) {
	lines := orderLines(600, 400)
	for _, tc := range []struct {
		name string
		cur  ent.PaymentIntent
		p    PaymentPatch
		want string
	}{
		{name: "nothing changed", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"}},
		{name: "a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"}, p: PaymentPatch{Amount: i64(1)}},
		{name: "a new amount of zero", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"}, p: PaymentPatch{Amount: i64(0)}, want: "invalid_value amount"},
		{name: "zero for the stored setup_mandate", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "setup_mandate"}, p: PaymentPatch{Amount: i64(0)}},
		{name: "zero with a new payment type", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "setup_mandate"},
			p: PaymentPatch{Amount: i64(0), PaymentFields: PaymentFields{PaymentType: str("normal")}}, want: "invalid_value amount"},
		{name: "a new amount over the maximum", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"}, p: PaymentPatch{Amount: i64(validate.MaxAmount + 1)}, want: "invalid_value amount"},
		{name: "the stored lines against a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal", OrderDetails: lines},
			p: PaymentPatch{Amount: i64(900)}, want: "invalid_value order_details"},
		{name: "new lines with a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal", OrderDetails: lines},
			p: PaymentPatch{Amount: i64(900), PaymentFields: PaymentFields{OrderDetails: orderLines(900)}}},
		{name: "new lines against the stored amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"},
			p: PaymentPatch{PaymentFields: PaymentFields{OrderDetails: orderLines(900)}}, want: "invalid_value order_details"},
		{name: "the stored amount_to_capture over a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal", AmountToCapture: i64(800)},
			p: PaymentPatch{Amount: i64(700)}, want: "invalid_value amount_to_capture"},
		{name: "the stored amount_to_capture at a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal", AmountToCapture: i64(800)},
			p: PaymentPatch{Amount: i64(800)}},
		{name: "a new amount_to_capture with a new amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal", AmountToCapture: i64(800)},
			p: PaymentPatch{Amount: i64(700), PaymentFields: PaymentFields{AmountToCapture: i64(700)}}},
		{name: "a new amount_to_capture over the stored amount", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"},
			p: PaymentPatch{PaymentFields: PaymentFields{AmountToCapture: i64(1001)}}, want: "invalid_value amount_to_capture"},
		{name: "a member", cur: ent.PaymentIntent{Amount: 1000, PaymentType: "normal"},
			p: PaymentPatch{PaymentFields: PaymentFields{SetupFutureUsage: str("always")}}, want: "invalid_value setup_future_usage"},
	} {
		checkRefusal(t, tc.name, tc.p.check(&tc.cur), tc.want)
	}
}

// TestStatusAfterFields: a payment method moves a payment that waits for
// one to wait for its confirm; nothing else moves a status.
func TestStatusAfterFields(t *testing.T) {
	card := &PaymentFields{PaymentMethod: &customer.PaymentMethodInput{Type: "card"}}
	other := &PaymentFields{Description: str("more")}
	for _, s := range intentStatuses {
		next, moved := statusAfterFields(s, card)
		wantMoved := s == paymentintent.StatusRequiresPaymentMethod
		if moved != wantMoved || moved && next != paymentintent.StatusRequiresConfirmation {
			t.Errorf("a payment method given to a payment %s: %s, %v", s, next, moved)
		}
		if _, moved := statusAfterFields(s, other); moved {
			t.Errorf("a description given to a payment %s moved it", s)
		}
	}
}

// TestWriteFields is which columns a change writes, and how.
func TestWriteFields(t *testing.T) {
	created := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		status paymentintent.Status
		f      PaymentFields
		want   []string
		check  func(*ent.PaymentIntentMutation) string
	}{
		{name: "nothing given writes nothing", status: paymentintent.StatusRequiresPaymentMethod},
		{name: "a closed set", status: paymentintent.StatusRequiresPaymentMethod,
			f:    PaymentFields{CaptureMethod: str("manual"), SetupFutureUsage: str("off_session")},
			want: []string{paymentintent.FieldCaptureMethod, paymentintent.FieldSetupFutureUsage},
			check: func(m *ent.PaymentIntentMutation) string {
				if v, _ := m.CaptureMethod(); v != paymentintent.CaptureMethodManual {
					return "capture_method " + string(v)
				}
				return ""
			}},
		{name: "session_expiry moves expires_on from the creation", status: paymentintent.StatusRequiresConfirmation,
			f:    PaymentFields{SessionExpiry: i64(60)},
			want: []string{paymentintent.FieldSessionExpiry, paymentintent.FieldExpiresOn},
			check: func(m *ent.PaymentIntentMutation) string {
				if v, _ := m.ExpiresOn(); !v.Equal(created.Add(time.Minute)) {
					return "expires_on " + v.String()
				}
				return ""
			}},
		{name: "v2's statement_descriptor is v1's column", status: paymentintent.StatusRequiresPaymentMethod,
			f: PaymentFields{IntentStatementDescriptor: str("SHOP")}, want: []string{paymentintent.FieldStatementDescriptor}},
		{name: "an active attempt set", status: paymentintent.StatusRequiresPaymentMethod,
			f: PaymentFields{ActiveAttempt: &ActiveAttemptChange{ID: "att_1"}}, want: []string{paymentintent.FieldActiveAttemptID}},
		{name: "an active attempt unset", status: paymentintent.StatusRequiresPaymentMethod,
			f: PaymentFields{ActiveAttempt: &ActiveAttemptChange{Unset: true}},
			check: func(m *ent.PaymentIntentMutation) string {
				if !m.ActiveAttemptIDCleared() {
					return "active_attempt_id not cleared"
				}
				return ""
			}},
		{name: "a payment method to a payment waiting for one", status: paymentintent.StatusRequiresPaymentMethod,
			f:    PaymentFields{PaymentMethod: &customer.PaymentMethodInput{Type: "card", Subtype: "credit"}},
			want: []string{paymentintent.FieldPaymentMethod, paymentintent.FieldPaymentMethodType, paymentintent.FieldStatus},
			check: func(m *ent.PaymentIntentMutation) string {
				if v, _ := m.Status(); v != paymentintent.StatusRequiresConfirmation {
					return "status " + string(v)
				}
				return ""
			}},
		{name: "a payment method to a payment waiting for its confirm", status: paymentintent.StatusRequiresConfirmation,
			f:    PaymentFields{PaymentMethod: &customer.PaymentMethodInput{Type: "wallet"}},
			want: []string{paymentintent.FieldPaymentMethod}},
		{name: "the documents", status: paymentintent.StatusRequiresPaymentMethod,
			f:    PaymentFields{Metadata: map[string]any{"k": "v"}, ConnectorMetadata: map[string]any{}, OrderDetails: orderLines(1)},
			want: []string{paymentintent.FieldMetadata, paymentintent.FieldConnectorMetadata, paymentintent.FieldOrderDetails}},
		{name: "the values", status: paymentintent.StatusRequiresPaymentMethod,
			f:    PaymentFields{AmountToCapture: i64(5), MerchantReferenceID: str("r1"), OffSession: new(bool)},
			want: []string{paymentintent.FieldAmountToCapture, paymentintent.FieldMerchantReferenceID, paymentintent.FieldOffSession}},
	} {
		m := ent.NewClient().PaymentIntent.Create().Mutation()
		writeFields(m, created, tc.status, &tc.f)
		got := m.Fields()
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: writes %v, want %v", tc.name, got, want)
		}
		if tc.check != nil {
			if msg := tc.check(m); msg != "" {
				t.Errorf("%s: %s", tc.name, msg)
			}
		}
	}
}
