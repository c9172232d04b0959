package txn

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Profile is the business profile a request acts for: the one named, else
// the caller's (X-Profile-Id), else the merchant's default. A profile the
// caller's key is not scoped to is not found, like another merchant's.
func Profile(ctx context.Context, db *ent.Client, named *string) (*ent.Profile, error) {
	id := ""
	if named != nil {
		id = *named
	} else if p, ok := tenancy.FromContext(ctx); ok {
		id = p.ProfileID
	}
	q := db.Profile.Query()
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
	if p, ok := tenancy.FromContext(ctx); ok && p.ProfileID != "" && p.ProfileID != prof.ID {
		return nil, errs.ProfileNotFound(prof.ID)
	}
	return prof, nil
}
