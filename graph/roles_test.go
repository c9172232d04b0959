package graph_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"switchyard/graph/generated"
)

// roleMatrix is who may run each root field: "all" (every role), "public"
// (without credentials too), or the roles besides ADMIN ("" for admins
// only). It must name every root field of the schema, so that no field is
// added without deciding.
var roleMatrix = map[string]string{
	// Reads: every role, except the merchant's people and its audit log.
	"Query.node": "all", "Query.nodes": "all", "Query.viewer": "all", "Query.merchantAccount": "all",
	"Query.payment": "all", "Query.refund": "all", "Query.event": "all", "Query.payments": "all",
	"Query.connectorSuccessRates": "all", "Query.routingEvaluate": "all", "Query.me": "all",
	"Query.customers": "all", "Query.disputes": "all", "Query.events": "all", "Query.mandates": "all",
	"Query.merchantAccounts": "all", "Query.connectorAccounts": "all", "Query.paymentIntents": "all",
	"Query.profiles": "all", "Query.refunds": "all", "Query.routingAlgorithms": "all",
	"Query.paymentAnalytics": "all", "Query.connectorSuccessRateSeries": "all", "Query.refundAnalytics": "all",
	"Query.disputeAnalytics": "all",
	"Query.users":            "", "Query.auditLog": "",
	// Payments, disputes and customers: operators.
	"Mutation.createPayment": "OPERATOR", "Mutation.updatePayment": "OPERATOR", "Mutation.confirmPayment": "OPERATOR",
	"Mutation.capturePayment": "OPERATOR", "Mutation.cancelPayment": "OPERATOR", "Mutation.createRefund": "OPERATOR",
	"Mutation.acceptDispute": "OPERATOR", "Mutation.createCustomer": "OPERATOR", "Mutation.updateCustomer": "OPERATOR",
	"Mutation.deleteCustomer": "OPERATOR", "Mutation.deletePaymentMethod": "OPERATOR", "Mutation.setDefaultPaymentMethod": "OPERATOR",
	// Connectors, API keys, webhooks and routing: developers.
	"Mutation.createConnectorAccount": "DEVELOPER", "Mutation.updateConnectorAccount": "DEVELOPER",
	"Mutation.createApiKey": "DEVELOPER", "Mutation.revokeApiKey": "DEVELOPER",
	"Mutation.updateProfileWebhookSettings": "DEVELOPER", "Mutation.retryWebhookDelivery": "DEVELOPER",
	"Mutation.createRoutingAlgorithm": "DEVELOPER", "Mutation.activateRoutingAlgorithm": "DEVELOPER",
	"Mutation.deactivateRouting": "DEVELOPER",
	// People: admins; one's own session: everyone.
	"Mutation.inviteUser": "", "Mutation.updateUserRole": "", "Mutation.removeUser": "",
	"Mutation.signOut": "all", "Mutation.switchMerchant": "all",
	"Mutation.signUp": "public", "Mutation.signIn": "public", "Mutation.acceptInvitation": "public",
}

func allowedFor(rule, role string) bool {
	switch rule {
	case "all", "public":
		return true
	}
	return role == "ADMIN" || slices.Contains(strings.Split(rule, ","), role)
}

