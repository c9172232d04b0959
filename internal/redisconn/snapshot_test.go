package redisconn

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func openSnapshotting(t *testing.T, path string) *Conn {
	t.Helper()
	c, err := Open(context.Background(), "", Embedded{SnapshotPath: path,
		Transient: func(k string) bool { return strings.HasPrefix(k, "transient:") }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEmbeddedSurvivesRestart: what the embedded Redis holds is there again
// after a graceful restart, every type Switchyard writes, with what is left
// of each TTL; transient keys are not.
func TestEmbeddedSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "redis.snapshot")
	c := openSnapshotting(t, path)
	rdb := c.Client
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(rdb.Set(ctx, "idem:{m1:k1}", "\x00binary\xff", time.Hour).Err())
	must(rdb.Set(ctx, "forever", "v", 0).Err())
	must(rdb.HSet(ctx, "cursors:{m1}", "a", "1", "b", "2").Err())
	must(rdb.Expire(ctx, "cursors:{m1}", time.Hour).Err())
	must(rdb.SAdd(ctx, "set", "x", "y").Err())
	must(rdb.RPush(ctx, "list", "1", "2", "3").Err())
	must(rdb.ZAdd(ctx, "zset", redis.Z{Score: 2, Member: "b"}, redis.Z{Score: 1, Member: "a"}).Err())
	must(rdb.Set(ctx, "transient:card", "sealed", time.Hour).Err())
	must(rdb.Set(ctx, "short", "v", 800*time.Millisecond).Err())
	must(c.Close())
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("snapshot %v, mode %v; want owner-only", err, info.Mode().Perm())
	}
	time.Sleep(time.Second) // "short" expires while the process is down

	c = openSnapshotting(t, path)
	defer c.Close()
	rdb = c.Client
	if v, err := rdb.Get(ctx, "idem:{m1:k1}").Result(); err != nil || v != "\x00binary\xff" {
		t.Errorf("string: %q %v", v, err)
	}
	if ttl := rdb.TTL(ctx, "idem:{m1:k1}").Val(); ttl <= 55*time.Minute || ttl > time.Hour {
		t.Errorf("TTL after restart %v, want what was left of an hour", ttl)
	}
	if ttl := rdb.TTL(ctx, "forever").Val(); ttl != -1 {
		t.Errorf("a key without expiry got TTL %v", ttl)
	}
	if v := rdb.HGetAll(ctx, "cursors:{m1}").Val(); v["a"] != "1" || v["b"] != "2" {
		t.Errorf("hash: %v", v)
	}
	if v := rdb.SMembers(ctx, "set").Val(); len(v) != 2 {
		t.Errorf("set: %v", v)
	}
	if v := rdb.LRange(ctx, "list", 0, -1).Val(); strings.Join(v, ",") != "1,2,3" {
		t.Errorf("list: %v", v)
	}
	if v := rdb.ZRange(ctx, "zset", 0, -1).Val(); strings.Join(v, ",") != "a,b" {
		t.Errorf("zset: %v", v)
	}
	for _, gone := range []string{"transient:card", "short"} {
		if err := rdb.Get(ctx, gone).Err(); !errors.Is(err, redis.Nil) {
			t.Errorf("%s after the restart: %v, want gone", gone, err)
		}
	}
}

// TestEmbeddedSnapshotWithoutClose: a process killed without closing loses
// at most the last second: the snapshot written while it ran holds its keys.
func TestEmbeddedSnapshotWithoutClose(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "redis.snapshot")
	c := openSnapshotting(t, path)
	defer c.Close()
	if err := c.Client.Set(ctx, "idem:{m1:k2}", "stored", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(snapshotEvery + 500*time.Millisecond)
	other := openSnapshotting(t, path) // what a restart after kill -9 reads
	defer other.Close()
	if v, err := other.Client.Get(ctx, "idem:{m1:k2}").Result(); err != nil || v != "stored" {
		t.Fatalf("after a second, the snapshot holds %q (%v)", v, err)
	}
}

// TestEmbeddedIsPrivate: the embedded Redis listens on loopback only and
// answers nobody without the password made at its start.
func TestEmbeddedIsPrivate(t *testing.T) {
	c, err := Open(context.Background(), "", Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	host, _, _ := net.SplitHostPort(c.server.Addr())
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		t.Fatalf("listens on %s", c.server.Addr())
	}
	stranger := redis.NewClient(&redis.Options{Addr: c.server.Addr(), MaxRetries: -1})
	defer stranger.Close()
	if err := stranger.Set(context.Background(), "k", "v", 0).Err(); err == nil || !strings.Contains(err.Error(), "NOAUTH") {
		t.Fatalf("a client without the password: %v", err)
	}
}
