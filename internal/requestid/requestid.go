// Package requestid carries a request's id (X-Request-Id, or one made for
// it) in its context, for the logs and the audit log: the wiring puts it
// there, the front doors and the logger read it.
package requestid

import "context"

type key struct{}

// With returns ctx carrying id.
func With(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, key{}, id)
}

// From is the request id of ctx, or "".
func From(ctx context.Context) string {
	id, _ := ctx.Value(key{}).(string)
	return id
}
