package txn

import (
	"context"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Profile is the business profile a request acts for: the one named, else
// the caller's (X-Profile-Id), else the merchant's default. A profile the
// caller's key is not scoped to is not found, like another merchant's.
func Profile(ctx context.Context, db *ent.Client, named *string) (*ent.Profile, error) {
	prof, err := loadProfile(ctx, db, profileIDOf(ctx, named))
	if err != nil {
		return nil, err
	}
	return prof, checkProfileScope(ctx, prof)
}

// ProfileAndAccounts is Profile with the profile's connector accounts,
// from the configuration cache when it is on (UseConfigVersions): shared,
// read only.
func (db *DB) ProfileAndAccounts(ctx context.Context, client *ent.Client, named *string) (*ProfileConfig, error) {
	pc, err := db.ProfileConfig(ctx, client, profileIDOf(ctx, named))
	if err != nil {
		return nil, err
	}
	return pc, checkProfileScope(ctx, pc.Profile)
}

func profileIDOf(ctx context.Context, named *string) string {
	if named != nil {
		return *named
	}
	if p, ok := tenancy.FromContext(ctx); ok {
		return p.ProfileID
	}
	return ""
}

// InProfile is where narrowed to the caller's profile when the principal
// names one (X-Profile-Id): another profile's row is then not found, like
// a foreign one. The merchant is scoped by the ent interceptor.
func InProfile[P any](ctx context.Context, byProfile func(string) P, where ...P) []P {
	if p, ok := tenancy.FromContext(ctx); ok && p.ProfileID != "" {
		return append(where, byProfile(p.ProfileID))
	}
	return where
}

func checkProfileScope(ctx context.Context, prof *ent.Profile) error {
	if p, ok := tenancy.FromContext(ctx); ok && p.ProfileID != "" && p.ProfileID != prof.ID {
		return errs.ProfileNotFound(prof.ID)
	}
	return nil
}
