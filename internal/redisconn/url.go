package redisconn

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"switchyard/internal/secrets"

	"github.com/redis/go-redis/v9"
)

// target is what a SWITCHYARD_REDIS_URL names: one server, or a Redis
// Cluster reached through its seed nodes. Exactly one is set.
type target struct {
	single  *redis.Options
	cluster *redis.ClusterOptions
}

// addr names the target in messages: the server, or the first seed.
func (t target) addr() string {
	if t.cluster != nil {
		return strings.Join(t.cluster.Addrs, ",")
	}
	return t.single.Addr
}

// client is a new go-redis client for the target.
func (t target) client() redis.UniversalClient {
	// NewClient and NewClusterClient rather than NewUniversalClient: the
	// Options and ClusterOptions the URL parsers fill keep every query
	// setting (pool_size, timeouts, protocol…) without copying fields by
	// hand into UniversalOptions.
	if t.cluster != nil {
		return redis.NewClusterClient(t.cluster)
	}
	return redis.NewClient(t.single)
}

// CheckURL reports what is wrong with a SWITCHYARD_REDIS_URL, in words
// that never repeat its password; nil when Open would accept it.
func CheckURL(rawURL string) error {
	_, err := parseURL(rawURL)
	return err
}

// parseURL reads one of the forms docs/configuration.md lists:
//
//	redis://[user:pass@]host:6379[/db][?option=…]                   one server
//	redis://[user:pass@]host1:7001?addr=host2:7002&addr=host3:7003  a Redis Cluster, from its seed nodes
//	redis://[user:pass@]host:7001?cluster=true                      a Redis Cluster, from one seed (a configuration endpoint)
//
// rediss:// is the same over TLS. The options are go-redis's (ParseURL,
// ParseClusterURL): snake-case field names such as pool_size or
// read_timeout.
func parseURL(rawURL string) (target, error) {
	u, err := secrets.ParseURL(rawURL)
	if err != nil {
		return target{}, err
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return target{}, fmt.Errorf("unsupported scheme %q (want redis:// or rediss://)", u.Scheme)
	}
	q := u.Query()
	cluster, plain := q.Has("addr"), rawURL
	if q.Has("cluster") {
		on, err := strconv.ParseBool(q.Get("cluster"))
		if err != nil {
			return target{}, fmt.Errorf("cluster=%q is not true or false", q.Get("cluster"))
		}
		if !on && cluster {
			return target{}, errors.New("addr names more seed nodes of a Redis Cluster: drop cluster=false")
		}
		cluster = on
		q.Del("cluster") // ours, not go-redis's: it refuses options it does not know
		u.RawQuery = q.Encode()
		plain = u.String()
	}
	if !cluster {
		opts, err := redis.ParseURL(plain)
		if err != nil {
			return target{}, errors.New(strings.TrimPrefix(err.Error(), "redis: "))
		}
		return target{single: opts}, nil
	}
	// A Redis Cluster serves database 0 only (SELECT is refused).
	if p := strings.Trim(u.Path, "/"); p != "" && p != "0" {
		return target{}, fmt.Errorf("a Redis Cluster has database 0 only, not %q", p)
	}
	u.Path = ""
	opts, err := redis.ParseClusterURL(u.String())
	if err != nil {
		return target{}, errors.New(strings.TrimPrefix(err.Error(), "redis: "))
	}
	return target{cluster: opts}, nil
}
