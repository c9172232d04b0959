package rest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"

	"switchyard/internal/auth"
	"switchyard/internal/httperr"
	"switchyard/internal/idempotency"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// Access says which keys may call a route.
type Access int

const (
	// AdminOnly routes take the admin key (Hyperswitch's admin_api_key).
	AdminOnly Access = iota + 1
	// MerchantOrAdmin routes take the merchant's secret key, or the admin key.
	MerchantOrAdmin
	// ClientOrMerchant routes are the client-side payment routes: they take
	// what MerchantOrAdmin routes take, and also the merchant's publishable
	// key (pk_snd_…), as a ClientOnly principal that the domain holds to the
	// payment's client secret. A publishable key anywhere else is 401.
	ClientOrMerchant
	// CustomerOrMerchant routes act on the customer in their path: they
	// take what MerchantOrAdmin routes take, and also that customer's
	// ephemeral key (epk_…); another customer's is 404.
	CustomerOrMerchant
	// ClientOnly routes are the checkout SDK's reads: only the publishable
	// key, which the domain holds to the payment's client secret. A secret
	// key is 401 there, as Hyperswitch answers it.
	ClientOnly
)

// HeaderIdempotencyKey names the request's idempotency key; a replayed
// response carries HeaderIdempotentReplayed: true.
const (
	HeaderIdempotencyKey     = "Idempotency-Key"
	HeaderIdempotentReplayed = "Idempotent-Replayed"
)

// maxIdempotentBody bounds the body read for an idempotent request. The
// server also bounds every body (internal/app); this keeps the handler safe
// on its own.
const maxIdempotentBody = 1 << 20

// handlerFunc is a REST operation: it returns the body to send with 200, or
// an error for WriteError.
type handlerFunc func(r *http.Request) (any, error)

// api registers operations on a mux with one authentication, tenancy and
// idempotency rule, so handlers never check keys themselves.
type api struct {
	mux  *http.ServeMux
	auth *auth.Authenticator
	// idem keeps Idempotency-Key records; nil refuses every request that
	// carries the header (fail closed).
	idem *idempotency.Store
}

// handle registers pattern. If the pattern names {account_id} or
// {merchant_id}, the caller must be that merchant (or the admin); another
// merchant's id is 404, so the route tells nothing about it. The request
// context then carries the principal scoped to that merchant. A merchant's
// route that names no merchant (/payments, /refunds, …) needs one: the
// merchant's key, or the admin key with X-Merchant-Id. A mutating
// request with an Idempotency-Key header runs at most once per key (see
// idempotent).
func (a *api) handle(pattern string, access Access, fn handlerFunc) {
	a.mux.HandleFunc(pattern, a.handler(access, fn))
}

