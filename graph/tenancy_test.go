package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"switchyard/ent/paymentintent"
	"switchyard/internal/testenv"
)

// typedID is a node's GraphQL type and id.
type typedID struct{ typename, id string }

// nodesOf lists one row of every node type of w.
func nodesOf(w *world) []typedID {
	return []typedID{
		{"PaymentIntent", w.payments[0].ID},
		{"PaymentAttempt", w.attempts[0].ID},
		{"Capture", w.captures[0].ID},
		{"IncrementalAuthorization", w.incs[0].ID},
		{"Refund", w.refunds[0].ID},
		{"Dispute", w.disputes[0].ID},
		{"Mandate", w.mandates[0].ID},
		{"Customer", w.customers[0].ID},
		{"PaymentMethod", w.methods[0].ID},
		{"MerchantConnectorAccount", w.mcas[0].ID},
		{"Event", w.events[0].ID},
		{"EventDeliveryAttempt", w.deliveries[0].ID},
		{"Profile", w.profileID},
		{"APIKey", w.apiKeys[0].ID},
		{"MerchantAccount", w.merchantID},
	}
}

// TestNodeEveryType: node(id:) and nodes(ids:) resolve every type of the
// caller's, and are null for another merchant's ids and for unknown ones.
func TestNodeEveryType(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	a := seedWorld(t, srv, demoTenant(srv))
	b := seedWorld(t, srv, newTenant(t, srv, "merchant_node_b"))
	ca, cb := newGQL(t, srv.URL, a.key), newGQL(t, srv.URL, b.key)
	for _, n := range nodesOf(a) {
		t.Run(n.typename, func(t *testing.T) {
			ca, cb := ca.on(t), cb.on(t)
			q := `query($id: ID!) { node(id: $id) { __typename id } }`
			var own struct {
				Node *struct {
					Typename string `json:"__typename"`
					ID       string
				}
			}
			ca.must(q, map[string]any{"id": n.id}, &own)
			if own.Node == nil || own.Node.Typename != n.typename || own.Node.ID != n.id {
				t.Fatalf("own node: %+v, want %+v", own.Node, n)
			}
			var foreign struct{ Node *struct{ ID string } }
			cb.must(q, map[string]any{"id": n.id}, &foreign)
			if foreign.Node != nil {
				t.Fatalf("another merchant's %s is visible: %+v", n.typename, foreign.Node)
			}
		})
	}
	var ids []string
	for _, n := range nodesOf(a) {
		ids = append(ids, n.id)
	}
	ids = append(ids, b.payments[0].ID, "pay_unknown", "nothing_at_all")
	var out struct{ Nodes []*struct{ ID string } }
	ca.must(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids}, &out)
	for i, n := range out.Nodes {
		own := i < len(nodesOf(a))
		if (n != nil) != own || (own && n.ID != ids[i]) {
			t.Fatalf("nodes[%d] (%s): %+v", i, ids[i], n)
		}
	}
	// Node resolves nested fields too, through the same collection.
	var nested struct {
		Node struct {
			PaymentID string
			Attempts  []struct{ ID string }
			Captures  []struct{ Amount int }
			Refunds   struct{ TotalCount int }
			Disputes  []struct{ ID string }
			Customer  struct{ CustomerID string }
		}
	}
	ca.must(fmt.Sprintf(`{ node(id: %q) { ... on PaymentIntent { paymentID attempts { id } captures { amount }
		refunds(first: 1) { totalCount } disputes { id } customer { customerID } } } }`, a.payments[0].ID), nil, &nested)
	if n := nested.Node; n.PaymentID != a.payments[0].PaymentID || len(n.Attempts) != 1 || len(n.Captures) != 2 ||
		n.Refunds.TotalCount != 3 || len(n.Disputes) != 1 || n.Customer.CustomerID != a.customers[0].CustomerID {
		t.Fatalf("nested fields of a payment node: %+v", n)
	}
}