// TestRoleMatrix walks every root query and mutation with every role (and
// with an API key, and without credentials) and proves the matrix: a role
// the matrix refuses gets IR_22 for the field, every other caller gets
// past the check (to a result or to the field's own error).
func TestRoleMatrix(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	var fields []*ast.FieldDefinition
	var names []string
	for _, root := range []*ast.Definition{schema.Query, schema.Mutation} {
		for _, f := range root.Fields {
			if strings.HasPrefix(f.Name, "__") {
				continue
			}
			name := root.Name + "." + f.Name
			if _, ok := roleMatrix[name]; !ok {
				t.Errorf("%s is not in the role matrix: decide who may run it", name)
			}
			fields = append(fields, f)
			names = append(names, name)
		}
	}
	for name := range roleMatrix {
		if !slices.Contains(names, name) {
			t.Errorf("the role matrix names %s, which the schema does not have", name)
		}
	}
	// The schema says the same as the matrix.
	for i, f := range fields {
		rule := roleMatrix[names[i]]
		d := f.Directives.ForName("hasRole")
		switch {
		case rule == "public":
			if f.Directives.ForName("public") == nil {
				t.Errorf("%s: the matrix says public, the schema has no @public", names[i])
			}
		case strings.HasPrefix(names[i], "Mutation.") && d == nil:
			t.Errorf("%s: a mutation without @hasRole", names[i])
		case d != nil:
			var got []string
			for _, v := range d.Arguments.ForName("roles").Value.Children {
				got = append(got, v.Value.Raw)
			}
			sort.Strings(got)
			want := []string{}
			if rule == "all" {
				want = []string{"DEVELOPER", "OPERATOR", "VIEWER"}
			} else if rule != "" {
				want = strings.Split(rule, ",")
			}
			if strings.Join(got, ",") != strings.Join(want, ",") {
				t.Errorf("%s: the schema allows %v, the matrix %v", names[i], got, want)
			}
		}
	}
	if t.Failed() {
		return
	}

	srv := newUsersServer(t) // its anonymous signIn calls fail
	admin, apiKey := signUp(t, srv.URL, "admin@matrix.example", "Matrix")
	passwords := map[string]string{"ADMIN": "correct horse battery"}
	emails := map[string]string{"ADMIN": "admin@matrix.example"}
	for _, role := range []string{"DEVELOPER", "OPERATOR", "VIEWER"} {
		email := strings.ToLower(role) + "@matrix.example"
		var inv struct{ InviteUser struct{ Token string } }
		bearer(t, srv.URL, admin.Token).must(`mutation($e: String!, $r: Role!) { inviteUser(email: $e, role: $r) { token } }`,
			map[string]any{"e": email, "r": role}, &inv)
		newGQL(t, srv.URL, "").must(`mutation($t: String!) { acceptInvitation(token: $t, password: "a member's long secret") { token } }`,
			map[string]any{"t": inv.InviteUser.Token}, nil)
		emails[role], passwords[role] = email, "a member's long secret"
	}

	for i, f := range fields {
		op := "query"
		if strings.HasPrefix(names[i], "Mutation.") {
			op = "mutation"
		}
		doc := fmt.Sprintf("%s { %s%s%s }", op, f.Name, dummyArguments(schema, f.Arguments), dummySelection(schema, f.Type))
		for _, role := range []string{"ADMIN", "DEVELOPER", "OPERATOR", "VIEWER"} {
			// A fresh session each time: signOut and switchMerchant may end it.
			sess := signIn(t, srv.URL, emails[role], passwords[role])
			r := bearer(t, srv.URL, sess.Token).do(doc, nil)
			refused := r.code() == "IR_22" && strings.Contains(r.message(), "may not run")
			if want := !allowedFor(roleMatrix[names[i]], role); refused != want {
				t.Errorf("%s as %s: refused %v, want %v (%d %s)", names[i], role, refused, want, r.Status, r.Raw)
			}
		}
		if r := newGQL(t, srv.URL, apiKey).do(doc, nil); strings.Contains(r.message(), "may not run") {
			t.Errorf("%s with an API key: refused by role: %s", names[i], r.Raw)
		}
		r := newGQL(t, srv.URL, "").do(doc, nil)
		if public := roleMatrix[names[i]] == "public"; public == (r.Status == http.StatusUnauthorized && r.code() == "IR_01") {
			t.Errorf("%s without credentials: %d %s", names[i], r.Status, r.Raw)
		}
	}
}

// dummyArguments writes a value of the right type for each required
// argument (and a connection's page size): enough to pass GraphQL's
// validation and the limits, and reach the field.
func dummyArguments(schema *ast.Schema, args ast.ArgumentDefinitionList) string {
	var parts []string
	for _, a := range args {
		switch {
		case a.Type.NonNull:
			parts = append(parts, a.Name+": "+dummyValue(schema, a.Type))
		case a.Name == "first":
			parts = append(parts, "first: 1") // a connection's page, which the limits require
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func dummyValue(schema *ast.Schema, t *ast.Type) string {
	if t.Elem != nil {
		return "[]"
	}
	def := schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Enum:
		return def.EnumValues[0].Name
	case ast.InputObject:
		var parts []string
		for _, f := range def.Fields {
			if f.Type.NonNull {
				parts = append(parts, f.Name+": "+dummyValue(schema, f.Type))
			}
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch t.NamedType {
	case "Int", "Float":
		return "1"
	case "Boolean":
		return "false"
	case "Time":
		return `"2026-01-01T00:00:00Z"`
	case "Map":
		return "{}"
	}
	return `"matrix_unknown"`
}

func dummySelection(schema *ast.Schema, t *ast.Type) string {
	for t.Elem != nil {
		t = t.Elem
	}
	switch schema.Types[t.NamedType].Kind {
	case ast.Object, ast.Interface, ast.Union:
		return " { __typename }"
	}
	return ""
}
