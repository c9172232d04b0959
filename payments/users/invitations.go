package users

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"switchyard/ent"
	"switchyard/ent/invitation"
	"switchyard/ent/membership"
	"switchyard/ent/user"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// InvitationTokenPrefix starts every invitation token.
const InvitationTokenPrefix = "inv_tok_"

// Invited is an invitation made; its token is shown once, here.
type Invited struct {
	Invitation *ent.Invitation
	Token      string
	// Link is the link to send: InviteURL and the token.
	Link string
	// Emailed says the link went to the invited address by e-mail.
	Emailed bool
}

// AdminKeyInviter is the inviter of an invitation the platform admin key
// made (to bootstrap a merchant's first admin), where a user's id is kept
// for the others.
const AdminKeyInviter = "admin_key"

// Invite asks email to join the caller's merchant with role. Someone who
// is a member already is refused; inviting the same email again makes a
// new link (each works once). The caller is a user of the merchant, or
// the platform admin key inviting the first admin of a merchant that has
// none (bootstrapping it: its admins invite the others).
func (s *Service) Invite(ctx context.Context, email string, role Role) (*Invited, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || (p.UserID == "" && p.Kind != tenancy.KindAdmin) {
		return nil, errNoSession()
	}
	given, key, err := normalizeEmail(email)
	if err != nil {
		return nil, err
	}
	if _, err := ParseRole(string(role)); err != nil {
		return nil, err
	}
	invitedBy := p.UserID
	if invitedBy == "" {
		if role != RoleAdmin {
			return nil, errBootstrapOnly()
		}
		invitedBy = AdminKeyInviter
	}
	sys := tenancy.System(ctx)
	if u, err := s.db.Client.User.Query().Where(user.EmailKey(key)).Only(sys); err == nil {
		member, err := s.db.Client.Membership.Query().Where(membership.UserID(u.ID)).Exist(ctx)
		if err != nil {
			return nil, errs.Internal(err)
		}
		if member {
			return nil, errs.ErrAlreadyMember.New().WithField("email")
		}
	} else if !ent.IsNotFound(err) {
		return nil, errs.Internal(err)
	}
	token := newToken(InvitationTokenPrefix)
	var inv *ent.Invitation
	err = s.db.InTx(ctx, func(tx *ent.Tx) error {
		if invitedBy == AdminKeyInviter {
			if err := s.requireNoAdmin(ctx, tx); err != nil {
				return err
			}
		}
		var err error
		inv, err = tx.Invitation.Create().SetEmail(given).SetEmailKey(key).SetRole(invitation.Role(role)).
			SetTokenHash(s.box.HashToken(token)).SetInvitedBy(invitedBy).
			SetExpiresAt(s.db.Now().Add(s.policy.InvitationFor)).Save(ctx)
		return txn.ErrorOrNil(err, "invitation")
	})
	if err != nil {
		return nil, err
	}
	out := &Invited{Invitation: inv, Token: token, Link: s.inviteURL + token}
	out.Emailed = s.mailInvitation(ctx, inv, out.Link)
	return out, nil
}

// mailInvitation sends the link to the invited address when a mailer is
// configured, after the invitation committed. A failed e-mail leaves the
// invitation made (its link is in the answer to pass on by hand) and is
// logged, without the link.
func (s *Service) mailInvitation(ctx context.Context, inv *ent.Invitation, link string) bool {
	if s.mailer == nil {
		return false
	}
	merchantName := inv.MerchantID
	if m, err := s.db.Client.MerchantAccount.Get(tenancy.System(ctx), inv.MerchantID); err == nil && m.MerchantName != nil {
		merchantName = *m.MerchantName
	}
	text := fmt.Sprintf("You are invited to join %s on Switchyard as %s %s.\n\n"+
		"Open this link to accept (it works once, until %s UTC):\n\n%s\n\n"+
		"If you did not expect this invitation, ignore this e-mail.\n",
		merchantName, article(string(inv.Role)), inv.Role, inv.ExpiresAt.UTC().Format("2 January 2006 15:04"), link)
	if err := s.mailer.Send(ctx, inv.Email, "Your invitation to "+merchantName+" on Switchyard", text); err != nil {
		slog.WarnContext(ctx, "invitation e-mail not sent", "invitation", inv.ID, "err", err)
		return false
	}
	return true
}

// article is "an" before a vowel, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// PendingInvitation reads the invitation token names, as acceptInvitation
// would take it (an unknown, used or expired link is errs.ErrLinkInvalid, as there), with
// its merchant's name and whether its email already has a user (who
// accepts with their password rather than choosing one).
func (s *Service) PendingInvitation(ctx context.Context, token string) (*ent.Invitation, string, bool, error) {
	sys := tenancy.System(ctx)
	inv, err := s.openInvitation(sys, token)
	if err != nil {
		return nil, "", false, err
	}
	m, err := s.db.Client.MerchantAccount.Get(sys, inv.MerchantID)
	if err != nil {
		return nil, "", false, errs.Internal(err)
	}
	existing, err := s.db.Client.User.Query().Where(user.EmailKey(inv.EmailKey)).Exist(sys)
	if err != nil {
		return nil, "", false, errs.Internal(err)
	}
	name := ""
	if m.MerchantName != nil {
		name = *m.MerchantName
	}
	return inv, name, existing, nil
}

