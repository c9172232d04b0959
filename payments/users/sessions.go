package users

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/membership"
	"switchyard/ent/user"
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
type sessionRecord struct {
	UserID     string    `json:"user_id"`
	Email      string    `json:"email"`
	MerchantID string    `json:"merchant_id"`
	EndsAt     time.Time `json:"ends_at"` // the absolute end
}

// startSession opens a session for u on merchantID.
func (s *Service) startSession(ctx context.Context, u *ent.User, merchantID string, role Role) (*Session, error) {
	token := newToken(SessionTokenPrefix)
	now := s.db.Now()
	rec := sessionRecord{UserID: u.ID, Email: u.Email, MerchantID: merchantID, EndsAt: now.Add(s.policy.SessionMax)}
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
// its merchant, with the role the user holds there now: a role changed or
// a membership removed takes effect on the next request, on every
// process. Each request extends the session's idle time. An unknown,
// ended or signed-out token is IR_01.
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
		Select(membership.FieldRole).Only(tenancy.System(ctx))
	if ent.IsNotFound(err) {
		return tenancy.Principal{}, errs.Unauthorized() // removed from the merchant
	}
	if err != nil {
		return tenancy.Principal{}, errs.Internal(err)
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
	return s.startSession(ctx, u, m.MerchantID, Role(m.Role))
}

// checkPassword is the throttled password check of SignIn and of an
// existing user accepting an invitation.
func (s *Service) checkPassword(ctx context.Context, email, password, clientAddr string) (*ent.User, error) {
	_, key, err := normalizeEmail(email)
	if err != nil {
		key = strings.ToLower(strings.TrimSpace(email)) // still counted, still the one answer
	}
	keys := s.failureKeys(key, clientAddr)
	if err := s.throttle(ctx, keys); err != nil {
		return nil, err
	}
	sys := tenancy.System(ctx)
	u, qerr := s.db.Client.User.Query().Where(user.EmailKey(key)).Only(sys)
	if qerr != nil && !ent.IsNotFound(qerr) {
		return nil, errs.Internal(qerr)
	}
	hash := s.dummyHash
	if u != nil {
		hash = u.PasswordHash
	}
	if !passwordMatches(hash, password) || u == nil {
		if err := s.failures.Fail(ctx, s.policy.FailureWindow, keys...); err != nil {
			return nil, errs.Unavailable("The sign-in counter (Redis)")
		}
		return nil, errBadCredentials()
	}
	_ = s.failures.Clear(ctx, keys[0]) // the email's; the address's count stays
	_ = s.db.Client.User.UpdateOneID(u.ID).SetLastSignedInAt(s.db.Now()).Exec(sys)
	return u, nil
}

// failureKeys are the counters of an email (its keyed hash: no address is
// kept in Redis) and of a client address.
func (s *Service) failureKeys(emailKey, clientAddr string) []string {
	return []string{"email:" + s.box.HashToken("signin:"+emailKey), "addr:" + clientAddr}
}

// throttle waits before a sign-in whose email or address failed often
// lately, and refuses one that failed too often.
func (s *Service) throttle(ctx context.Context, keys []string) error {
	counts, err := s.failures.Failures(ctx, keys...)
	if err != nil {
		return errs.Unavailable("The sign-in counter (Redis)")
	}
	p := s.policy
	email, addr := counts[0], counts[1]
	if email >= p.EmailRefuseAfter || addr >= p.AddrRefuseAfter {
		return errTooMany()
	}
	wait := max(p.delay(email, p.EmailSlowAfter), p.delay(addr, p.AddrSlowAfter))
	if wait > 0 {
		if err := s.sleep(ctx, wait); err != nil {
			return errs.Internal(err)
		}
	}
	return nil
}

// delay is the wait before an attempt after failures: none below after,
// then SlowStep doubling with each failure, at most SlowMax.
func (p Policy) delay(failures, after int64) time.Duration {
	if failures < after {
		return 0
	}
	d := p.SlowStep
	for i := after; i < failures && d < p.SlowMax; i++ {
		d *= 2
	}
	return min(d, p.SlowMax)
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
	sess, err := s.startSession(ctx, u, merchantID, Role(m.Role))
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