// TestTwoMerchants: with merchant B's key, every query, node, connection
// and mutation given merchant A's ids finds nothing (null, an empty page or
// HE_02), A's cursors are refused, and A's data is left as it was.
func TestTwoMerchants(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	a := seedWorld(t, srv, demoTenant(srv))
	b := seedWorld(t, srv, newTenant(t, srv, "merchant_matrix_b"))
	ca, cb := newGQL(t, srv.URL, a.key), newGQL(t, srv.URL, b.key)
	adminB := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", b.merchantID)

	t.Run("lookups", func(t *testing.T) {
		cb := cb.on(t)
		var out map[string]any
		cb.must(fmt.Sprintf(`{ payment(id: %q) { id } refund(id: %q) { id } event(id: %q) { id }
			merchantAccount { id } viewer { merchantID } }`,
			a.payments[0].PaymentID, a.refunds[0].RefundID, a.events[0].ID), nil, &out)
		if out["payment"] != nil || out["refund"] != nil || out["event"] != nil {
			t.Fatalf("A's objects through B's lookups: %v", out)
		}
		if at(out, "merchantAccount", "id") != b.merchantID || at(out, "viewer", "merchantID") != b.merchantID {
			t.Fatalf("B's merchant: %v", out)
		}
	})
	t.Run("nodes", func(t *testing.T) {
		cb := cb.on(t)
		var ids []string
		for _, n := range nodesOf(a) {
			ids = append(ids, n.id)
		}
		var out struct{ Nodes []*struct{ ID string } }
		cb.must(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, map[string]any{"ids": ids}, &out)
		for i, n := range out.Nodes {
			if n != nil {
				t.Fatalf("B sees A's %s", ids[i])
			}
		}
	})
	t.Run("connections", func(t *testing.T) {
		cb := cb.on(t)
		aIDs := map[string]bool{}
		for _, n := range nodesOf(a) {
			aIDs[n.id] = true
		}
		for _, p := range a.payments {
			aIDs[p.ID] = true
		}
		for _, conn := range []string{"paymentIntents", "payments", "refunds", "disputes", "mandates", "customers", "events",
			"connectorAccounts", "profiles", "merchantAccounts"} {
			var data map[string]any
			cb.must(`{ `+conn+`(first: 100) { totalCount edges { node { id } } } }`, nil, &data)
			for _, e := range at(data, conn, "edges").([]any) {
				if id := str(at(e, "node", "id")); aIDs[id] {
					t.Fatalf("%s: B sees A's %s", conn, id)
				}
			}
			// Filtering on A's ids does not reach them either.
			cb.must(fmt.Sprintf(`{ %s(first: 100, where: {idIn: [%q, %q]}) { totalCount } }`, conn, a.payments[0].ID, a.refunds[0].ID), nil, &data)
			if n := at(data, conn, "totalCount").(float64); n != 0 {
				t.Fatalf("%s filtered on A's ids: %v", conn, n)
			}
		}
		var data map[string]any
		cb.must(fmt.Sprintf(`{ payments(first: 10, where: {hasCustomerWith: {id: %q}}) { totalCount } }`, a.customers[0].ID), nil, &data)
		if at(data, "payments", "totalCount").(float64) != 0 {
			t.Fatalf("B's payments of A's customer: %v", data)
		}
	})
	t.Run("cursors", func(t *testing.T) {
		ca, cb := ca.on(t), cb.on(t)
		var data map[string]any
		ca.must(`{ payments(first: 2) { edges { cursor } pageInfo { endCursor } } }`, nil, &data)
		cur := str(at(data, "payments", "pageInfo", "endCursor"))
		e := cb.fails("IR_06", fmt.Sprintf(`{ payments(first: 2, after: %q) { totalCount } }`, cur), nil)
		if !strings.Contains(e.Message, "another merchant") {
			t.Fatalf("A's cursor with B's key: %+v", e)
		}
	})
	t.Run("mutations", func(t *testing.T) {
		ca, cb, adminB := ca.on(t), cb.on(t), adminB.on(t)
		pa := a.payments[1].PaymentID // requires_capture
		for _, m := range []struct{ name, query string }{
			{"updatePayment", fmt.Sprintf(`mutation { updatePayment(id: %q, input: {description: "x"}) { payment { id } } }`, pa)},
			{"confirmPayment", fmt.Sprintf(`mutation { confirmPayment(id: %q) { payment { id } } }`, a.payments[3].PaymentID)},
			{"capturePayment", fmt.Sprintf(`mutation { capturePayment(id: %q) { payment { id } } }`, pa)},
			{"cancelPayment", fmt.Sprintf(`mutation { cancelPayment(id: %q) { payment { id } } }`, pa)},
			{"createRefund", fmt.Sprintf(`mutation { createRefund(input: {paymentID: %q, amount: 100}) { refund { id } } }`, a.payments[0].PaymentID)},
			{"createPayment in A's profile", fmt.Sprintf(`mutation { createPayment(input: {amount: 100, currency: "USD", profileID: %q}) { payment { id } } }`, a.profileID)},
			{"createConnectorAccount in A's profile", fmt.Sprintf(`mutation { createConnectorAccount(input: {connectorType: "payment_processor",
				connectorName: "stripe_test", profileID: %q, connectorAccountDetails: {auth_type: "HeaderKey", api_key: "sk_x"}}) { connectorAccount { id } } }`, a.profileID)},
			{"updateConnectorAccount", fmt.Sprintf(`mutation { updateConnectorAccount(id: %q, input: {connectorType: "payment_processor", disabled: true}) { connectorAccount { id } } }`, a.mcas[0].ID)},
			{"updateProfileWebhookSettings", fmt.Sprintf(`mutation { updateProfileWebhookSettings(profileID: %q, input: {deliveryEnabled: false}) { profile { id } } }`, a.profileID)},
			{"retryWebhookDelivery", fmt.Sprintf(`mutation { retryWebhookDelivery(eventID: %q) { deliveryAttempt { id } } }`, a.events[0].ID)},
		} {
			t.Run(m.name, func(t *testing.T) { cb.on(t).fails("HE_02", m.query, nil) })
		}
		t.Run("acceptDispute", func(t *testing.T) { // Hyperswitch's DisputeNotFound is HE_04
			cb.on(t).fails("HE_04", fmt.Sprintf(`mutation { acceptDispute(id: %q) { dispute { id } } }`, a.disputes[0].ID), nil)
		})
		t.Run("revokeApiKey", func(t *testing.T) {
			adminB.on(t).fails("HE_02", fmt.Sprintf(`mutation { revokeApiKey(id: %q) { apiKey { id } } }`, a.apiKeys[0].ID), nil)
		})
		// A's rows are as they were.
		pi, err := srv.Store.Client.PaymentIntent.Query().Where(paymentintent.PaymentID(pa)).Only(merchantCtx(a.merchantID))
		if err != nil || pi.Status != paymentintent.StatusRequiresCapture || pi.Description != nil {
			t.Fatalf("A's payment changed: %+v %v", pi, err)
		}
		n, err := srv.Store.Client.Refund.Query().Count(merchantCtx(a.merchantID))
		if err != nil || n != len(a.refunds) {
			t.Fatalf("A has %d refunds (%v), want %d", n, err, len(a.refunds))
		}
		var keyOut struct{ Viewer struct{ MerchantID string } }
		ca.must(`{ viewer { merchantID } }`, nil, &keyOut)
		mca, err := srv.Store.Client.MerchantConnectorAccount.Get(merchantCtx(a.merchantID), a.mcas[0].ID)
		if err != nil || mca.Disabled {
			t.Fatalf("A's connector account changed: %+v %v", mca, err)
		}
	})
}

