package users

import (
	"context"
	"strings"
	"unicode/utf8"

	"switchyard/ent"
	"switchyard/ent/membership"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/user"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// SignUpInput is what signing up takes.
type SignUpInput struct {
	Email, Password, MerchantName string
	// TimeZone is the new merchant's IANA time zone (the dashboard sends
	// the browser's); UTC when nil.
	TimeZone *string
}

// SignedUp is what signing up made.
type SignedUp struct {
	Session     *Session
	Provisioned *Provisioned
}

const maxMerchantNameLen = 64

// SignUp creates a user and a merchant for them to administer, and signs
// them in.
//
// The user and their admin membership of the new merchant's id are
// written first, in one transaction; the merchant is then provisioned as
// the admin bootstrap does (its own operations, each its own
// transaction). A process that dies between the two leaves a user whose
// merchant is missing: signing in provisions it (ensureMerchant), so
// nothing is stranded and no merchant is ever left without its admin.
func (s *Service) SignUp(ctx context.Context, in SignUpInput) (*SignedUp, error) {
	email, key, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	if err := checkPassword(in.Password, email); err != nil {
		return nil, err
	}
	name, timeZone, err := in.merchant()
	if err != nil {
		return nil, err
	}
	sys := tenancy.System(ctx)
	if taken, err := s.db.Client.User.Query().Where(user.EmailKey(key)).Exist(sys); err != nil {
		return nil, errs.Internal(err)
	} else if taken {
		return nil, errUserExists()
	}
	hash, err := s.hashes.hash(ctx, in.Password)
	if err != nil {
		return nil, err
	}
	merchantID := ids.New(ids.Merchant)
	var u *ent.User
	var m *ent.Membership
	err = s.db.InTx(sys, func(tx *ent.Tx) error {
		var err error
		u, err = tx.User.Create().SetEmail(email).SetEmailKey(key).SetPasswordHash(hash).
			SetCompanyName(name).Save(sys)
		if ent.IsConstraintError(err) {
			return errUserExists() // signed up at the same moment
		}
		if err != nil {
			return errs.Internal(err)
		}
		m, err = tx.Membership.Create().SetMerchantID(merchantID).SetUserID(u.ID).SetRole(membership.RoleAdmin).Save(sys)
		return err
	})
	if err != nil {
		return nil, err
	}
	made, err := s.provision.Provision(ctx, NewMerchant{ID: merchantID, Name: name, TimeZone: timeZone})
	if err != nil {
		return nil, err
	}
	sess, err := s.startSession(ctx, u, m)
	if err != nil {
		return nil, err
	}
	return &SignedUp{Session: sess, Provisioned: made}, nil
}

// merchant is the new merchant's name and time zone ("" for UTC), checked.
func (in SignUpInput) merchant() (name, timeZone string, err error) {
	name = strings.TrimSpace(in.MerchantName)
	switch {
	case name == "":
		return "", "", errs.MissingField("merchantName")
	case utf8.RuneCountInString(name) > maxMerchantNameLen:
		return "", "", errs.InvalidValue("merchantName", "at most %d characters", maxMerchantNameLen)
	}
	if in.TimeZone != nil {
		if _, err := validate.TimeZone("timeZone", *in.TimeZone); err != nil {
			return "", "", err
		}
		timeZone = *in.TimeZone
	}
	return name, timeZone, nil
}

// ensureMerchant provisions a user's merchant that their sign-up wrote the
// membership of but did not live to make (in UTC: the time zone the
// sign-up gave was not kept; an admin sets it again).
func (s *Service) ensureMerchant(ctx context.Context, u *ent.User, merchantID string) error {
	exists, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.ID(merchantID)).Exist(tenancy.System(ctx))
	if err != nil {
		return errs.Internal(err)
	}
	if exists {
		return nil
	}
	name := u.CompanyName
	if name == "" {
		name = u.Email
	}
	_, err = s.provision.Provision(ctx, NewMerchant{ID: merchantID, Name: name})
	return err
}
