// Package redisconn owns the one Redis connection the process uses: a
// go-redis client for SWITCHYARD_REDIS_URL, or, when no URL is given, an
// in-process miniredis reached through the same client (one code path).
// The in-process one listens on loopback only, behind a password made at
// start, and keeps its data in a snapshot file across restarts.
package redisconn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sync"
	"time"

	"switchyard/internal/ids"

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
	opts   Embedded
	stop   chan struct{}
	done   sync.WaitGroup
	saved  int // the server's command count at the last snapshot
}

// Embedded configures the in-process Redis used when no URL is given.
type Embedded struct {
	// SnapshotPath is the file the data is kept in across restarts
	// (written every second and on Close, read at Open); empty keeps
	// nothing.
	SnapshotPath string
	// Transient reports the keys never written to the snapshot (card data
	// waiting in the vault stays in memory only).
	Transient func(key string) bool
}

// Open connects to the Redis at rawURL (redis:// or rediss://) and checks it
// answers PING within 2 seconds. An empty rawURL starts an embedded
// in-process Redis on 127.0.0.1 instead, set up by emb.
func Open(ctx context.Context, rawURL string, emb Embedded) (*Conn, error) {
	if rawURL == "" {
		return openEmbedded(emb)
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

func openEmbedded(opts Embedded) (*Conn, error) {
	server := miniredis.NewMiniRedis()
	if opts.SnapshotPath != "" {
		s, err := readSnapshot(opts.SnapshotPath)
		if err != nil {
			return nil, fmt.Errorf("embedded redis: %w", err)
		}
		if err := restore(server, s, time.Now()); err != nil {
			return nil, fmt.Errorf("embedded redis: %w", err)
		}
	}
	// Loopback only, and a password made now: nothing else on the machine
	// reads what it holds (API keys' cache entries, idempotency records).
	password := ids.Base62(32)
	server.RequireAuth(password)
	if err := server.StartAddr("127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("embedded redis: %w", err)
	}
	c := &Conn{
		Client:   redis.NewClient(&redis.Options{Addr: server.Addr(), Password: password}),
		Embedded: true,
		server:   server,
		opts:     opts,
		stop:     make(chan struct{}),
		saved:    server.CommandCount(),
	}
	c.done.Go(c.advanceClock)
	if opts.SnapshotPath != "" {
		c.done.Go(c.snapshotLoop)
	}
	return c, nil
}

// snapshotLoop writes the snapshot every snapshotEvery while commands ran
// since the last one, until Close.
func (c *Conn) snapshotLoop() {
	t := time.NewTicker(snapshotEvery)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			if err := c.save(false); err != nil {
				slog.Warn("embedded redis: snapshot not written", "err", err)
			}
		}
	}
}

// save writes the snapshot when commands ran since the last (or always).
func (c *Conn) save(always bool) error {
	n := c.server.CommandCount()
	if !always && n == c.saved {
		return nil
	}
	if err := writeSnapshot(c.opts.SnapshotPath, take(c.server, time.Now(), c.opts.Transient)); err != nil {
		return err
	}
	c.saved = n
	return nil
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

// Close closes the client and, when embedded, stops the clock, writes the
// last snapshot and stops the server.
func (c *Conn) Close() error {
	err := c.Client.Close()
	if c.Embedded {
		close(c.stop)
		c.done.Wait()
		if c.opts.SnapshotPath != "" {
			err = errors.Join(err, c.save(true))
		}
		c.server.Close()
	}
	return err
}
