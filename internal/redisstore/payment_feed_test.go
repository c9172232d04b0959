package redisstore_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"switchyard/internal/redisstore"
)

// within bounds each wait for a change: generous, it only keeps a broken
// test from hanging.
const within = 30 * time.Second

func newFeed(t *testing.T) *redisstore.PaymentFeed {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	f := redisstore.NewPaymentFeed(rdb, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(f.Close)
	return f
}

func receive(t *testing.T, ch <-chan string) (string, bool) {
	t.Helper()
	select {
	case id, ok := <-ch:
		return id, ok
	case <-time.After(within):
		t.Fatal("no change within the wait")
		return "", false
	}
}

// TestPaymentFeedPerMerchant: a follower hears its merchant's changes in
// order, and none of another merchant's; ending its context ends it.
func TestPaymentFeedPerMerchant(t *testing.T) {
	f := newFeed(t)
	ctxA, endA := context.WithCancel(context.Background())
	a, err := f.Follow(ctxA, "merchant_a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.Follow(context.Background(), "merchant_b")
	if err != nil {
		t.Fatal(err)
	}
	if f.Followers("merchant_a") != 1 || f.Followers("merchant_b") != 1 {
		t.Fatalf("followers: %d, %d", f.Followers("merchant_a"), f.Followers("merchant_b"))
	}
	f.Changed("merchant_a", "pay_1")
	f.Changed("merchant_a", "pay_2")
	f.Changed("merchant_b", "pay_3")
	for _, want := range []string{"pay_1", "pay_2"} {
		if got, _ := receive(t, a); got != want {
			t.Fatalf("merchant a heard %q, want %q", got, want)
		}
	}
	if got, _ := receive(t, b); got != "pay_3" {
		t.Fatalf("merchant b first heard %q, want its own pay_3", got)
	}
	endA()
	if _, ok := receive(t, a); ok {
		t.Fatal("a follower whose context ended still hears changes")
	}
}

// TestPaymentFeedDropsAFollowerThatFallsBehind: a follower that leaves
// FollowerBuffer changes unread is ended while its context is still live
// (it has missed changes); the others keep hearing.
func TestPaymentFeedDropsAFollowerThatFallsBehind(t *testing.T) {
	f := newFeed(t)
	slow, err := f.Follow(context.Background(), "merchant_a")
	if err != nil {
		t.Fatal(err)
	}
	fast, err := f.Follow(context.Background(), "merchant_a")
	if err != nil {
		t.Fatal(err)
	}
	n := redisstore.FollowerBuffer + 1
	for i := range n {
		f.Changed("merchant_a", "pay_"+string(rune('a'+i%26)))
		if _, ok := receive(t, fast); !ok {
			t.Fatalf("the reading follower ended after %d changes", i)
		}
	}
	read := 0
	for {
		if _, ok := receive(t, slow); !ok {
			break
		}
		read++
	}
	if read != redisstore.FollowerBuffer {
		t.Fatalf("the slow follower read %d changes before it ended, want %d", read, redisstore.FollowerBuffer)
	}
}
