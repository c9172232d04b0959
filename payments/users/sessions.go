package users

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/membership"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// SessionTokenPrefix starts every session token.
const SessionTokenPrefix = "sys_"

// Session is a signed-in session: its token is shown once, here.
type Session struct {
	Token      string
	ExpiresAt  time.Time
	User       *ent.User
	MerchantID string
	Role       Role
	// id is the token's keyed hash, under which the store keeps it.
	id string
}

// Principal is who a request with this session's token is: the same
// principal Authenticate gives, so a sign-in can continue as its user for
// the rest of the request.
func (s *Session) Principal() tenancy.Principal {
	return userPrincipal(s.User.ID, s.User.Email, s.MerchantID, s.Role, s.id)
}

func userPrincipal(userID, email, merchantID string, role Role, sessionID string) tenancy.Principal {
	return tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: merchantID, UserID: userID,
		UserEmail: email, Role: string(role), SessionID: sessionID}
}

// sessionRecord is what the store keeps of a session, under the token's
// keyed hash (the token itself is never kept).
//
// It names the membership the session was opened on and that
// membership's generation: a removed member's membership is gone for
// good (joining again makes a new one, with a new id), and a role change
// bumps the generation, so either ends the session however the user
// comes back.
type sessionRecord struct {
	UserID       string    `json:"user_id"`
	Email        string    `json:"email"`
	MerchantID   string    `json:"merchant_id"`
	MembershipID string    `json:"membership_id"`
	Generation   int64     `json:"generation"`
	EndsAt       time.Time `json:"ends_at"` // the absolute end
}

// startSession opens a session for u on m's merchant, with m's role.
func (s *Service) startSession(ctx context.Context, u *ent.User, m *ent.Membership) (*Session, error) {
	token := newToken(SessionTokenPrefix)
	now := s.db.Now()
	merchantID, role := m.MerchantID, Role(m.Role)
	rec := sessionRecord{UserID: u.ID, Email: u.Email, MerchantID: merchantID, MembershipID: m.ID,
		Generation: m.Generation, EndsAt: now.Add(s.policy.SessionMax)}
	raw, err := json.Marshal(rec)
	if err != nil {
		return nil, errs.Internal(err)
	}
	id := s.box.HashToken(token)
	if err := s.sessions.Put(ctx, id, raw, s.policy.SessionIdle); err != nil {
		return nil, errs.Unavailable("The session store (Redis)")
	}
	return &Session{Token: token, ExpiresAt: s.expiry(now, rec), User: u, MerchantID: merchantID, Role: role, id: id}, nil
}

// expiry is when a session touched at now ends unless touched again.
func (s *Service) expiry(now time.Time, rec sessionRecord) time.Time {
	if idle := now.Add(s.policy.SessionIdle); idle.Before(rec.EndsAt) {
		return idle
	}
	return rec.EndsAt
}

// Authenticate resolves a session token into the principal of its user on
// its merchant, with the role the session was opened with. A membership
// removed or a role changed since ends the session (the membership's id or
// generation differs), on the next request and on every process; the user
// signs in again for the new role. Each request extends the session's idle
// time. An unknown, ended or signed-out token is errs.ErrUnauthorized.
func (s *Service) Authenticate(ctx context.Context, token string) (tenancy.Principal, error) {
	if !strings.HasPrefix(token, SessionTokenPrefix) {
		return tenancy.Principal{}, errs.Unauthorized()
	}
	id := s.box.HashToken(token)
	raw, err := s.sessions.Touch(ctx, id, s.policy.SessionIdle)
	if err != nil {
		return tenancy.Principal{}, errs.Unavailable("The session store (Redis)")
	}
	var rec sessionRecord
	if raw == nil || json.Unmarshal(raw, &rec) != nil || rec.UserID == "" {
		return tenancy.Principal{}, errs.Unauthorized()
	}
	if !s.db.Now().Before(rec.EndsAt) {
		_ = s.sessions.Delete(ctx, id)
		return tenancy.Principal{}, errs.Unauthorized()
	}
	m, err := s.db.Client.Membership.Query().
		Where(membership.MerchantID(rec.MerchantID), membership.UserID(rec.UserID)).
		Select(membership.FieldRole, membership.FieldGeneration).Only(tenancy.System(ctx))
	if err != nil && !ent.IsNotFound(err) {
		return tenancy.Principal{}, errs.Internal(err)
	}
	if m == nil || m.ID != rec.MembershipID || m.Generation != rec.Generation {
		// Removed from the merchant, or its role changed: ended for good.
		_ = s.sessions.Delete(ctx, id)
		return tenancy.Principal{}, errs.Unauthorized()
	}
	return userPrincipal(rec.UserID, rec.Email, rec.MerchantID, Role(m.Role), id), nil
}

// SignIn checks a user's email and password and opens a session on the
// merchant the user belongs to (the one joined first). Failures are
// counted per email and per client address (clientAddr), slowed and then
// refused for a while; an unknown email and a wrong password get the
// same answer, at the same cost.
func (s *Service) SignIn(ctx context.Context, email, password, clientAddr string) (*Session, error) {
	u, err := s.checkPassword(ctx, email, password, clientAddr)
	if err != nil {
		return nil, err
	}
	m, err := s.firstMembership(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if err := s.ensureMerchant(ctx, u, m.MerchantID); err != nil {
		return nil, err
	}
	return s.startSession(ctx, u, m)
}

// SignOut ends the caller's session at once, on every process.
func (s *Service) SignOut(ctx context.Context) error {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.SessionID == "" {
		return errNoSession()
	}
	if err := s.sessions.Delete(ctx, p.SessionID); err != nil {
		return errs.Unavailable("The session store (Redis)")
	}
	// The audit entry of a change that is not the database's.
	return s.db.InTx(ctx, func(*ent.Tx) error { return nil })
}

// SwitchMerchant moves the caller to another merchant the user belongs
// to: a new session there, and the current one ended. A merchant the
// user does not belong to is not found.
func (s *Service) SwitchMerchant(ctx context.Context, merchantID string) (*Session, error) {
	p, ok := tenancy.FromContext(ctx)
	if !ok || p.SessionID == "" {
		return nil, errNoSession()
	}
	sys := tenancy.System(ctx)
	m, err := s.db.Client.Membership.Query().
		Where(membership.MerchantID(merchantID), membership.UserID(p.UserID)).Only(sys)
	if ent.IsNotFound(err) {
		return nil, errs.NotFound("Merchant account")
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	u, err := s.db.Client.User.Get(sys, p.UserID)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if err := s.ensureMerchant(ctx, u, merchantID); err != nil {
		return nil, err
	}
	sess, err := s.startSession(ctx, u, m)
	if err != nil {
		return nil, err
	}
	if err := s.sessions.Delete(ctx, p.SessionID); err != nil {
		return nil, errs.Unavailable("The session store (Redis)")
	}
	// The audit entry, on the merchant the caller left.
	return sess, s.db.InTx(ctx, func(*ent.Tx) error { return nil })
}

// firstMembership is the merchant a user signs in to: the one joined first.
func (s *Service) firstMembership(ctx context.Context, userID string) (*ent.Membership, error) {
	m, err := s.db.Client.Membership.Query().Where(membership.UserID(userID)).
		Order(ent.Asc(membership.FieldCreatedAt), ent.Asc(membership.FieldID)).First(tenancy.System(ctx))
	if ent.IsNotFound(err) {
		return nil, errBadCredentials() // a user removed from every merchant has nowhere to sign in
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return m, nil
}