// handler is the http.HandlerFunc handle registers: authentication,
// tenancy and idempotency around fn.
func (a *api) handler(access Access, fn handlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var (
			p   tenancy.Principal
			err error
		)
		switch access {
		case ClientOrMerchant, ClientOnly:
			p, err = a.auth.AuthenticateClient(r.Context(), r)
			if err == nil && access == ClientOnly && !p.ClientOnly {
				err = errs.Unauthorized()
			}
		case CustomerOrMerchant:
			p, err = a.auth.AuthenticateCustomer(r.Context(), r)
		default:
			p, err = a.auth.Authenticate(r.Context(), r)
		}
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if p.CustomerID != "" && p.CustomerID != r.PathValue("customer_id") {
			WriteError(w, r, customer.ErrCustomerNotFound())
			return
		}
		if access == AdminOnly && p.Kind != tenancy.KindAdmin {
			WriteError(w, r, errs.Unauthorized())
			return
		}
		pathMerchant := r.PathValue("account_id")
		if pathMerchant == "" {
			pathMerchant = r.PathValue("merchant_id")
		}
		ctx := tenancy.WithPrincipal(r.Context(), p)
		switch {
		case pathMerchant != "":
			if p.Kind == tenancy.KindMerchant && p.MerchantID != pathMerchant {
				WriteError(w, r, errs.NotFound("Merchant account"))
				return
			}
			ctx = tenancy.ForMerchant(ctx, pathMerchant)
		case access != AdminOnly && p.MerchantID == "":
			// A merchant's route that names no merchant in its path: the
			// admin key acts for the merchant of X-Merchant-Id, or for none.
			WriteError(w, r, errs.MissingField("X-Merchant-Id"))
			return
		}
		r = r.WithContext(ctx)
		if keys, ok := r.Header[http.CanonicalHeaderKey(HeaderIdempotencyKey)]; ok && mutating(r.Method) {
			if len(keys) > 1 {
				// Which one would the client have meant? Neither is guessed.
				WriteError(w, r, errs.InvalidValue(HeaderIdempotencyKey, "is given %d times; give it once", len(keys)))
				return
			}
			a.idempotent(w, r, p, keys[0], fn)
			return
		}
		v, err := fn(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if raw, ok := v.(fileBytes); ok { // GET /files/{file_id}: the bytes, not JSON
			raw.write(w)
			return
		}
		// Nothing keeps this body once written (unlike an idempotent
		// one), so it is encoded into a reused buffer: a page of the list
		// is some hundreds of KB.
		status, v := statusOf(v)
		buf := bodyBuffers.Get().(*bytes.Buffer)
		buf.Reset()
		encodeInto(buf, v)
		writeBody(w, status, buf.Bytes())
		if buf.Cap() <= maxPooledBody {
			bodyBuffers.Put(buf)
		}
	}
}

// Most routes have one shape: read the request (path, query, body) into
// the domain's input, call one domain operation, and render its result.
// respond, withBody and withOptionalBody carry that shape, so a route says
// only what differs.

// respond renders a domain result with to, or passes its error on. It
// takes an operation's two results as they come:
//
//	return respond(connectorOf)(svc.GetAccount(r.Context(), id))
func respond[T, W any](to func(T) W) func(T, error) (any, error) {
	return func(v T, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return to(v), nil
	}
}

// each renders every element of a list with to.
func each[T, W any](to func(T) W) func([]T) []W {
	return func(list []T) []W {
		out := make([]W, len(list))
		for i, v := range list {
			out[i] = to(v)
		}
		return out
	}
}

// withBody decodes the body strictly into a Req (the operation's
// Hyperswitch schema: an unknown member is refused unless Hyperswitch
// ignores it there, see openObjects) and runs fn with it.
func withBody[Req any](fn func(r *http.Request, req *Req) (any, error)) handlerFunc {
	return withBodyDecodedBy(decode, fn)
}

// withOptionalBody is withBody for operations whose every member is
// optional: an empty body is a Req with nothing set.
func withOptionalBody[Req any](fn func(r *http.Request, req *Req) (any, error)) handlerFunc {
	return withBodyDecodedBy(decodeOptional, fn)
}

func withBodyDecodedBy[Req any](decode func(*http.Request, any) error, fn func(r *http.Request, req *Req) (any, error)) handlerFunc {
	return func(r *http.Request) (any, error) {
		var req Req
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		return fn(r, &req)
	}
}

// withQuery is withBody for a route whose input is its query string: read
// takes it strictly (queryParams.read), and what it refuses is the answer.
func withQuery[Q any](read func(rawQuery string) (Q, error), fn func(r *http.Request, q Q) (any, error)) handlerFunc {
	return func(r *http.Request) (any, error) {
		q, err := read(r.URL.RawQuery)
		if err != nil {
			return nil, err
		}
		return fn(r, q)
	}
}

