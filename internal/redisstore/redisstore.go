// Package redisstore holds the Redis side of the short-lived stores whose
// rules the domain packages own: the API key cache (payments/merchant), the
// card vault (payments/customer) and the sandbox simulator's ledger
// (payments/connector). Each type here implements the small interface its
// domain package declares; key names, hash tags and scripts live here, and
// when to read or write, and for how long a cache entry lives, are the
// domain's (the ledger, a connector's own memory, is kept for a month).
//
// It imports no domain package, and holds no business rule.
package redisstore

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeyCache is the API key cache in Redis. An entry and its tombstone share
// a hash tag, so the fill script touches one slot in a Redis Cluster.
type KeyCache struct{ rdb redis.UniversalClient }

// NewKeyCache is the key cache on rdb.
func NewKeyCache(rdb redis.UniversalClient) *KeyCache { return &KeyCache{rdb: rdb} }

func keyEntry(hash string) string     { return "apikeys/{" + hash + "}/active" }
func keyTombstone(hash string) string { return "apikeys/{" + hash + "}/ended" }

// fillKeyEntry writes an entry unless the key was ended since it was read.
// KEYS: entry, tombstone; ARGV: value, ttl in milliseconds.
var fillKeyEntry = redis.NewScript(`
if redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`)

// Get is the entry for hash; nil and no error when there is none.
func (c *KeyCache) Get(ctx context.Context, hash string) ([]byte, error) {
	return nilIfNone(c.rdb.Get(ctx, keyEntry(hash)).Bytes())
}

// Put stores entry for hash for ttl, unless hash is tombstoned.
func (c *KeyCache) Put(ctx context.Context, hash string, entry []byte, ttl time.Duration) error {
	return fillKeyEntry.Run(ctx, c.rdb, []string{keyEntry(hash), keyTombstone(hash)}, entry, ttl.Milliseconds()).Err()
}

// Tombstone deletes the entries of hashes and keeps them out for ttl.
func (c *KeyCache) Tombstone(ctx context.Context, ttl time.Duration, hashes ...string) error {
	_, err := c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, h := range hashes {
			p.Set(ctx, keyTombstone(h), 1, ttl)
			p.Del(ctx, keyEntry(h))
		}
		return nil
	})
	return err
}

// records keeps one record per id under prefix:{id}: the id is the hash
// tag, so a record sits in one slot of a Redis Cluster. The stores below
// are records: its Put, Get and Delete, and what else their domain
// interface asks for.
type records struct {
	rdb    redis.UniversalClient
	prefix string
}

func (s records) key(id string) string { return s.prefix + ":{" + id + "}" }

// Put keeps id's record for ttl.
func (s records) Put(ctx context.Context, id string, record []byte, ttl time.Duration) error {
	return s.rdb.Set(ctx, s.key(id), record, ttl).Err()
}

// Get is id's record; nil and no error when there is none (or it expired).
func (s records) Get(ctx context.Context, id string) ([]byte, error) {
	return nilIfNone(s.rdb.Get(ctx, s.key(id)).Bytes())
}

// Delete drops id's record at once.
func (s records) Delete(ctx context.Context, id string) error {
	return s.rdb.Del(ctx, s.key(id)).Err()
}

// nilIfNone is a read's value; nil and no error when the key does not exist.
func nilIfNone(b []byte, err error) ([]byte, error) {
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	return b, err
}

// Vault is the card vault in Redis: sealed payment methods by key, one
// payment's entry in one slot.
type Vault struct{ records }

const vaultPrefix = "pmv"

// NewVault is the vault on rdb.
func NewVault(rdb redis.UniversalClient) *Vault { return &Vault{records{rdb, vaultPrefix}} }

// IsVaultKey reports whether a Redis key is the vault's: card data, sealed,
// that no snapshot of the embedded Redis may write to disk.
func IsVaultKey(key string) bool { return strings.HasPrefix(key, vaultPrefix+":{") }

// SimulatorLedger is the sandbox simulator's memory of the attempts,
// captures and refunds it was sent (connector.Ledger), kept for a month: long past any recovery.
type SimulatorLedger struct{ records }

// NewSimulatorLedger is the ledger on rdb.
func NewSimulatorLedger(rdb redis.UniversalClient) *SimulatorLedger {
	return &SimulatorLedger{records{rdb, "simledger"}}
}

const simulatorLedgerTTL = 30 * 24 * time.Hour

