package payments

import (
	"errors"
	"fmt"
	"net/http"
)

// Error is a domain error carrying the Hyperswitch error code and type that
// rest/ and graph/ put on the wire. Status is the HTTP status that code has
// in Hyperswitch's catalogue.
type Error struct {
	Status  int
	Type    string // invalid_request, api, connector, blocked
	Code    string // e.g. IR_06, HE_02
	Message string
	// Field names the offending request field, when there is one.
	Field string
	// Cause is kept for logs and never shown to the caller.
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Cause)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Cause }

// AsError returns the domain error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func invalid(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Type: "invalid_request", Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrUnauthorized is IR_01: no key, or a key that is unknown, revoked or expired.
func ErrUnauthorized() *Error {
	return invalid(http.StatusUnauthorized, "IR_01", "API key not provided or invalid API key used")
}

// ErrNotFound is HE_02 for a resource the caller cannot see (foreign ids included).
func ErrNotFound(resource string) *Error {
	return invalid(http.StatusNotFound, "HE_02", "%s does not exist in our records", resource)
}

// ErrDuplicate is HE_01.
func ErrDuplicate(format string, args ...any) *Error {
	return invalid(http.StatusBadRequest, "HE_01", format, args...)
}

// ErrMissingField is IR_04.
func ErrMissingField(field string) *Error {
	e := invalid(http.StatusBadRequest, "IR_04", "Missing required param: %s", field)
	e.Field = field
	return e
}

// ErrInvalidValue is IR_07 naming the field and saying what is wrong with it.
func ErrInvalidValue(field, format string, args ...any) *Error {
	e := invalid(http.StatusBadRequest, "IR_07", "Invalid value provided: %s: %s", field, fmt.Sprintf(format, args...))
	e.Field = field
	return e
}

// ErrInvalidRequest is IR_06 for a body that cannot be read as the
// operation's request: malformed JSON, a wrong type, an unknown field.
func ErrInvalidRequest(format string, args ...any) *Error {
	return invalid(http.StatusBadRequest, "IR_06", format, args...)
}

// ErrBodyTooLarge is returned for a body over the size limit.
func ErrBodyTooLarge(limit int64) *Error {
	return invalid(http.StatusRequestEntityTooLarge, "IR_06",
		"The request body is larger than the limit of %d bytes", limit)
}

// ErrMethodNotAllowed is IR_03.
func ErrMethodNotAllowed() *Error {
	return invalid(http.StatusMethodNotAllowed, "IR_03", "The HTTP method is not applicable for this API")
}

// ErrForbidden is IR_22: the key is valid but may not use this operation
// (a merchant key on an admin-only route).
func ErrForbidden(resource string) *Error {
	return invalid(http.StatusForbidden, "IR_22", "Access forbidden. Not authorized to access this resource %s", resource)
}

// ErrInternal is HE_00; the cause is logged, never shown.
func ErrInternal(cause error) *Error {
	return &Error{Status: http.StatusInternalServerError, Type: "api", Code: "HE_00",
		Message: "Something went wrong", Cause: cause}
}

// ErrUnavailable is returned when a dependency (Redis, the database) is down
// and the call must change nothing.
func ErrUnavailable(component string) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Type: "api", Code: "HE_00",
		Message: component + " is unavailable; nothing was changed, retry later"}
}

// ErrUnrecognizedURL is IR_02: no route matches.
func ErrUnrecognizedURL() *Error {
	return invalid(http.StatusNotFound, "IR_02", "Unrecognized request URL")
}

// ErrPreconditionFailed is IR_16: the request is well formed, but the
// resource's current state does not allow it (deleting a default profile).
func ErrPreconditionFailed(format string, args ...any) *Error {
	return invalid(http.StatusBadRequest, "IR_16", format, args...)
}

// ErrIdempotencyMismatch is 422 IR_06: the Idempotency-Key was already used
// with a different request (another method, path or body). The IETF httpapi
// draft answers 422; Hyperswitch's IR_06 (InvalidRequestData) is its 422.
func ErrIdempotencyMismatch() *Error {
	e := invalid(http.StatusUnprocessableEntity, "IR_06",
		"Idempotency-Key was already used with a different request")
	e.Field = "Idempotency-Key"
	return e
}

// ErrIdempotencyInFlight is 409 IR_16 (PreconditionFailed): a request with
// this Idempotency-Key is still being processed. Retry once it has finished,
// and the stored response is replayed.
func ErrIdempotencyInFlight() *Error {
	e := invalid(http.StatusConflict, "IR_16",
		"A request with this Idempotency-Key is still being processed; retry after it completes")
	e.Field = "Idempotency-Key"
	return e
}
