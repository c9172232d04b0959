package graph_test

import (
	"strings"
	"testing"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/incrementalauthorization"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// seedEventsAndIncrements gives each payment an event with two delivery
// attempts and an incremental authorization.
func seedEventsAndIncrements(t *testing.T, srv *testenv.Server, tn tenant, paymentIDs []string) {
	t.Helper()
	ctx := merchantCtx(tn.merchantID)
	c := srv.Store.Client
	var (
		events     []*ent.EventCreate
		deliveries []*ent.EventDeliveryAttemptCreate
		increments []*ent.IncrementalAuthorizationCreate
	)
	for _, id := range paymentIDs {
		evt, first := ids.New(ids.Event), ids.New(ids.DeliveryAttempt)
		events = append(events, c.Event.Create().SetID(evt).SetProfileID(tn.profileID).SetObjectID(id).SetPaymentIntentID(id).
			SetEventType(event.EventTypePaymentSucceeded).SetEventClass(event.EventClassPayments).
			SetIdempotentEventID(id+"_succeeded").SetContent(`{}`).SetIsDelivered(true))
		for i, kind := range []eventdeliveryattempt.DeliveryAttempt{eventdeliveryattempt.DeliveryAttemptInitialAttempt, eventdeliveryattempt.DeliveryAttemptAutomaticRetry} {
			da := first
			if i > 0 {
				da = ids.New(ids.DeliveryAttempt)
			}
			deliveries = append(deliveries, c.EventDeliveryAttempt.Create().SetID(da).SetEventID(evt).SetDeliveryAttempt(kind).
				SetInitialAttemptID(first).SetRequest(&schematype.DeliveryRequest{Body: `{}`}).SetIsDeliverySuccessful(i == 1))
		}
		increments = append(increments, c.IncrementalAuthorization.Create().SetID(ids.New(ids.IncrementalAuthorization)).
			SetPaymentIntentID(id).SetAttemptID("att_seeded").SetAmount(12000).SetPreviouslyAuthorizedAmount(10000).
			SetStatus(incrementalauthorization.StatusSuccess))
	}
	for _, err := range []error{c.Event.CreateBulk(events...).Exec(ctx), c.EventDeliveryAttempt.CreateBulk(deliveries...).Exec(ctx),
		c.IncrementalAuthorization.CreateBulk(increments...).Exec(ctx)} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestNestedPathsStatements: every nested path the dashboard can walk costs
// the same number of statements for a page of 1 payment as for 50 (no
// query per row), at any depth: payment → attempts/captures/refunds/
// disputes → their payment, events → delivery attempts, refunds → payment
// → customer, and so on.
func TestNestedPathsStatements(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	seedEventsAndIncrements(t, srv, tn, seedNested(t, srv, tn, 60))
	newGQL(t, srv.URL, tn.key).must(`{ viewer { merchantID } }`, nil, nil) // the key is cached from here on

	for _, tc := range []struct{ name, query string }{
		{"attempts → payment", `query($n: Int!) { payments(first: $n) { edges { node { attempts { id payment { id status } } } } } }`},
		{"captures → payment", `query($n: Int!) { payments(first: $n) { edges { node { captures { id payment { id } } } } } }`},
		{"disputes → payment", `query($n: Int!) { payments(first: $n) { edges { node { disputes { id payment { id } } } } } }`},
		{"refunds → payment → customer", `query($n: Int!) { payments(first: $n) { edges { node { refunds(first: 3) { edges { node { id payment { id customer { id } } } } } } } } }`},
		{"customer → connector account", `query($n: Int!) { payments(first: $n) { edges { node { customer { id } connectorAccount { id profile { id } } } } } }`},
		{"events → delivery attempts", `query($n: Int!) { payments(first: $n) { edges { node { events(first: 3) { edges { node { id deliveryAttempts(first: 3) { totalCount edges { node { id } } } } } } } } } }`},
		{"incremental authorizations", `query($n: Int!) { payments(first: $n) { edges { node { incrementalAuthorizations { id payment { id } } } } } }`},
		{"refunds page → payment → attempts", `query($n: Int!) { refunds(first: $n) { edges { node { id payment { id attempts { id } captures { id } } } } } }`},
		{"disputes page → payment", `query($n: Int!) { disputes(first: $n) { edges { node { id payment { id refunds(first: 2) { totalCount } } } } } }`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cost := func(n int) []string {
				r, stmts := postCounted(t, srv, counter, tn.key, tc.query, map[string]any{"n": n})
				if len(r.Errors) > 0 {
					t.Fatalf("%s", r.Raw)
				}
				return stmts
			}
			one, fifty := cost(1), cost(50)
			if len(one) == 0 {
				t.Fatal("no statement counted")
			}
			if len(one) != len(fifty) {
				t.Errorf("first: 1 costs %d statements, first: 50 costs %d:\n%s", len(one), len(fifty), strings.Join(fifty, "\n"))
			}
			t.Logf("%d statements", len(one))
		})
	}
}

// TestConnectorAccountFieldsLoadApart: two connectorAccount fields of one
// query with different selections each get the columns they ask for (the
// batch is per field, so the narrow one cannot hide the wide one's).
func TestConnectorAccountFieldsLoadApart(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	seedNested(t, srv, tn, 3)
	var data struct {
		Payments struct {
			Edges []struct {
				Node struct {
					Narrow struct{ ID string }
					Wide   struct{ ID, ConnectorLabel, ConnectorName string }
				}
			}
		}
	}
	newGQL(t, srv.URL, tn.key).must(`{ payments(first: 3) { edges { node {
		narrow: connectorAccount { id }
		wide: connectorAccount { id connectorLabel connectorName } } } } }`, nil, &data)
	if len(data.Payments.Edges) != 3 {
		t.Fatalf("%d payments", len(data.Payments.Edges))
	}
	for _, e := range data.Payments.Edges {
		n := e.Node
		if n.Narrow.ID == "" || n.Wide.ID != n.Narrow.ID || n.Wide.ConnectorLabel == "" || n.Wide.ConnectorName != "stripe_test" {
			t.Fatalf("connector accounts: %+v", n)
		}
	}
}
