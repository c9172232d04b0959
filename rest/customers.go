package rest

import (
	"net/http"

	"switchyard/ent"
	"switchyard/payments/customer"
)

// customerRequest is Hyperswitch's CustomerRequest (POST /customers); its
// update (CustomerUpdateRequest) is the same without customer_id.
type customerRequest struct {
	CustomerID *string `json:"customer_id"`
	customerUpdateRequest
}

func (req *customerUpdateRequest) details() customer.CustomerDetails {
	return customer.CustomerDetails{Name: req.Name, Email: req.Email, Phone: req.Phone,
		PhoneCountryCode: req.PhoneCountryCode, Description: req.Description, Address: req.Address,
		Metadata: req.Metadata, TaxRegistrationID: req.TaxRegistrationID, DocumentDetails: req.DocumentDetails}
}

func customerBodyOf(c *ent.Customer) customerBody {
	return customerBody{CustomerID: c.CustomerID, Name: c.Name, Email: c.Email, Phone: c.Phone,
		PhoneCountryCode: c.PhoneCountryCode, Description: c.Description, Address: c.Address,
		CreatedAt: Timestamp(c.CreatedAt), Metadata: c.Metadata, DefaultPaymentMethodID: c.DefaultPaymentMethodID,
		TaxRegistrationID: c.TaxRegistrationID, DocumentDetails: c.DocumentDetails}
}

func customerDeletedOf(c *ent.Customer) customerDeletedBody {
	return customerDeletedBody{CustomerID: c.CustomerID, CustomerDeleted: true, AddressDeleted: true, PaymentMethodsDeleted: true}
}

var customerListQuery = queryParams{route: "GET /customers/list", names: []string{"limit", "offset"}}

// listPage is the page of a customer list its query asks for.
type listPage struct{ limit, offset int }

// customerListPage reads the limit and offset of a customer list (v1 and v2).
func customerListPage(rawQuery string) (listPage, error) {
	values, _, err := customerListQuery.read(rawQuery)
	if err != nil {
		return listPage{}, err
	}
	limit, err := values.integer("limit", customer.DefaultCustomerListLimit)
	if err != nil {
		return listPage{}, err
	}
	offset, err := values.integer("offset", 0)
	return listPage{limit, offset}, err
}

func registerCustomers(a *api, svc *customer.Service) {
	a.handle("POST /customers", MerchantOrAdmin, withBody(func(r *http.Request, req *customerRequest) (any, error) {
		return respond(customerBodyOf)(svc.CreateCustomer(r.Context(), req.CustomerID, req.details()))
	}))
	a.handle("GET /customers/list", MerchantOrAdmin, withQuery(customerListPage, func(r *http.Request, p listPage) (any, error) {
		return respond(each(customerBodyOf))(svc.ListCustomers(r.Context(), p.limit, p.offset))
	}))
	a.handle("GET /customers/{customer_id}", CustomerOrMerchant, func(r *http.Request) (any, error) {
		return respond(customerBodyOf)(svc.GetCustomer(r.Context(), r.PathValue("customer_id")))
	})
	a.handle("POST /customers/{customer_id}", MerchantOrAdmin, withBody(func(r *http.Request, req *customerUpdateRequest) (any, error) {
		return respond(customerBodyOf)(svc.UpdateCustomer(r.Context(), r.PathValue("customer_id"), req.details()))
	}))
	a.handle("DELETE /customers/{customer_id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(customerDeletedOf)(svc.DeleteCustomer(r.Context(), r.PathValue("customer_id")))
	})
	a.handle("POST /ephemeral_keys", MerchantOrAdmin, withBody(func(r *http.Request, req *ephemeralKeyRequest) (any, error) {
		return respond(ephemeralKeyOf)(svc.CreateEphemeralKey(r.Context(), deref(req.CustomerID)))
	}))
	a.handle("DELETE /ephemeral_keys/{id}", MerchantOrAdmin, func(r *http.Request) (any, error) {
		return respond(ephemeralKeyOf)(svc.DeleteEphemeralKey(r.Context(), r.PathValue("id")))
	})
}

// ephemeralKeyRequest is Hyperswitch's EphemeralKeyCreateRequest.
type ephemeralKeyRequest struct {
	CustomerID *string `json:"customer_id"`
}

func ephemeralKeyOf(k *customer.EphemeralKey) ephemeralKeyBody {
	return ephemeralKeyBody{CustomerID: k.CustomerID, CreatedAt: k.CreatedAt.Unix(), Expires: k.ExpiresAt.Unix(), Secret: k.Secret}
}
