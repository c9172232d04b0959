// Package users owns the dashboard's people: users and their passwords,
// their memberships (a role in a merchant), invitations, sessions and the
// throttling of failed sign-ins. Who may run which operation is decided
// here (Allows); the front door asks before it runs one.
//
// A user belongs to no merchant by itself, so its rows are read as the
// system; memberships, invitations and the audit log are the merchant's.
// It must not import another domain package, nor know HTTP or Redis: the
// session and failure stores are the interfaces below, and a new
// merchant is made by the Provisioner the wiring gives it.
package users

import (
	"context"
	"slices"
	"time"

	"switchyard/internal/secrets"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Role is a user's role in a merchant.
type Role string

// The roles.
const (
	RoleAdmin     Role = "admin"
	RoleDeveloper Role = "developer"
	RoleOperator  Role = "operator"
	RoleViewer    Role = "viewer"
)

// Roles are every role, most powerful first.
var Roles = []Role{RoleAdmin, RoleDeveloper, RoleOperator, RoleViewer}

// ParseRole is the role named s.
func ParseRole(s string) (Role, error) {
	r := Role(s)
	if !slices.Contains(Roles, r) {
		return "", errs.InvalidValue("role", "must be one of admin, developer, operator, viewer")
	}
	return r, nil
}

// Allows reports whether a user of role may run an operation open to
// allowed: admins may run everything.
func Allows(role Role, allowed []Role) bool {
	return role == RoleAdmin || slices.Contains(allowed, role)
}

// SessionStore keeps sessions by their token's hash, shared by every
// process (Redis), each with a sliding expiry.
type SessionStore interface {
	// Put keeps a session's record for ttl.
	Put(ctx context.Context, id string, record []byte, ttl time.Duration) error
	// Touch returns a session's record and extends its life to ttl; nil
	// when there is none.
	Touch(ctx context.Context, id string, ttl time.Duration) ([]byte, error)
	// Delete ends a session at once.
	Delete(ctx context.Context, id string) error
}

// FailureCounter counts sign-in attempts per key within a window, shared
// by every process (Redis). An attempt is counted before its password is
// checked, and taken back when it proves the password or was never checked,
// so what stays counted are the failures (and the attempts in flight).
type FailureCounter interface {
	// Attempt counts one attempt on each key and returns each key's count,
	// this attempt included, and what is left of its window: atomically
	// per key, in one round trip. A key's window starts with its first
	// attempt.
	Attempt(ctx context.Context, window time.Duration, keys ...string) (counts []int64, left []time.Duration, err error)
	// TakeBack uncounts one attempt from each key that has any.
	TakeBack(ctx context.Context, keys ...string) error
	// Clear forgets a key's attempts.
	Clear(ctx context.Context, key string) error
}

// Provisioner makes a new merchant as the admin bootstrap does: its
// account and default profile, a sandbox connector account, and a secret
// API key, through the merchant and connector operations. It is idempotent
// by merchant id: it makes only what is missing, and returns the secret
// key only when it made one.
type Provisioner interface {
	Provision(ctx context.Context, m NewMerchant) (*Provisioned, error)
}

// NewMerchant is the merchant a sign-up makes.
type NewMerchant struct {
	ID, Name string
	// TimeZone is its IANA time zone, already checked; UTC when empty.
	TimeZone string
}

// Provisioned is what provisioning made.
type Provisioned struct {
	MerchantID, ProfileID, ConnectorAccountID string
	// SecretKey is the new secret key, shown once; empty when the merchant
	// had one already.
	SecretKey      string
	PublishableKey string
}

// Service runs the users operations.
type Service struct {
	db        *txn.DB
	box       *secrets.Box
	sessions  SessionStore
	failures  FailureCounter
	provision Provisioner
	sleep     func(context.Context, time.Duration) error
	policy    Policy
	hashes    *hashGate
	dummyHash string // checked for an unknown email, so that it costs as a known one
	mailer    Mailer
	inviteURL string
}

// Mailer sends an e-mail (internal/mailer.Mailer).
type Mailer interface {
	Send(ctx context.Context, to, subject, text string) error
}

// Deps are what the users operations need.
type Deps struct {
	DB          *txn.DB
	Box         *secrets.Box
	Sessions    SessionStore
	Failures    FailureCounter
	Provisioner Provisioner
	// Sleep waits before answering a throttled sign-in; nil waits on the
	// clock (tests record the waits instead).
	Sleep func(context.Context, time.Duration) error
	// Policy is the session and throttling policy; zero values take the
	// defaults (DefaultPolicy).
	Policy Policy
	// InviteURL is the invitation links' start: the token follows it
	// (the dashboard's <public URL>/dashboard/invite#).
	InviteURL string
	// Mailer, when set, sends each invitation's link to its email.
	Mailer Mailer
}

// Policy is how long sessions live and how failed sign-ins are met.
type Policy struct {
	// SessionIdle ends a session this long after its last request.
	SessionIdle time.Duration
	// SessionMax ends a session this long after sign-in, however used.
	SessionMax time.Duration
	// InvitationFor is how long an invitation's link works.
	InvitationFor time.Duration
	// FailureWindow is how long a failed sign-in counts.
	FailureWindow time.Duration
	// Per email and per client address: from SlowAfter failures each
	// attempt waits (doubling from SlowStep, at most SlowMax); from
	// RefuseAfter it is refused until the window ends.
	EmailSlowAfter, EmailRefuseAfter int64
	AddrSlowAfter, AddrRefuseAfter   int64
	SlowStep, SlowMax                time.Duration
	// HashSlots is how many password hashes (19 MiB each) are computed at
	// once, 0 for DefaultHashSlots; a request waits at most HashWait
	// (0: DefaultHashWait) for one, then is refused (errs.ErrHashingBusy).
	HashSlots int
	HashWait  time.Duration
}

// DefaultPolicy: sessions idle out after 8 hours and end after 7 days;
// invitations work for 7 days; within 15 minutes, the third failure for
// an email is slowed and the tenth refused, and a client address gets
// ten times as many (an office shares one); password hashes take
// DefaultHashSlots slots, each request waiting at most DefaultHashWait.
var DefaultPolicy = Policy{
	SessionIdle: 8 * time.Hour, SessionMax: 7 * 24 * time.Hour, InvitationFor: 7 * 24 * time.Hour,
	FailureWindow:  15 * time.Minute,
	EmailSlowAfter: 3, EmailRefuseAfter: 10,
	AddrSlowAfter: 30, AddrRefuseAfter: 100,
	SlowStep: 250 * time.Millisecond, SlowMax: 4 * time.Second,
}

// New returns the users service over d.
func New(d Deps) *Service {
	p := d.Policy
	if p == (Policy{}) {
		p = DefaultPolicy
	}
	sleep := d.Sleep
	if sleep == nil {
		sleep = sleepCtx
	}
	s := &Service{db: d.DB, box: d.Box, sessions: d.Sessions, failures: d.Failures, provision: d.Provisioner,
		sleep: sleep, policy: p, hashes: newHashGate(p.HashSlots, p.HashWait), mailer: d.Mailer, inviteURL: d.InviteURL}
	s.dummyHash = hashPassword("an unknown email's stand-in password") // once, before any request
	return s
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// User errors: failures of the errs catalogue (errs/hyperswitch.go gives
// their Hyperswitch user codes).

// errBadCredentials is the one answer to an unknown email and a wrong
// password.
func errBadCredentials() *errs.Error {
	return errs.ErrBadCredentials.New()
}

func errUserExists() *errs.Error {
	return errs.ErrUserExists.New().WithField("email")
}

func errLinkInvalid() *errs.Error {
	return errs.ErrLinkInvalid.New().WithField("token")
}

func errTooMany() *errs.Error {
	return errs.ErrSignInLocked.New()
}

func errNoSession() *errs.Error {
	return errs.ErrSessionRequired.New()
}

func errLastAdmin() *errs.Error {
	return errs.ErrLastAdmin.New().WithField("userID")
}

// ErrNotAllowed is the answer to a user whose role may not run an operation.
func ErrNotAllowed(role Role, operation string) *errs.Error {
	return errs.ErrForbiddenRole.Newf("Access forbidden: the %s role may not run %s", role, operation)
}

// ErrKeyNotAllowed is the answer to an API key on an operation that needs
// a user's session (or, where adminKey, the admin key): a merchant's
// secret key is a program's, not a person's.
func ErrKeyNotAllowed(operation string, adminKey bool) *errs.Error {
	if adminKey {
		return errs.ErrSessionRequired.Newf(
			"Access forbidden: a merchant's secret API key may not run %s; it needs a signed-in user's session or the admin key", operation)
	}
	return errs.ErrSessionRequired.Newf(
		"Access forbidden: an API key may not run %s; it needs a signed-in user's session", operation)
}

// WithSleep makes throttled sign-ins wait through sleep instead of the
// clock (tests record the waits).
func (s *Service) WithSleep(sleep func(context.Context, time.Duration) error) *Service {
	s.sleep = sleep
	return s
}
