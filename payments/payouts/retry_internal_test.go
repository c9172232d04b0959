package payouts

import (
	"testing"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/payments/connector"
	"switchyard/payments/gsm"
)

// TestWhenACreationIsRetried: decideRetry's table.
func TestWhenACreationIsRetried(t *testing.T) {
	two := 2
	on, off, budget2 := &ent.Profile{IsAutoRetriesEnabled: true}, &ent.Profile{}, &ent.Profile{IsAutoRetriesEnabled: true, MaxAutoRetriesEnabled: &two}
	yes, no := gsm.Verdict{Retry: true}, gsm.Verdict{}
	tests := []struct {
		name     string
		verdict  gsm.Verdict
		attempts int
		prof     *ent.Profile
		hasNext  bool
		want     bool
	}{
		{"allowed", yes, 1, on, true, true},
		{"the rules say no", no, 1, on, true, false},
		{"retries off", yes, 1, off, true, false},
		{"no next processor", yes, 1, on, false, false},
		{"the default budget of one spent", yes, 2, on, true, false},
		{"a budget of two", yes, 2, budget2, true, true},
		{"a budget of two spent", yes, 3, budget2, true, false},
	}
	for _, tt := range tests {
		if got := decideRetry(tt.verdict, tt.attempts, tt.prof, tt.hasNext); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWhichAnswersMayGoToTheNextProcessor: retryable's table.
func TestWhichAnswersMayGoToTheNextProcessor(t *testing.T) {
	decline := &connector.Decline{Code: "insufficient_balance"}
	failed := outcome{status: payout.StatusFailed, changed: true, decline: decline}
	tests := []struct {
		name      string
		current   payout.Status
		o         outcome
		hasMethod bool
		want      bool
	}{
		{"a declined creation", payout.StatusRequiresCreation, failed, true, true},
		{"a declined fulfilment", payout.StatusInitiated, failed, true, true},
		{"no answer to a fulfilment: the money may have moved", payout.StatusInitiated, outcome{status: payout.StatusInitiated}, true, false},
		{"a pending fulfilment", payout.StatusInitiated, outcome{status: payout.StatusPending, changed: true}, true, false},
		{"a failure without a decline", payout.StatusInitiated, outcome{status: payout.StatusFailed, changed: true}, true, false},
		{"ineligible", payout.StatusRequiresCreation, outcome{status: payout.StatusIneligible, changed: true, decline: decline}, true, false},
		{"no method to create it elsewhere", payout.StatusInitiated, failed, false, false},
		{"a sync's answer to a pending payout", payout.StatusPending, failed, true, false},
		{"a late answer to a settled payout", payout.StatusSuccess, failed, true, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.current, tt.o, tt.hasMethod); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
