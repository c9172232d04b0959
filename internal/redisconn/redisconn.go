// Package redisconn owns the one Redis connection the process uses: a
// go-redis client for SWITCHYARD_REDIS_URL, or, when no URL is given, an
// in-process miniredis reached through the same client (one code path).
package redisconn

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// pingTimeout bounds the connectivity check in Open.
const pingTimeout = 2 * time.Second

// tick is how often the embedded server's clock is advanced, so TTLs expire
// in real time (miniredis only expires keys when told time has passed).
const tick = 250 * time.Millisecond

// Conn is an open Redis connection.
type Conn struct {
	Client   redis.UniversalClient
	Embedded bool // in-process miniredis

	server *miniredis.Miniredis // embedded only
	stop   chan struct{}
	done   sync.WaitGroup
}

// Open connects to the Redis at rawURL (redis:// or rediss://) and checks it
// answers PING within 2 seconds. An empty rawURL starts an embedded
// in-process Redis on 127.0.0.1 instead.
func Open(ctx context.Context, rawURL string) (*Conn, error) {
	if rawURL == "" {
		return openEmbedded()
	}
	if u, err := url.Parse(rawURL); err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error repeats the URL, password included
		}
		return nil, fmt.Errorf("redis URL: %v", err)
	} else if u.Scheme != "redis" && u.Scheme != "rediss" {
		return nil, fmt.Errorf("redis URL: unsupported scheme %q (want redis:// or rediss://)", u.Scheme)
	}
	opts, err := redis.ParseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %v", err)
	}
	// NewClient rather than NewUniversalClient: with one address the latter
	// builds exactly this client, and Options keeps every URL query setting
	// (pool_size, timeouts, protocol…) without copying fields by hand.
	client := redis.NewClient(opts)
	if err := ping(ctx, client); err != nil {
		client.Close()
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return nil, fmt.Errorf("redis at %s: %v", opts.Addr, err)
		}
		return nil, fmt.Errorf("redis at %s unreachable: %v", opts.Addr, err)
	}
	return &Conn{Client: client}, nil
}

func ping(ctx context.Context, c redis.UniversalClient) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	return c.Ping(ctx).Err()
}

func openEmbedded() (*Conn, error) {
	server := miniredis.NewMiniRedis()
	if err := server.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("embedded redis: %w", err)
	}
	c := &Conn{
		Client:   redis.NewClient(&redis.Options{Addr: server.Addr()}),
		Embedded: true,
		server:   server,
		stop:     make(chan struct{}),
	}
	c.done.Go(c.advanceClock)
	return c, nil
}

// advanceClock moves the embedded server's clock forward with the wall clock
// until Close.
func (c *Conn) advanceClock() {
	t := time.NewTicker(tick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-c.stop:
			return
		case now := <-t.C:
			c.server.FastForward(now.Sub(last))
			last = now
		}
	}
}

// Close closes the client and, when embedded, stops the clock and the server.
func (c *Conn) Close() error {
	err := c.Client.Close()
	if c.Embedded {
		close(c.stop)
		c.done.Wait()
		c.server.Close()
	}
	return err
}
