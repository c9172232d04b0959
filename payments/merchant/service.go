// Package merchant owns the merchant side of the platform: merchant
// accounts (platform operations of the admin key), their business profiles
// and webhook settings, the merchants' secret API keys and the cache that
// authenticates them without a database round trip, and the check that a
// principal's merchant and profile exist and belong together.
//
// Deleting a merchant removes every row it owns, in every context, in one
// transaction (through ent, not through the other domain packages).
//
// It must not import another domain package, nor know HTTP or Redis: the
// key cache's storage is the KeyCache it is given.
package merchant

import (
	"time"

	"switchyard/internal/secrets"
	"switchyard/payments/txn"
)

// Service runs the merchant operations.
type Service struct {
	db       *txn.DB
	box      *secrets.Box
	keyCache KeyCache
	// keyCacheDownUntil (unix ns) pauses key-cache lookups after a failure.
	keyCacheDownUntil atomicTime
	// clock, when set, is the time API keys' expiries are read against
	// (WithClock); the database's clock otherwise.
	clock func() time.Time
}

// WithClock makes API keys expire by now instead of the database's clock
// (tests advance it past a key's expiry rather than wait for it).
func (s *Service) WithClock(now func() time.Time) *Service {
	s.clock = now
	return s
}

// now is the time API keys' expiries are read against.
func (s *Service) now() time.Time {
	if s.clock != nil {
		return s.clock().UTC()
	}
	return s.db.Now()
}

// Deps are what the merchant operations need.
type Deps struct {
	DB *txn.DB
	// Box seals profiles' hash keys and hashes API keys.
	Box *secrets.Box
	// KeyCache remembers active keys between requests; nil reads every key
	// from the database.
	KeyCache KeyCache
}

// New returns the merchant service over d.
func New(d Deps) *Service {
	return &Service{db: d.DB, box: d.Box, keyCache: d.KeyCache}
}
