// Package httperr is the one mapping from a domain error's kind to an HTTP
// status, shared by both front doors: REST answers with it, and GraphQL
// uses it for the requests it refuses before any resolver runs and for the
// results it stores under an idempotency key. It owns no wire format.
package httperr

import (
	"context"
	"errors"
	"io"
	"net/http"

	"switchyard/payments/errs"
)

var statuses = map[errs.Kind]int{
	errs.KindInvalid:          http.StatusBadRequest,
	errs.KindUnauthenticated:  http.StatusUnauthorized,
	errs.KindForbidden:        http.StatusForbidden,
	errs.KindNotFound:         http.StatusNotFound,
	errs.KindMethodNotAllowed: http.StatusMethodNotAllowed,
	errs.KindConflict:         http.StatusConflict,
	errs.KindTooLarge:         http.StatusRequestEntityTooLarge,
	errs.KindUnprocessable:    http.StatusUnprocessableEntity,
	errs.KindInternal:         http.StatusInternalServerError,
	errs.KindUnavailable:      http.StatusServiceUnavailable,
	errs.KindTooManyRequests:  http.StatusTooManyRequests,
	errs.KindNotImplemented:   http.StatusNotImplemented,
	errs.KindBlocked:          http.StatusOK,
}

// Status is the HTTP status of a kind (500 for one without a mapping).
func Status(k errs.Kind) int {
	if s, ok := statuses[k]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// KindOf is the kind a status stands for (KindInternal for one no kind has).
func KindOf(status int) errs.Kind {
	for k, s := range statuses {
		if s == status {
			return k
		}
	}
	return errs.KindInternal
}

// Of is the domain error err carries, and its status. Anything that is not
// a domain error is an internal error (its cause kept for the log).
func Of(err error) (*errs.Error, int) {
	e, ok := errs.As(err)
	if !ok {
		e = errs.Internal(err)
	}
	return e, Status(e.Kind)
}

// ClientGone reports an error that is only the client's going away (its
// request's context cancelled, a page navigated elsewhere mid-request):
// not the server's failure, so not logged as one.
func ClientGone(ctx context.Context, err error) bool {
	return errors.Is(ctx.Err(), context.Canceled) && errors.Is(err, context.Canceled)
}

// ReadBody reads a request's body whole, for either front door: a body over
// the server's limit (http.MaxBytesReader) is errs.BodyTooLarge, any other
// failure to read it a client error.
func ReadBody(body io.Reader) ([]byte, error) {
	raw, err := io.ReadAll(body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errs.BodyTooLarge(tooLarge.Limit)
		}
		return nil, errs.InvalidRequest("could not read the request body")
	}
	return raw, nil
}
