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

// access is who may run a root field. roles: "all" (every role),
// "public" (without credentials too), or the roles besides ADMIN ("" for
// admins only). keys: which API keys may, "any" (a merchant's secret key
// and the admin key), "admin" (the admin key with X-Merchant-Id, not a
// secret key), "bootstrap" (the admin key, for a merchant's first admin
// only) or "none" (a user's session only).
type access struct{ roles, keys string }

// roleMatrix must name every root field of the schema, so that no field is
// added without deciding who may run it.
var roleMatrix = map[string]access{
	// Reads: every role and key, except the merchant's people and its
	// audit log, which are not a secret key's business.
	"Query.node": {"all", "any"}, "Query.nodes": {"all", "any"}, "Query.viewer": {"all", "any"},
	"Query.merchantAccount": {"all", "any"}, "Query.payment": {"all", "any"}, "Query.refund": {"all", "any"},
	"Query.event": {"all", "any"}, "Query.payments": {"all", "any"}, "Query.connectorSuccessRates": {"all", "any"},
	"Query.routingEvaluate": {"all", "any"}, "Query.me": {"all", "any"}, "Query.customers": {"all", "any"},
	"Query.disputes": {"all", "any"}, "Query.events": {"all", "any"}, "Query.mandates": {"all", "any"},
	"Query.merchantAccounts": {"all", "any"}, "Query.connectorAccounts": {"all", "any"},
	"Query.paymentIntents": {"all", "any"}, "Query.profiles": {"all", "any"}, "Query.refunds": {"all", "any"},
	"Query.routingAlgorithms": {"all", "any"}, "Query.paymentAnalytics": {"all", "any"},
	"Query.connectorSuccessRateSeries": {"all", "any"}, "Query.refundAnalytics": {"all", "any"},
	"Query.disputeAnalytics": {"all", "any"}, "Query.gsmRules": {"all", "any"}, "Query.blocklistEntries": {"all", "any"}, "Query.routingFacts": {"all", "any"},
	"Query.payouts": {"all", "any"}, "Query.payout": {"all", "any"},
	"Query.subscriptions": {"all", "any"}, "Query.invoices": {"all", "any"}, "Query.subscriptionItems": {"all", "any"},
	"Query.coupons": {"all", "any"}, "Query.testClocks": {"all", "any"}, "Query.subscription": {"all", "any"},
	"Query.testClock": {"all", "any"},
	"Query.users":     {"", "admin"}, "Query.auditLog": {"", "admin"},
	// An invitation link's page, before anyone has signed in.
	"Query.invitation": {"public", "any"},
	// Payments, payouts, disputes and customers: operators.
	"Mutation.createPayment": {"OPERATOR", "any"}, "Mutation.updatePayment": {"OPERATOR", "any"},
	"Mutation.confirmPayment": {"OPERATOR", "any"}, "Mutation.capturePayment": {"OPERATOR", "any"},
	"Mutation.cancelPayment": {"OPERATOR", "any"}, "Mutation.createRefund": {"OPERATOR", "any"},
	"Mutation.acceptDispute": {"OPERATOR", "any"}, "Mutation.submitDisputeEvidence": {"OPERATOR", "any"},
	"Mutation.attachDisputeEvidence": {"OPERATOR", "any"}, "Mutation.createCustomer": {"OPERATOR", "any"},
	"Mutation.updateCustomer": {"OPERATOR", "any"}, "Mutation.deleteCustomer": {"OPERATOR", "any"},
	"Mutation.deletePaymentMethod": {"OPERATOR", "any"}, "Mutation.setDefaultPaymentMethod": {"OPERATOR", "any"},
	"Mutation.createPayout": {"OPERATOR", "any"}, "Mutation.confirmPayout": {"OPERATOR", "any"},
	"Mutation.fulfillPayout": {"OPERATOR", "any"}, "Mutation.cancelPayout": {"OPERATOR", "any"},
	"Mutation.createSubscriptionItem": {"OPERATOR", "any"}, "Mutation.createItemPrice": {"OPERATOR", "any"},
	"Mutation.createCoupon": {"OPERATOR", "any"}, "Mutation.pauseSubscription": {"OPERATOR", "any"},
	"Mutation.resumeSubscription": {"OPERATOR", "any"}, "Mutation.cancelSubscription": {"OPERATOR", "any"},
	"Mutation.changeSubscriptionPlan": {"OPERATOR", "any"}, "Mutation.createTestClock": {"OPERATOR", "any"},
	"Mutation.advanceTestClock": {"OPERATOR", "any"},
	// Connectors, webhooks and routing: developers; API keys too, but a
	// secret key does not make, end or roll keys.
	"Mutation.createConnectorAccount": {"DEVELOPER", "any"}, "Mutation.updateConnectorAccount": {"DEVELOPER", "any"},
	"Mutation.createApiKey": {"DEVELOPER", "admin"}, "Mutation.revokeApiKey": {"DEVELOPER", "admin"},
	"Mutation.rollApiKey": {"DEVELOPER", "admin"},
	// Profiles: admins, and a secret key as on REST.
	"Mutation.createProfile":                {"", "any"},
	"Mutation.updateProfileWebhookSettings": {"DEVELOPER", "any"}, "Mutation.retryWebhookDelivery": {"DEVELOPER", "any"},
	"Mutation.retryFailedWebhookDeliveries": {"DEVELOPER", "any"},
	"Mutation.createRoutingAlgorithm":       {"DEVELOPER", "any"}, "Mutation.activateRoutingAlgorithm": {"DEVELOPER", "any"},
	"Mutation.deactivateRouting": {"DEVELOPER", "any"},
	// GSM rules, which decide retries: developers, as routing.
	"Mutation.createGsmRule": {"DEVELOPER", "any"}, "Mutation.updateGsmRule": {"DEVELOPER", "any"},
	"Mutation.deleteGsmRule": {"DEVELOPER", "any"},
	// The blocklist, which refuses payments: operators, as payments.
	"Mutation.addBlocklistEntry": {"OPERATOR", "any"}, "Mutation.removeBlocklistEntry": {"OPERATOR", "any"},
	"Mutation.setBlocklistGuard": {"OPERATOR", "any"},
	// Exports: whoever may read payments.
	"Mutation.createPaymentExport": {"DEVELOPER,OPERATOR,VIEWER", "any"},
	// People: admins' sessions (the admin key invites a merchant's first
	// admin); one's own session: everyone's, and no key's.
	"Mutation.inviteUser": {"", "bootstrap"}, "Mutation.updateUserRole": {"", "none"}, "Mutation.removeUser": {"", "none"},
	"Mutation.signOut": {"all", "none"}, "Mutation.switchMerchant": {"all", "none"},
	// The merchant's settings: admins, and the admin key.
	"Mutation.updateMerchantTimeZone": {"", "admin"},
	"Mutation.signUp":                 {"public", "any"}, "Mutation.signIn": {"public", "any"}, "Mutation.acceptInvitation": {"public", "any"},
}

