// Package errs owns the domain error. The domain says what went wrong by
// naming a Failure of the catalogue (failures.go: ErrClientSecretExpired,
// ErrRefundExceedsCaptured, …) and tests errors with errors.Is against
// those values, never against a wire code. How a failure is shown, its
// Hyperswitch code, error type, kind (which internal/httperr turns into an
// HTTP status) and standard message, is one table, hyperswitch.go, the
// only place a Hyperswitch code is written; an Error carries them so the
// front doors (rest/, graph/) render it and logs show it.
//
// It must not know any transport: no HTTP statuses, no GraphQL. It imports
// nothing of Switchyard's, so every other package may import it.
package errs

import (
	"errors"
	"fmt"
	"time"
)

// Kind says what sort of failure an error is, independent of any wire.
type Kind int

// The kinds. Each front door gives every kind its status (internal/httperr).
const (
	// KindInvalid: the request is well formed but a value or a state refuses it.
	KindInvalid Kind = iota
	// KindUnauthenticated: no key, or an unknown, revoked or expired one.
	KindUnauthenticated
	// KindForbidden: the key is valid but may not use this operation.
	KindForbidden
	// KindNotFound: the resource does not exist for this caller (foreign ids too).
	KindNotFound
	// KindMethodNotAllowed: the route exists with another method.
	KindMethodNotAllowed
	// KindConflict: the same request is still being processed.
	KindConflict
	// KindTooLarge: the request body is over the size limit.
	KindTooLarge
	// KindUnprocessable: a well-formed request that cannot be done as
	// given (Hyperswitch's InvalidRequestData, 422), e.g. an idempotency
	// key reused with another request.
	KindUnprocessable
	// KindInternal: a fault of ours; the cause is logged, never shown.
	KindInternal
	// KindUnavailable: a dependency is down and nothing was changed.
	KindUnavailable
	// KindTooManyRequests: the caller is refused for a while (repeated
	// failed sign-ins).
	KindTooManyRequests
	// KindNotImplemented: the operation exists in Hyperswitch's API but
	// has no meaning in Switchyard (Hyperswitch's NotImplemented, 501).
	KindNotImplemented
	// KindBlocked: the payment was refused by the merchant's own rule (a
	// blocked card) and is recorded as failed; Hyperswitch answers it with
	// its error envelope and status 200 (its DomainError).
	KindBlocked
)

var kindNames = [...]string{"invalid", "unauthenticated", "forbidden", "not_found",
	"method_not_allowed", "conflict", "too_large", "unprocessable", "internal", "unavailable", "too_many_requests", "not_implemented", "blocked"}

// String is the kind's name ("not_found").
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return fmt.Sprintf("kind(%d)", int(k))
	}
	return kindNames[k]
}

// KindNamed is the kind whose String is name.
func KindNamed(name string) (Kind, bool) {
	for i, n := range kindNames {
		if n == name {
			return Kind(i), true
		}
	}
	return 0, false
}

// Error is a domain error: the Failure it is an instance of, with its own
// message, field and cause, and the Hyperswitch code and type the
// catalogue gives that failure, which the front doors put on the wire.
type Error struct {
	Kind Kind
	// Type and Code are the wire's error type and Hyperswitch code,
	// copied from the catalogue (hyperswitch.go) when the error is made;
	// the domain never sets or compares them.
	Type    string
	Code    string
	Message string
	// Field names the offending request field, when there is one.
	Field string
	// Cause is kept for logs and never shown to the caller.
	Cause error
	// RetryAfter, when set, is how soon a refused caller may try again;
	// the front doors send it as Retry-After.
	RetryAfter time.Duration
	// failure is what went wrong; errors.Is(e, ErrX) asks it.
	failure *Failure
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// Is reports whether e is an instance of target, a Failure of the
// catalogue (or of one of the failures target refines).
func (e *Error) Is(target error) bool {
	f, ok := target.(*Failure)
	return ok && e.failure.isCaseOf(f)
}

// Failure is what went wrong, the catalogue's name for it (nil for an
// error rebuilt from a stored answer).
func (e *Error) Failure() *Failure { return e.failure }

// WithField returns e naming field as the member at fault.
func (e *Error) WithField(field string) *Error {
	e.Field = field
	return e
}

// WithCause returns e keeping cause for the logs.
func (e *Error) WithCause(cause error) *Error {
	e.Cause = cause
	return e
}

// WithRetryAfter returns e saying the caller may try again after d.
func (e *Error) WithRetryAfter(d time.Duration) *Error {
	e.RetryAfter = d
	return e
}

// RetryAfterSeconds is RetryAfter in whole seconds, rounded up (0 when
// unset), as Retry-After carries it.
func (e *Error) RetryAfterSeconds() int {
	if e.RetryAfter <= 0 {
		return 0
	}
	return int((e.RetryAfter + time.Second - 1) / time.Second)
}

// As returns the domain error in err's chain, if any. A bare Failure
// returned as an error is that failure with its standard message.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	var f *Failure
	if errors.As(err, &f) {
		return f.New(), true
	}
	return nil, false
}

