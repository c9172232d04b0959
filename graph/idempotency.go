package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"switchyard/internal/httperr"
	"switchyard/internal/idempotency"
	"switchyard/internal/tenancy"
	"switchyard/payments"
	"switchyard/payments/errs"
)

// A mutation's idempotencyKey runs through the same runner as REST's
// Idempotency-Key (idempotency.Run, with its scope, docs/graphql.md): the request
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
	if r.idem == nil {
		return res, false, idempotency.Refusal(idempotency.ErrUnavailable, "idempotencyKey")
	}
	canonical, err := json.Marshal(args)
	if err != nil {
		return res, false, errs.Internal(err)
	}
	p, _ := tenancy.FromContext(ctx)
	fp := r.idem.Fingerprint("graphql "+mutation, canonical)
	var opErr error
	resp, replayed, err := r.idem.Run(ctx, p, *key, fp, func(ctx context.Context) idempotency.Response {
		// The operation may bind what it creates to the key (see REST's).
		res, opErr = op(payments.WithIdempotencyRef(ctx, &payments.IdempotencyRef{Key: *key, Fingerprint: fp}))
		body, status := record(res, opErr)
		return idempotency.Response{Status: status, Body: body}
	})
	switch {
	case err != nil:
		return res, false, idempotency.Refusal(err, "idempotencyKey")
	case replayed:
		res, err = replay(ctx, resp.Body, restore)
		return res, err == nil, err
	}
	return res, false, opErr
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

// idempotencyRef is the idempotencyKey the mutation runs under, if any.
func idempotencyRef(ctx context.Context) *payments.IdempotencyRef {
	return payments.IdempotencyRefFrom(ctx)
}
