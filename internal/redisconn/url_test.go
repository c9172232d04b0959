package redisconn

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseURL: one server unless the URL names more seed nodes (addr) or
// says cluster=true; options reach either client; a cluster URL with a
// database other than 0, or a contradiction, is refused.
func TestParseURL(t *testing.T) {
	single := []struct {
		url, addr string
		db        int
	}{
		{"redis://127.0.0.1:6379/0", "127.0.0.1:6379", 0},
		{"redis://cache/2", "cache:6379", 2},
		{"redis://127.0.0.1:6379/1?cluster=false&pool_size=7", "127.0.0.1:6379", 1},
	}
	for _, tc := range single {
		got, err := parseURL(tc.url)
		if err != nil || got.cluster != nil || got.single.Addr != tc.addr || got.single.DB != tc.db {
			t.Errorf("%s: %+v, %v; want one server %s db %d", tc.url, got, err, tc.addr, tc.db)
		}
	}

	cluster := []struct {
		url   string
		addrs []string
	}{
		{"redis://127.0.0.1:7001?addr=127.0.0.1:7002&addr=127.0.0.1:7003", []string{"127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003"}},
		{"redis://config.cache.example:6379?cluster=true", []string{"config.cache.example:6379"}},
		{"rediss://u:pw@n1:7001/0?addr=n2:7002&cluster=1&read_timeout=2s", []string{"n1:7001", "n2:7002"}},
	}
	for _, tc := range cluster {
		got, err := parseURL(tc.url)
		if err != nil || got.single != nil || !slices.Equal(got.cluster.Addrs, tc.addrs) {
			t.Errorf("%s: %+v, %v; want a cluster on %v", tc.url, got, err, tc.addrs)
		}
	}
	if got, _ := parseURL(cluster[2].url); got.cluster.Password != "pw" || got.cluster.TLSConfig == nil ||
		got.cluster.ReadTimeout != 2*time.Second {
		t.Errorf("cluster options not kept: %+v", got.cluster)
	}

	for _, tc := range []struct{ url, err string }{
		{"redis://n1:7001/3?addr=n2:7002", `a Redis Cluster has database 0 only, not "3"`},
		{"redis://n1:7001?addr=n2:7002&cluster=false", "addr names more seed nodes of a Redis Cluster: drop cluster=false"},
		{"redis://n1:7001?cluster=maybe", `cluster="maybe" is not true or false`},
		{"redis://n1:7001?addr=n2", "unable to parse addr param: n2"},
		{"redis://n1:7001?addr=n2:7002&db=1", "unexpected option: db"},
	} {
		if _, err := parseURL(tc.url); err == nil || err.Error() != tc.err {
			t.Errorf("%s: error %v, want %q", tc.url, err, tc.err)
		}
	}
	if err := CheckURL("redis://:s3cret@h:port?addr=x:1"); err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("CheckURL = %v, want an error without the password", err)
	}
}
