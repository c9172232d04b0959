package txn

import (
	"context"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// IdempotencyRef is a request's Idempotency-Key (scoped to the merchant)
// and the keyed fingerprint of the request it was first used with. A row
// an operation creates under it (a payment, a payout) is bound to both.
type IdempotencyRef struct {
	Key         string
	Fingerprint string
}

// ctxKey keys the value of type T an operation's context carries.
type ctxKey[T any] struct{}

// withValue is ctx carrying v, the operation's one value of its type.
func withValue[T any](ctx context.Context, v *T) context.Context {
	return context.WithValue(ctx, ctxKey[T]{}, v)
}

// valueOf is the value of type T ctx carries, or nil.
func valueOf[T any](ctx context.Context) *T {
	v, _ := ctx.Value(ctxKey[T]{}).(*T)
	return v
}

// WithIdempotencyRef is ctx for an operation running under ref: what it
// creates may be bound to the key.
func WithIdempotencyRef(ctx context.Context, ref *IdempotencyRef) context.Context {
	return withValue(ctx, ref)
}

// IdempotencyRefFrom is the key the operation of ctx runs under, if any.
func IdempotencyRefFrom(ctx context.Context) *IdempotencyRef { return valueOf[IdempotencyRef](ctx) }

// KeyedRow is the row ref's key already made, if any (nil without a key or
// a row): find reads the row bound to a key, bound says what it is bound
// to (the fingerprint, nil for none, and its profile). The same key with
// another request, or a row of another profile than the caller's, is
// IdempotencyMismatch.
func KeyedRow[T any](ctx context.Context, ref *IdempotencyRef, find func(key string) (*T, error),
	bound func(*T) (fingerprint *string, profileID string)) (*T, error) {
	if ref == nil {
		return nil, nil
	}
	row, err := find(ref.Key)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	fp, profileID := bound(row)
	p, _ := tenancy.FromContext(ctx)
	if fp == nil || *fp != ref.Fingerprint || (p.ProfileID != "" && p.ProfileID != profileID) {
		return nil, errs.IdempotencyMismatch()
	}
	return row, nil
}
