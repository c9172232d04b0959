package graph_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"switchyard/internal/testenv"
)

// TestEveryMutationStringLimitIsCheckedAtTheEdge is REST's
// TestEveryStringLimitIsCheckedAtTheEdge for GraphQL: every String
// argument of every mutation, and every String field of the input objects
// they take, is sent one member at a time on arguments the mutation
// accepts, first one past the ent schema's largest column size (accepted,
// or refused naming the member and its limit: never HE_00), then one past
// its limit in multi-byte characters (refused) and at its limit (passes
// the length check), and one past each smaller column size (never HE_00).
func TestEveryMutationStringLimitIsCheckedAtTheEdge(t *testing.T) {
	raw, err := os.ReadFile("exported/schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	schema, gerr := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: string(raw)})
	if gerr != nil {
		t.Fatal(gerr)
	}
	srv := newUsersServer(t) // it fails sign-ins, counted per client address in Redis
	walk := testenv.NewLimitWalk()
	w := newMutationWalk(t, srv)
	for _, f := range schema.Mutation.Fields {
		doc := mutationDocument(schema, f)
		for _, path := range stringMembers(schema, f) {
			name := f.Name + " " + path
			try := func(n int, multibyte bool) gqlResponse {
				vars := w.base(t, f.Name)
				for _, a := range f.Arguments {
					if _, given := vars[a.Name]; !given && a.Type.NonNull && a.Type.NamedType == "ID" {
						vars[a.Name] = "none" // an id no row has: the walk is about the other members
					}
				}
				setAt(vars, path, testenv.TextOf(path[strings.LastIndex(path, ".")+1:], n, multibyte))
				r := w.client(f.Name).do(doc, vars)
				if r.Status >= 500 || r.code() == "HE_00" {
					t.Errorf("%s: %d characters answered %d %s", name, n, r.Status, r.Raw)
				}
				return r
			}
			ascii := func(n int) { try(n, false) }
			r := try(walk.Over(), false)
			if len(r.Errors) == 0 {
				walk.Unbounded()
				continue
			}
			limit, named := limitOf(r, path)
			if !named {
				walk.Otherwise(name, r.message(), ascii)
				continue
			}
			walk.Walked()
			t.Logf("%s: at most %d characters", name, limit)
			if !slices.Contains(walk.Sizes, limit) {
				t.Errorf("%s: limit %d is not a column's size in the ent schema", name, limit)
			}
			if r := try(limit+1, true); !namesMember(r, path) {
				t.Errorf("%s: %d multi-byte characters (one past the limit) answered %s", name, limit+1, r.Raw)
			}
			r = try(limit, true)
			if namesMember(r, path) && testenv.OwnAlphabet(r.message()) {
				r = try(limit, false) // an id or a code, of ASCII letters and digits
			}
			_, tooLong := limitOf(r, path)
			walk.AtLimit(t, name, limit, tooLong, len(r.Errors) == 0, r.Raw, ascii)
		}
	}
	walk.Report(t, 10)
}

// stringMembers are the paths ("input.customer.name") of f's String
// arguments and of the String fields of the input objects it takes.
func stringMembers(schema *ast.Schema, f *ast.FieldDefinition) []string {
	var out []string
	var walk func(path string, t *ast.Type, depth int)
	walk = func(path string, t *ast.Type, depth int) {
		if t.Elem != nil || depth > 4 {
			return // lists of strings are sets (connectors, types), not text
		}
		if t.NamedType == "String" {
			out = append(out, path)
			return
		}
		def := schema.Types[t.NamedType]
		if def == nil || def.Kind != ast.InputObject {
			return
		}
		for _, fd := range def.Fields {
			walk(path+"."+fd.Name, fd.Type, depth+1)
		}
	}
	for _, a := range f.Arguments {
		walk(a.Name, a.Type, 0)
	}
	return out
}

// mutationDocument calls f with each argument as a variable of its type.
func mutationDocument(schema *ast.Schema, f *ast.FieldDefinition) string {
	var decl, args []string
	for _, a := range f.Arguments {
		decl = append(decl, "$"+a.Name+": "+a.Type.String())
		args = append(args, a.Name+": $"+a.Name)
	}
	call := f.Name
	if len(args) > 0 {
		call += "(" + strings.Join(args, ", ") + ")"
	}
	if def := schema.Types[f.Type.Name()]; def != nil && def.Kind == ast.Object {
		call += " { __typename }"
	}
	if len(decl) == 0 {
		return "mutation { " + call + " }"
	}
	return "mutation(" + strings.Join(decl, ", ") + ") { " + call + " }"
}

// setAt sets the member at path ("input.customer.name") of vars to v,
// making the objects on the way.
func setAt(vars map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	cur := vars
	for _, p := range parts[:len(parts)-1] {
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[parts[len(parts)-1]] = v
}

// limitOf is the limit an error states for the member at path.
func limitOf(r gqlResponse, path string) (int, bool) {
	if !namesMember(r, path) {
		return 0, false
	}
	return testenv.StatedLimit(r.message())
}

// namesMember: the first error is a client error (not HE_00) naming the
// member, as GraphQL spells it or as REST does (merchantOrderReferenceID,
// merchant_order_reference_id), in its message or its field.
func namesMember(r gqlResponse, path string) bool {
	if len(r.Errors) == 0 || r.code() == "" || r.code() == "HE_00" {
		return false
	}
	flat := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, "_", "")) }
	leaf := flat(path[strings.LastIndex(path, ".")+1:])
	field, _ := r.Errors[0].Extensions["field"].(string)
	return strings.Contains(flat(r.message()), leaf) || strings.Contains(flat(field), leaf)
}

