package payouts

import (
	"errors"
	"testing"

	"switchyard/ent/event"
	"switchyard/ent/payout"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

var allStatuses = []payout.Status{
	payout.StatusRequiresCreation, payout.StatusRequiresConfirmation, payout.StatusRequiresPayoutMethodData,
	payout.StatusRequiresFulfillment, payout.StatusInitiated, payout.StatusPending, payout.StatusSuccess,
	payout.StatusFailed, payout.StatusCancelled, payout.StatusIneligible, payout.StatusRequiresVendorAccountCreation,
	payout.StatusReversed, payout.StatusExpired,
}

// TestWhichStatusesTakeWhichOperation: each operation against every
// status, as Hyperswitch's payout helpers allow them.
func TestWhichStatusesTakeWhichOperation(t *testing.T) {
	confirmable := map[payout.Status]bool{payout.StatusRequiresCreation: true, payout.StatusRequiresConfirmation: true,
		payout.StatusRequiresPayoutMethodData: true, payout.StatusRequiresVendorAccountCreation: true}
	for _, s := range allStatuses {
		ended := isTerminal(s)
		if err := decideConfirm("p", s, true); (err == nil) != confirmable[s] {
			t.Errorf("confirm of %s: %v", s, err)
		}
		if err := decideFulfil("p", s); (err == nil) != (s == payout.StatusRequiresFulfillment) {
			t.Errorf("fulfil of %s: %v", s, err)
		}
		if err := decideUpdate("p", s, false); (err == nil) != (!ended && !inFlight(s)) {
			t.Errorf("update of %s: %v", s, err)
		}
		step, err := decideCancel("p", s)
		switch {
		case ended && (err == nil || !errors.Is(err, errs.ErrPayoutStatusInvalid)):
			t.Errorf("cancel of ended %s: %v", s, err)
		case !ended && confirmable[s] && step != cancelLocally:
			t.Errorf("cancel of %s: step %d, want local", s, step)
		case !ended && !confirmable[s] && step != cancelAtConnector:
			t.Errorf("cancel of %s: step %d, want at the connector", s, step)
		}
	}
	if err := decideConfirm("p", payout.StatusRequiresPayoutMethodData, false); !errors.Is(err, errs.ErrMissingField) {
		t.Errorf("confirm without a method: %v", err)
	}
	if err := decideUpdate("p", payout.StatusRequiresFulfillment, true); err == nil {
		t.Error("the amount of a created payout changed")
	}
}

// TestWhatAnAnswerMakesOfAPayout: decideAnswer's table.
func TestWhatAnAnswerMakesOfAPayout(t *testing.T) {
	decline := &connector.Decline{Code: "payout_declined", Message: "declined"}
	tests := []struct {
		name    string
		current payout.Status
		res     *connector.PayoutResult
		callErr error
		want    payout.Status
		changed bool
	}{
		{"no answer changes nothing", payout.StatusInitiated, nil, errors.New("timeout"), payout.StatusInitiated, false},
		{"success", payout.StatusInitiated, &connector.PayoutResult{Status: connector.PayoutSuccess}, nil, payout.StatusSuccess, true},
		{"pending", payout.StatusInitiated, &connector.PayoutResult{Status: connector.PayoutPending}, nil, payout.StatusPending, true},
		{"pending then success", payout.StatusPending, &connector.PayoutResult{Status: connector.PayoutSuccess}, nil, payout.StatusSuccess, true},
		{"failed", payout.StatusInitiated, &connector.PayoutResult{Status: connector.PayoutFailed, Decline: decline}, nil, payout.StatusFailed, true},
		{"reversed after success", payout.StatusSuccess, &connector.PayoutResult{Status: connector.PayoutReversed}, nil, payout.StatusReversed, true},
		{"a late failure after success changes nothing", payout.StatusSuccess, &connector.PayoutResult{Status: connector.PayoutFailed}, nil, payout.StatusSuccess, false},
		{"the same status changes nothing", payout.StatusPending, &connector.PayoutResult{Status: connector.PayoutPending}, nil, payout.StatusPending, false},
		{"never received goes back", payout.StatusInitiated, &connector.PayoutResult{Status: connector.PayoutRequiresFulfillment}, nil, payout.StatusRequiresFulfillment, true},
		{"created", payout.StatusRequiresCreation, &connector.PayoutResult{Status: connector.PayoutRequiresFulfillment}, nil, payout.StatusRequiresFulfillment, true},
		{"ineligible", payout.StatusRequiresCreation, &connector.PayoutResult{Status: connector.PayoutIneligible}, nil, payout.StatusIneligible, true},
		{"an unknown status changes nothing", payout.StatusInitiated, &connector.PayoutResult{Status: "weird"}, nil, payout.StatusInitiated, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := decideAnswer(tt.current, tt.res, tt.callErr)
			if o.status != tt.want || o.changed != tt.changed {
				t.Fatalf("got %s changed=%v, want %s changed=%v", o.status, o.changed, tt.want, tt.changed)
			}
		})
	}
}

