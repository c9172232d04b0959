package graph_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/testenv"
)

// seededPayouts are one merchant's payouts written straight through ent,
// oldest first, a minute apart: what the reads are checked against.
type seededPayouts struct {
	payouts  []*ent.Payout
	attempts []*ent.PayoutAttempt // the first payout's two, oldest first
	events   []*ent.Event         // the first payout's two, oldest first
}

// seedPayouts writes four payouts (success USD at stripe_test, failed EUR
// at adyen_test, pending USD at stripe_test, cancelled GBP without a
// connector); the first has two attempts and two events.
func seedPayouts(t *testing.T, srv *testenv.Server, tn tenant) seededPayouts {
	t.Helper()
	ctx, c := merchantCtx(tn.merchantID), srv.Store.Client
	clock := time.Now().UTC().Add(-2 * time.Hour).Truncate(time.Second)
	next := func() time.Time { clock = clock.Add(time.Minute); return clock }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	var s seededPayouts
	for i, spec := range []struct{ status, currency, connector string }{
		{"success", "USD", "stripe_test"}, {"failed", "EUR", "adyen_test"}, {"pending", "USD", "stripe_test"},
		{"cancelled", "GBP", ""},
	} {
		at := next()
		pc := c.Payout.Create().SetProfileID(tn.profileID).SetAmount(int64(1000 * (i + 1))).
			SetCurrency(schematype.Currency(spec.currency)).SetStatus(payout.Status(spec.status)).
			SetPayoutType(payout.PayoutTypeCard).SetClientSecret(fmt.Sprintf("secret_%d", i)).
			SetCustomerID(fmt.Sprintf("cus_payout_%d", i)).SetCreatedAt(at).SetModifiedAt(at)
		if spec.connector != "" {
			pc.SetConnector(spec.connector)
		}
		po, err := pc.Save(ctx)
		must(err)
		s.payouts = append(s.payouts, po)
	}
	first := s.payouts[0]
	for _, status := range []string{"failed", "success"} {
		at := next()
		a, err := c.PayoutAttempt.Create().SetPayoutID(first.ID).SetProfileID(tn.profileID).
			SetStatus(payoutattempt.Status(status)).SetAmount(first.Amount).SetCurrency(first.Currency).
			SetConnector("stripe_test").SetMerchantConnectorID("mca_seed").SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		s.attempts = append(s.attempts, a)
	}
	for i, et := range []string{"payout_initiated", "payout_success"} {
		at := next()
		ev, err := c.Event.Create().SetProfileID(tn.profileID).SetObjectID(first.ID).SetEventType(eventType(et)).
			SetEventClass(eventClass("payouts")).SetIdempotentEventID(fmt.Sprintf("%s_%d", first.ID, i)).
			SetContent("{}").SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		s.events = append(s.events, ev)
	}
	return s
}

type payoutsPage struct {
	Payouts struct {
		TotalCount int
		Edges      []struct {
			Node struct{ ID, Status, Currency string }
		}
	}
}

func (p payoutsPage) ids() []string {
	var out []string
	for _, e := range p.Payouts.Edges {
		out = append(out, e.Node.ID)
	}
	return out
}

