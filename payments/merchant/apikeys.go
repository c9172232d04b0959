package merchant

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/apikey"
	"switchyard/ent/merchantaccount"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// APIKeyInput creates a merchant secret key.
type APIKeyInput struct {
	Name        string
	Description *string
	// ExpiresAt nil means the key never expires.
	ExpiresAt *time.Time
}

// APIKeyPatch changes a key; nil members are left as they are.
type APIKeyPatch struct {
	Name        *string
	Description *string
	// Expiration is set when the request names one; ExpiresAt nil then means never.
	Expiration bool
	ExpiresAt  *time.Time
}

const (
	maxKeyName        = 64
	maxKeyDescription = 256
)

func (s *Service) checkAPIKeyFields(name, description *string, expiresAt *time.Time) error {
	if name != nil && (*name == "" || validate.Chars(*name) > maxKeyName) {
		return errs.InvalidValue("name", "must be 1 to %d characters", maxKeyName)
	}
	if description != nil && validate.Chars(*description) > maxKeyDescription {
		return errs.InvalidValue("description", "must be at most %d characters", maxKeyDescription)
	}
	if expiresAt != nil && !expiresAt.After(s.now()) {
		return errs.InvalidValue("expiration", "must be in the future")
	}
	return nil
}

// CreateAPIKey creates a secret key for the merchant in ctx. The key itself
// is returned once; only its keyed hash and a short prefix are stored.
func (s *Service) CreateAPIKey(ctx context.Context, in APIKeyInput) (*ent.APIKey, string, error) {
	if in.Name == "" {
		return nil, "", errs.MissingField("name")
	}
	if err := s.checkAPIKeyFields(&in.Name, in.Description, in.ExpiresAt); err != nil {
		return nil, "", err
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, "", err
	}
	plain := ids.SecretKey()
	var row *ent.APIKey
	// A transaction of its own, so that a dashboard user's audit entry is
	// written with the key.
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		row, err = tx.APIKey.Create().
			SetName(in.Name).
			SetNillableDescription(in.Description).
			SetPrefix(plain[:8]).
			SetHash(s.box.HashAPIKey(plain)).
			SetNillableExpiresAt(utc(in.ExpiresAt)).
			Save(ctx)
		return txn.ErrorOrNil(err, "api key")
	})
	if err != nil {
		return nil, "", err
	}
	return row, plain, nil
}

// GetAPIKey returns an unrevoked key of the merchant in ctx.
func (s *Service) GetAPIKey(ctx context.Context, keyID string) (*ent.APIKey, error) {
	k, err := s.db.Client.APIKey.Query().Where(apikey.ID(keyID), apikey.RevokedAtIsNil()).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errAPIKeyNotFound)
	}
	return k, nil
}

// UpdateAPIKey changes a key's name, description or expiration.
func (s *Service) UpdateAPIKey(ctx context.Context, keyID string, p APIKeyPatch) (*ent.APIKey, error) {
	if err := s.checkAPIKeyFields(p.Name, p.Description, p.ExpiresAt); err != nil {
		return nil, err
	}
	var out *ent.APIKey
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		k, err := s.lockActiveKey(ctx, tx, keyID)
		if err != nil {
			return err
		}
		upd := k.Update().SetNillableName(p.Name).SetNillableDescription(p.Description)
		if p.Expiration {
			// The key cache holds the old expiration: it goes first.
			if err := s.forgetKeys(ctx, k.Hash); err != nil {
				return err
			}
			if p.ExpiresAt == nil {
				upd.ClearExpiresAt()
			} else {
				upd.SetExpiresAt(p.ExpiresAt.UTC())
			}
		}
		out, err = upd.Save(ctx)
		return txn.ErrorOrNil(err, "api key")
	})
	return out, err
}

// lockActiveKey reads an unrevoked key of the merchant for a change.
func (s *Service) lockActiveKey(ctx context.Context, tx *ent.Tx, keyID string) (*ent.APIKey, error) {
	k, err := txn.ForUpdate(s.db, tx.APIKey.Query().Where(apikey.ID(keyID), apikey.RevokedAtIsNil())).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errAPIKeyNotFound)
	}
	return k, nil
}

// RevokeAPIKey revokes a key at once: the next request with it gets 401,
// on every instance (its key-cache entry goes before the revocation commits).
func (s *Service) RevokeAPIKey(ctx context.Context, keyID string) (*ent.APIKey, error) {
	var out *ent.APIKey
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		k, err := s.lockActiveKey(ctx, tx, keyID)
		if err != nil {
			return err
		}
		if err := s.forgetKeys(ctx, k.Hash); err != nil {
			return err
		}
		out, err = k.Update().SetRevokedAt(s.now()).Save(ctx)
		return txn.ErrorOrNil(err, "api key")
	})
	return out, err
}

// MaxRollGrace is the longest an old key may keep working once rolled.
const MaxRollGrace = 24 * time.Hour

