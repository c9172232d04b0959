package customer

import (
	"context"
	"time"

	"switchyard/payments/errs"
)

// The card vault keeps a payment method given at create time until the
// payment is confirmed, for at most the client secret's lifetime. Card data
// never reaches the database: here it is sealed with the master key and
// lives only in the vault's store (Redis), then is dropped as soon as a
// connector has seen it.

// Vault is where sealed payment methods wait, by key, for a while: Redis,
// shared by every instance (internal/redisstore).
type Vault interface {
	Put(ctx context.Context, key string, sealed []byte, ttl time.Duration) error
	// Get is the entry under key; nil and no error when there is none.
	Get(ctx context.Context, key string) ([]byte, error)
	Delete(ctx context.Context, key string) error
}

func vaultKey(merchantID, intentID string) string { return merchantID + ":" + intentID }

// VaultPut keeps pm for the payment intentID of merchantID for ttl (at
// least a second), sealed and bound to the payment.
func (s *Service) VaultPut(ctx context.Context, merchantID, intentID string, pm *PaymentMethodInput, ttl time.Duration) error {
	if s.vault == nil {
		return errs.Unavailable("the payment method vault")
	}
	sealed, err := s.box.SealJSON(pm, []byte(intentID))
	if err != nil {
		return errs.Internal(err)
	}
	if ttl < time.Second {
		ttl = time.Second
	}
	if err := s.vault.Put(ctx, vaultKey(merchantID, intentID), sealed, ttl); err != nil {
		return errs.Unavailable("Redis")
	}
	return nil
}

// VaultGet returns the vaulted payment method, or nil if there is none.
func (s *Service) VaultGet(ctx context.Context, merchantID, intentID string) (*PaymentMethodInput, error) {
	if s.vault == nil {
		return nil, nil
	}
	b, err := s.vault.Get(ctx, vaultKey(merchantID, intentID))
	if err != nil {
		return nil, errs.Unavailable("Redis")
	}
	if b == nil {
		return nil, nil
	}
	var pm PaymentMethodInput
	if err := s.box.OpenJSON(b, []byte(intentID), &pm); err != nil {
		return nil, errs.Internal(err)
	}
	return &pm, nil
}

// VaultDrop forgets the vaulted payment method, even when ctx is done.
func (s *Service) VaultDrop(ctx context.Context, merchantID, intentID string) {
	if s.vault != nil {
		_ = s.vault.Delete(context.WithoutCancel(ctx), vaultKey(merchantID, intentID))
	}
}