// Unauthorized: no key, or a key that is unknown, revoked or expired.
func Unauthorized() *Error { return ErrUnauthorized.New() }

// NotFound is a resource the caller cannot see (foreign ids included).
func NotFound(resource string) *Error {
	return ErrNotFound.Newf("%s does not exist in our records", resource)
}

// What an error is caused by, for the domain's own decisions: callers test
// these causes (errors.Is), never the wire code an error will be shown with.
var (
	// ErrUniqueKey is the cause of a write a unique key refused
	// (txn.Error), which a caller may answer in its own words.
	ErrUniqueKey = errors.New("a unique key refused the row")
)

// Duplicate is a row that already exists, in the caller's words.
func Duplicate(format string, args ...any) *Error {
	return ErrDuplicate.Newf(format, args...)
}

// MissingField names a required member the request lacks.
func MissingField(field string) *Error {
	return ErrMissingField.Detailf("%s", field).WithField(field)
}

// InvalidValue names the field and says what is wrong with it.
func InvalidValue(field, format string, args ...any) *Error {
	return ErrInvalidValue.Detailf("%s: %s", field, fmt.Sprintf(format, args...)).WithField(field)
}

// InvalidRequest is a body that cannot be read as the operation's
// request: malformed JSON, a wrong type, an unknown field.
func InvalidRequest(format string, args ...any) *Error {
	return ErrInvalidRequest.Newf(format, args...)
}

// InvalidRequestData is a request that reads but cannot be done as given.
func InvalidRequestData(format string, args ...any) *Error {
	return ErrInvalidRequestData.Newf(format, args...)
}

// BodyTooLarge is a body over the size limit.
func BodyTooLarge(limit int64) *Error {
	return ErrBodyTooLarge.Newf("The request body is larger than the limit of %d bytes", limit)
}

// MethodNotAllowed: the route exists with another method.
func MethodNotAllowed() *Error { return ErrMethodNotAllowed.New() }

// Forbidden: the key is valid but may not use this operation (a merchant
// key on an admin-only route).
func Forbidden(resource string) *Error {
	return ErrForbidden.Newf("Access forbidden. Not authorized to access this resource %s", resource)
}

// Internal is a fault of ours; the cause is logged, never shown.
func Internal(cause error) *Error { return ErrInternal.New().WithCause(cause) }

// Unavailable is returned when a dependency (Redis, the database) is
// down and the call must change nothing.
func Unavailable(component string) *Error {
	return ErrUnavailable.Newf("%s is unavailable; nothing was changed, retry later", component)
}

// UnrecognizedURL: no route matches.
func UnrecognizedURL() *Error { return ErrUnrecognizedURL.New() }

// NotSupported: a documented operation that cannot mean anything in a
// self-hosted Switchyard; reason says why.
func NotSupported(reason string) *Error {
	return ErrNotImplemented.Newf("%s", reason)
}

// PreconditionFailed: the request is well formed, but the resource's
// current state does not allow it (deleting a default profile).
func PreconditionFailed(format string, args ...any) *Error {
	return ErrPreconditionFailed.Newf(format, args...)
}

// IdempotencyMismatch: the Idempotency-Key was already used with a
// different request (another method, path or body).
func IdempotencyMismatch() *Error {
	return ErrIdempotencyMismatch.New().WithField("Idempotency-Key")
}

// IdempotencyInFlight: a request with this Idempotency-Key is still being
// processed. Retry once it has finished, and the stored response is
// replayed.
func IdempotencyInFlight() *Error {
	return ErrIdempotencyInFlight.New().WithField("Idempotency-Key")
}

// ProfileNotFound: a profile of another merchant is not found either.
func ProfileNotFound(id string) *Error {
	return ErrProfileNotFound.Newf("Business profile with the given id %s does not exist", id)
}
