package redisconn_test

import (
	"context"
	"testing"
	"time"

	"switchyard/internal/redisconn"
	"switchyard/internal/testenv"
)

// TestRealRedis runs against the test Redis (SWITCHYARD_TEST_REDIS_URL, a
// database of this process's own). CI must set it.
func TestRealRedis(t *testing.T) {
	url := testenv.RedisURL(t)
	if url == "" {
		testenv.Skip(t, "no "+testenv.EnvRedisURL, "the real Redis is not tested")
	}
	ctx := context.Background()
	c, err := redisconn.Open(ctx, url, redisconn.Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Embedded {
		t.Error("Embedded = true for a real URL")
	}
	if err := c.Client.Set(ctx, "k", "v", 10*time.Second).Err(); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Client.Get(ctx, "k").Result(); err != nil || got != "v" {
		t.Errorf("Get = %q, %v", got, err)
	}
}