// Put keeps the record of id.
func (l *SimulatorLedger) Put(ctx context.Context, id string, record []byte) error {
	return l.records.Put(ctx, id, record, simulatorLedgerTTL)
}

// EphemeralKeys keeps the customer ephemeral keys (customer.EphemeralKeyStore)
// by their keyed hash, each for its lifetime.
type EphemeralKeys struct{ records }

// NewEphemeralKeys is the store on rdb.
func NewEphemeralKeys(rdb redis.UniversalClient) *EphemeralKeys {
	return &EphemeralKeys{records{rdb, "epk"}}
}

// versions counts changes per id in Redis: Version is the count (0 before
// the first), Bump adds one.
type versions struct {
	rdb redis.UniversalClient
	key func(id string) string
}

func (v versions) Version(ctx context.Context, id string) (int64, error) {
	n, err := v.rdb.Get(ctx, v.key(id)).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	return n, err
}

func (v versions) Bump(ctx context.Context, id string) error {
	return v.rdb.Incr(ctx, v.key(id)).Err()
}

// ConfigVersions counts the changes to each merchant's profiles and
// connector accounts (txn.ConfigVersions), so every process knows when
// what it caches of them is stale.
type ConfigVersions struct{ versions }

// NewConfigVersions returns the configuration versions kept in rdb.
func NewConfigVersions(rdb redis.UniversalClient) *ConfigVersions {
	return &ConfigVersions{versions{rdb, configVersionKey}}
}

func configVersionKey(merchantID string) string { return "config:{" + merchantID + "}:version" }

// Queue reads the merchant's version in p, another call's round trip; the
// answer is ok once p ran (0 before the first change, as Version).
func (c *ConfigVersions) Queue(ctx context.Context, p redis.Pipeliner, merchantID string) func() (int64, bool) {
	cmd := p.Get(ctx, configVersionKey(merchantID))
	return func() (int64, bool) {
		n, err := cmd.Int64()
		if errors.Is(err, redis.Nil) {
			return 0, true
		}
		return n, err == nil
	}
}

// RoutingOutcomes keeps each profile's recent attempt outcomes per
// connector account (routing.Outcomes) for success-rate and elimination
// routing, shared by every process.
//
// Each account's outcomes are a capped list (LPUSH, LTRIM), not per-minute
// counters: the window Hyperswitch's configuration describes is a number
// of outcomes (max_aggregates_size blocks of max_total_count, a bucket of
// bucket_size), which a list holds exactly; time buckets could only
// approximate it, and a list still lets the reader drop entries older than
// a duration, since each entry carries its time. The profile's size key
// says how many to keep; without it nothing is recorded, so a profile
// without dynamic routing costs one script call that writes nothing.
// Every key of a profile shares the profile's hash tag, so the script and
// a decision's read touch one slot of a Redis Cluster.
type RoutingOutcomes struct{ rdb redis.UniversalClient }

// NewRoutingOutcomes returns the outcome store kept in rdb.
func NewRoutingOutcomes(rdb redis.UniversalClient) *RoutingOutcomes {
	return &RoutingOutcomes{rdb: rdb}
}

func routingOutcomesSizeKey(profileID string) string { return "routing:{" + profileID + "}:outcomes" }
func routingOutcomesKey(profileID, accountID string) string {
	return "routing:{" + profileID + "}:outcomes:" + accountID
}

// recordOutcome pushes an entry when the profile keeps outcomes.
// KEYS: size key, the account's list; ARGV: entry.
var recordOutcome = redis.NewScript(`
local keep = redis.call('HMGET', KEYS[1], 'n', 'ttl')
local n = tonumber(keep[1])
if not n or n <= 0 then return 0 end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, n - 1)
redis.call('PEXPIRE', KEYS[2], tonumber(keep[2]))
return 1`)

// Record appends entry to the account's outcomes if the profile keeps any.
func (o *RoutingOutcomes) Record(ctx context.Context, profileID, accountID, entry string) error {
	return recordOutcome.Run(ctx, o.rdb, []string{routingOutcomesSizeKey(profileID), routingOutcomesKey(profileID, accountID)}, entry).Err()
}