// keysOnSchema is the schema's KeyAccess value for each column of keys.
var keysOnSchema = map[string]string{"any": "ANY", "admin": "ADMIN_KEY", "bootstrap": "BOOTSTRAP", "none": "NONE"}

func allowedFor(rule, role string) bool {
	switch rule {
	case "all", "public":
		return true
	}
	return role == "ADMIN" || slices.Contains(strings.Split(rule, ","), role)
}

// TestRoleMatrix walks every root query and mutation with every role, with
// a merchant's secret key, with the admin key and without credentials, and
// proves the matrix: a role or key the matrix refuses gets IR_22 for the
// field, every other caller gets past the check (to a result or to the
// field's own error).
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
		rule, keys := roleMatrix[names[i]].roles, roleMatrix[names[i]].keys
		d := f.Directives.ForName("hasRole")
		onSchema := "ANY" // the directive's default, and a field's without it
		if d != nil && d.Arguments.ForName("keys") != nil {
			onSchema = d.Arguments.ForName("keys").Value.Raw
		}
		if want, ok := keysOnSchema[keys]; !ok || onSchema != want {
			t.Errorf("%s: the schema lets keys %s, the matrix %q", names[i], onSchema, keys)
		}
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
	adminKey := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", admin.MerchantID)
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
			if want := !allowedFor(roleMatrix[names[i]].roles, role); refused != want {
				t.Errorf("%s as %s: refused %v, want %v (%d %s)", names[i], role, refused, want, r.Status, r.Raw)
			}
		}
		keys := roleMatrix[names[i]].keys
		for _, k := range []struct {
			name    string
			c       gql
			refused bool
		}{
			{"a merchant's secret key", newGQL(t, srv.URL, apiKey), keys != "any"},
			{"the admin key", adminKey, keys == "none"},
		} {
			r := k.c.do(doc, nil)
			refused := r.code() == "IR_22" && strings.Contains(r.message(), "may not run")
			if refused != k.refused {
				t.Errorf("%s with %s: refused %v, want %v (%d %s)", names[i], k.name, refused, k.refused, r.Status, r.Raw)
			}
		}
		r := newGQL(t, srv.URL, "").do(doc, nil)
		if public := roleMatrix[names[i]].roles == "public"; public == (r.Status == http.StatusUnauthorized && r.code() == "IR_01") {
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