// readingBody is fn over the domain's reading of a decoded body (read, the
// body type's own method): what read refuses is the answer.
func readingBody[Req, In any](read func(*Req) (In, error), fn func(r *http.Request, in In) (any, error)) func(*http.Request, *Req) (any, error) {
	return func(r *http.Request, req *Req) (any, error) {
		in, err := read(req)
		if err != nil {
			return nil, err
		}
		return fn(r, in)
	}
}

// withList is withBody for a body that is a JSON array of Elem.
func withList[Elem any](fn func(r *http.Request, list []Elem) (any, error)) handlerFunc {
	return func(r *http.Request) (any, error) {
		var list []Elem
		if err := decodeList(r, &list); err != nil {
			return nil, err
		}
		return fn(r, list)
	}
}

// principal is the caller of a route, as handle put it in the context.
func principal(r *http.Request) tenancy.Principal {
	p, _ := tenancy.FromContext(r.Context())
	return p
}

// bodyBuffers are the encoding buffers of responses, reused up to
// maxPooledBody bytes.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBody = 4 << 20

func mutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// run calls fn and encodes its result: 200 and the body, or the error
// envelope.
func run(r *http.Request, fn handlerFunc) (int, []byte) {
	v, err := fn(r)
	if err != nil {
		return errorResponse(r, err)
	}
	status, v := statusOf(v)
	return status, encodeJSON(v)
}

// answered is a body a route answers with a status other than 200
// (withStatus); a handler's other results are 200.
type answered struct {
	status int
	body   any
}

// withStatus answers body with status (202 for a batch upload).
func withStatus(status int, body any) answered { return answered{status: status, body: body} }

// statusOf is the status and body of a handler's result.
func statusOf(v any) (int, any) {
	if a, ok := v.(answered); ok {
		return a.status, a.body
	}
	return http.StatusOK, v
}

// idempotent runs fn at most once for the caller's Idempotency-Key through
// idempotency.Run (its scope and protocol are the package's, shared with
// GraphQL). Here the request is fingerprinted by method, path and body,
// read once and handed on to fn; a replay carries Idempotent-Replayed: true,
// and Run's refusals are 400, 409, 422 or 503 in the error envelope.
func (a *api) idempotent(w http.ResponseWriter, r *http.Request, p tenancy.Principal, key string, fn handlerFunc) {
	if !idempotency.ValidKey(key) {
		WriteError(w, r, idempotency.Refusal(idempotency.ErrInvalidKey, HeaderIdempotencyKey))
		return
	}
	if a.idem == nil {
		WriteError(w, r, idempotency.Refusal(idempotency.ErrUnavailable, HeaderIdempotencyKey))
		return
	}
	raw, err := httperr.ReadBody(io.LimitReader(r.Body, maxIdempotentBody+1))
	if err != nil {
		WriteError(w, r, err)
		return
	}
	if len(raw) > maxIdempotentBody {
		WriteError(w, r, errs.BodyTooLarge(maxIdempotentBody))
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(raw))

	fp := a.idem.Fingerprint(r.Method+" "+r.URL.Path, raw)
	resp, replayed, err := a.idem.Run(r.Context(), p, key, fp, func(ctx context.Context) idempotency.Response {
		// The operation may bind what it creates to the key (a payment is,
		// so a retry after a crash finds it even once this record is gone).
		ctx = payments.WithIdempotencyRef(ctx, &payments.IdempotencyRef{Key: key, Fingerprint: fp})
		status, body := run(r.WithContext(ctx), fn)
		return idempotency.Response{Status: status, Body: body}
	})
	if err != nil {
		WriteError(w, r, idempotency.Refusal(err, HeaderIdempotencyKey))
		return
	}
	if replayed {
		w.Header().Set(HeaderIdempotentReplayed, "true")
	}
	writeBody(w, resp.Status, resp.Body)
}

// idempotencyRef is the Idempotency-Key the request runs under, if any.
func idempotencyRef(r *http.Request) *payments.IdempotencyRef {
	return payments.IdempotencyRefFrom(r.Context())
}
