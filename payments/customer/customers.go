package customer

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/mandate"
	"switchyard/ent/paymentintent"
	"switchyard/ent/paymentmethod"
	"switchyard/ent/predicate"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// MaxCustomerID is the longest customer_id a merchant may give.
const MaxCustomerID = 64

// Redacted is what a deleted customer's personal data reads afterwards, as
// in Hyperswitch.
const Redacted = "Redacted"

var customerIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// CheckCustomerID applies Hyperswitch's customer id rule: 1 to 64 letters,
// digits, '_' and '-'.
func CheckCustomerID(field, id string) error {
	if id == "" || validate.Chars(id) > MaxCustomerID || !customerIDPattern.MatchString(id) {
		return errs.InvalidValue(field, "must be 1 to %d letters, digits, '_' or '-'", MaxCustomerID)
	}
	return nil
}

// EmailIs selects the merchant's customers whose e-mail is email, whatever
// its case: customers keep the address as given, in plain, so this is an
// equality on the column (read from the (merchant_id, email) index), never
// a decryption. The dashboard's filters by e-mail use it.
func EmailIs(merchantID, email string) predicate.Customer {
	return customer.And(customer.MerchantID(merchantID), customer.EmailEqualFold(strings.TrimSpace(email)))
}

// maxFilterCustomers is how many customers a filter on payments resolves
// to ids before it falls back to a subquery.
const maxFilterCustomers = 1000

// PaymentsOf is the filter on the payments of the merchant's customers that
// pred selects. The customers are read first (the customer query is the
// merchant's, from an index) and the payments then filtered by their
// indexed customer_id: MariaDB runs the subquery ent writes for
// HasCustomerWith row by row along a list's (merchant_id, created_at)
// order, which at a million payments takes seconds for a customer with
// few; the ids take milliseconds. None matches nothing; more than
// maxFilterCustomers (one e-mail on many customers) keeps the subquery.
func PaymentsOf(ctx context.Context, c *ent.Client, pred predicate.Customer) (predicate.PaymentIntent, error) {
	ids, err := c.Customer.Query().Where(pred).Limit(maxFilterCustomers + 1).IDs(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if len(ids) > maxFilterCustomers {
		return paymentintent.HasCustomerWith(pred), nil
	}
	return paymentintent.CustomerIDIn(ids...), nil
}

// UpsertCustomer returns the merchant's customer with this id, creating it
// (or filling in details it lacked) as Hyperswitch does on payment create.
// A redacted customer cannot be paid for again (IR_11).
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
	case c.RedactedAt != nil:
		return nil, errCustomerRedacted()
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

// CustomerDetails are the members of Hyperswitch's CustomerRequest and
// CustomerUpdateRequest: a nil member is left as it is.
type CustomerDetails struct {
	Name              *string
	Email             *string
	Phone             *string
	PhoneCountryCode  *string
	Description       *string
	Address           *schematype.Address
	ShippingAddress   *schematype.Address
	Metadata          map[string]any
	TaxRegistrationID *string
	DocumentDetails   *schematype.CustomerDocument
	// DefaultPaymentMethodID (v2's update) must name one of the
	// customer's saved methods.
	DefaultPaymentMethodID *string
}

// documentKinds are Hyperswitch's DocumentKind values.
var documentKinds = validate.NewEnum("DocumentKind", "cpf", "cnpj", "psn", "other")

// Validate applies Hyperswitch's limits to the details.
func (d *CustomerDetails) Validate() error {
	for _, m := range []struct {
		field string
		v     *string
	}{{"name", d.Name}, {"phone", d.Phone}, {"phone_country_code", d.PhoneCountryCode},
		{"description", d.Description}, {"tax_registration_id", d.TaxRegistrationID}} {
		if err := validate.MaxLen(m.field, m.v, 255); err != nil {
			return err
		}
	}
	if err := validate.First(validate.Email("email", d.Email), validate.PostalAddress("address", d.Address),
		validate.PostalAddress("default_shipping_address", d.ShippingAddress)); err != nil {
		return err
	}
	if doc := d.DocumentDetails; doc != nil {
		if err := documentKinds.Required("document_details.document_type", doc.DocumentType); err != nil {
			return err
		}
		if doc.DocumentNumber == "" || validate.Chars(doc.DocumentNumber) > 255 {
			return errs.InvalidValue("document_details.document_number", "must be 1 to 255 characters")
		}
	}
	return nil
}

// ErrCustomerNotFound is HE_02 for a customer: unknown, or another merchant's.
func ErrCustomerNotFound() *errs.Error {
	return errs.ErrCustomerNotFound.New()
}

func errCustomerRedacted() *errs.Error {
	return errs.ErrCustomerRedacted.New()
}

// CreateCustomer creates a customer (POST /customers); id nil generates
// one. An id the merchant already uses is 400 HE_01.
func (s *Service) CreateCustomer(ctx context.Context, id *string, d CustomerDetails) (*ent.Customer, error) {
	customerID := ids.New(ids.Customer)
	if id != nil {
		if err := CheckCustomerID("customer_id", *id); err != nil {
			return nil, err
		}
		customerID = *id
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	var c *ent.Customer
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		create := tx.Customer.Create().SetCustomerID(customerID).
			SetNillableName(d.Name).SetNillableEmail(d.Email).SetNillablePhone(d.Phone).
			SetNillablePhoneCountryCode(d.PhoneCountryCode).SetNillableDescription(d.Description).
			SetNillableTaxRegistrationID(d.TaxRegistrationID).SetMetadata(d.Metadata)
		m := create.Mutation()
		txn.SetGiven(d.Address, m.SetAddress)
		txn.SetGiven(d.ShippingAddress, m.SetShippingAddress)
		txn.SetGiven(d.DocumentDetails, m.SetDocumentDetails)
		var err error
		c, err = create.Save(ctx)
		return txn.ErrorOrNil(err, "customer")
	})
	if errors.Is(err, errs.ErrUniqueKey) {
		return nil, errs.Duplicate("Customer with the given `customer_id` already exists")
	}
	return c, err
}

