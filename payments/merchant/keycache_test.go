package merchant

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"switchyard/internal/redisstore"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

func keyCacheService(t *testing.T) (*Service, *miniredis.Miniredis) {
	t.Helper()
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr(), MaxRetries: -1})
	t.Cleanup(func() { rdb.Close() })
	return New(Deps{DB: &txn.DB{Now: time.Now}, KeyCache: redisstore.NewKeyCache(rdb)}), mr
}

// The cache's Redis keys (internal/redisstore's names), to look at TTLs.
func keyEntry(hash string) string { return "apikeys/{" + hash + "}/active" }

// TestKeyCacheEndedKeyStaysOut: a key ended while a request that read it
// active is still in flight is not put back by that request.
func TestKeyCacheEndedKeyStaysOut(t *testing.T) {
	ctx := context.Background()
	s, _ := keyCacheService(t)
	k := ActiveKey{ID: "key_1", MerchantID: "merchant_1"}

	readAt := time.Now()
	s.cacheKey(ctx, "h1", k, readAt)
	if got := s.cachedKey(ctx, "h1"); got == nil || *got != k {
		t.Fatalf("cached %+v, want %+v", got, k)
	}
	if err := s.forgetKeys(ctx, "h1"); err != nil {
		t.Fatal(err)
	}
	if got := s.cachedKey(ctx, "h1"); got != nil {
		t.Fatalf("ended key still cached: %+v", got)
	}
	s.cacheKey(ctx, "h1", k, readAt) // the late write of a read made before the end
	if got := s.cachedKey(ctx, "h1"); got != nil {
		t.Fatalf("a read from before the end put the key back: %+v", got)
	}
	// Other keys are not affected.
	s.cacheKey(ctx, "h2", k, time.Now())
	if s.cachedKey(ctx, "h2") == nil {
		t.Fatal("another key was not cached")
	}
}

// TestKeyCacheLifetime: an entry lives at most keyCacheTTL from the read
// behind it, and never past the key's expiry.
func TestKeyCacheLifetime(t *testing.T) {
	ctx := context.Background()
	s, mr := keyCacheService(t)
	soon := time.Now().Add(10 * time.Second)
	for _, tc := range []struct {
		name    string
		key     ActiveKey
		readAt  time.Time
		wantMax time.Duration // 0: not cached
	}{
		{"fresh read", ActiveKey{ID: "k", MerchantID: "m"}, time.Now(), keyCacheTTL},
		{"old read", ActiveKey{ID: "k", MerchantID: "m"}, time.Now().Add(-keyCacheTTL + 20*time.Second), 20 * time.Second},
		{"read too long ago", ActiveKey{ID: "k", MerchantID: "m"}, time.Now().Add(-keyCacheTTL), 0},
		{"expires soon", ActiveKey{ID: "k", MerchantID: "m", ExpiresAt: &soon}, time.Now(), 10 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hash := "life-" + tc.name
			s.cacheKey(ctx, hash, tc.key, tc.readAt)
			ttl := mr.TTL(keyEntry(hash))
			if tc.wantMax == 0 {
				if mr.Exists(keyEntry(hash)) {
					t.Fatalf("cached for %v, want not cached", ttl)
				}
				return
			}
			if ttl <= 0 || ttl > tc.wantMax || ttl < tc.wantMax-2*time.Second {
				t.Fatalf("cached for %v, want about %v", ttl, tc.wantMax)
			}
		})
	}
	// An entry whose key has expired since is refused on read.
	past := time.Now().Add(-time.Second)
	mr.Set(keyEntry("expired"), `{"id":"k","merchant_id":"m","expires_at":"`+past.Format(time.RFC3339Nano)+`"}`)
	if _, err := s.ActiveAPIKeyByHash(ctx, "expired"); !errors.Is(err, errs.ErrUnauthorized) {
		t.Fatalf("expired cached key: %v", err)
	}
}

// TestKeyCacheRedisDown: without Redis a key cannot be ended (the caller
// answers 503 and changes nothing), and lookups fall back to the database.
func TestKeyCacheRedisDown(t *testing.T) {
	ctx := context.Background()
	s, mr := keyCacheService(t)
	mr.Close()
	err := s.forgetKeys(ctx, "h")
	if e, ok := errs.As(err); !ok || e.Kind != errs.KindUnavailable || !errors.Is(err, errs.ErrUnavailable) {
		t.Fatalf("forget with Redis down: %v", err)
	}
	if got := s.cachedKey(ctx, "h"); got != nil {
		t.Fatalf("cached key with Redis down: %+v", got)
	}
}
