package testenv

import (
	"context"
	"fmt"
	"maps"
	"net"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// RedisKeys is every key matching pattern (SCAN's glob), sorted: on each
// master of a Redis Cluster, since KEYS or SCAN through a cluster client
// asks one node only, else on the one server.
func RedisKeys(t testing.TB, rdb redis.UniversalClient, pattern string) []string {
	t.Helper()
	var all []string
	for _, keys := range RedisKeysByMaster(t, rdb, pattern) {
		all = append(all, keys...)
	}
	slices.Sort(all)
	return all
}

// RedisKeysByMaster is RedisKeys by the address of the server or master
// that holds them.
func RedisKeysByMaster(t testing.TB, rdb redis.UniversalClient, pattern string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	var mu sync.Mutex
	out := map[string][]string{}
	scan := func(ctx context.Context, node *redis.Client) error {
		seen := map[string]bool{} // SCAN may return a key twice
		it := node.Scan(ctx, 0, pattern, 1000).Iterator()
		for it.Next(ctx) {
			seen[it.Val()] = true
		}
		mu.Lock()
		defer mu.Unlock()
		out[node.Options().Addr] = slices.Sorted(maps.Keys(seen))
		return it.Err()
	}
	var err error
	switch c := rdb.(type) {
	case *redis.ClusterClient:
		err = c.ForEachMaster(ctx, scan)
	case *redis.Client:
		err = scan(ctx, c)
	default:
		t.Fatalf("RedisKeys: a %T is neither one server's client nor a cluster's", rdb)
	}
	if err != nil {
		t.Fatalf("scan %q: %v", pattern, err)
	}
	return out
}

// RedisClusterURL is the SWITCHYARD_REDIS_URL form of the test Redis
// Cluster named by SWITCHYARD_TEST_REDIS_CLUSTER: its first seed node, the
// others as addr options. Without one the test skips, except in CI, where
// it fails.
func RedisClusterURL(t testing.TB) string {
	t.Helper()
	seeds := required(t, EnvRedisCluster, "Redis Cluster test skipped outside CI (go tool task redis:cluster starts one)")
	var u strings.Builder
	for i, seed := range strings.Split(seeds, ",") {
		seed = strings.TrimSpace(seed)
		if host, port, err := net.SplitHostPort(seed); err != nil || host == "" || port == "" {
			t.Fatalf("%s: %q is not host:port", EnvRedisCluster, seed)
		}
		if i == 0 {
			u.WriteString("redis://" + seed + "?cluster=true")
		} else {
			u.WriteString("&addr=" + seed)
		}
	}
	return u.String()
}

// PrivateRedis is a redis-server of the test's own, which it may stop and
// start again on the same port: fault tests never touch the shared Redis.
type PrivateRedis struct {
	t    testing.TB
	bin  string
	port int
	cmd  *exec.Cmd
}

// StartRedis starts a private redis-server on a free loopback port; it is
// killed when the test ends. Without redis-server the test fails in CI and
// is skipped elsewhere.
func StartRedis(t testing.TB) *PrivateRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if InCI() {
			t.Fatalf("redis-server not found: %v", err)
		}
		Skip(t, "no redis-server", err.Error())
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &PrivateRedis{t: t, bin: bin, port: port}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// URL is the server's redis:// URL.
func (r *PrivateRedis) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

// Start runs redis-server on the port and waits until it answers PING.
func (r *PrivateRedis) Start() {
	r.t.Helper()
	cmd := exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no")
	cmd.Dir = r.t.TempDir()
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	r.cmd = cmd
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for !r.answers() {
		select {
		case err := <-exited:
			r.cmd = nil
			r.t.Fatalf("redis-server on port %d exited: %v", r.port, err)
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on port %d not answering", r.port)
		}
		time.Sleep(20 * time.Millisecond)
	}
	go func() { <-exited }() // keep reaping; Stop waits on the port
}

// Stop kills the server and waits until its port no longer answers.
func (r *PrivateRedis) Stop() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	r.cmd = nil
	deadline := time.Now().Add(10 * time.Second)
	for r.answers() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *PrivateRedis) answers() bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(r.port), 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	buf := make([]byte, 7)
	n, _ := c.Read(buf)
	return string(buf[:n]) == "+PONG\r\n"
}