// GetCustomer returns the merchant's customer; a redacted one is 400 IR_11.
func (s *Service) GetCustomer(ctx context.Context, customerID string) (*ent.Customer, error) {
	c, err := s.db.Client.Customer.Query().Where(customer.CustomerID(customerID)).Only(ctx)
	return liveCustomer(c, err)
}

// LockPayer is the customer a payment is for (by row id), locked until tx
// ends so that a delete (DeleteCustomer locks the row too) comes wholly
// before or after the payment's change. A redacted customer is IR_11: its
// payments can no longer be paid, as in Hyperswitch, whose payment flows
// read the customer and refuse a redacted one.
func (s *Service) LockPayer(ctx context.Context, tx *ent.Tx, id string) (*ent.Customer, error) {
	c, err := txn.ForUpdate(s.db, tx.Customer.Query().Where(customer.ID(id))).Only(ctx)
	switch {
	case err != nil: // a payment's customer row is never deleted
		return nil, errs.Internal(err)
	case c.RedactedAt != nil:
		return nil, errCustomerRedacted()
	}
	return c, nil
}

// CustomerReference is the merchant's customer_id of the customer whose row
// id is id (v2 names customers by that id); a redacted one is IR_11.
func (s *Service) CustomerReference(ctx context.Context, id string) (string, error) {
	c, err := liveCustomer(s.db.Client.Customer.Query().Where(customer.ID(id)).Only(ctx))
	if err != nil {
		return "", err
	}
	return c.CustomerID, nil
}

func liveCustomer(c *ent.Customer, err error) (*ent.Customer, error) {
	switch {
	case ent.IsNotFound(err):
		return nil, ErrCustomerNotFound()
	case err != nil:
		return nil, errs.Internal(err)
	case c.RedactedAt != nil:
		return nil, errCustomerRedacted()
	}
	return c, nil
}

