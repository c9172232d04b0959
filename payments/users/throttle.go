package users

import (
	"context"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/user"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Sign-in attempts are counted before the password is checked: the count
// and the decision that follows it are one atomic increment per key, so a
// burst of concurrent attempts cannot all read the count before any of
// them adds to it (60 at once for one email used to reach the password
// check 60 times). An attempt stays counted as a failure unless it proves
// the password: a success clears the email's count and takes its own
// increment back from the address's, and an attempt the server was too
// busy to check takes back both.

// checkPassword is the throttled password check of SignIn and of an
// existing user accepting an invitation. An unknown email and a wrong
// password take the same path at the same cost (a stand-in hash) and get
// the same answer.
func (s *Service) checkPassword(ctx context.Context, email, password, clientAddr string) (*ent.User, error) {
	_, key, err := normalizeEmail(email)
	if err != nil {
		key = strings.ToLower(strings.TrimSpace(email)) // still counted, still the one answer
	}
	keys := s.failureKeys(key, clientAddr)
	counts, left, err := s.failures.Attempt(ctx, s.policy.FailureWindow, keys...)
	if err != nil {
		return nil, errs.Unavailable("The sign-in counter (Redis)")
	}
	if err := s.throttle(ctx, counts, left); err != nil {
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
	ok, err := s.hashes.matches(ctx, hash, password)
	if err != nil {
		_ = s.failures.TakeBack(ctx, keys...) // nothing was checked
		return nil, err
	}
	if !ok || u == nil {
		return nil, errBadCredentials() // the attempt stays counted
	}
	_ = s.failures.Clear(ctx, keys[0])
	_ = s.failures.TakeBack(ctx, keys[1]) // the address's other failures stay
	_ = s.db.Client.User.UpdateOneID(u.ID).SetLastSignedInAt(s.db.Now()).Exec(sys)
	return u, nil
}

// failureKeys are the counters of an email (its keyed hash: no address is
// kept in Redis) and of a client address.
func (s *Service) failureKeys(emailKey, clientAddr string) []string {
	return []string{"email:" + s.box.HashToken("signin:"+emailKey), "addr:" + clientAddr}
}

// throttle decides from the counts this attempt's increment returned: it
// waits before an attempt whose email or address failed often lately, and
// refuses one that failed too often (errs.ErrSignInLocked, retry when the window ends).
func (s *Service) throttle(ctx context.Context, counts []int64, left []time.Duration) error {
	p := s.policy
	// The attempts before this one, in flight or failed.
	email, addr := counts[0]-1, counts[1]-1
	refused, retry := false, time.Second
	if email >= p.EmailRefuseAfter {
		refused, retry = true, max(retry, left[0])
	}
	if addr >= p.AddrRefuseAfter {
		refused, retry = true, max(retry, left[1])
	}
	if refused {
		return errTooMany().WithRetryAfter(retry)
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
