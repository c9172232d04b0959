package txn

import (
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"switchyard/ent"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// ConfigVersions is where each merchant's configuration version lives,
// shared by every process (Redis): bumped after any change to its profiles
// or connector accounts commits.
type ConfigVersions interface {
	Version(ctx context.Context, merchantID string) (int64, error)
	Bump(ctx context.Context, merchantID string) error
}

// ProfileConfig is a profile and its connector accounts (oldest first), as
// a payment reads them. It is shared between requests: read only.
type ProfileConfig struct {
	Profile  *ent.Profile
	Accounts []*ent.MerchantConnectorAccount
	// BlocklistGuard is the merchant's blocklist guard (POST
	// /blocklist/toggle): kept here so that a confirm reads it without a
	// statement of its own.
	BlocklistGuard bool
}

// configFor bounds how long a cached configuration is trusted without a
// change being seen: a process that died between a change's commit and its
// bump leaves the others stale no longer than this.
const configFor = time.Minute

// configCache holds each merchant's profiles between changes.
type configCache struct {
	versions ConfigVersions
	mu       sync.Mutex
	byMerch  map[string]*merchantConfig
}

type merchantConfig struct {
	version   int64
	loadedAt  time.Time
	defaultID string
	profiles  map[string]*ProfileConfig
}

// UseConfigVersions turns on the configuration cache: a payment reads its
// profile and connector accounts from memory while the merchant's version
// has not moved, and every change to a profile or an account (through any
// ent call) bumps it once its transaction commits.
func (db *DB) UseConfigVersions(v ConfigVersions) {
	db.config = &configCache{versions: v, byMerch: map[string]*merchantConfig{}}
	bump := db.config.bumpAfter
	db.Client.Profile.Use(bump)
	db.Client.MerchantConnectorAccount.Use(bump)
	db.Client.MerchantAccount.Use(bump) // the blocklist guard
}

// bumpAfter is the hook that bumps the merchant's version after a change to
// a profile or an account commits (at once outside a transaction).
func (c *configCache) bumpAfter(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		v, err := next.Mutate(ctx, m)
		if err != nil {
			return v, err
		}
		merchantID, _ := tenancy.Scope(ctx)
		if merchantID == "" {
			if f, ok := m.Field("merchant_id"); ok {
				merchantID, _ = f.(string)
			}
		}
		inTx, ok := m.(interface{ Tx() (*ent.Tx, error) })
		tx, txErr := (*ent.Tx)(nil), error(nil)
		if ok {
			tx, txErr = inTx.Tx()
		}
		if !ok || txErr != nil {
			c.changed(ctx, merchantID)
			return v, nil
		}
		tx.OnCommit(func(next ent.Committer) ent.Committer {
			return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
				err := next.Commit(ctx, tx)
				if err == nil {
					c.changed(ctx, merchantID)
				}
				return err
			})
		})
		return v, nil
	})
}

// changed drops the merchant's configuration here and tells the other
// processes. A change of no known merchant (platform-wide) drops every
// merchant's here; the others see it within configFor.
func (c *configCache) changed(ctx context.Context, merchantID string) {
	c.mu.Lock()
	if merchantID == "" {
		clear(c.byMerch)
	} else {
		delete(c.byMerch, merchantID)
	}
	c.mu.Unlock()
	if merchantID != "" {
		_ = c.versions.Bump(ctx, merchantID) // lost: bounded by configFor
	}
}

// versionMemo is one operation's reading of configuration versions.
type versionMemo struct {
	mu       sync.Mutex
	versions map[string]int64
}

type versionMemoKey struct{}

// OneReading makes every configuration read under ctx use one reading of
// the merchant's version: a payment asks Redis once, not at each read. A
// ctx that has its reading already (WithConfigVersion) keeps it.
func OneReading(ctx context.Context) context.Context {
	if _, ok := ctx.Value(versionMemoKey{}).(*versionMemo); ok {
		return ctx
	}
	return context.WithValue(ctx, versionMemoKey{}, &versionMemo{versions: map[string]int64{}})
}

// WithConfigVersion is OneReading with the merchant's version read already,
// as the request's first round trip to Redis read it (beside its
// Idempotency-Key's lease). A version read before the operation's
// configuration reads is as good as one read at the first of them: what is
// cached at it was loaded after it was read.
func WithConfigVersion(ctx context.Context, merchantID string, version int64) context.Context {
	ctx = OneReading(ctx)
	memo := ctx.Value(versionMemoKey{}).(*versionMemo)
	memo.mu.Lock()
	if _, ok := memo.versions[merchantID]; !ok {
		memo.versions[merchantID] = version
	}
	memo.mu.Unlock()
	return ctx
}

// errNoConfigCache is ConfigVersion's answer when the cache is off.
var errNoConfigCache = errors.New("the configuration cache is off")