// TestEachStatusEvent: the statuses that write an event, and which.
func TestEachStatusEvent(t *testing.T) {
	want := map[payout.Status]event.EventType{
		payout.StatusSuccess: event.EventTypePayoutSuccess, payout.StatusFailed: event.EventTypePayoutFailed,
		payout.StatusIneligible: event.EventTypePayoutFailed, payout.StatusPending: event.EventTypePayoutProcessing,
		payout.StatusCancelled: event.EventTypePayoutCancelled, payout.StatusInitiated: event.EventTypePayoutInitiated,
		payout.StatusExpired: event.EventTypePayoutExpired, payout.StatusReversed: event.EventTypePayoutReversed,
	}
	for _, s := range allStatuses {
		got, ok := eventOf(s)
		if w, has := want[s]; ok != has || got != w {
			t.Errorf("%s: event %q %v, want %q", s, got, ok, w)
		}
	}
}

// TestMaskedKeepsNoNumber: the masked method keeps the last four digits,
// never the whole number, and a masked e-mail.
func TestMaskedKeepsNoNumber(t *testing.T) {
	card := masked(&Method{Type: "card", Card: &Card{Number: "4242424242424242", ExpMonth: "12", ExpYear: "2035"}})["card"].(map[string]any)
	if card["last4"] != "4242" || card["card_isin"] != "424242" {
		t.Fatalf("card: %v", card)
	}
	bank := masked(&Method{Type: "bank", Subtype: "sepa", AccountNumber: "DE89370400440532013000", BankCode: "COBADEFFXXX"})["bank"].(map[string]any)
	if bank["iban"] != "******************3000" {
		t.Fatalf("iban: %v", bank)
	}
	wallet := masked(&Method{Type: "wallet", Subtype: "paypal", Email: "ada@example.com"})["wallet"].(map[string]any)
	if wallet["email"] != "a**@example.com" {
		t.Fatalf("email: %v", wallet)
	}
}

func TestDecideFulfilAtOnce(t *testing.T) {
	created := outcome{status: payout.StatusRequiresFulfillment, changed: true}
	cases := []struct {
		name                   string
		current                payout.Status
		o                      outcome
		autoFulfill, inConfirm bool
		want                   payout.Status
		reserved               bool
	}{
		{"a confirm's auto-fulfilling creation", payout.StatusRequiresCreation, created, true, true, payout.StatusInitiated, true},
		{"without auto_fulfill", payout.StatusRequiresCreation, created, false, true, payout.StatusRequiresFulfillment, false},
		{"outside a confirm (recovery)", payout.StatusRequiresCreation, created, true, false, payout.StatusRequiresFulfillment, false},
		{"a fulfilment's answer", payout.StatusInitiated, created, true, true, payout.StatusRequiresFulfillment, false},
		{"a failed creation", payout.StatusRequiresCreation, outcome{status: payout.StatusFailed, changed: true}, true, true, payout.StatusFailed, false},
		{"no answer", payout.StatusRequiresCreation, outcome{status: payout.StatusRequiresCreation}, true, true, payout.StatusRequiresCreation, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, reserved := decideFulfilAtOnce(c.current, c.o, c.autoFulfill, c.inConfirm)
			if got.status != c.want || reserved != c.reserved {
				t.Errorf("got %s, %v; want %s, %v", got.status, reserved, c.want, c.reserved)
			}
		})
	}
}
