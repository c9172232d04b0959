// Package acquirers owns a profile's acquirer configurations
// (Hyperswitch's profile acquirers): what each acquirer calls the
// merchant for a card network, its BIN, ICA, country and fraud rate, and
// which one is the profile's default.
//
// It must not import another domain package.
package acquirers

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/profile"
	"switchyard/ent/profileacquirer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service runs the profile acquirer operations.
type Service struct{ db *txn.DB }

// New returns the service over db.
func New(db *txn.DB) *Service { return &Service{db: db} }

// Input creates (every member but the optional ones given) or updates
// (only what is given) an acquirer configuration.
type Input struct {
	AcquirerAssignedMerchantID, MerchantName, Network, AcquirerBIN *string
	AcquirerICA, AcquirerCountryCode                               *string
	AcquirerFraudRate                                              *float64
	IsDefault                                                      *bool
}

func (in *Input) check() error {
	for _, f := range []struct {
		name string
		v    *string
		max  int
	}{{"acquirer_assigned_merchant_id", in.AcquirerAssignedMerchantID, 255}, {"merchant_name", in.MerchantName, 255},
		{"network", in.Network, 64}, {"acquirer_bin", in.AcquirerBIN, 64}, {"acquirer_ica", in.AcquirerICA, 64}} {
		if f.v != nil && validate.Chars(*f.v) > f.max {
			return errs.InvalidValue(f.name, "must be at most %d characters", f.max)
		}
	}
	if r := in.AcquirerFraudRate; r != nil && (*r < 0 || *r > 100) {
		return errs.InvalidValue("acquirer_fraud_rate", "must be 0 to 100")
	}
	return nil
}

func (in *Input) apply(m *ent.ProfileAcquirerMutation) {
	txn.SetIf(in.AcquirerAssignedMerchantID, m.SetAcquirerAssignedMerchantID)
	txn.SetIf(in.MerchantName, m.SetMerchantName)
	txn.SetIf(in.Network, m.SetNetwork)
	txn.SetIf(in.AcquirerBIN, m.SetAcquirerBin)
	txn.SetIf(in.AcquirerICA, m.SetAcquirerIca)
	txn.SetIf(in.AcquirerCountryCode, m.SetAcquirerCountryCode)
	txn.SetIf(in.AcquirerFraudRate, m.SetAcquirerFraudRate)
	txn.SetIf(in.IsDefault, m.SetIsDefault)
}

// Create adds an acquirer configuration to the caller's profile
// profileID; a profile that is not the merchant's is not found.
func (s *Service) Create(ctx context.Context, profileID string, in Input) (*ent.ProfileAcquirer, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		v    *string
	}{{"acquirer_assigned_merchant_id", in.AcquirerAssignedMerchantID}, {"merchant_name", in.MerchantName},
		{"network", in.Network}, {"acquirer_bin", in.AcquirerBIN}} {
		if f.v == nil {
			return nil, errs.MissingField(f.name)
		}
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	var out *ent.ProfileAcquirer
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		if ok, err := tx.Profile.Query().Where(profile.ID(profileID)).Exist(ctx); err != nil || !ok {
			if err == nil {
				return errs.ProfileNotFound(profileID)
			}
			return errs.Internal(err)
		}
		if err := s.clearDefault(ctx, tx, profileID, in.IsDefault); err != nil {
			return err
		}
		create := tx.ProfileAcquirer.Create().SetProfileID(profileID)
		in.apply(create.Mutation())
		var err error
		out, err = create.Save(ctx)
		return txn.ErrorOrNil(err, "profile acquirer")
	})
	return out, err
}

// clearDefault unsets the profile's default when another becomes it.
func (s *Service) clearDefault(ctx context.Context, tx *ent.Tx, profileID string, isDefault *bool) error {
	if isDefault == nil || !*isDefault {
		return nil
	}
	_, err := tx.ProfileAcquirer.Update().Where(profileacquirer.ProfileID(profileID), profileacquirer.IsDefault(true)).
		SetIsDefault(false).Save(ctx)
	return txn.ErrorOrNil(err, "profile acquirer")
}

// Update changes what in gives of the profile's acquirer id.
func (s *Service) Update(ctx context.Context, profileID, id string, in Input) (*ent.ProfileAcquirer, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	if err := in.check(); err != nil {
		return nil, err
	}
	var out *ent.ProfileAcquirer
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		cur, err := tx.ProfileAcquirer.Query().Where(profileacquirer.ID(id), profileacquirer.ProfileID(profileID)).Only(ctx)
		if err != nil {
			return txn.ReadError(err, func() *errs.Error {
				return errs.ErrProfileAcquirerNotFound.Newf("Profile acquirer with id '%s' not found for profile '%s'.", id, profileID)
			})
		}
		if err := s.clearDefault(ctx, tx, profileID, in.IsDefault); err != nil {
			return err
		}
		upd := tx.ProfileAcquirer.UpdateOne(cur)
		in.apply(upd.Mutation())
		out, err = upd.Save(ctx)
		return txn.ErrorOrNil(err, "profile acquirer")
	})
	return out, err
}