// UpdateCustomer changes the details given (POST /customers/{id}).
func (s *Service) UpdateCustomer(ctx context.Context, customerID string, d CustomerDetails) (*ent.Customer, error) {
	if err := d.Validate(); err != nil {
		return nil, err
	}
	var c *ent.Customer
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		if c, err = liveCustomer(txn.ForUpdate(s.db, tx.Customer.Query().Where(customer.CustomerID(customerID))).Only(ctx)); err != nil {
			return err
		}
		upd := c.Update().SetNillableName(d.Name).SetNillableEmail(d.Email).SetNillablePhone(d.Phone).
			SetNillablePhoneCountryCode(d.PhoneCountryCode).SetNillableDescription(d.Description).
			SetNillableTaxRegistrationID(d.TaxRegistrationID)
		m := upd.Mutation()
		txn.SetGiven(d.Metadata, m.SetMetadata)
		txn.SetGiven(d.Address, m.SetAddress)
		txn.SetGiven(d.ShippingAddress, m.SetShippingAddress)
		txn.SetGiven(d.DocumentDetails, m.SetDocumentDetails)
		if id := d.DefaultPaymentMethodID; id != nil {
			ok, err := tx.PaymentMethod.Query().Where(paymentmethod.ID(*id), paymentmethod.CustomerID(c.ID),
				paymentmethod.StatusEQ(paymentmethod.StatusActive)).Exist(ctx)
			if err != nil {
				return errs.Internal(err)
			}
			if !ok {
				return errPaymentMethodNotFound()
			}
			upd.SetDefaultPaymentMethodID(*id)
		}
		c, err = upd.Save(ctx)
		return txn.ErrorOrNil(err, "customer")
	})
	return c, err
}

// Customer list bounds: Hyperswitch's limit is an unsigned 16-bit number
// with no other maximum, and its list without one returns the first 100.
const (
	DefaultCustomerListLimit = 100
	MaxCustomerListLimit     = 1<<16 - 1
)

// ListCustomers lists the merchant's customers, newest first, limit from
// offset (GET /customers/list). Redacted customers are left out.
func (s *Service) ListCustomers(ctx context.Context, limit, offset int) ([]*ent.Customer, error) {
	n := limit
	if n < 0 || n > MaxCustomerListLimit {
		return nil, errs.InvalidValue("limit", "must be between 0 and %d", MaxCustomerListLimit)
	}
	if err := validate.Offset(offset); err != nil {
		return nil, err
	}
	if n == 0 {
		return []*ent.Customer{}, nil
	}
	return txn.Read(s.db.Client.Customer.Query().Where(customer.RedactedAtIsNil()).
		Order(ent.Desc(customer.FieldCreatedAt), ent.Desc(customer.FieldID)).
		Limit(n).Offset(offset).All(ctx))
}

// DeleteCustomer redacts the customer's personal data and deletes its
// payment methods, keeping its payments, as Hyperswitch does; a customer
// with an active mandate is 400 IR_10. It answers how many payment methods
// went.
func (s *Service) DeleteCustomer(ctx context.Context, customerID string) (*ent.Customer, error) {
	var c *ent.Customer
	err := s.db.InTx(ctx, func(tx *ent.Tx) error {
		var err error
		if c, err = liveCustomer(txn.ForUpdate(s.db, tx.Customer.Query().Where(customer.CustomerID(customerID))).Only(ctx)); err != nil {
			return err
		}
		active, err := tx.Mandate.Query().Where(mandate.CustomerID(c.ID), mandate.StatusEQ(mandate.StatusActive)).Exist(ctx)
		if err != nil {
			return errs.Internal(err)
		}
		if active {
			return errs.ErrActiveMandate.New()
		}
		if _, err := tx.PaymentMethod.Delete().Where(paymentmethod.CustomerID(c.ID)).Exec(ctx); err != nil {
			return errs.Internal(err)
		}
		// The details its payments were given are the customer's too: they
		// go with the rest (the payments show the redacted row instead).
		if _, err := tx.PaymentIntent.Update().Where(paymentintent.CustomerID(c.ID), paymentintent.CustomerDetailsNotNil()).
			ClearCustomerDetails().Save(ctx); err != nil {
			return errs.Internal(err)
		}
		redacted := Redacted
		c, err = c.Update().SetName(redacted).SetEmail(redacted).SetPhone(redacted).
			SetPhoneCountryCode(redacted).SetDescription(redacted).ClearMetadata().ClearAddress().ClearShippingAddress().
			ClearTaxRegistrationID().ClearDocumentDetails().ClearDefaultPaymentMethodID().
			SetRedactedAt(time.Now().UTC()).Save(ctx)
		return txn.ErrorOrNil(err, "customer")
	})
	return c, err
}
