package customer

import (
	"context"
	"encoding/json"
	"time"

	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Ephemeral keys, as Hyperswitch gives them: a secret key makes one for a
// customer (POST /ephemeral_keys); a client holding it may read that
// customer and choose its default payment method, and nothing else, for an
// hour. Only its keyed hash is kept, in Redis, for that hour.

// EphemeralKeyTTL is how long an ephemeral key is good for (Hyperswitch's
// default validity).
const EphemeralKeyTTL = time.Hour

// EphemeralKeyStore keeps ephemeral keys by their keyed hash
// (internal/redisstore).
type EphemeralKeyStore interface {
	Put(ctx context.Context, hash string, record []byte, ttl time.Duration) error
	// Get is the key's record; nil and no error when there is none.
	Get(ctx context.Context, hash string) ([]byte, error)
	Delete(ctx context.Context, hash string) error
}

// EphemeralKey is a customer's ephemeral key; Secret is shown once, when it
// is made (and when it is deleted, by the caller who holds it).
type EphemeralKey struct {
	MerchantID string    `json:"merchant_id"`
	CustomerID string    `json:"customer_id"`
	CreatedAt  time.Time `json:"created_at"`
	ExpiresAt  time.Time `json:"expires_at"`
	Secret     string    `json:"-"`
}

func (s *Service) ephemeralHash(secret string) string {
	return s.box.Fingerprint("ephemeral-key", secret)
}

func (s *Service) ephemeralStore() (EphemeralKeyStore, error) {
	if s.ephemeral == nil {
		return nil, errs.Unavailable("ephemeral keys")
	}
	return s.ephemeral, nil
}

// CreateEphemeralKey makes an ephemeral key for one of the merchant's
// customers.
func (s *Service) CreateEphemeralKey(ctx context.Context, customerID string) (*EphemeralKey, error) {
	if customerID == "" {
		return nil, errs.MissingField("customer_id")
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return nil, err
	}
	store, err := s.ephemeralStore()
	if err != nil {
		return nil, err
	}
	if _, err := s.GetCustomer(ctx, customerID); err != nil {
		return nil, err
	}
	now := s.db.Now().Truncate(time.Second)
	k := &EphemeralKey{MerchantID: merchantID, CustomerID: customerID, CreatedAt: now, ExpiresAt: now.Add(EphemeralKeyTTL),
		Secret: "epk_" + ids.Base62(32)}
	rec, _ := json.Marshal(k)
	if err := store.Put(ctx, s.ephemeralHash(k.Secret), rec, EphemeralKeyTTL); err != nil {
		return nil, errs.Unavailable("ephemeral keys")
	}
	return k, nil
}

// EphemeralKeyOwner is the merchant and customer of a live ephemeral key;
// an unknown or expired one is 401.
func (s *Service) EphemeralKeyOwner(ctx context.Context, secret string) (merchantID, customerID string, err error) {
	k, err := s.lookupEphemeral(ctx, secret)
	if err != nil {
		return "", "", err
	}
	if k == nil {
		return "", "", errs.Unauthorized()
	}
	return k.MerchantID, k.CustomerID, nil
}

// lookupEphemeral is the live key of secret; nil when there is none (or it
// expired).
func (s *Service) lookupEphemeral(ctx context.Context, secret string) (*EphemeralKey, error) {
	store, err := s.ephemeralStore()
	if err != nil {
		return nil, err
	}
	rec, err := store.Get(ctx, s.ephemeralHash(secret))
	if err != nil {
		return nil, errs.Unavailable("ephemeral keys")
	}
	var k EphemeralKey
	if rec == nil || json.Unmarshal(rec, &k) != nil || !s.db.Now().Before(k.ExpiresAt) {
		return nil, nil
	}
	k.Secret = secret
	return &k, nil
}

// DeleteEphemeralKey ends one of the merchant's ephemeral keys at once
// (DELETE /ephemeral_keys/{id}, the id being the key itself).
func (s *Service) DeleteEphemeralKey(ctx context.Context, secret string) (*EphemeralKey, error) {
	k, err := s.lookupEphemeral(ctx, secret)
	if err != nil {
		return nil, err
	}
	if p, _ := tenancy.FromContext(ctx); k == nil || p.MerchantID != k.MerchantID {
		return nil, errs.NotFound("Ephemeral key")
	}
	if err := s.ephemeral.Delete(ctx, s.ephemeralHash(secret)); err != nil {
		return nil, errs.Unavailable("ephemeral keys")
	}
	return k, nil
}