// mutationWalk holds what the mutations' arguments name: payments in the
// states they need, a customer, a user's session for the user mutations.
type mutationWalk struct {
	srv     *testenv.Server
	api     gql
	session gql
	serial  int
}

func newMutationWalk(t *testing.T, srv *testenv.Server) *mutationWalk {
	t.Helper()
	w := &mutationWalk{srv: srv, api: newGQL(t, srv.URL, srv.Demo.SecretKey)}
	sess, _ := signUp(t, srv.URL, "walker@shop.example", "Walker's shop")
	w.session = newGQL(t, srv.URL, "").with("Authorization", "Bearer "+sess.Token)
	w.api.must(`mutation { createCustomer(input: {customerID: "cus_walk"}) { __typename } }`, nil, nil)
	return w
}

// client is who calls the mutation: an admin's session for the user and
// API key mutations (a secret key may not run them), the merchant's secret
// key for the rest.
func (w *mutationWalk) client(mutation string) gql {
	switch mutation {
	case "inviteUser", "updateUserRole", "removeUser", "switchMerchant", "signOut", "createApiKey", "revokeApiKey", "rollApiKey":
		return w.session
	}
	return w.api
}

// payment is a new payment of the demo merchant: authorized (manual
// capture) or open.
func (w *mutationWalk) payment(t *testing.T, authorized bool) string {
	input := map[string]any{"amount": 10000, "currency": "USD"}
	if authorized {
		input["confirm"], input["captureMethod"], input["paymentMethod"] = true, "manual", "card"
		input["paymentMethodData"] = map[string]any{"card": testCard()}
	}
	var out struct {
		CreatePayment struct{ Payment struct{ PaymentID string } }
	}
	w.api.must(`mutation($in: CreatePaymentInput!) { createPayment(input: $in) { payment { paymentID } } }`,
		map[string]any{"in": input}, &out)
	return out.CreatePayment.Payment.PaymentID
}

// gsmRule is a new GSM rule's input, its code unique.
func (w *mutationWalk) gsmRule(code string) map[string]any {
	return map[string]any{"connector": "stripe", "flow": "Authorize", "subFlow": "sub_flow", "code": code,
		"message": "declined", "status": "failure", "decision": "retry"}
}

func testCard() map[string]any {
	return map[string]any{"cardNumber": "4242424242424242", "cardExpMonth": "12", "cardExpYear": "2040", "cardCvc": "123"}
}

