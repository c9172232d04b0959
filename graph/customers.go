package graph

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/schema/schematype"
	"switchyard/graph/model"
	"switchyard/payments/customer"
)

// The customer mutations: the same customer operations as the REST routes
// (payments/customer), with the same validations and codes.

// customerDetails maps CustomerInput onto the domain's details; address and
// documentDetails are read as closed objects.
func customerDetails(in model.CustomerInput) (customer.CustomerDetails, error) {
	d := customer.CustomerDetails{Name: in.Name, Email: in.Email, Phone: in.Phone, PhoneCountryCode: in.PhoneCountryCode,
		Description: in.Description, Metadata: in.Metadata, TaxRegistrationID: in.TaxRegistrationID}
	if in.Address != nil {
		d.Address = &schematype.Address{}
		if err := decodeMember("address", in.Address, d.Address); err != nil {
			return d, err
		}
	}
	if in.DocumentDetails != nil {
		d.DocumentDetails = &schematype.CustomerDocument{}
		if err := decodeMember("documentDetails", in.DocumentDetails, d.DocumentDetails); err != nil {
			return d, err
		}
	}
	return d, nil
}

// customerMutation runs one customer operation under the idempotency rule
// and answers the customer as it left it.
func (r *Resolver) customerMutation(ctx context.Context, name string, key *string, args any,
	run func(ctx context.Context) (*ent.Customer, error)) (*model.CustomerPayload, error) {
	customers := rowsOf[model.CustomerPayload](r.client.Customer.Get, "Customer")
	return mutateAndReread(ctx, r, name, key, args, customers, run, entID)
}

func (r *Resolver) createCustomer(ctx context.Context, in model.CustomerInput, key *string) (*model.CustomerPayload, error) {
	return r.customerMutation(ctx, "createCustomer", key, in, reading(in, customerDetails, func(ctx context.Context, d customer.CustomerDetails) (*ent.Customer, error) {
		return r.customers.CreateCustomer(ctx, in.CustomerID, d)
	}))
}

func (r *Resolver) updateCustomer(ctx context.Context, id string, in model.CustomerInput, key *string) (*model.CustomerPayload, error) {
	args := map[string]any{"id": id, "input": in}
	return r.customerMutation(ctx, "updateCustomer", key, args, reading(in, customerDetails, func(ctx context.Context, d customer.CustomerDetails) (*ent.Customer, error) {
		return r.customers.UpdateCustomer(ctx, id, d)
	}))
}

func (r *Resolver) deleteCustomer(ctx context.Context, id string, key *string) (*model.CustomerPayload, error) {
	return r.customerMutation(ctx, "deleteCustomer", key, map[string]any{"id": id}, func(ctx context.Context) (*ent.Customer, error) {
		return r.customers.DeleteCustomer(ctx, id)
	})
}

func (r *Resolver) setDefaultPaymentMethod(ctx context.Context, customerID, paymentMethodID string, key *string) (*model.CustomerPayload, error) {
	args := map[string]any{"customerID": customerID, "paymentMethodID": paymentMethodID}
	return r.customerMutation(ctx, "setDefaultPaymentMethod", key, args, func(ctx context.Context) (*ent.Customer, error) {
		c, _, err := r.customers.SetDefaultPaymentMethod(ctx, customerID, paymentMethodID)
		return c, err
	})
}

func (r *Resolver) deletePaymentMethod(ctx context.Context, id string, key *string) (*model.DeletedPaymentMethodPayload, error) {
	deleted, replayed, err := idempotent(ctx, r, "deletePaymentMethod", key, map[string]any{"id": id}, func(ctx context.Context) (*string, error) {
		if _, err := merchantPrincipal(ctx); err != nil {
			return nil, err
		}
		id, err := r.customers.DeletePaymentMethod(ctx, id)
		return &id, err
	}, func(_ context.Context, snap *string) (*string, error) {
		return snap, nil
	})
	if err != nil {
		return nil, err
	}
	return &model.DeletedPaymentMethodPayload{PaymentMethodID: *deleted, Deleted: true, Replayed: replayed}, nil
}
