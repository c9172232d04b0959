package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/payout"
	"switchyard/ent/schema/schematype"
	"switchyard/graph/model"
	"switchyard/payments/errs"
	"switchyard/payments/payouts"
)

// The payouts' reads and mutations. The payouts connection and its
// attempts are ent's (ent.resolvers.go); the lookup by id, a payout's
// events and the mutations, which call the payouts service, are here.

func (r *Resolver) payout(ctx context.Context, payoutID string) (*ent.Payout, error) {
	return selectedOne[ent.Payout](ctx, r.client.Payout.Query().Where(payout.ID(payoutID)))
}

// payoutEvents are the events a payout wrote: the merchant's events whose
// object is the payout (an event has no edge to it; the (merchant_id,
// object_id, created_at) index serves the read).
func (r *Resolver) payoutEvents(ctx context.Context, po *ent.Payout, after *entgql.Cursor[string], first *int,
	before *entgql.Cursor[string], last *int, orderBy []*ent.EventOrder, where *ent.EventWhereInput) (*ent.EventConnection, error) {
	payoutEvents := r.client.Event.Query().Where(event.ObjectID(po.ID), event.EventClassEQ(event.EventClassPayouts))
	return page(ctx, r, "payout.events:"+po.ID, tablePager(payoutEvents.Paginate, ent.WithEventOrder, ent.WithEventFilter, (*ent.EventWhereInput).Filter),
		after, first, before, last, eventOrders.complete(orderBy), where)
}

// The payout mutations: each reads its input's billing address
// (payoutBilling) and calls the payouts service under its idempotency key;
// the service holds the rules (which status allows what, the method's
// checks).

// payoutMutation runs a payout operation under its key and answers the
// payout as the client reads it: read again, as the operation may have
// written it in its transaction.
func (r *Resolver) payoutMutation(ctx context.Context, name string, key *string, args any,
	op func(context.Context) (*payouts.View, error)) (*model.PayoutPayload, error) {
	rows := rowsOf[model.PayoutPayload](r.client.Payout.Get, "Payout")
	return mutateAndReread(ctx, r, name, key, args, rows, func(ctx context.Context) (*payouts.View, error) {
		if r.payouts == nil {
			return nil, errs.ErrNotSupported.Newf("Payouts are not enabled on this server")
		}
		return op(ctx)
	}, func(v *payouts.View) string { return v.Payout.ID })
}

func (r *Resolver) createPayout(ctx context.Context, in payouts.Input, key *string) (*model.PayoutPayload, error) {
	return r.payoutMutation(ctx, "createPayout", key, map[string]any{"input": in}, reading(in, payoutBilling, func(ctx context.Context, pin payouts.Input) (*payouts.View, error) {
		if ref := idempotencyRef(ctx); ref != nil {
			pin.Idempotency = &payouts.IdempotencyRef{Key: ref.Key, Fingerprint: ref.Fingerprint}
		}
		return r.payouts.Create(ctx, pin)
	}))
}

func (r *Resolver) confirmPayout(ctx context.Context, id string, in *payouts.Input, key *string) (*model.PayoutPayload, error) {
	in = inputOrEmpty(in)
	args := map[string]any{"id": id, "input": in}
	return r.payoutMutation(ctx, "confirmPayout", key, args, reading(*in, payoutBilling, func(ctx context.Context, pin payouts.Input) (*payouts.View, error) {
		return r.payouts.Confirm(ctx, id, pin)
	}))
}

func (r *Resolver) fulfillPayout(ctx context.Context, id string, key *string) (*model.PayoutPayload, error) {
	return r.payoutMutation(ctx, "fulfillPayout", key, map[string]any{"id": id}, func(ctx context.Context) (*payouts.View, error) {
		return r.payouts.Fulfil(ctx, id)
	})
}

func (r *Resolver) cancelPayout(ctx context.Context, id string, key *string) (*model.PayoutPayload, error) {
	return r.payoutMutation(ctx, "cancelPayout", key, map[string]any{"id": id}, func(ctx context.Context) (*payouts.View, error) {
		return r.payouts.Cancel(ctx, id)
	})
}

// payoutCustomer is a payout input's customer: its id stands for
// customerID when that is absent (gqlgen reads customerID first), and its
// details become the map the payout keeps.
func payoutCustomer(in *payouts.Input, c *model.PaymentCustomerInput) error {
	if c == nil {
		return nil
	}
	if in.CustomerID == nil {
		in.CustomerID = c.ID
	}
	in.Customer = presentMembers(map[string]*string{"name": c.Name, "email": c.Email, "phone": c.Phone,
		"phone_country_code": c.PhoneCountryCode})
	return nil
}

// payoutBilling is in with its billing address read as the address it must
// be (REST's shape, strictly), and kept as that address's map.
func payoutBilling(in payouts.Input) (payouts.Input, error) {
	billing, err := decodeOptional[schematype.AddressWrapper]("billing", in.Billing)
	if err != nil || billing == nil {
		return in, err
	}
	in.Billing, err = asMap(billing)
	return in, err
}

// presentMembers are the members given, by name; nil when none is.
func presentMembers(members map[string]*string) map[string]any {
	out := map[string]any{}
	for k, v := range members {
		if v != nil {
			out[k] = *v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
