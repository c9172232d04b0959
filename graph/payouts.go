package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/payout"
)

// The payouts' reads: the payouts connection and its attempts are ent's
// (ent.resolvers.go); the lookup by id and a payout's events are here.

func (r *Resolver) payout(ctx context.Context, payoutID string) (*ent.Payout, error) {
	return selectedOne[ent.Payout](ctx, r.client.Payout.Query().Where(payout.ID(payoutID)))
}

// payoutEvents are the events a payout wrote: the merchant's events whose
// object is the payout (an event has no edge to it; the (merchant_id,
// object_id, created_at) index serves the read).
func (r *Resolver) payoutEvents(ctx context.Context, po *ent.Payout, after *entgql.Cursor[string], first *int,
	before *entgql.Cursor[string], last *int, orderBy []*ent.EventOrder, where *ent.EventWhereInput) (*ent.EventConnection, error) {
	orderBy = eventOrders.complete(orderBy)
	return paginate(ctx, r, bind("payout.events:"+po.ID, where, orderBy), after, before, first, last,
		func(after, before *Cursor) (*ent.EventConnection, error) {
			return r.client.Event.Query().Where(event.ObjectID(po.ID), event.EventClassEQ(event.EventClassPayouts)).
				Paginate(collecting(ctx), after, first, before, last, ent.WithEventOrder(orderBy), ent.WithEventFilter(where.Filter))
		})
}
