package payouts

import (
	"testing"

	"switchyard/ent"
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