// RollAPIKeyInput rolls a key: GracePeriodSeconds is how long the old key
// keeps working (0 ends it now).
type RollAPIKeyInput struct {
	KeyID              string
	GracePeriodSeconds int
}

// RollAPIKey replaces a key without an outage: a new key with the old
// one's name and description (and no expiry), returned once, while the old
// key keeps working for the grace period and then ends. One transaction
// makes the new key and sets the old one's expiry, never later than an
// expiry it had; the old key's key-cache entry goes first, so every
// process honours the new expiry (see keycache.go).
func (s *Service) RollAPIKey(ctx context.Context, in RollAPIKeyInput) (created *ent.APIKey, plain string, previous *ent.APIKey, err error) {
	if in.GracePeriodSeconds < 0 || in.GracePeriodSeconds > int(MaxRollGrace/time.Second) {
		return nil, "", nil, errs.InvalidValue("gracePeriodSeconds", "must be between 0 and %d (24 hours)", int(MaxRollGrace/time.Second))
	}
	if err := s.db.RequireMerchant(ctx); err != nil {
		return nil, "", nil, err
	}
	plain = ids.SecretKey()
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		old, err := s.lockActiveKey(ctx, tx, in.KeyID)
		if err != nil {
			return err
		}
		ends := s.now().Add(time.Duration(in.GracePeriodSeconds) * time.Second)
		if old.ExpiresAt != nil && old.ExpiresAt.Before(ends) {
			ends = *old.ExpiresAt
		}
		// The key cache holds the old expiry: its entry goes first.
		if err := s.forgetKeys(ctx, old.Hash); err != nil {
			return err
		}
		if previous, err = old.Update().SetExpiresAt(ends.UTC()).Save(ctx); err != nil {
			return txn.Error(err, "api key")
		}
		created, err = tx.APIKey.Create().
			SetName(old.Name).
			SetNillableDescription(old.Description).
			SetPrefix(plain[:8]).
			SetHash(s.box.HashAPIKey(plain)).
			Save(ctx)
		return txn.ErrorOrNil(err, "api key")
	})
	if err != nil {
		return nil, "", nil, err
	}
	return created, plain, previous, nil
}

// ListAPIKeys lists the merchant's unrevoked keys, newest first.
func (s *Service) ListAPIKeys(ctx context.Context, limit, skip int) ([]*ent.APIKey, error) {
	if limit < 1 || limit > 100 {
		return nil, errs.InvalidValue("limit", "must be between 1 and 100")
	}
	if skip < 0 {
		return nil, errs.InvalidValue("skip", "must not be negative")
	}
	return txn.Read(s.db.Client.APIKey.Query().Where(apikey.RevokedAtIsNil()).
		Order(ent.Desc(apikey.FieldCreatedAt), ent.Desc(apikey.FieldID)).
		Limit(limit).Offset(skip).All(ctx))
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// ActiveAPIKeyByHash finds an unrevoked, unexpired key by its hash, in the
// key cache or else in the database (and then caches it). It runs before
// any principal exists, so it reads as the system.
func (s *Service) ActiveAPIKeyByHash(ctx context.Context, hash string) (*ActiveKey, error) {
	k := s.cachedKey(ctx, hash)
	if k == nil {
		readAt := s.now()
		row, err := s.db.Client.APIKey.Query().
			Where(apikey.Hash(hash), apikey.RevokedAtIsNil()).
			Select(apikey.FieldID, apikey.FieldMerchantID, apikey.FieldExpiresAt).
			Only(tenancy.System(ctx))
		if err != nil {
			return nil, txn.ReadError(err, errs.Unauthorized)
		}
		k = &ActiveKey{ID: row.ID, MerchantID: row.MerchantID, ExpiresAt: row.ExpiresAt}
		if k.ExpiresAt == nil || k.ExpiresAt.After(s.now()) {
			s.cacheKey(ctx, hash, *k, readAt)
		}
	}
	if k.ExpiresAt != nil && !k.ExpiresAt.After(s.now()) {
		return nil, errs.Unauthorized()
	}
	return k, nil
}

// ActiveSecretKey is the merchant and id of an active secret key (snd_…),
// found by its keyed hash (ActiveAPIKeyByHash).
func (s *Service) ActiveSecretKey(ctx context.Context, plain string) (merchantID, keyID string, err error) {
	k, err := s.ActiveAPIKeyByHash(ctx, s.box.HashAPIKey(plain))
	if err != nil {
		return "", "", err
	}
	return k.MerchantID, k.ID, nil
}

// MerchantByPublishableKey finds the merchant a publishable key (pk_snd_…)
// belongs to. Like ActiveAPIKeyByHash it runs before any principal exists,
// so it reads as the system. An unknown key is IR_01.
func (s *Service) MerchantByPublishableKey(ctx context.Context, key string) (string, error) {
	id, err := s.db.Client.MerchantAccount.Query().
		Where(merchantaccount.PublishableKey(key)).
		OnlyID(tenancy.System(ctx))
	if err != nil {
		return "", txn.ReadError(err, errs.Unauthorized)
	}
	return id, nil
}
