package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/customer"
	"switchyard/payments/errs"
)

// v2 customers: the same customer records and operations as v1, in the
// v2 shapes. A customer's v2 id is its row id (cus_…); the merchant's own
// id (v1's customer_id) is its merchant_reference_id.

// v2CustomerRequest is v2's CustomerRequest (closed; name and email are
// required).
type v2CustomerRequest struct {
	MerchantReferenceID *string `json:"merchant_reference_id"`
	v2CustomerMembers
}

// v2CustomerUpdateRequest is v2's CustomerUpdateRequest (closed).
type v2CustomerUpdateRequest struct {
	v2CustomerMembers
	DefaultPaymentMethodID *string `json:"default_payment_method_id"`
}

func (m *v2CustomerMembers) details() (customer.CustomerDetails, error) {
	if m.Name == nil {
		return customer.CustomerDetails{}, errs.MissingField("name")
	}
	if m.Email == nil {
		return customer.CustomerDetails{}, errs.MissingField("email")
	}
	return customer.CustomerDetails{Name: m.Name, Email: m.Email, Phone: m.Phone, PhoneCountryCode: m.PhoneCountryCode,
		Description: m.Description, Address: m.DefaultBillingAddress, ShippingAddress: m.DefaultShippingAddress,
		Metadata: m.Metadata, TaxRegistrationID: m.TaxRegistrationID, DocumentDetails: m.DocumentDetails}, nil
}

func v2CustomerOf(c *ent.Customer) v2CustomerBody {
	return v2CustomerBody{ID: c.ID, MerchantReferenceID: c.CustomerID, Name: c.Name, Email: c.Email, Phone: c.Phone,
		PhoneCountryCode: c.PhoneCountryCode, Description: c.Description, DefaultBillingAddress: c.Address,
		DefaultShippingAddress: c.ShippingAddress, CreatedAt: Timestamp(c.CreatedAt), Metadata: c.Metadata,
		DefaultPaymentMethodID: c.DefaultPaymentMethodID, TaxRegistrationID: c.TaxRegistrationID, DocumentDetails: c.DocumentDetails}
}

func v2CustomerDeletedOf(c *ent.Customer) v2CustomerDeletedBody {
	return v2CustomerDeletedBody{ID: c.ID, MerchantReferenceID: c.CustomerID, CustomerDeleted: true, AddressDeleted: true, PaymentMethodsDeleted: true}
}

// v2CustomerRoute resolves the {id} of a v2 customer route to the
// merchant's customer_id, then runs fn with it.
func v2CustomerRoute(svc *customer.Service, fn func(r *http.Request, customerID string) (any, error)) handlerFunc {
	return v2Route(func(r *http.Request) (any, error) {
		customerID, err := svc.CustomerReference(r.Context(), r.PathValue("id"))
		if err != nil {
			return nil, err
		}
		return fn(r, customerID)
	})
}

func registerV2Customers(a *api, svc *customer.Service) {
	a.handle("POST /v2/customers", MerchantOrAdmin, v2Route(withBody(func(r *http.Request, req *v2CustomerRequest) (any, error) {
		d, err := req.details()
		if err != nil {
			return nil, err
		}
		return respond(v2CustomerOf)(svc.CreateCustomer(r.Context(), req.MerchantReferenceID, d))
	})))
	a.handle("GET /v2/customers/list", MerchantOrAdmin, v2Route(withQuery(customerListPage, func(r *http.Request, p listPage) (any, error) {
		return respond(each(v2CustomerOf))(svc.ListCustomers(r.Context(), p.limit, p.offset))
	})))
	a.handle("GET /v2/customers/{id}", MerchantOrAdmin, v2CustomerRoute(svc, func(r *http.Request, customerID string) (any, error) {
		return respond(v2CustomerOf)(svc.GetCustomer(r.Context(), customerID))
	}))
	a.handle("PUT /v2/customers/{id}", MerchantOrAdmin, v2CustomerRoute(svc, func(r *http.Request, customerID string) (any, error) {
		var req v2CustomerUpdateRequest
		if err := decode(r, &req); err != nil {
			return nil, err
		}
		d, err := req.details()
		if err != nil {
			return nil, err
		}
		d.DefaultPaymentMethodID = req.DefaultPaymentMethodID
		return respond(v2CustomerOf)(svc.UpdateCustomer(r.Context(), customerID, d))
	}))
	a.handle("DELETE /v2/customers/{id}", MerchantOrAdmin, v2CustomerRoute(svc, func(r *http.Request, customerID string) (any, error) {
		return respond(v2CustomerDeletedOf)(svc.DeleteCustomer(r.Context(), customerID))
	}))
}
