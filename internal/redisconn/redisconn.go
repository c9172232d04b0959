// Package redisconn owns the one Redis connection the process uses: a
// go-redis client for SWITCHYARD_REDIS_URL (one server or a Redis Cluster),
// or, when no URL is given, an in-process miniredis reached through the
// same client (one code path).
// The in-process one listens on loopback only, behind a password made at
// start, and keeps its data in a snapshot file across restarts.
package redisconn

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	// Now is the clock TTLs run on; nil is the wall clock. Tests move it
	// forward past a TTL instead of sleeping.
	Now func() time.Time

	// snapshotEvery is how often the snapshot is written; 0 is
	// snapshotEvery. Tests shorten it.
	snapshotEvery time.Duration
}

// now reads the clock.
func (e Embedded) now() time.Time {
	if e.Now != nil {
		return e.Now()
	}
	return time.Now()
}

// Open connects to the Redis at rawURL, one server or a Redis Cluster (the
// forms parseURL reads), and checks it answers PING within 2 seconds (every
// master, for a cluster). An empty rawURL starts an embedded in-process
// Redis on 127.0.0.1 instead, set up by emb.
func Open(ctx context.Context, rawURL string, emb Embedded) (*Conn, error) {
	if rawURL == "" {
		return openEmbedded(emb)
	}
	t, err := parseURL(rawURL)
	if err != nil {
		return nil, fmt.Errorf("redis URL: %v", err)
	}
	c := &Conn{Client: t.client()}
	pctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if err := c.Ping(pctx); err != nil {
		c.Client.Close()
		var rerr redis.Error
		if errors.As(err, &rerr) {
			return nil, fmt.Errorf("redis at %s: %v", t.addr(), err)
		}
		return nil, fmt.Errorf("redis at %s unreachable: %v", t.addr(), err)
	}
	return c, nil
}

// Ping checks that Redis answers: the server, or every master of a Redis
// Cluster (a key's slot may live on any of them, so one master down fails
// the requests whose keys it holds).
func (c *Conn) Ping(ctx context.Context) error {
	cc, ok := c.Client.(*redis.ClusterClient)
	if !ok {
		return c.Client.Ping(ctx).Err()
	}
	return cc.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
		if err := node.Ping(ctx).Err(); err != nil {
			return fmt.Errorf("master %s: %w", node.Options().Addr, err)
		}
		return nil
	})
}

// Cluster is the Redis Cluster client, or nil on one server.
func (c *Conn) Cluster() *redis.ClusterClient {
	cc, _ := c.Client.(*redis.ClusterClient)
	return cc
}

func openEmbedded(opts Embedded) (*Conn, error) {
	server := miniredis.NewMiniRedis()
	if opts.SnapshotPath != "" {
		s, err := readSnapshot(opts.SnapshotPath)
		if err != nil {
			return nil, fmt.Errorf("embedded redis: %w", err)
		}
		if err := restore(server, s, opts.now()); err != nil {
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
	every := c.opts.snapshotEvery
	if every <= 0 {
		every = snapshotEvery
	}
	t := time.NewTicker(every)
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
	if err := writeSnapshot(c.opts.SnapshotPath, take(c.server, c.opts.now(), c.opts.Transient)); err != nil {
		return err
	}
	c.saved = n
	return nil
}

// advanceClock moves the embedded server's clock forward with the clock
// (Embedded.Now) every tick until Close.
func (c *Conn) advanceClock() {
	t := time.NewTicker(tick)
	defer t.Stop()
	last := c.opts.now()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			if now := c.opts.now(); now.After(last) { // a wall clock set back waits
				c.server.FastForward(now.Sub(last))
				last = now
			}
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
