package graph

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/customer"
	"switchyard/ent/itemprice"
	"switchyard/ent/subscriptionitem"
	"switchyard/ent/testclock"
	"switchyard/graph/model"
	"switchyard/payments/errs"
	"switchyard/payments/subscriptions"
)

// The billing engine's reads. The connections (subscriptions, invoices,
// subscriptionItems, coupons, testClocks) and their nested ones are ent's
// (ent.resolvers.go); the lookups by id and the fields that reach another
// table by a REST id are here. Tenancy comes from the ent interceptors: a
// foreign id is null.

func (r *Resolver) subscription(ctx context.Context, id string) (*ent.BillingSubscription, error) {
	return selectedOne[ent.BillingSubscription](ctx, r.client.BillingSubscription.Query().Where(billingsubscription.ID(id)))
}

func (r *Resolver) testClock(ctx context.Context, id string) (*ent.TestClock, error) {
	return selectedOne[ent.TestClock](ctx, r.client.TestClock.Query().Where(testclock.ID(id)))
}

// subscriptionCustomer is the merchant's customer a subscription bills: the
// subscription keeps the merchant's customer_id, not the row's id.
func (r *Resolver) subscriptionCustomer(ctx context.Context, s *ent.BillingSubscription) (*ent.Customer, error) {
	return selectedOne[ent.Customer](ctx, r.client.Customer.Query().Where(customer.CustomerID(s.CustomerID)))
}

func (r *Resolver) subscriptionPlan(ctx context.Context, s *ent.BillingSubscription) (*ent.SubscriptionItem, error) {
	return selectedOne[ent.SubscriptionItem](ctx, r.client.SubscriptionItem.Query().Where(subscriptionitem.ID(s.PlanID)))
}

func (r *Resolver) subscriptionItemPrice(ctx context.Context, s *ent.BillingSubscription) (*ent.ItemPrice, error) {
	return selectedOne[ent.ItemPrice](ctx, r.client.ItemPrice.Query().Where(itemprice.ID(s.ItemPriceID)))
}

// invoicePayment is the payment that charged an invoice, by its REST
// payment_id; null before the first try.
func (r *Resolver) invoicePayment(ctx context.Context, inv *ent.Invoice) (*ent.PaymentIntent, error) {
	if inv.PaymentIntentID == nil {
		return nil, nil
	}
	return r.payment(ctx, *inv.PaymentIntentID)
}

// The billing mutations call the subscriptions service under their
// idempotency key, as REST's routes do; the service holds the rules
// (which status allows what, the catalogue's checks, the clock's time).

// billing is the subscriptions service, or the refusal when this server
// runs without it.
func (r *Resolver) billing() (*subscriptions.Service, error) {
	if r.subs == nil {
		return nil, errs.ErrNotSupported.Newf("Subscriptions are not enabled on this server")
	}
	return r.subs, nil
}

// catalogueMutation runs op, which creates one row of the catalogue or a
// test clock, under its key, and answers the row read again after the
// commit.
func catalogueMutation[T, P any](ctx context.Context, r *Resolver, name string, key *string, args any,
	rows merchantRow[T, P], op func(context.Context, *subscriptions.Service) (*T, error)) (*P, error) {
	return mutateAndReread(ctx, r, name, key, args, rows, func(ctx context.Context) (*T, error) {
		svc, err := r.billing()
		if err != nil {
			return nil, err
		}
		return op(ctx, svc)
	}, entID)
}

func (r *Resolver) createSubscriptionItem(ctx context.Context, in subscriptions.ItemInput, key *string) (*model.SubscriptionItemPayload, error) {
	rows := rowsOf[model.SubscriptionItemPayload](r.client.SubscriptionItem.Get, "Subscription item")
	return catalogueMutation(ctx, r, "createSubscriptionItem", key, map[string]any{"input": in}, rows,
		func(ctx context.Context, svc *subscriptions.Service) (*ent.SubscriptionItem, error) {
			return svc.CreateItem(ctx, in)
		})
}

func (r *Resolver) createItemPrice(ctx context.Context, itemID string, in subscriptions.PriceInput, key *string) (*model.ItemPricePayload, error) {
	rows := rowsOf[model.ItemPricePayload](r.client.ItemPrice.Get, "Item price")
	return catalogueMutation(ctx, r, "createItemPrice", key, map[string]any{"itemID": itemID, "input": in}, rows,
		func(ctx context.Context, svc *subscriptions.Service) (*ent.ItemPrice, error) {
			return svc.CreatePrice(ctx, itemID, in)
		})
}

func (r *Resolver) createCoupon(ctx context.Context, in subscriptions.CouponInput, key *string) (*model.CouponPayload, error) {
	rows := rowsOf[model.CouponPayload](r.client.Coupon.Get, "Coupon")
	return catalogueMutation(ctx, r, "createCoupon", key, map[string]any{"input": in}, rows,
		func(ctx context.Context, svc *subscriptions.Service) (*ent.Coupon, error) {
			return svc.CreateCoupon(ctx, in)
		})
}

func (r *Resolver) createTestClock(ctx context.Context, in subscriptions.TestClockInput, key *string) (*model.TestClockPayload, error) {
	rows := rowsOf[model.TestClockPayload](r.client.TestClock.Get, "Test clock")
	return catalogueMutation(ctx, r, "createTestClock", key, map[string]any{"input": in}, rows,
		func(ctx context.Context, svc *subscriptions.Service) (*ent.TestClock, error) {
			return svc.CreateTestClock(ctx, in)
		})
}

func (r *Resolver) advanceTestClock(ctx context.Context, id string, frozenTime time.Time, key *string) (*model.TestClockPayload, error) {
	rows := rowsOf[model.TestClockPayload](r.client.TestClock.Get, "Test clock")
	return catalogueMutation(ctx, r, "advanceTestClock", key, map[string]any{"id": id, "frozenTime": frozenTime}, rows,
		func(ctx context.Context, svc *subscriptions.Service) (*ent.TestClock, error) {
			return svc.AdvanceTestClock(ctx, id, frozenTime)
		})
}

// subscriptionMutation runs a change of subscription id under its key and
// answers the subscription read again after the commit. in is the
// mutation's input (nil when absent), op the service's call.
func subscriptionMutation[I any](ctx context.Context, r *Resolver, name, id string, in *I, key *string,
	op func(*subscriptions.Service, context.Context, string, I) (*subscriptions.View, error)) (*model.SubscriptionPayload, error) {
	in = inputOrEmpty(in)
	rows := rowsOf[model.SubscriptionPayload](r.client.BillingSubscription.Get, "Subscription")
	return mutateAndReread(ctx, r, name, key, map[string]any{"id": id, "input": in}, rows, func(ctx context.Context) (*subscriptions.View, error) {
		svc, err := r.billing()
		if err != nil {
			return nil, err
		}
		return op(svc, ctx, id, *in)
	}, func(v *subscriptions.View) string { return v.Subscription.ID })
}
