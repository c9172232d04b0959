package customer

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// MaxCustomerID is the longest customer_id a merchant may give.
const MaxCustomerID = 64

// UpsertCustomer returns the merchant's customer with this id, creating it
// (or filling in details it lacked) as Hyperswitch does on payment create.
func (s *Service) UpsertCustomer(ctx context.Context, tx *ent.Tx, in *CustomerInput) (*ent.Customer, error) {
	c, err := tx.Customer.Query().Where(customer.CustomerID(in.ID)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		c, err = tx.Customer.Create().
			SetCustomerID(in.ID).
			SetNillableName(in.Name).
			SetNillableEmail(in.Email).
			SetNillablePhone(in.Phone).
			SetNillablePhoneCountryCode(in.PhoneCountryCode).
			Save(ctx)
		if err != nil {
			return nil, txn.Error(err, "customer")
		}
		return c, nil
	case err != nil:
		return nil, errs.Internal(err)
	}
	if in.Name == nil && in.Email == nil && in.Phone == nil && in.PhoneCountryCode == nil {
		return c, nil
	}
	c, err = c.Update().SetNillableName(in.Name).SetNillableEmail(in.Email).
		SetNillablePhone(in.Phone).SetNillablePhoneCountryCode(in.PhoneCountryCode).Save(ctx)
	if err != nil {
		return nil, txn.Error(err, "customer")
	}
	return c, nil
}
