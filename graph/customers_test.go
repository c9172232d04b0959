package graph_test

import (
	"testing"

	"switchyard/internal/testenv"
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
