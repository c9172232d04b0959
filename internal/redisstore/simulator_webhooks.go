package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// SimulatorWebhooks is the sandbox simulator's outbox of webhooks
// (connector.WebhookOutbox): a sorted set of the webhooks owed, scored by
// when each is next due. A webhook stays in it until it is delivered, so a
// crash loses none; a claim pushes it back by a lease, so a delivery cut
// short is tried again.
type SimulatorWebhooks struct {
	rdb redis.UniversalClient
	key string
	now func() time.Time
}

// NewSimulatorWebhooks is the outbox on rdb of the deployment whose
// database is database (config.Database.Identity), on the clock now (nil:
// the wall clock). Each database has its own outbox: a process serving
// another database on the same Redis (a test's, a staging server's) would
// find none of the webhook's accounts and drop it.
func NewSimulatorWebhooks(rdb redis.UniversalClient, database string, now func() time.Time) *SimulatorWebhooks {
	if now == nil {
		now = time.Now
	}
	sum := sha256.Sum256([]byte(database))
	return &SimulatorWebhooks{rdb: rdb, key: "simwebhooks:{" + hex.EncodeToString(sum[:8]) + "}", now: now}
}

// Queue adds a webhook (its encoding: connector.SandboxWebhook), due at
// due: no Claim returns it before then, so a change the sandbox makes later
// (a dispute's decision) is told when it happens. The same webhook queued
// twice is kept once, due at the later time.
func (o *SimulatorWebhooks) Queue(ctx context.Context, webhook []byte, due time.Time) error {
	return o.rdb.ZAddGT(ctx, o.key, redis.Z{Score: float64(due.UnixMilli()), Member: string(webhook)}).Err()
}

// ClaimedWebhook is a webhook a worker is delivering; Done removes it.
type ClaimedWebhook struct{ Webhook []byte }

// Claim returns up to n webhooks that are due, each pushed back by lease
// first (another worker may still claim one at the same instant: delivery
// is at least once, and a replay changes nothing).
func (o *SimulatorWebhooks) Claim(ctx context.Context, n int, lease time.Duration) ([]ClaimedWebhook, error) {
	now := o.now()
	members, err := o.rdb.ZRangeByScore(ctx, o.key, &redis.ZRangeBy{
		Min: "-inf", Max: strconv.FormatInt(now.UnixMilli(), 10), Count: int64(n)}).Result()
	if err != nil || len(members) == 0 {
		return nil, err
	}
	out := make([]ClaimedWebhook, 0, len(members))
	for _, m := range members {
		if err := o.rdb.ZAddXX(ctx, o.key, redis.Z{Score: float64(now.Add(lease).UnixMilli()), Member: m}).Err(); err != nil {
			return out, err
		}
		out = append(out, ClaimedWebhook{Webhook: []byte(m)})
	}
	return out, nil
}

// Done removes a delivered (or undeliverable) webhook.
func (o *SimulatorWebhooks) Done(ctx context.Context, w ClaimedWebhook) error {
	return o.rdb.ZRem(ctx, o.key, string(w.Webhook)).Err()
}

// Owed is every webhook the outbox holds, due or not, soonest first.
func (o *SimulatorWebhooks) Owed(ctx context.Context) ([][]byte, error) {
	members, err := o.rdb.ZRange(ctx, o.key, 0, -1).Result()
	out := make([][]byte, len(members))
	for i, m := range members {
		out[i] = []byte(m)
	}
	return out, err
}
