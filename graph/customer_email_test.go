package graph_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"switchyard/ent"
	"switchyard/internal/testenv"
)

// TestPaymentsByCustomerEmail: customerEmail selects the payments of the
// merchant's customers with that e-mail, whatever its case (two customers
// may share one), in the list and in the CSV export alike; never another
// merchant's, nor a guest payment's; the customers list filters by the same
// e-mail with emailEqualFold. An address shared by more customers than are
// read first still selects their payments.
func TestPaymentsByCustomerEmail(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	other := newTenant(t, srv, "merchant_email_other")
	call := func(key, path string, body map[string]any) map[string]any {
		t.Helper()
		status, out, err := testenv.Call(srv.URL, "POST", path, key, body)
		if err != nil || status != 200 {
			t.Fatalf("POST %s: %d %s %v", path, status, out, err)
		}
		var obj map[string]any
		if err := json.Unmarshal(out, &obj); err != nil {
			t.Fatal(err)
		}
		return obj
	}
	customer := func(key, id, email string) {
		call(key, "/customers", map[string]any{"customer_id": id, "email": email})
	}
	pay := func(key string, extra map[string]any) string {
		body := map[string]any{"amount": 1500, "currency": "USD"}
		for k, v := range extra {
			body[k] = v
		}
		return call(key, "/payments", body)["payment_id"].(string)
	}
	customer(key, "cus_ada", "Ada@Example.com")
	customer(key, "cus_ada_again", "ada@example.COM")
	customer(key, "cus_grace", "grace@example.com")
	customer(other.key, "cus_ada", "ada@example.com")
	want := []string{
		pay(key, map[string]any{"customer_id": "cus_ada"}),
		pay(key, map[string]any{"customer_id": "cus_ada_again"}),
		pay(key, map[string]any{"customer_id": "cus_ada"}),
	}
	slices.Reverse(want) // newest first
	pay(key, map[string]any{"customer_id": "cus_grace"})
	pay(key, map[string]any{"email": "ada@example.com"}) // a guest's: no customer
	pay(other.key, map[string]any{"customer_id": "cus_ada"})

	c := newGQL(t, srv.URL, key)
	list := func(where string) []string {
		t.Helper()
		var out struct {
			Payments struct {
				TotalCount int
				Edges      []struct{ Node struct{ PaymentID string } }
			}
		}
		c.must(`{ payments(first: 20, where: `+where+`) { totalCount edges { node { paymentID } } } }`, nil, &out)
		ids := []string{}
		for _, e := range out.Payments.Edges {
			ids = append(ids, e.Node.PaymentID)
		}
		if out.Payments.TotalCount != len(ids) {
			t.Fatalf("%s: totalCount %d, %d rows", where, out.Payments.TotalCount, len(ids))
		}
		return ids
	}
	for _, tc := range []struct {
		where string
		want  []string
	}{
		{`{customerEmail: "ADA@example.com"}`, want},
		{`{customerEmail: " ada@example.com "}`, want},
		{`{customerEmail: "ada@example"}`, []string{}},
		{`{customerEmail: "nobody@example.com"}`, []string{}},
		{`{customerEmail: "ada@example.com", customerID: "cus_ada_again"}`, want[1:2]},
		{`{customerEmail: "ada@example.com", customerID: "cus_grace"}`, []string{}},
	} {
		if got := list(tc.where); !slices.Equal(got, tc.want) {
			t.Errorf("payments(where: %s) = %v, want %v", tc.where, got, tc.want)
		}
	}

	rows := exportPayments(t, c, `{customerEmail: "ada@EXAMPLE.com"}`)
	var exported []string
	for _, r := range rows[1:] {
		exported = append(exported, r[0])
	}
	if rows[0][0] != "payment_id" || !slices.Equal(exported, want) {
		t.Errorf("the export by e-mail: %v, want %v", exported, want)
	}

	var customers struct {
		Customers struct {
			Edges []struct{ Node struct{ CustomerID string } }
		}
	}
	c.must(`{ customers(first: 10, where: {emailEqualFold: "ADA@EXAMPLE.COM"}, orderBy: [{field: CREATED_AT, direction: ASC}]) {
		edges { node { customerID } } } }`, nil, &customers)
	var found []string
	for _, e := range customers.Customers.Edges {
		found = append(found, e.Node.CustomerID)
	}
	if !slices.Equal(found, []string{"cus_ada", "cus_ada_again"}) {
		t.Errorf("customers by e-mail: %v", found)
	}

	// An address more than 1,000 customers share is filtered by a subquery
	// rather than their ids: the same payments.
	many := make([]*ent.CustomerCreate, 1001)
	for i := range many {
		many[i] = srv.Store.Client.Customer.Create().SetCustomerID(fmt.Sprintf("cus_shared_%d", i)).SetEmail("Shared@Example.com")
	}
	if err := srv.Store.Client.Customer.CreateBulk(many...).Exec(merchantCtx(srv.Demo.MerchantID)); err != nil {
		t.Fatal(err)
	}
	shared := []string{pay(key, map[string]any{"customer_id": "cus_shared_1000"}), pay(key, map[string]any{"customer_id": "cus_shared_7"})}
	slices.Reverse(shared)
	if got := list(`{customerEmail: "shared@example.com"}`); !slices.Equal(got, shared) {
		t.Errorf("payments of 1,001 customers sharing an e-mail: %v, want %v", got, shared)
	}
	if got := list(`{customerEmail: "shared@example.com", customerIDIn: ["cus_shared_7", "cus_ada"]}`); !slices.Equal(got, shared[:1]) {
		t.Errorf("with customerIDIn too: %v, want %v", got, shared[:1])
	}
}
