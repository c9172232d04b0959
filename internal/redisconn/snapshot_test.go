package redisconn

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// openSnapshotting opens an embedded Redis kept in path, on the clock now
// (nil: the wall clock), writing its snapshot every 20 ms.
func openSnapshotting(t *testing.T, path string, now func() time.Time) *Conn {
	t.Helper()
	c, err := Open(context.Background(), "", Embedded{SnapshotPath: path, Now: now, snapshotEvery: 20 * time.Millisecond,
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
	var ahead atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(ahead.Load())) }
	c := openSnapshotting(t, path, now)
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
	ahead.Store(int64(time.Second)) // "short" expires while the process is down

	c = openSnapshotting(t, path, now)
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
// at most the last snapshot interval (a second; 20 ms here): the snapshot
// written while it ran holds its keys.
func TestEmbeddedSnapshotWithoutClose(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "redis.snapshot")
	c := openSnapshotting(t, path, nil)
	defer c.Close()
	if err := c.Client.Set(ctx, "idem:{m1:k2}", "stored", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s, err := readSnapshot(path) // what a restart after kill -9 reads
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Keys) == 1 && s.Keys[0].Key == "idem:{m1:k2}" && string(s.Keys[0].Str) == "stored" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("10 s on, the snapshot holds %+v", s.Keys)
		}
	}
	other := openSnapshotting(t, path, nil) // the restart
	defer other.Close()
	if v, err := other.Client.Get(ctx, "idem:{m1:k2}").Result(); err != nil || v != "stored" {
		t.Fatalf("after the restart: %q (%v)", v, err)
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
