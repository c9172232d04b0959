package merchant

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"time"

	"switchyard/payments/errs"
)

// The key cache keeps merchant secret keys that were found active in Redis
// for a short while, so that a request is authenticated without a database
// round trip (and a refused query, such as another merchant's cursor, never
// touches the database at all).
//
// Revocation stays immediate, across every instance: whatever ends a key
// (revoke, a new expiration, deleting the merchant) first deletes its entry
// and leaves a tombstone, inside the transaction and before it commits. An
// entry is only written by a script that refuses while a tombstone stands,
// so a request that read the key just before the change cannot put it back.
// An entry lives at most keyCacheTTL from the database read that produced
// it, and the tombstone outlives that, so no stale entry survives it. If
// Redis is down, keys are read from the database and a key cannot be ended
// (503) until it is back: an entry that cannot be deleted must not outlive
// a revocation.

// keyCacheTTL bounds how long an entry lives after the read behind it.
const keyCacheTTL = time.Minute

// keyTombstoneTTL is how long an ended key cannot be cached: longer than
// any entry written from a read made before the end.
const keyTombstoneTTL = 3 * keyCacheTTL

// ActiveKey is a merchant secret key found active: what authentication
// needs to know of it.
type ActiveKey struct {
	ID         string     `json:"id"`
	MerchantID string     `json:"merchant_id"`
	ExpiresAt  *time.Time `json:"expires_at,omitempty"`
}

// KeyCache is where active keys are kept between requests, by key hash:
// Redis, shared by every instance (internal/redisstore). The rules (what
// is cached, for how long, and that an ended key is tombstoned before its
// end commits) are this package's.
type KeyCache interface {
	// Get is the entry for hash; nil and no error when there is none.
	Get(ctx context.Context, hash string) ([]byte, error)
	// Put stores entry for hash for ttl, unless hash is tombstoned.
	Put(ctx context.Context, hash string, entry []byte, ttl time.Duration) error
	// Tombstone deletes the entries of hashes and keeps them out for ttl.
	Tombstone(ctx context.Context, ttl time.Duration, hashes ...string) error
}

// atomicTime is a time in unix nanoseconds, read and written atomically.
type atomicTime struct{ atomic.Int64 }

// keyCacheBackoff is how long lookups skip the cache after Redis failed
// them, so that an outage does not add the client's retries to every
// request.
const keyCacheBackoff = 2 * time.Second

// keyCacheReachable reports whether lookups use the cache now.
func (s *Service) keyCacheReachable() bool {
	return s.keyCache != nil && time.Now().UnixNano() >= s.keyCacheDownUntil.Load()
}

// keyCacheFailed notes a failed lookup or write.
func (s *Service) keyCacheFailed(ctx context.Context, err error) {
	s.keyCacheDownUntil.Store(time.Now().Add(keyCacheBackoff).UnixNano())
	slog.WarnContext(ctx, "key cache unavailable; reading keys from the database for a while", "err", err)
}

// cachedKey returns the entry for hash, or nil when there is none (or Redis
// cannot say: the caller reads the database).
func (s *Service) cachedKey(ctx context.Context, hash string) *ActiveKey {
	if !s.keyCacheReachable() {
		return nil
	}
	raw, err := s.keyCache.Get(ctx, hash)
	if err != nil {
		s.keyCacheFailed(ctx, err)
		return nil
	}
	if raw == nil {
		return nil
	}
	var k ActiveKey
	if err := json.Unmarshal(raw, &k); err != nil || k.ID == "" || k.MerchantID == "" {
		return nil
	}
	return &k
}

// cacheKey remembers a key read active at readAt, for what is left of
// keyCacheTTL since then and never past its expiry.
func (s *Service) cacheKey(ctx context.Context, hash string, k ActiveKey, readAt time.Time) {
	if !s.keyCacheReachable() {
		return
	}
	until := readAt.Add(keyCacheTTL)
	if k.ExpiresAt != nil && k.ExpiresAt.Before(until) {
		until = *k.ExpiresAt
	}
	ttl := until.Sub(s.now())
	if ttl < time.Second {
		return // not worth a write
	}
	raw, _ := json.Marshal(k)
	if err := s.keyCache.Put(ctx, hash, raw, ttl); err != nil {
		s.keyCacheFailed(ctx, err)
	}
}

// forgetKeys deletes the entries of keys about to end and blocks their
// caching. It runs before the change commits; if it fails, the change must
// not happen.
func (s *Service) forgetKeys(ctx context.Context, hashes ...string) error {
	if s.keyCache == nil || len(hashes) == 0 {
		return nil
	}
	if err := s.keyCache.Tombstone(ctx, keyTombstoneTTL, hashes...); err != nil {
		slog.WarnContext(ctx, "key cache unavailable; key not ended", "err", err)
		return errs.Unavailable("The key cache (Redis)")
	}
	return nil
}
