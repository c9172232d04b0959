package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"switchyard/internal/redisstore"
)

// TestSimulatorWebhooksWaitUntilDue: a webhook queued for later is not
// claimed before its due time and is after; a claim pushes it back by the
// lease, and Done removes it. Queued again for an earlier time, a webhook
// keeps its later due time.
func TestSimulatorWebhooksWaitUntilDue(t *testing.T) {
	ctx := context.Background()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	now := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	o := redisstore.NewSimulatorWebhooks(rdb, "mysql://127.0.0.1:3306/shop", func() time.Time { return now })

	claim := func() []string {
		t.Helper()
		cs, err := o.Claim(ctx, 10, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range cs {
			out = append(out, string(c.Webhook))
		}
		return out
	}
	if err := o.Queue(ctx, []byte("now"), now); err != nil {
		t.Fatal(err)
	}
	if err := o.Queue(ctx, []byte("later"), now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := o.Queue(ctx, []byte("later"), now); err != nil { // the same webhook again, earlier
		t.Fatal(err)
	}
	if got := claim(); len(got) != 1 || got[0] != "now" {
		t.Fatalf("claimed %q, want only the due one", got)
	}
	if got := claim(); len(got) != 0 {
		t.Fatalf("claimed %q within the lease", got)
	}
	now = now.Add(time.Minute)
	if got := claim(); len(got) != 2 {
		t.Fatalf("claimed %q once both were due", got)
	}
	if err := o.Done(ctx, redisstore.ClaimedWebhook{Webhook: []byte("now")}); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Minute)
	if got := claim(); len(got) != 1 || got[0] != "later" {
		t.Fatalf("claimed %q after one was done", got)
	}
	// Another database's processes on the same Redis never see them.
	other := redisstore.NewSimulatorWebhooks(rdb, "mysql://127.0.0.1:3306/staging", func() time.Time { return now.Add(time.Hour) })
	if got, err := other.Claim(ctx, 10, time.Second); err != nil || len(got) != 0 {
		t.Fatalf("another database's outbox claimed %q (%v)", got, err)
	}
}
