package payouts

import (
	"testing"
	"time"

	"switchyard/ent/payout"
)

// TestWhichPayoutsExpire: a payout expires once its session has passed,
// only while it waits for its method or its confirmation; never one a
// processor knows (money may move), nor an ended one.
func TestWhichPayoutsExpire(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	past, future := now.Add(-time.Second), now.Add(time.Second)
	waiting := map[payout.Status]bool{payout.StatusRequiresPayoutMethodData: true, payout.StatusRequiresConfirmation: true,
		payout.StatusRequiresVendorAccountCreation: true}
	for _, s := range allStatuses {
		if got := decideExpiry(s, &past, now); got != waiting[s] {
			t.Errorf("%s past its session: expires %v, want %v", s, got, waiting[s])
		}
		if decideExpiry(s, &future, now) || decideExpiry(s, nil, now) {
			t.Errorf("%s expired before its session ended", s)
		}
	}
}