// openInvitation finds the invitation token names while it can still be
// accepted.
func (s *Service) openInvitation(sys context.Context, token string) (*ent.Invitation, error) {
	inv, err := s.db.Client.Invitation.Query().Where(invitation.TokenHash(s.box.HashToken(token))).Only(sys)
	if err != nil {
		return nil, txn.ReadError(err, errLinkInvalid)
	}
	if inv.AcceptedAt != nil || !s.db.Now().Before(inv.ExpiresAt) {
		return nil, errLinkInvalid()
	}
	return inv, nil
}

// AcceptInvitation joins the invitation's merchant with its role and signs
// in there. Someone without a user becomes one with password (the sign-up
// rules apply); an existing user proves it with their password (counted
// as a sign-in). The token works once: accepting marks it in the same
// transaction that adds the membership, and only if nobody did first.
func (s *Service) AcceptInvitation(ctx context.Context, token, password, clientAddr string) (*Session, error) {
	sys := tenancy.System(ctx)
	inv, err := s.openInvitation(sys, token)
	if err != nil {
		return nil, err
	}
	u, hash, err := s.invitee(ctx, inv, password, clientAddr)
	if err != nil {
		return nil, err
	}
	// The membership is the invitation's merchant's: write as it.
	mctx := tenancy.ForMerchant(sys, inv.MerchantID)
	if u, err = s.join(sys, mctx, inv, u, hash); err != nil {
		return nil, err
	}
	m, err := s.db.Client.Membership.Query().Where(membership.UserID(u.ID)).Only(mctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return s.startSession(ctx, u, m)
}

// invitee is the user an invitation is accepted as: an existing user whose
// password is given, or nil with the new user's password hash.
func (s *Service) invitee(ctx context.Context, inv *ent.Invitation, password, clientAddr string) (*ent.User, string, error) {
	_, err := s.db.Client.User.Query().Where(user.EmailKey(inv.EmailKey)).Only(tenancy.System(ctx))
	switch {
	case ent.IsNotFound(err):
		if err := checkPassword(password, inv.Email); err != nil {
			return nil, "", err
		}
		hash, err := s.hashes.hash(ctx, password)
		return nil, hash, err
	case err != nil:
		return nil, "", errs.Internal(err)
	}
	// An existing user joins with their own password (checked as a sign-in is).
	u, err := s.checkPassword(ctx, inv.Email, password, clientAddr)
	return u, "", err
}

// join spends the invitation and makes u (created from hash when nil) a
// member of its merchant, in one transaction; it returns the user. Users
// are nobody's tenant rows: they are written as the system (sys).
func (s *Service) join(sys, mctx context.Context, inv *ent.Invitation, u *ent.User, hash string) (*ent.User, error) {
	err := s.db.InTx(mctx, func(tx *ent.Tx) error {
		n, err := tx.Invitation.Update().Where(invitation.ID(inv.ID), invitation.AcceptedAtIsNil()).
			SetAcceptedAt(s.db.Now()).Save(mctx)
		if err != nil {
			return errs.Internal(err)
		}
		if n == 0 {
			return errLinkInvalid() // accepted a moment ago
		}
		if inv.InvitedBy == AdminKeyInviter && s.requireNoAdmin(mctx, tx) != nil {
			return errLinkInvalid() // the merchant has its first admin already: its admins invite
		}
		if u == nil {
			u, err = tx.User.Create().SetEmail(inv.Email).SetEmailKey(inv.EmailKey).SetPasswordHash(hash).Save(sys)
			if ent.IsConstraintError(err) {
				return errUserExists() // signed up a moment ago: accept again with that password
			}
			if err != nil {
				return errs.Internal(err)
			}
		}
		member, err := tx.Membership.Query().Where(membership.UserID(u.ID)).Exist(mctx)
		if err != nil || member {
			return txn.ErrorOrNil(err, "membership") // joined another way meanwhile: the link is spent
		}
		return txn.ErrorOrNil(tx.Membership.Create().SetUserID(u.ID).SetRole(membership.Role(inv.Role)).Exec(mctx), "membership")
	})
	return u, err
}

// requireNoAdmin refuses the admin key's invitation to a merchant that has
// an admin (its memberships locked, so two bootstraps at once cannot both
// make one).
func (s *Service) requireNoAdmin(ctx context.Context, tx *ent.Tx) error {
	ms, err := txn.ForUpdate(s.db, tx.Membership.Query()).All(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	for _, m := range ms {
		if m.Role == membership.RoleAdmin {
			return errBootstrapOnly()
		}
	}
	return nil
}

func errBootstrapOnly() *errs.Error {
	return errs.ErrAdminKeyBootstrapOnly.New()
}
