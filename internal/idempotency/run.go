package idempotency

import (
	"context"
	"errors"
	"log/slog"

	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Scope is the namespace of a caller's keys, the same through REST and
// GraphQL so a key names one request whichever door it came through: the
// merchant's, with the platform admin's and a publishable key's apart (a
// browser's key never replays or blocks its server's).
func Scope(p tenancy.Principal) string {
	switch {
	case p.MerchantID == "":
		return "admin"
	case p.ClientOnly:
		return "client:" + p.MerchantID
	}
	return p.MerchantID
}

// Run runs op at most once for the caller's key (the protocol of the
// package comment), for both front doors:
//   - a new key runs op and stores its answer when the status is under 500;
//     a server error or a panic gives the key back, so a retry runs afresh;
//   - a finished key returns the stored answer with replayed set, and op
//     does not run;
//   - the same key with another fingerprint is ErrMismatch, one still
//     running ErrInFlight, a store that is down (or absent) ErrUnavailable,
//     a malformed key ErrInvalidKey; Refusal turns them into domain errors.
//
// op gets the lease's context (with what the lease prefetched). An answer
// that cannot be stored still stands: the operation ran.
func (s *Store) Run(ctx context.Context, p tenancy.Principal, key, fingerprint string,
	op func(context.Context) Response) (resp Response, replayed bool, err error) {
	if !ValidKey(key) {
		return resp, false, ErrInvalidKey
	}
	if s == nil {
		return resp, false, ErrUnavailable
	}
	lease, stored, err := s.BeginFor(ctx, p.MerchantID, Scope(p), key, fingerprint)
	if err != nil {
		if errors.Is(err, ErrUnavailable) {
			slog.WarnContext(ctx, "idempotency store unavailable", "err", err)
		}
		return resp, false, err
	}
	if stored != nil {
		return *stored, true, nil
	}
	finished := false
	defer func() {
		if !finished { // op panicked: give the key back, then let the caller's recovery act
			_ = lease.Release(context.WithoutCancel(ctx))
		}
	}()
	resp = op(lease.Context(ctx))
	finished = true
	if resp.Status >= 500 {
		if err := lease.Release(ctx); err != nil {
			slog.WarnContext(ctx, "idempotency key not released", "err", err)
		}
	} else if ok, err := lease.Complete(ctx, resp); err != nil || !ok {
		slog.WarnContext(ctx, "idempotent response not stored", "stored", ok, "err", err)
	}
	return resp, false, nil
}

// Refusal is the domain error a front door answers for Run's error; field
// names the key as that door's client sent it (the Idempotency-Key header,
// a mutation's idempotencyKey argument).
func Refusal(err error, field string) error {
	switch {
	case errors.Is(err, ErrMismatch):
		return errs.IdempotencyMismatch().WithField(field)
	case errors.Is(err, ErrInFlight):
		return errs.IdempotencyInFlight().WithField(field)
	case errors.Is(err, ErrInvalidKey):
		return errs.InvalidValue(field, "must be 1 to 255 printable ASCII characters")
	case errors.Is(err, ErrUnavailable):
		return errs.Unavailable("The idempotency key store (Redis)")
	}
	return errs.Internal(err)
}
