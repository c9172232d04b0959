package graph

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"switchyard/internal/httperr"
	"switchyard/internal/idempotency"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// A mutation's idempotencyKey has the REST Idempotency-Key semantics
// (rest/api.go, docs/graphql.md): the key is scoped to the merchant; the request
// is fingerprinted by the mutation's name and the canonical JSON of its
// arguments; the first call runs and its result is stored for 24 h; a
// replay returns the stored result; the same key with other arguments is
// refused (IR_06, REST's 422), one still running too (IR_16, REST's 409);
// when Redis is down the mutation does not run (HE_00, REST's 503).
//
// What is stored is the mutation's result as JSON: the object the operation
// returned, as it was then (a replay shows that snapshot; its nested fields
// are read live), or the client error it answered (a 4xx on REST). A server
// error (5xx) or a panic gives the key back, so a retry runs afresh.

// storedResult is the JSON kept for a key.
type storedResult struct {
	Result json.RawMessage `json:"result,omitempty"`
	Error  *storedError    `json:"error,omitempty"`
}

type storedError struct {
	// Kind is the errs.Kind's name; records written before kinds existed
	// have only Status, which gives it back.
	Kind    string `json:"kind,omitempty"`
	Status  int    `json:"status"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
}

// idempotent runs op at most once per key. Without a key it just runs op.
// restore turns a stored result back into a live one (re-reading the row it
// names, so its nested fields can be resolved); replayed reports a replay.
func idempotent[R any](ctx context.Context, r *Resolver, mutation string, key *string, args any,
	op func(context.Context) (R, error), restore func(context.Context, R) (R, error)) (res R, replayed bool, err error) {
	if key == nil {
		res, err = op(ctx)
		return res, false, err
	}
	if !idempotency.ValidKey(*key) {
		return res, false, errs.InvalidValue("idempotencyKey", "must be 1 to 255 printable ASCII characters")
	}
	if r.idem == nil {
		return res, false, errs.Unavailable("The idempotency key store")
	}
	canonical, err := json.Marshal(args)
	if err != nil {
		return res, false, errs.Internal(err)
	}
	p, _ := tenancy.FromContext(ctx)
	fp := r.idem.Fingerprint("graphql "+mutation, canonical)
	lease, stored, err := r.idem.BeginFor(ctx, p.MerchantID, idempotencyScope(p), *key, fp)
	switch {
	case err == nil:
	case errors.Is(err, idempotency.ErrMismatch):
		e := errs.IdempotencyMismatch()
		e.Field = "idempotencyKey"
		return res, false, e
	case errors.Is(err, idempotency.ErrInFlight):
		e := errs.IdempotencyInFlight()
		e.Field = "idempotencyKey"
		return res, false, e
	case errors.Is(err, idempotency.ErrUnavailable):
		slog.WarnContext(ctx, "idempotency store unavailable", "err", err)
		return res, false, errs.Unavailable("The idempotency key store (Redis)")
	default:
		return res, false, errs.Internal(err)
	}
	if stored != nil {
		res, err = replay(ctx, stored.Body, restore)
		return res, err == nil, err
	}

	finished := false
	defer func() {
		if !finished { // op panicked: give the key back, then let gqlgen recover
			_ = lease.Release(context.WithoutCancel(ctx))
		}
	}()
	// The operation may bind what it creates to the key (see REST's).
	res, err = op(context.WithValue(lease.Context(ctx), idempotencyRefKey{}, &payments.IdempotencyRef{Key: *key, Fingerprint: fp}))
	finished = true
	body, status := record(res, err)
	if status >= http.StatusInternalServerError {
		if rerr := lease.Release(ctx); rerr != nil {
			slog.WarnContext(ctx, "idempotency key not released", "err", rerr)
		}
		return res, false, err
	}
	if ok, cerr := lease.Complete(ctx, idempotency.Response{Status: status, Body: body}); cerr != nil || !ok {
		// The mutation ran; its answer stands even if it cannot be stored.
		slog.WarnContext(ctx, "idempotent result not stored", "stored", ok, "err", cerr)
	}
	return res, false, err
}

// record is what a call stores, and the HTTP status REST would have given.
func record(res any, err error) ([]byte, int) {
	if err != nil {
		e, status := httperr.Of(err)
		if status >= http.StatusInternalServerError {
			return nil, http.StatusInternalServerError
		}
		body, _ := json.Marshal(storedResult{Error: &storedError{Kind: e.Kind.String(), Status: status,
			Type: e.Type, Code: e.Code, Message: e.Message, Field: e.Field}})
		return body, status
	}
	raw, merr := json.Marshal(res)
	if merr != nil {
		return nil, http.StatusInternalServerError
	}
	body, _ := json.Marshal(storedResult{Result: raw})
	return body, http.StatusOK
}

func replay[R any](ctx context.Context, body []byte, restore func(context.Context, R) (R, error)) (R, error) {
	var zero R
	var st storedResult
	if err := json.Unmarshal(body, &st); err != nil {
		return zero, errs.Internal(fmt.Errorf("stored idempotent result: %w", err))
	}
	if e := st.Error; e != nil {
		kind, ok := errs.KindNamed(e.Kind)
		if !ok {
			kind = httperr.KindOf(e.Status)
		}
		return zero, &errs.Error{Kind: kind, Type: e.Type, Code: e.Code, Message: e.Message, Field: e.Field}
	}
	var res R
	if err := json.Unmarshal(st.Result, &res); err != nil {
		return zero, errs.Internal(fmt.Errorf("stored idempotent result: %w", err))
	}
	return restore(ctx, res)
}

type idempotencyRefKey struct{}

// idempotencyRef is the idempotencyKey the mutation runs under, if any.
func idempotencyRef(ctx context.Context) *payments.IdempotencyRef {
	ref, _ := ctx.Value(idempotencyRefKey{}).(*payments.IdempotencyRef)
	return ref
}

// idempotencyScope is the namespace of a caller's keys: its merchant, with
// the platform admin's apart (REST's scopes, so a key means one request
// whichever API it was sent to).
func idempotencyScope(p tenancy.Principal) string {
	if p.MerchantID == "" {
		return "admin"
	}
	return p.MerchantID
}
