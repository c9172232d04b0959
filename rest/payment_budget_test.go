package rest_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// Round trips of one POST /payments with confirm: true (card, automatic
// capture, an Idempotency-Key, a profile with a webhook URL), once the
// process has the API key and the profile's configuration in memory: the
// budget docs/performance.md explains, pinned so that it cannot creep back.
const (
	// Statements: the payment, inserted already processing, and its
	// pending attempt; then the payment's outcome (which locks it, on the
	// version the first transaction left), the attempt's, the capture, the
	// event and its delivery task.
	paymentStatementBudget = 7
	// Redis round trips: the API key; the Idempotency-Key's lease with the
	// merchant's configuration version (profile, accounts and routing) in
	// one pipeline; the sandbox connector's ledger; the key's result.
	paymentRedisBudget = 4
)

// TestPaymentRoundTripBudget counts what one payment sends to the database
// and to Redis.
func TestPaymentRoundTripBudget(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	c := &client{t: t, srv: srv}
	withWebhook(t, c, http.NotFoundHandler(), nil)
	redisCalls := &commandCounter{}
	srv.Redis.Client.AddHook(redisCalls)
	pay := func() (statements []string, commands []string) {
		t.Helper()
		reqID := "budget-" + ids.Base62(12)
		redisCalls.reset()
		r := c.doWith("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card("4242424242424242")}), map[string]string{"X-Request-Id": reqID, "Idempotency-Key": reqID}).must(t, 200)
		if r.str("status") != "succeeded" {
			t.Fatalf("payment: %s", r.Raw)
		}
		return counter.Statements(reqID), redisCalls.taken()
	}
	pay() // the key and the configuration are cached from here on
	statements, commands := pay()
	if len(statements) > paymentStatementBudget {
		t.Errorf("a payment sent %d SQL statements, over its budget of %d:\n%s", len(statements), paymentStatementBudget, strings.Join(statements, "\n"))
	}
	if len(commands) > paymentRedisBudget {
		t.Errorf("a payment made %d Redis round trips, over its budget of %d:\n%s", len(commands), paymentRedisBudget, strings.Join(commands, "\n"))
	}
	t.Logf("create+confirm: %d SQL statements, %d Redis round trips\n%s\n%s", len(statements), len(commands),
		strings.Join(statements, "\n"), strings.Join(commands, "\n"))
}

// commandCounter is a go-redis hook that records command names.
type commandCounter struct {
	mu   sync.Mutex
	cmds []string
}

func (h *commandCounter) reset() {
	h.mu.Lock()
	h.cmds = nil
	h.mu.Unlock()
}

func (h *commandCounter) taken() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.cmds...)
}

func (h *commandCounter) add(names ...string) {
	h.mu.Lock()
	h.cmds = append(h.cmds, names...)
	h.mu.Unlock()
}

func (h *commandCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *commandCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.add(cmd.Name())
		return next(ctx, cmd)
	}
}

// ProcessPipelineHook counts a pipeline as one round trip. The live
// updates' PUBLISH pipelines are not the payment's: they are sent after
// commit by the feed's own goroutine, off the request's path, with the
// changes of every request since the last one (docs/graphql.md#live-updates).
func (h *commandCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		names := make([]string, len(cmds))
		published := true
		for i, c := range cmds {
			names[i] = c.Name()
			published = published && c.Name() == "publish"
		}
		if published {
			return next(ctx, cmds)
		}
		h.add("pipeline(" + strings.Join(names, ",") + ")")
		return next(ctx, cmds)
	}
}
