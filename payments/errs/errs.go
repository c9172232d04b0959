// Package errs owns the domain error: what went wrong (its Kind), and the
// Hyperswitch code, type and message a caller sees. Every domain package
// returns *Error values built here; the front doors (rest/, graph/) map a
// Kind onto their wire in one place each (internal/httperr).
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
)

var kindNames = [...]string{"invalid", "unauthenticated", "forbidden", "not_found",
	"method_not_allowed", "conflict", "too_large", "unprocessable", "internal", "unavailable", "too_many_requests"}

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

// Error is a domain error carrying the Hyperswitch error code and type that
// the front doors put on the wire.
type Error struct {
	Kind    Kind
	Type    string // invalid_request, api, connector, blocked
	Code    string // e.g. IR_06, HE_02
	Message string
	// Field names the offending request field, when there is one.
	Field string
	// Cause is kept for logs and never shown to the caller.
	Cause error
	// RetryAfter, when set, is how soon a refused caller may try again;
	// the front doors send it as Retry-After.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// WithField returns e naming field as the member at fault.
func (e *Error) WithField(field string) *Error {
	e.Field = field
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

// As returns the domain error in err's chain, if any.
func As(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// New is an invalid_request error of kind with a Hyperswitch code.
func New(kind Kind, code, format string, args ...any) *Error {
	return &Error{Kind: kind, Type: "invalid_request", Code: code, Message: fmt.Sprintf(format, args...)}
}

// Unauthorized is IR_01: no key, or a key that is unknown, revoked or expired.
func Unauthorized() *Error {
	return New(KindUnauthenticated, "IR_01", "API key not provided or invalid API key used")
}

// NotFound is HE_02 for a resource the caller cannot see (foreign
// ids included).
func NotFound(resource string) *Error {
	return New(KindNotFound, "HE_02", "%s does not exist in our records", resource)
}

// What an error is, for the domain's own decisions: callers test these
// causes (errors.Is), never the wire code an error will be shown with.
var (
	// ErrUniqueKey is the cause of a write a unique key refused
	// (txn.Error), which a caller may answer in its own words.
	ErrUniqueKey = errors.New("a unique key refused the row")
	// ErrCaptureDeclined is the cause of a capture the connector declined,
	// once the failed capture is recorded on the payment.
	ErrCaptureDeclined = errors.New("the connector declined the capture")
)

// Duplicate is HE_01.
func Duplicate(format string, args ...any) *Error {
	return New(KindInvalid, "HE_01", format, args...)
}

// MissingField is IR_04.
func MissingField(field string) *Error {
	return New(KindInvalid, "IR_04", "Missing required param: %s", field).WithField(field)
}

// InvalidValue is IR_07 naming the field and saying what is wrong with it.
func InvalidValue(field, format string, args ...any) *Error {
	return New(KindInvalid, "IR_07", "Invalid value provided: %s: %s", field, fmt.Sprintf(format, args...)).WithField(field)
}

// InvalidRequest is IR_06 for a body that cannot be read as the
// operation's request: malformed JSON, a wrong type, an unknown field.
func InvalidRequest(format string, args ...any) *Error {
	return New(KindInvalid, "IR_06", format, args...)
}

// InvalidRequestData is Hyperswitch's InvalidRequestData: IR_06 with
// status 422, for a request that reads but cannot be done as given.
func InvalidRequestData(format string, args ...any) *Error {
	return New(KindUnprocessable, "IR_06", format, args...)
}

// BodyTooLarge is returned for a body over the size limit.
func BodyTooLarge(limit int64) *Error {
	return New(KindTooLarge, "IR_06", "The request body is larger than the limit of %d bytes", limit)
}

// MethodNotAllowed is IR_03.
func MethodNotAllowed() *Error {
	return New(KindMethodNotAllowed, "IR_03", "The HTTP method is not applicable for this API")
}

// Forbidden is IR_22: the key is valid but may not use this operation
// (a merchant key on an admin-only route).
func Forbidden(resource string) *Error {
	return New(KindForbidden, "IR_22", "Access forbidden. Not authorized to access this resource %s", resource)
}

// Internal is HE_00; the cause is logged, never shown.
func Internal(cause error) *Error {
	return &Error{Kind: KindInternal, Type: "api", Code: "HE_00", Message: "Something went wrong", Cause: cause}
}

// Unavailable is returned when a dependency (Redis, the database) is
// down and the call must change nothing.
func Unavailable(component string) *Error {
	return &Error{Kind: KindUnavailable, Type: "api", Code: "HE_00",
		Message: component + " is unavailable; nothing was changed, retry later"}
}

// UnrecognizedURL is IR_02: no route matches.
func UnrecognizedURL() *Error {
	return New(KindNotFound, "IR_02", "Unrecognized request URL")
}

// PreconditionFailed is IR_16: the request is well formed, but the
// resource's current state does not allow it (deleting a default profile).
func PreconditionFailed(format string, args ...any) *Error {
	return New(KindInvalid, "IR_16", format, args...)
}

// IdempotencyMismatch is IR_06 of KindUnprocessable: the Idempotency-Key
// was already used with a different request (another method, path or
// body). The IETF httpapi draft answers 422; Hyperswitch's IR_06
// (InvalidRequestData) is its 422.
func IdempotencyMismatch() *Error {
	return New(KindUnprocessable, "IR_06", "Idempotency-Key was already used with a different request").
		WithField("Idempotency-Key")
}

// IdempotencyInFlight is IR_16 (PreconditionFailed) of KindConflict: a
// request with this Idempotency-Key is still being processed. Retry once
// it has finished, and the stored response is replayed.
func IdempotencyInFlight() *Error {
	return New(KindConflict, "IR_16", "A request with this Idempotency-Key is still being processed; retry after it completes").
		WithField("Idempotency-Key")
}

// ProfileNotFound is Hyperswitch's ProfileNotFound (HE_02); a profile of
// another merchant is not found either.
func ProfileNotFound(id string) *Error {
	return New(KindNotFound, "HE_02", "Business profile with the given id %s does not exist", id)
}
