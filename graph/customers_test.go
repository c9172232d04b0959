package graph_test

import (
	"strings"
	"testing"

	"switchyard/internal/testenv"
	"switchyard/payments"
	"switchyard/payments/customer"
)

// TestCustomerMutations: the dashboard creates, updates and deletes
// customers, sees a customer's saved cards (masked) and payments, moves
// its default card and deletes one, through the same domain calls as
// REST, with the same codes.
func TestCustomerMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	var created struct {
		CreateCustomer struct {
			Customer struct{ CustomerID, Name, Email string }
		}
	}
	c.must(`mutation { createCustomer(input: {customerID: "cus_gql", name: "Jon", email: "jon@example.com",
		address: {city: "Berlin", country: "DE"}, documentDetails: {document_type: "cpf", document_number: "123"}}) {
		customer { customerID name email } } }`, nil, &created)
	if created.CreateCustomer.Customer.Email != "jon@example.com" {
		t.Fatalf("created: %+v", created)
	}
	c.fails("HE_01", `mutation { createCustomer(input: {customerID: "cus_gql"}) { customer { id } } }`, nil)
	c.fails("IR_07", `mutation { createCustomer(input: {email: "nope"}) { customer { id } } }`, nil)
	c.fails("IR_06", `mutation { createCustomer(input: {address: {planet: "Mars"}}) { customer { id } } }`, nil)
	var updated struct {
		UpdateCustomer struct {
			Customer struct{ Name, Email string }
		}
	}
	c.must(`mutation { updateCustomer(id: "cus_gql", input: {name: "Jane"}) { customer { name email } } }`, nil, &updated)
	if updated.UpdateCustomer.Customer.Name != "Jane" || updated.UpdateCustomer.Customer.Email != "jon@example.com" {
		t.Fatalf("updated: %+v", updated)
	}

	// Two cards kept by payments, seen masked under the customer.
	for _, number := range []string{"4242424242424242", "5555555555554444"} {
		c.must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 100, currency: "USD", confirm: true,
			customerID: "cus_gql", setupFutureUsage: "on_session", paymentMethod: "card", paymentMethodData: $pm}) { payment { status } } }`,
			map[string]any{"pm": cardInput(number)}, nil)
	}
	var seen struct {
		Customers struct {
			Edges []struct {
				Node struct {
					CustomerID             string
					DefaultPaymentMethodID string
					PaymentMethods         []struct {
						ID   string
						Card struct{ Last4, CardNetwork, ExpMonth string }
					}
					Payments struct{ TotalCount int }
				}
			}
		}
	}
	c.must(`{ customers(first: 5, where: {customerID: "cus_gql"}) { edges { node { customerID defaultPaymentMethodID
		paymentMethods { id card { last4 cardNetwork expMonth } } payments(first: 5) { totalCount } } } } }`, nil, &seen)
	if len(seen.Customers.Edges) != 1 {
		t.Fatalf("customers: %+v", seen)
	}
	node := seen.Customers.Edges[0].Node
	if len(node.PaymentMethods) != 2 || node.Payments.TotalCount != 2 || node.PaymentMethods[0].Card.Last4 == "" {
		t.Fatalf("the customer: %+v", node)
	}
	other := node.PaymentMethods[0].ID
	if other == node.DefaultPaymentMethodID {
		other = node.PaymentMethods[1].ID
	}
	var def struct {
		SetDefaultPaymentMethod struct {
			Customer struct{ DefaultPaymentMethodID string }
		}
	}
	c.must(`mutation($pm: ID!) { setDefaultPaymentMethod(customerID: "cus_gql", paymentMethodID: $pm) { customer { defaultPaymentMethodID } } }`,
		map[string]any{"pm": other}, &def)
	if def.SetDefaultPaymentMethod.Customer.DefaultPaymentMethodID != other {
		t.Fatalf("default: %+v", def)
	}
	var del struct {
		DeletePaymentMethod struct {
			PaymentMethodID string
			Deleted         bool
		}
	}
	c.must(`mutation($pm: ID!) { deletePaymentMethod(id: $pm) { paymentMethodID deleted } }`, map[string]any{"pm": other}, &del)
	if !del.DeletePaymentMethod.Deleted || del.DeletePaymentMethod.PaymentMethodID != other {
		t.Fatalf("delete: %+v", del)
	}
	c.fails("HE_02", `mutation($pm: ID!) { deletePaymentMethod(id: $pm) { deleted } }`, map[string]any{"pm": other})
	// Another merchant sees none of it.
	stranger := newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_customers").key)
	stranger.fails("HE_02", `mutation { updateCustomer(id: "cus_gql", input: {name: "x"}) { customer { id } } }`, nil)

	var gone struct {
		DeleteCustomer struct {
			Customer struct {
				Name       string
				RedactedAt *string
			}
		}
	}
	c.must(`mutation { deleteCustomer(id: "cus_gql") { customer { name redactedAt } } }`, nil, &gone)
	if gone.DeleteCustomer.Customer.Name != "Redacted" || gone.DeleteCustomer.Customer.RedactedAt == nil {
		t.Fatalf("deleted: %+v", gone)
	}
	c.fails("IR_11", `mutation { deleteCustomer(id: "cus_gql") { customer { id } } }`, nil)
}

// TestCustomerIDMeansTheMerchants: customerID is the merchant's customer_id
// wherever it appears, as on Customer and in REST: on payments, saved
// methods and mandates, and in their filters, which find only the caller's
// rows (another merchant with a customer of the same id sees its own); the
// customer row's id is customer { id }. A cursor opened under one
// customer's filter is refused under another's.
func TestCustomerIDMeansTheMerchants(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	w := seedWorld(t, srv, demoTenant(srv))
	c := newGQL(t, srv.URL, w.key)
	ada, grace := w.customers[0], w.customers[1]
	var out struct {
		Payments struct {
			TotalCount int
			PageInfo   struct{ EndCursor string }
			Edges      []struct {
				Node struct {
					CustomerID *string
					Customer   struct{ ID, CustomerID string }
				}
			}
		}
		Mandates struct {
			TotalCount int
			Edges      []struct{ Node struct{ CustomerID string } }
		}
		PaymentMethods struct {
			Edges []struct {
				Node struct {
					PaymentMethods []struct{ CustomerID *string }
				}
			}
		} `json:"customers"`
	}
	c.must(`query($c: String!) {
		payments(first: 2, where: {customerID: $c}) { totalCount pageInfo { endCursor }
			edges { node { customerID customer { id customerID } } } }
		mandates(first: 10, where: {customerID: $c}) { totalCount edges { node { customerID } } }
		customers(first: 1, where: {customerID: $c}) { edges { node { paymentMethods { customerID } } } } }`,
		map[string]any{"c": ada.CustomerID}, &out)
	if out.Payments.TotalCount != 3 || len(out.Payments.Edges) != 2 {
		t.Fatalf("Ada's payments: %+v", out.Payments)
	}
	for _, e := range out.Payments.Edges {
		if e.Node.CustomerID == nil || *e.Node.CustomerID != ada.CustomerID || e.Node.Customer.CustomerID != ada.CustomerID ||
			e.Node.Customer.ID != ada.ID {
			t.Fatalf("a payment's customerID and customer: %+v", e.Node)
		}
	}
	if out.Mandates.TotalCount != 1 || out.Mandates.Edges[0].Node.CustomerID != ada.CustomerID {
		t.Fatalf("Ada's mandates: %+v", out.Mandates)
	}
	if pms := out.PaymentMethods.Edges[0].Node.PaymentMethods; len(pms) != 1 || pms[0].CustomerID == nil || *pms[0].CustomerID != ada.CustomerID {
		t.Fatalf("Ada's saved methods: %+v", pms)
	}
	// Asked for alone (no customer { … }), it is each payment's customer's
	// id, and null for a guest payment.
	var all struct {
		Payments struct {
			Edges []struct{ Node struct{ CustomerID *string } }
		}
	}
	c.must(`{ payments(first: 10) { edges { node { customerID } } } }`, nil, &all)
	count := map[string]int{}
	for _, e := range all.Payments.Edges {
		ref := "guest"
		if e.Node.CustomerID != nil {
			ref = *e.Node.CustomerID
		}
		count[ref]++
	}
	if count[ada.CustomerID] != 3 || count[grace.CustomerID] != 2 || count["guest"] != 2 {
		t.Fatalf("the payments' customerIDs: %v", count)
	}
	// The page's cursor belongs to Ada's filter, not Grace's.
	r := c.do(`query($c: String!, $after: Cursor) { payments(first: 2, after: $after, where: {customerID: $c}) { totalCount } }`,
		map[string]any{"c": grace.CustomerID, "after": out.Payments.PageInfo.EndCursor})
	if !strings.Contains(r.message(), "different query") || r.code() != "IR_06" {
		t.Fatalf("Ada's cursor under Grace's filter: %s", r.Raw)
	}

	// Another merchant with a customer of Ada's id finds its own payment only.
	other := newTenant(t, srv, "merchant_customer_refs_other")
	pay, err := srv.Payments.CreatePayment(merchantCtx(other.merchantID), payments.PaymentInput{Amount: 100, Currency: "USD",
		PaymentFields: payments.PaymentFields{Customer: &customer.CustomerInput{ID: ada.CustomerID, Named: true}}})
	if err != nil {
		t.Fatal(err)
	}
	var theirs struct {
		Payments struct {
			TotalCount int
			Edges      []struct {
				Node struct{ PaymentID, CustomerID string }
			}
		}
	}
	newGQL(t, srv.URL, other.key).must(`query($c: String!) { payments(first: 5, where: {customerID: $c}) {
		totalCount edges { node { paymentID customerID } } } }`, map[string]any{"c": ada.CustomerID}, &theirs)
	if theirs.Payments.TotalCount != 1 || theirs.Payments.Edges[0].Node.PaymentID != pay.Intent.PaymentID ||
		theirs.Payments.Edges[0].Node.CustomerID != ada.CustomerID {
		t.Fatalf("the other merchant's customer: %+v", theirs)
	}
}
