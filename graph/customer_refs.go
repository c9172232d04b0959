package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/predicate"
	custs "switchyard/payments/customer"
	"switchyard/payments/txn"
)

// customerID means one thing in this API, as in REST: the merchant's id of
// a customer (customer_id). Payments, saved methods and mandates keep the
// customer row's id (cus_…) as their foreign key, which the schema does not
// show; their customerID field and filters resolve the merchant's id here.

// customerIs is the filter on the merchant's customer_id that
// customerID and customerIDIn add to a where-input: the rows of those
// customers (the outer query is the caller's merchant's, so another
// merchant's customer of the same id matches nothing).
func customerIs(ids ...string) predicate.Customer { return customer.CustomerIDIn(ids...) }

// ofCustomers adds to a where-input (add is its AddPredicates) the rows of
// those customers, through the table's edge to them (has).
func ofCustomers[P any](add func(...P), has func(...predicate.Customer) P, ids ...string) error {
	add(has(customerIs(ids...)))
	return nil
}

// ofCustomer is ofCustomers for a where-input's customerID: nothing when
// it is null.
func ofCustomer[P any](add func(...P), has func(...predicate.Customer) P, id *string) error {
	if id == nil {
		return nil
	}
	return ofCustomers(add, has, *id)
}

// paymentsOfCustomers adds to a payments where-input the payments of the
// customers pred selects (customerID, customerIDIn, customerEmail), by
// their ids read first (customer.PaymentsOf says why).
func (r *Resolver) paymentsOfCustomers(ctx context.Context, where *ent.PaymentIntentWhereInput, pred predicate.Customer) error {
	p, err := custs.PaymentsOf(ctx, r.client, pred)
	if err != nil {
		return err
	}
	where.AddPredicates(p)
	return nil
}

// customerEmailIs is PaymentIntentWhereInput.customerEmail: the payments of
// the merchant's customers with that e-mail, whatever its case.
func (r *Resolver) customerEmailIs(ctx context.Context, where *ent.PaymentIntentWhereInput, email *string) error {
	if email == nil {
		return nil
	}
	merchantID, err := txn.Merchant(ctx)
	if err != nil {
		return err
	}
	return r.paymentsOfCustomers(ctx, where, custs.EmailIs(merchantID, *email))
}

// wantCustomers announces the customers of rows a resolver returned, so
// that their customerID fields load in one query.
func wantCustomers(ctx context.Context, rowIDs ...*string) {
	want(ctx, func(l *loaders) map[string]bool { return l.wantedCustomers }, rowIDs)
}

// customerRef is the merchant's customer_id of the customer whose row id is
// rowID (nil for none), read with every other announced customer in one
// query and kept for the operation (a customer's id never changes).
func (r *Resolver) customerRef(ctx context.Context, rowID *string) (*string, error) {
	if rowID == nil {
		return nil, nil
	}
	l := loadersOf(ctx)
	if l == nil {
		l = newLoaders()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if ref, ok := l.customerRefs[*rowID]; ok {
		return &ref, nil
	}
	ids := []string{*rowID}
	for id := range l.wantedCustomers {
		if _, ok := l.customerRefs[id]; !ok && id != *rowID {
			ids = append(ids, id)
		}
	}
	rows, err := r.client.Customer.Query().Where(customer.IDIn(ids...)).
		Select(customer.FieldID, customer.FieldCustomerID).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range rows {
		l.customerRefs[c.ID] = c.CustomerID
	}
	ref, ok := l.customerRefs[*rowID]
	if !ok {
		return nil, nil
	}
	return &ref, nil
}

// paymentCustomerRef is a payment's customerID: from its customer when
// collection loaded it (customer { … } was asked for too), else through
// customerRef.
func (r *Resolver) paymentCustomerRef(ctx context.Context, pi *ent.PaymentIntent) (*string, error) {
	if c := pi.Edges.Customer; c != nil {
		return &c.CustomerID, nil
	}
	return r.customerRef(ctx, pi.CustomerID)
}

// mandateCustomerRef is a mandate's customerID (it always has a customer).
func (r *Resolver) mandateCustomerRef(ctx context.Context, m *ent.Mandate) (string, error) {
	if c := m.Edges.Customer; c != nil {
		return c.CustomerID, nil
	}
	ref, err := r.customerRef(ctx, &m.CustomerID)
	if err != nil || ref == nil {
		return "", err
	}
	return *ref, nil
}