// ConfigVersion is the merchant's configuration version, as this operation
// read it (OneReading), for caches of what hangs off a profile (routing):
// any change to a profile or an account moves it. Without the cache
// (UseConfigVersions) it is an error, and such caches are not used.
func (db *DB) ConfigVersion(ctx context.Context, merchantID string) (int64, error) {
	if db.config == nil {
		return 0, errNoConfigCache
	}
	return db.config.version(ctx, merchantID)
}

func (c *configCache) version(ctx context.Context, merchantID string) (int64, error) {
	memo, _ := ctx.Value(versionMemoKey{}).(*versionMemo)
	if memo != nil {
		memo.mu.Lock()
		v, ok := memo.versions[merchantID]
		memo.mu.Unlock()
		if ok {
			return v, nil
		}
	}
	v, err := c.versions.Version(ctx, merchantID)
	if err != nil {
		return 0, err
	}
	if memo != nil {
		memo.mu.Lock()
		memo.versions[merchantID] = v
		memo.mu.Unlock()
	}
	return v, nil
}

// ProfileConfig is the profile of id ("" for the merchant's default) of the
// merchant in ctx, with its connector accounts, read through client (a
// transaction's, on SQLite the only connection) unless cached at the
// merchant's current version. A profile that does not exist is not found.
func (db *DB) ProfileConfig(ctx context.Context, client *ent.Client, id string) (*ProfileConfig, error) {
	merchantID, err := Merchant(ctx)
	if err != nil && id == "" {
		return nil, err
	}
	c := db.config
	if c == nil || err != nil { // no cache, or the process's own work (recovery)
		return loadProfileConfig(ctx, client, id)
	}
	version, verr := c.version(ctx, merchantID)
	if verr == nil {
		if pc := c.cached(merchantID, id, version, db.Now()); pc != nil {
			return pc, nil
		}
	}
	pc, err := loadProfileConfig(ctx, client, id)
	if err != nil || verr != nil {
		return pc, err
	}
	now := db.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	mc := c.byMerch[merchantID]
	// A cache that is not current starts again from this read. (Kept past
	// its bound with its first read's time, it was never trusted again, and
	// every payment read its profile from the database.)
	if !mc.current(version, now) {
		mc = &merchantConfig{version: version, loadedAt: now, profiles: map[string]*ProfileConfig{}}
		c.byMerch[merchantID] = mc
	}
	mc.profiles[pc.Profile.ID] = pc
	if pc.Profile.IsDefault {
		mc.defaultID = pc.Profile.ID
	}
	return pc, nil
}

func (c *configCache) cached(merchantID, id string, version int64, now time.Time) *ProfileConfig {
	c.mu.Lock()
	defer c.mu.Unlock()
	mc := c.byMerch[merchantID]
	if !mc.current(version, now) {
		return nil
	}
	if id == "" {
		id = mc.defaultID
	}
	return mc.profiles[id]
}

// current reports whether mc may answer a read at version and now: loaded
// at that version, less than configFor ago.
func (mc *merchantConfig) current(version int64, now time.Time) bool {
	return mc != nil && mc.version == version && now.Sub(mc.loadedAt) < configFor
}

func loadProfileConfig(ctx context.Context, client *ent.Client, id string) (*ProfileConfig, error) {
	prof, err := loadProfile(ctx, client, id)
	if err != nil {
		return nil, err
	}
	accounts, err := client.MerchantConnectorAccount.Query().
		Where(merchantconnectoraccount.ProfileID(prof.ID)).
		Order(ent.Asc(merchantconnectoraccount.FieldCreatedAt), ent.Asc(merchantconnectoraccount.FieldID)).
		All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	guard, err := client.MerchantAccount.Query().
		Where(merchantaccount.ID(prof.MerchantID), merchantaccount.BlocklistGuardEnabled(true)).Exist(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &ProfileConfig{Profile: prof, Accounts: slices.Clip(accounts), BlocklistGuard: guard}, nil
}

// loadProfile reads the profile of id ("" for the default).
func loadProfile(ctx context.Context, client *ent.Client, id string) (*ent.Profile, error) {
	q := client.Profile.Query()
	if id != "" {
		q = q.Where(profile.ID(id))
	} else {
		q = q.Where(profile.IsDefault(true))
	}
	prof, err := q.First(ctx)
	if ent.IsNotFound(err) {
		if id != "" {
			return nil, errs.ProfileNotFound(id)
		}
		return nil, errs.NotFound("Business profile")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return prof, nil
}

// ConnectorNames maps connector accounts (mca_…) to their connectors'
// names, in one read. The success-rate series group attempts by account
// on an index that has no names: reading the attempts' own would take the
// grouped statement off it.
func ConnectorNames(ctx context.Context, client *ent.Client, accountIDs []string) (map[string]string, error) {
	accounts, err := client.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.IDIn(accountIDs...)).
		Select(merchantconnectoraccount.FieldID, merchantconnectoraccount.FieldConnectorName).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	names := make(map[string]string, len(accounts))
	for _, a := range accounts {
		names[a.ID] = a.ConnectorName
	}
	return names, nil
}
