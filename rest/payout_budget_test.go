package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// Round trips of one POST /payouts/create with confirm: true and
// auto_fulfill: true (card 4242…, an Idempotency-Key, a profile with a
// webhook URL), once the process has the API key and the profile's
// configuration in memory, pinned so that they cannot creep back
// (docs/performance.md#paying-out).
const (
	// Statements: the payout, inserted (its Idempotency-Key's unique index
	// refuses a second); then, under the payout's row lock, its attempt
	// reserved requires_creation before the connector creates it (the
	// lock, the attempt, the payout); then the creation's answer, which
	// also reserves the fulfilment before the money moves (the lock, the
	// customer the recipient is saved for, the attempt and the payout
	// initiated, the attempts for the event, the payout_initiated event and
	// its delivery task); then the fulfilment's outcome (the lock, the
	// attempt, the payout, the attempts for the event, the payout_success
	// event and its delivery task); then the attempts for the answer.
	payoutStatementBudget = 18
	// Redis round trips: the API key; the Idempotency-Key's lease with the
	// merchant's configuration version (profile and accounts) in one
	// pipeline; the sandbox connector's record of the creation, its read
	// and its two writes around the fulfilment's debit of its ledger
	// (evalsha); the key's result (evalsha).
	payoutRedisBudget = 8
)

// TestPayoutRoundTripBudget counts what one payout sends to the database
// and to Redis.
func TestPayoutRoundTripBudget(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	c := &client{t: t, srv: srv}
	payoutProcessor(t, c, "adyen")
	withWebhook(t, c, http.NotFoundHandler(), nil)
	redisCalls := &commandCounter{}
	srv.Redis.Client.AddHook(redisCalls)
	payout := func() (statements []string, commands []string) {
		t.Helper()
		reqID := "budget-" + ids.Base62(12)
		redisCalls.reset()
		r := c.doWith("POST", "/payouts/create", c.merchantKey(), payoutRequestOf(map[string]any{"confirm": true, "auto_fulfill": true}),
			map[string]string{"X-Request-Id": reqID, "Idempotency-Key": reqID}).must(t, 200)
		if r.str("status") != "success" {
			t.Fatalf("payout: %s", r.Raw)
		}
		return counter.Statements(reqID), redisCalls.taken()
	}
	payout() // the key and the configuration are cached from here on
	statements, commands := payout()
	if len(statements) > payoutStatementBudget {
		t.Errorf("a payout sent %d SQL statements, over its budget of %d:\n%s", len(statements), payoutStatementBudget, strings.Join(statements, "\n"))
	}
	if len(commands) > payoutRedisBudget {
		t.Errorf("a payout made %d Redis round trips, over its budget of %d:\n%s", len(commands), payoutRedisBudget, strings.Join(commands, "\n"))
	}
	t.Logf("create+confirm+fulfil: %d SQL statements, %d Redis round trips\n%s\n%s", len(statements), len(commands),
		strings.Join(statements, "\n"), strings.Join(commands, "\n"))
}
