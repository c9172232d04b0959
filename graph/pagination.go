package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"switchyard/graph/cursors"
)

// Cursor is a connection cursor (an opaque token on the wire).
type Cursor = cursors.Cursor

// paginate runs one connection page through the cursor store: the client's
// tokens are opened (checked against the merchant and this query's binding),
// the query runs on the real positions, and the positions of the page are
// sealed behind fresh tokens.
func paginate[C any](ctx context.Context, r *Resolver, binding string, after, before *Cursor, first, last *int,
	run func(after, before *Cursor) (C, error), positions func(C) []*Cursor) (C, error) {
	var zero C
	if err := checkPage(first, last); err != nil {
		return zero, err
	}
	after, before, err := r.cursors.Open(ctx, binding, after, before)
	if err != nil {
		return zero, err
	}
	conn, err := run(after, before)
	if err != nil {
		return zero, err
	}
	if err := r.cursors.Seal(ctx, binding, positions(conn)); err != nil {
		return zero, err
	}
	return conn, nil
}

// positionsOf lists a page's cursors once each (PageInfo's start and end
// point into the edges).
func positionsOf[E any](edges []*E, cursor func(*E) *Cursor, pi entgql.PageInfo[string]) []*Cursor {
	out := make([]*Cursor, 0, len(edges)+2)
	seen := make(map[*Cursor]bool, len(edges)+2)
	add := func(c *Cursor) {
		if c != nil && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	for _, e := range edges {
		add(cursor(e))
	}
	add(pi.StartCursor)
	add(pi.EndCursor)
	return out
}

func newestFirst() entgql.OrderDirection { return entgql.OrderDirectionDesc }

// bind names the query a cursor belongs to: the connection (with its parent
// for nested ones), its filters and its order.
func bind(connection string, where, orderBy any) string {
	return cursors.Binding(connection, where, orderBy)
}
