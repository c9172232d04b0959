package customer

import (
	"testing"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/payments/errs"
)

// TestSavesCard: a payment keeps the card it is paid with for its customer
// when it asks to (setup_future_usage, or the customer's consent), outside
// a mandate set-up, and only a card given now.
func TestSavesCard(t *testing.T) {
	offSession := ptr(paymentintent.SetupFutureUsageOffSession)
	onSession := ptr(paymentintent.SetupFutureUsageOnSession)
	consent := map[string]any{"acceptance_type": "online"}
	card := &PaymentMethodInput{Type: "card", Card: testCard(nil)}
	for _, tc := range []struct {
		name        string
		pi          ent.PaymentIntent
		m           *PaymentMethodInput
		keeps, save bool
	}{
		{"on_session", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: onSession}, card, true, true},
		{"off_session", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: offSession}, card, true, true},
		{"consent", ent.PaymentIntent{CustomerID: ptr("c"), CustomerAcceptance: consent}, card, true, true},
		{"not asked", ent.PaymentIntent{CustomerID: ptr("c")}, card, false, false},
		{"no customer", ent.PaymentIntent{SetupFutureUsage: onSession}, card, true, false},
		{"mandate set-up saves its own", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: offSession,
			MandateData: map[string]any{}}, card, true, false},
		{"no method yet", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: onSession}, nil, true, false},
		{"not a card", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: onSession},
			&PaymentMethodInput{Type: "wallet", Variant: "apple_pay"}, true, false},
		{"a saved card again", ent.PaymentIntent{CustomerID: ptr("c"), SetupFutureUsage: onSession},
			&PaymentMethodInput{Type: "card", Card: testCard(nil), Saved: &ent.PaymentMethod{}}, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KeepsCard(&tc.pi); got != tc.keeps {
				t.Errorf("KeepsCard %v, want %v", got, tc.keeps)
			}
			if got := SavesCard(&tc.pi, tc.m); got != tc.save {
				t.Errorf("SavesCard %v, want %v", got, tc.save)
			}
		})
	}
}

// TestChargesOffSession: a kept card may be charged without the customer
// only when the payment set it up off_session.
func TestChargesOffSession(t *testing.T) {
	for _, tc := range []struct {
		usage *paymentintent.SetupFutureUsage
		want  bool
	}{
		{nil, false},
		{ptr(paymentintent.SetupFutureUsageOnSession), false},
		{ptr(paymentintent.SetupFutureUsageOffSession), true},
	} {
		if got := chargesOffSession(&ent.PaymentIntent{SetupFutureUsage: tc.usage}); got != tc.want {
			t.Errorf("%v: %v", tc.usage, got)
		}
	}
}

func TestCheckNewDefault(t *testing.T) {
	for _, tc := range []struct {
		name    string
		current *string
		want    *refusal
	}{
		{"no default yet", nil, nil},
		{"another default", ptr("pm_2"), nil},
		{"already the default", ptr("pm_1"), &refusal{errs.ErrAlreadyDefault, "", "already set as default"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkRefusal(t, checkNewDefault(&ent.Customer{DefaultPaymentMethodID: tc.current}, "pm_1"), tc.want)
		})
	}
}
