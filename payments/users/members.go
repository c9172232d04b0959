package users

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/membership"
	"switchyard/ent/merchantaccount"
	"switchyard/ent/user"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Member is a user in the caller's merchant.
type Member struct {
	User     *ent.User
	Role     Role
	JoinedAt time.Time
}

// MembershipView is one merchant a user belongs to.
type MembershipView struct {
	MerchantID   string
	MerchantName *string
	Role         Role
	CreatedAt    time.Time
}

// Me is the signed-in caller.
type Me struct {
	User       *ent.User
	MerchantID string
	// MerchantTimeZone is the current merchant's IANA time zone.
	MerchantTimeZone string
	Role             Role
	Memberships      []MembershipView
}

// Me is the caller's user, merchant and role, and every merchant the user
// belongs to; nil for a caller that is not a user (an API key).
func (s *Service) Me(ctx context.Context) (*Me, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.UserID == "" {
		return nil, nil
	}
	sys := tenancy.System(ctx)
	u, err := s.db.Client.User.Get(sys, p.UserID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	ms, err := s.db.Client.Membership.Query().Where(membership.UserID(u.ID)).
		Order(ent.Asc(membership.FieldCreatedAt), ent.Asc(membership.FieldID)).All(sys)
	if err != nil {
		return nil, errs.Internal(err)
	}
	merchantIDs := make([]string, len(ms))
	for i, m := range ms {
		merchantIDs[i] = m.MerchantID
	}
	merchants, err := s.db.Client.MerchantAccount.Query().Where(merchantaccount.IDIn(merchantIDs...)).
		Select(merchantaccount.FieldID, merchantaccount.FieldMerchantName, merchantaccount.FieldTimeZone).All(sys)
	if err != nil {
		return nil, errs.Internal(err)
	}
	out := &Me{User: u, MerchantID: p.MerchantID, MerchantTimeZone: "UTC", Role: Role(p.Role)}
	names := map[string]*string{}
	for _, m := range merchants {
		names[m.ID] = m.MerchantName
		if m.ID == p.MerchantID {
			out.MerchantTimeZone = m.TimeZone
		}
	}
	for _, m := range ms {
		out.Memberships = append(out.Memberships, MembershipView{MerchantID: m.MerchantID, MerchantName: names[m.MerchantID],
			Role: Role(m.Role), CreatedAt: m.CreatedAt})
	}
	return out, nil
}

// Members are the users of the caller's merchant, oldest first.
func (s *Service) Members(ctx context.Context) ([]Member, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, err
	}
	ms, err := s.db.Client.Membership.Query().
		Order(ent.Asc(membership.FieldCreatedAt), ent.Asc(membership.FieldID)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.membersOf(ctx, ms)
}

func (s *Service) membersOf(ctx context.Context, ms []*ent.Membership) ([]Member, error) {
	userIDs := make([]string, len(ms))
	for i, m := range ms {
		userIDs[i] = m.UserID
	}
	us, err := s.db.Client.User.Query().Where(user.IDIn(userIDs...)).All(tenancy.System(ctx))
	if err != nil {
		return nil, errs.Internal(err)
	}
	byID := map[string]*ent.User{}
	for _, u := range us {
		byID[u.ID] = u
	}
	out := make([]Member, 0, len(ms))
	for _, m := range ms {
		if u := byID[m.UserID]; u != nil {
			out = append(out, Member{User: u, Role: Role(m.Role), JoinedAt: m.CreatedAt})
		}
	}
	return out, nil
}

// UpdateRole changes a member's role and ends their sessions on the
// merchant (they sign in again with the new role). The merchant's
// memberships are locked first, so two admins demoting each other at once
// cannot leave it without one.
func (s *Service) UpdateRole(ctx context.Context, userID string, role Role) (*Member, error) {
	if _, err := ParseRole(string(role)); err != nil {
		return nil, err
	}
	var changed *ent.Membership
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		target, admins, err := s.lockMembers(ctx, tx, userID)
		if err != nil {
			return err
		}
		if target.Role == membership.RoleAdmin && role != RoleAdmin && admins == 1 {
			return errLastAdmin()
		}
		update := tx.Membership.UpdateOne(target).SetRole(membership.Role(role))
		if target.Role != membership.Role(role) {
			update.AddGeneration(1) // ends the member's sessions on this merchant
		}
		changed, err = update.Save(ctx)
		return txn.ErrorOrNil(err, "membership")
	})
	if err != nil {
		return nil, err
	}
	// Read once committed: on SQLite the transaction held the one connection.
	out, err := s.membersOf(ctx, []*ent.Membership{changed})
	if err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, errs.NotFound("User")
	}
	return &out[0], nil
}

// RemoveMember takes a user out of the caller's merchant: their sessions
// on it end at the next request, for good (Authenticate reads the
// membership, and a new invitation makes another). The merchant keeps at
// least one admin.
func (s *Service) RemoveMember(ctx context.Context, userID string) error {
	return s.db.InTx(ctx, func(tx *ent.Tx) error {
		target, admins, err := s.lockMembers(ctx, tx, userID)
		if err != nil {
			return err
		}
		if target.Role == membership.RoleAdmin && admins == 1 {
			return errLastAdmin()
		}
		return txn.ErrorOrNil(tx.Membership.DeleteOne(target).Exec(ctx), "membership")
	})
}

// lockMembers locks the caller's merchant's memberships and returns the
// user's and how many admins there are. A user not in the merchant is not
// found.
func (s *Service) lockMembers(ctx context.Context, tx *ent.Tx, userID string) (*ent.Membership, int, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return nil, 0, err
	}
	ms, err := txn.ForUpdate(s.db, tx.Membership.Query()).All(ctx)
	if err != nil {
		return nil, 0, errs.Internal(err)
	}
	var target *ent.Membership
	admins := 0
	for _, m := range ms {
		if m.UserID == userID {
			target = m
		}
		if m.Role == membership.RoleAdmin {
			admins++
		}
	}
	if target == nil {
		return nil, 0, errs.NotFound("User")
	}
	return target, admins, nil
}
