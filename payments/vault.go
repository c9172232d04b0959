package payments

import (
	"context"
	"errors"
	"switchyard/payments/errs"
	"time"

	"github.com/redis/go-redis/v9"
)

// The card vault keeps a payment method given at create time until the
// payment is confirmed, for at most the client secret's lifetime. Card data
// never reaches the database: here it is sealed with the master key and
// lives only in Redis, then is dropped as soon as a connector has seen it.

func vaultKey(merchantID, intentID string) string { return "pmv:{" + merchantID + ":" + intentID + "}" }

func (s *Service) vaultPut(ctx context.Context, merchantID, intentID string, pm *PaymentMethodInput, ttl time.Duration) error {
	if s.deps.Redis == nil {
		return errs.Unavailable("the payment method vault")
	}
	sealed, err := s.box.SealJSON(pm, []byte(intentID))
	if err != nil {
		return errs.Internal(err)
	}
	if ttl < time.Second {
		ttl = time.Second
	}
	if err := s.deps.Redis.Set(ctx, vaultKey(merchantID, intentID), sealed, ttl).Err(); err != nil {
		return errs.Unavailable("Redis")
	}
	return nil
}

// vaultGet returns the vaulted payment method, or nil if there is none.
func (s *Service) vaultGet(ctx context.Context, merchantID, intentID string) (*PaymentMethodInput, error) {
	if s.deps.Redis == nil {
		return nil, nil
	}
	b, err := s.deps.Redis.Get(ctx, vaultKey(merchantID, intentID)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Unavailable("Redis")
	}
	var pm PaymentMethodInput
	if err := s.box.OpenJSON(b, []byte(intentID), &pm); err != nil {
		return nil, errs.Internal(err)
	}
	return &pm, nil
}

func (s *Service) vaultDrop(ctx context.Context, merchantID, intentID string) {
	if s.deps.Redis != nil {
		_ = s.deps.Redis.Del(context.WithoutCancel(ctx), vaultKey(merchantID, intentID)).Err()
	}
}
