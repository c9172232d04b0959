package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/customer"
	"switchyard/ent/itemprice"
	"switchyard/ent/subscriptionitem"
	"switchyard/ent/testclock"
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