// Latest are the newest n entries of each account, in one pipeline.
func (o *RoutingOutcomes) Latest(ctx context.Context, profileID string, accountIDs []string, n int) ([][]string, error) {
	cmds := make([]*redis.StringSliceCmd, len(accountIDs))
	_, err := o.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, id := range accountIDs {
			cmds[i] = p.LRange(ctx, routingOutcomesKey(profileID, id), 0, int64(n)-1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(cmds))
	for i, c := range cmds {
		out[i] = c.Val()
	}
	return out, nil
}

// Keep sets how many entries per account the profile keeps (0: none).
func (o *RoutingOutcomes) Keep(ctx context.Context, profileID string, n int, ttl time.Duration) error {
	if n <= 0 {
		return o.rdb.Del(ctx, routingOutcomesSizeKey(profileID)).Err()
	}
	return o.rdb.HSet(ctx, routingOutcomesSizeKey(profileID), "n", n, "ttl", ttl.Milliseconds()).Err()
}

// Sessions keeps the dashboard's sessions (users.SessionStore) by their
// token's keyed hash, each with a sliding expiry.
type Sessions struct{ records }

// NewSessions is the store on rdb.
func NewSessions(rdb redis.UniversalClient) *Sessions { return &Sessions{records{rdb, "session"}} }

// Touch returns a session's record and extends it to ttl, in one command.
func (s *Sessions) Touch(ctx context.Context, id string, ttl time.Duration) ([]byte, error) {
	return nilIfNone(s.rdb.GetEx(ctx, s.key(id), ttl).Bytes())
}

// SignInFailures counts sign-in attempts per key (users.FailureCounter).
// Each key is its own hash tag: the keys of one attempt (an email's and an
// address's) may sit in different slots of a Redis Cluster, so they go in
// one pipeline (one round trip to each node) rather than one script.
type SignInFailures struct{ rdb redis.UniversalClient }

// NewSignInFailures is the counter on rdb.
func NewSignInFailures(rdb redis.UniversalClient) *SignInFailures { return &SignInFailures{rdb: rdb} }

func signInFailureKey(key string) string { return "signin:fail:{" + key + "}" }

// Attempt counts an attempt on each key and returns the counts, this one
// included, and what is left of each window, in one pipeline: INCR is
// atomic, so concurrent attempts each get a count of their own. A key's
// window starts with its first attempt (EXPIRE NX), so attempts spread out
// do not keep it alive forever.
func (f *SignInFailures) Attempt(ctx context.Context, window time.Duration, keys ...string) (counts []int64, left []time.Duration, err error) {
	incrs := make([]*redis.IntCmd, len(keys))
	ttls := make([]*redis.DurationCmd, len(keys))
	_, err = f.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, k := range keys {
			incrs[i] = p.Incr(ctx, signInFailureKey(k))
			p.ExpireNX(ctx, signInFailureKey(k), window)
			ttls[i] = p.PTTL(ctx, signInFailureKey(k))
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	counts, left = make([]int64, len(keys)), make([]time.Duration, len(keys))
	for i := range keys {
		counts[i], left[i] = incrs[i].Val(), max(ttls[i].Val(), 0)
	}
	return counts, left, nil
}

// takeBackAttempt decrements a count that is above zero: a key the window
// ended meanwhile, or a success cleared, is left alone (a bare DECR would
// make it -1, without an expiry).
var takeBackAttempt = redis.NewScript(`
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0`)

// TakeBack uncounts an attempt from each key that has any, in one pipeline.
func (f *SignInFailures) TakeBack(ctx context.Context, keys ...string) error {
	_, err := f.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, k := range keys {
			takeBackAttempt.Eval(ctx, p, []string{signInFailureKey(k)})
		}
		return nil
	})
	return err
}

// Clear forgets a key's attempts.
func (f *SignInFailures) Clear(ctx context.Context, key string) error {
	return f.rdb.Del(ctx, signInFailureKey(key)).Err()
}

// ExportGrants keeps the one-time download grants of the dashboard's
// exports by their token's hash, each taken once.
type ExportGrants struct{ records }

// NewExportGrants is the store on rdb.
func NewExportGrants(rdb redis.UniversalClient) *ExportGrants {
	return &ExportGrants{records{rdb, "export"}}
}

// Take returns a grant's record and deletes it, in one command, so two
// downloads cannot both use it; nil and no error when there is none.
func (g *ExportGrants) Take(ctx context.Context, hash string) ([]byte, error) {
	return nilIfNone(g.rdb.GetDel(ctx, g.key(hash)).Bytes())
}
