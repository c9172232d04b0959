package redisconn

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/ids"
)

func TestEmbeddedTTLExpires(t *testing.T) {
	ctx := context.Background()
	c, err := Open(ctx, "", Embedded{})
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
	time.Sleep(1600 * time.Millisecond)
	if err := c.Client.Get(ctx, "k").Err(); !errors.Is(err, redis.Nil) {
		t.Errorf("after 1.6s Get err = %v, want redis.Nil (TTL did not expire)", err)
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

// TestRealRedis runs against SWITCHYARD_TEST_REDIS_URL. CI must set it.
func TestRealRedis(t *testing.T) {
	url := os.Getenv("SWITCHYARD_TEST_REDIS_URL")
	if url == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("SWITCHYARD_TEST_REDIS_URL is not set; CI must test against a real Redis")
		}
		t.Skip("SWITCHYARD_TEST_REDIS_URL not set")
	}
	ctx := context.Background()
	c, err := Open(ctx, url, Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Embedded {
		t.Error("Embedded = true for a real URL")
	}
	key := "switchyard:test:redisconn:" + ids.Base62(16) // shared server: own key
	if err := c.Client.Set(ctx, key, "v", 10*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	defer c.Client.Del(ctx, key)
	if got, err := c.Client.Get(ctx, key).Result(); err != nil || got != "v" {
		t.Errorf("Get = %q, %v", got, err)
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
