package merchant

import (
	"context"

	"switchyard/ent/merchantaccount"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// CheckScope verifies that the merchant and profile a principal names exist
// and belong together, so a header naming another merchant's profile is a
// 404 like any foreign id.
func (s *Service) CheckScope(ctx context.Context, p tenancy.Principal) error {
	if p.MerchantID == "" {
		return nil
	}
	scoped := tenancy.WithPrincipal(ctx, p)
	ok, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.ID(p.MerchantID)).Exist(scoped)
	if err != nil {
		return errs.Internal(err)
	}
	if !ok {
		return errMerchantNotFound()
	}
	if p.ProfileID == "" {
		return nil
	}
	ok, err = s.db.Client.Profile.Query().Where(profile.ID(p.ProfileID)).Exist(scoped)
	if err != nil {
		return errs.Internal(err)
	}
	if !ok {
		return errs.NotFound("Profile")
	}
	return nil
}