// TestPayoutsConnection: payouts are newest first by default, in the
// order asked for otherwise, filtered by status, currency, connector and
// creation time; payout(id) has its attempts and events nested; another
// merchant sees none of them.
func TestPayoutsConnection(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	s := seedPayouts(t, srv, tn)
	c := newGQL(t, srv.URL, tn.key)
	id := func(is ...int) []string {
		out := make([]string, len(is))
		for k, i := range is {
			out[k] = s.payouts[i].ID
		}
		return out
	}
	since := s.payouts[1].CreatedAt.Format(time.RFC3339)
	byStatus := func(order ...payout.OrderOption) []string {
		ids, err := srv.Store.Client.Payout.Query().Order(order...).IDs(merchantCtx(tn.merchantID))
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, tc := range []struct {
		name, args string
		want       []string
	}{
		{"newest first", ``, id(3, 2, 1, 0)},
		{"by amount", `orderBy: [{field: AMOUNT, direction: ASC}]`, id(0, 1, 2, 3)},
		// A status sorts as the database sorts it: by its place in the
		// ENUM on MariaDB, by its name on SQLite.
		{"by status", `orderBy: [{field: STATUS, direction: DESC}]`, byStatus(ent.Desc(payout.FieldStatus))},
		{"by status, then oldest", `orderBy: [{field: STATUS, direction: ASC}, {field: CREATED_AT, direction: ASC}]`,
			byStatus(ent.Asc(payout.FieldStatus), ent.Asc(payout.FieldCreatedAt))},
		{"status", `where: {statusIn: [success, failed]}`, id(1, 0)},
		{"currency", `where: {currency: USD}`, id(2, 0)},
		{"connector", `where: {connector: "stripe_test"}`, id(2, 0)},
		{"created since", fmt.Sprintf(`where: {createdAtGTE: %q}`, since), id(3, 2, 1)},
		{"paged", `first: 2`, id(3, 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.name != "paged" {
				args = "first: 10, " + args
			}
			var out payoutsPage
			c.on(t).must(fmt.Sprintf(`{ payouts(%s) { totalCount edges { node { id status currency } } } }`, args), nil, &out)
			if got := out.ids(); !slices.Equal(got, tc.want) {
				t.Fatalf("ids %v, want %v", got, tc.want)
			}
		})
	}

	var one struct {
		Payout struct {
			PayoutID, DisplayAmount string
			Attempts                struct {
				TotalCount int
				Edges      []struct {
					Node struct{ PayoutAttemptID, Status, DisplayAmount string }
				}
			}
			Events struct {
				Edges []struct {
					Node struct{ EventID, EventType string }
				}
			}
		}
	}
	c.must(`query($id: ID!) { payout(id: $id) { payoutID displayAmount
		attempts(first: 5) { totalCount edges { node { payoutAttemptID status displayAmount } } }
		events(first: 5) { edges { node { eventID eventType } } } } }`, map[string]any{"id": s.payouts[0].ID}, &one)
	p := one.Payout
	if p.PayoutID != s.payouts[0].ID || p.DisplayAmount != "USD 10.00" {
		t.Fatalf("payout: %+v", p)
	}
	if a := p.Attempts; a.TotalCount != 2 || a.Edges[0].Node.PayoutAttemptID != s.attempts[1].ID ||
		a.Edges[0].Node.Status != "success" || a.Edges[1].Node.PayoutAttemptID != s.attempts[0].ID {
		t.Fatalf("attempts (newest first): %+v", a)
	}
	if e := p.Events.Edges; len(e) != 2 || e[0].Node.EventID != s.events[1].ID || e[0].Node.EventType != "payout_success" {
		t.Fatalf("events (newest first): %+v", e)
	}
	var node struct {
		Node struct {
			Typename string `json:"__typename"`
		}
	}
	c.must(`query($id: ID!) { node(id: $id) { __typename } }`, map[string]any{"id": s.attempts[0].ID}, &node)
	if node.Node.Typename != "PayoutAttempt" {
		t.Fatalf("node of an attempt: %+v", node)
	}

	// Another merchant: an empty connection, a null lookup and node.
	other := newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_payouts_other").key)
	var theirs payoutsPage
	other.must(`{ payouts(first: 10) { totalCount edges { node { id status currency } } } }`, nil, &theirs)
	if theirs.Payouts.TotalCount != 0 {
		t.Fatalf("another merchant sees payouts: %+v", theirs)
	}
	var foreign struct {
		Payout *struct{ ID string }
		Node   *struct{ ID string }
	}
	other.must(`query($id: ID!) { payout(id: $id) { id } node(id: $id) { id } }`, map[string]any{"id": s.payouts[0].ID}, &foreign)
	if foreign.Payout != nil || foreign.Node != nil {
		t.Fatalf("another merchant's payout is visible: %+v", foreign)
	}
}
