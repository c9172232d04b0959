package redisconn

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestEmbeddedTTLExpires: the embedded Redis's TTLs run on its clock (the
// wall clock, or Embedded.Now): a key expires once the clock has passed it.
func TestEmbeddedTTLExpires(t *testing.T) {
	ctx := context.Background()
	var ahead atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	c, err := Open(ctx, "", Embedded{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !c.Embedded {
		t.Error("Embedded = false for an empty URL")
	}
	if err := c.Client.Set(ctx, "k", "v", time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Client.Get(ctx, "k").Result(); err != nil || got != "v" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	ahead.Store(int64(1600 * time.Millisecond))
	deadline := time.Now().Add(10 * tick)
	for err := c.Client.Get(ctx, "k").Err(); !errors.Is(err, redis.Nil); err = c.Client.Get(ctx, "k").Err() {
		if time.Now().After(deadline) {
			t.Fatalf("1.6 s on, Get err = %v, want redis.Nil (TTL did not expire)", err)
		}
		time.Sleep(tick / 10) // the clock is read every tick
	}
}

func TestEmbeddedClose(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, "", Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	addr := c.server.Addr()
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	other := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer other.Close()
	if err := other.Ping(ctx).Err(); err == nil {
		t.Error("embedded server still answers after Close")
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name, url, prefix string
	}{
		{"unreachable", "redis://127.0.0.1:1", "redis at 127.0.0.1:1 unreachable: "},
		{"bad scheme", "http://127.0.0.1:6379", `redis URL: unsupported scheme "http" (want redis:// or rediss://)`},
		{"malformed", "redis://:s3cret@host:port", `redis URL: malformed URL: invalid port ":port" after host`},
		{"bad db", "redis://127.0.0.1:6379/x", `redis URL: invalid database number: "x"`},
		{"cluster unreachable", "redis://:s3cret@127.0.0.1:1?addr=127.0.0.1:2", "redis at 127.0.0.1:1,127.0.0.1:2 unreachable: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			c, err := Open(context.Background(), tt.url, Embedded{})
			if err == nil {
				c.Close()
				t.Fatal("Open succeeded")
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("Open took %v, want under 3s", d)
			}
			if !strings.HasPrefix(err.Error(), tt.prefix) || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error = %q, want prefix %q and no password", err, tt.prefix)
			}
		})
	}
}