// base is a set of arguments the mutation accepts, to which the walk
// adds one member; names that must be unique are new at each call.
func (w *mutationWalk) base(t *testing.T, mutation string) map[string]any {
	w.serial++
	unique := fmt.Sprintf("lim%d", w.serial)
	d := w.srv.Demo
	switch mutation {
	case "createPayment":
		return map[string]any{"input": map[string]any{"amount": 10000, "currency": "USD", "customerID": unique,
			"paymentMethod": "card", "paymentMethodData": map[string]any{"card": testCard()}}}
	case "updatePayment":
		return map[string]any{"id": w.payment(t, false), "input": map[string]any{"customerID": unique,
			"paymentMethod": "card", "paymentMethodData": map[string]any{"card": testCard()}}}
	case "confirmPayment":
		return map[string]any{"id": w.payment(t, false), "input": map[string]any{"customerID": unique,
			"paymentMethod": "card", "paymentMethodData": map[string]any{"card": testCard()}}}
	case "capturePayment", "cancelPayment":
		return map[string]any{"id": w.payment(t, true)}
	case "createRefund":
		id := w.payment(t, true)
		w.api.must(`mutation($id: ID!) { capturePayment(id: $id) { __typename } }`, map[string]any{"id": id}, nil)
		return map[string]any{"input": map[string]any{"paymentID": id, "amount": 100}}
	case "createPayout":
		return map[string]any{"input": map[string]any{"amount": 100, "currency": "USD", "payoutType": "card"}}
	case "confirmPayout":
		var made struct {
			CreatePayout struct{ Payout struct{ PayoutID string } }
		}
		w.api.must(`mutation { createPayout(input: {amount: 100, currency: "USD"}) { payout { payoutID } } }`, nil, &made)
		return map[string]any{"id": made.CreatePayout.Payout.PayoutID, "input": map[string]any{}}
	case "createSubscriptionItem":
		return map[string]any{"input": map[string]any{"name": unique}}
	case "createItemPrice":
		var made struct {
			CreateSubscriptionItem struct{ Item struct{ ID string } }
		}
		w.api.must(`mutation($n: String!) { createSubscriptionItem(input: {name: $n}) { item { id } } }`, map[string]any{"n": unique}, &made)
		return map[string]any{"itemID": made.CreateSubscriptionItem.Item.ID, "input": map[string]any{"amount": 100, "currency": "USD"}}
	case "createCoupon":
		return map[string]any{"input": map[string]any{"code": unique, "discountType": "percentage", "percentOffBps": 100}}
	case "createTestClock":
		return map[string]any{"input": map[string]any{"frozenTime": "2026-01-01T00:00:00Z"}}
	case "advanceTestClock":
		return map[string]any{"frozenTime": "2026-01-01T00:00:00Z"}
	case "createCustomer":
		return map[string]any{"input": map[string]any{"customerID": unique}}
	case "updateCustomer":
		return map[string]any{"id": "cus_walk", "input": map[string]any{}}
	case "createConnectorAccount":
		return map[string]any{"input": map[string]any{"connectorType": "payment_processor", "connectorName": "stripe",
			"connectorLabel": unique, "connectorAccountDetails": map[string]any{"auth_type": "HeaderKey", "api_key": "k"}}}
	case "updateConnectorAccount":
		return map[string]any{"id": d.ConnectorAccount, "input": map[string]any{"connectorType": "payment_processor"}}
	case "createApiKey":
		return map[string]any{"input": map[string]any{"name": unique, "expiration": "never"}}
	case "rollApiKey":
		var made struct {
			CreateApiKey struct{ APIKey struct{ ID string } }
		}
		w.session.must(`mutation($n: String!) { createApiKey(input: {name: $n, expiration: "never"}) { apiKey { id } } }`,
			map[string]any{"n": unique}, &made)
		return map[string]any{"id": made.CreateApiKey.APIKey.ID, "gracePeriodSeconds": 0}
	case "updateProfileWebhookSettings":
		return map[string]any{"profileID": d.ProfileID, "input": map[string]any{}}
	case "createRoutingAlgorithm":
		return map[string]any{"input": map[string]any{"name": unique, "profileID": d.ProfileID,
			"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "stripe", "merchant_connector_id": d.ConnectorAccount}}}}
	case "createGsmRule":
		return map[string]any{"input": w.gsmRule(unique)}
	case "addBlocklistEntry", "removeBlocklistEntry":
		return map[string]any{"input": map[string]any{"type": "fingerprint", "data": unique}}
	case "updateGsmRule":
		var made struct {
			CreateGsmRule struct{ GsmRule struct{ ID string } }
		}
		w.api.must(`mutation($in: CreateGsmRuleInput!) { createGsmRule(input: $in) { gsmRule { id } } }`,
			map[string]any{"in": w.gsmRule(unique)}, &made)
		return map[string]any{"id": made.CreateGsmRule.GsmRule.ID, "input": map[string]any{}}
	case "signUp":
		return map[string]any{"email": unique + "@shop.example", "password": "a long and unusual passphrase", "merchantName": "Shop"}
	case "signIn":
		return map[string]any{"email": "walker@shop.example", "password": "wrong but long enough"}
	case "inviteUser":
		return map[string]any{"email": unique + "@shop.example", "role": "VIEWER"}
	}
	return map[string]any{}
}