// TestProfileNarrowing: X-Profile-Id narrows every read to that profile's
// rows; the merchant's other rows are not found, as on REST.
func TestProfileNarrowing(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	w := seedWorld(t, srv, demoTenant(srv))
	c := newGQL(t, srv.URL, w.key).with("X-Profile-Id", w.otherProfileID)
	var out struct {
		Viewer   struct{ ProfileID string }
		Payments struct {
			Edges []struct{ Node struct{ ID string } }
		}
		Refunds  struct{ TotalCount int }
		Profiles struct {
			Edges []struct{ Node struct{ ID string } }
		}
		MerchantAccount struct{ Profiles struct{ TotalCount int } }
		Other           *struct{ ID string }
	}
	c.must(fmt.Sprintf(`{ viewer { profileID } payments(first: 20) { edges { node { id } } } refunds(first: 5) { totalCount }
		profiles(first: 5) { edges { node { id } } } merchantAccount { profiles(first: 5) { totalCount } }
		other: node(id: %q) { id } }`, w.payments[0].ID), nil, &out)
	var got []string
	for _, e := range out.Payments.Edges {
		got = append(got, e.Node.ID)
	}
	if out.Viewer.ProfileID != w.otherProfileID || !slices.Equal(got, []string{w.payments[6].ID}) || out.Refunds.TotalCount != 0 ||
		len(out.Profiles.Edges) != 1 || out.Profiles.Edges[0].Node.ID != w.otherProfileID ||
		out.MerchantAccount.Profiles.TotalCount != 1 || out.Other != nil {
		t.Fatalf("narrowed to %s: %+v", w.otherProfileID, out)
	}
	// A refund of another profile's payment is refused like a foreign one.
	c.fails("HE_02", fmt.Sprintf(`mutation { createRefund(input: {paymentID: %q}) { refund { id } } }`, w.payments[0].PaymentID), nil)
}
