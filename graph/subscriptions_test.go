package graph_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/ent/itemprice"
	"switchyard/ent/schema/schematype"
	"switchyard/ent/subscriptionitem"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// seededBilling is one merchant's catalogue, subscriptions and invoices,
// written straight through ent a minute apart (oldest first): what the
// reads are checked against.
type seededBilling struct {
	items         []*ent.SubscriptionItem // a plan, then an addon
	prices        []*ent.ItemPrice        // the plan's two, oldest first
	coupons       []*ent.Coupon
	clock         *ent.TestClock
	customer      *ent.Customer
	payment       *ent.PaymentIntent // what charged invoices[0]
	subscriptions []*ent.BillingSubscription
	invoices      []*ent.Invoice // subscriptions[0]'s two, then subscriptions[1]'s
}

// seedBilling writes a plan with two prices and an addon, two coupons, a
// test clock, a customer and three subscriptions (active on the clock,
// paused, cancelled), the first with two invoices (paid by a payment, then
// due), the second with one.
func seedBilling(t *testing.T, srv *testenv.Server, tn tenant) seededBilling {
	t.Helper()
	ctx, c := merchantCtx(tn.merchantID), srv.Store.Client
	clock := time.Now().UTC().Add(-3 * time.Hour).Truncate(time.Second)
	next := func() time.Time { clock = clock.Add(time.Minute); return clock }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	usd := schematype.Currency("USD")
	var s seededBilling
	for _, kind := range []string{"plan", "addon"} {
		at := next()
		it, err := c.SubscriptionItem.Create().SetItemType(subscriptionitem.ItemType(kind)).SetName(kind + " " + tn.merchantID).
			SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		s.items = append(s.items, it)
	}
	for i, amount := range []int64{900, 9000} {
		at := next()
		interval := []string{"Month", "Year"}[i]
		p, err := c.ItemPrice.Create().SetItemID(s.items[0].ID).SetAmount(amount).SetCurrency(usd).
			SetInterval(itemprice.Interval(interval)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
		must(err)
		s.prices = append(s.prices, p)
	}
	for i, code := range []string{"WELCOME25", "TENOFF"} {
		at := next()
		cc := c.Coupon.Create().SetCode(code).SetCreatedAt(at).SetModifiedAt(at)
		if i == 0 {
			cc.SetDiscountType("percentage").SetPercentOffBps(2500)
		} else {
			cc.SetDiscountType("fixed_amount").SetAmountOff(1000).SetCurrency(usd).SetDuration("forever")
		}
		cp, err := cc.Save(ctx)
		must(err)
		s.coupons = append(s.coupons, cp)
	}
	at := next()
	tc, err := c.TestClock.Create().SetName("a year").SetFrozenTime(at).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	s.clock = tc
	at = next()
	s.customer, err = c.Customer.Create().SetCustomerID("cust_sub_" + tn.merchantID).SetName("Ada").
		SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	at = next()
	payID := ids.New(ids.Payment)
	s.payment, err = c.PaymentIntent.Create().SetID(payID).SetPaymentID(payID).SetProfileID(tn.profileID).
		SetAmount(900).SetCurrency(usd).SetStatus("succeeded").SetClientSecret(ids.ClientSecret(payID)).
		SetExpiresOn(at.Add(15 * time.Minute)).SetCreatedAt(at).SetModifiedAt(at).Save(ctx)
	must(err)
	for i, status := range []string{"active", "paused", "cancelled"} {
		at := next()
		sc := c.BillingSubscription.Create().SetProfileID(tn.profileID).SetCustomerID(s.customer.CustomerID).
			SetStatus(billingsubscription.Status(status)).SetPlanID(s.items[0].ID).SetItemPriceID(s.prices[i%2].ID).
			SetClientSecret(fmt.Sprintf("sub_secret_%d", i)).SetCreatedAt(at).SetModifiedAt(at)
		if i == 0 {
			sc.SetTestClockID(tc.ID).SetCouponCode("WELCOME25")
		}
		sub, err := sc.Save(ctx)
		must(err)
		s.subscriptions = append(s.subscriptions, sub)
	}
	for i, spec := range []struct {
		sub    int
		status string
		amount int64
	}{{0, "invoice_paid", 675}, {0, "invoice_created", 900}, {1, "payment_failed", 9000}} {
		at := next()
		sub := s.subscriptions[spec.sub]
		ic := c.Invoice.Create().SetSubscriptionID(sub.ID).SetProfileID(tn.profileID).SetCustomerID(sub.CustomerID).
			SetAmount(spec.amount).SetCurrency(usd).SetStatus(invoice.Status(spec.status)).
			SetPeriodStart(at).SetPeriodEnd(at.AddDate(0, 1, 0)).SetDueAt(at.AddDate(0, 0, i)).
			SetCreatedAt(at).SetModifiedAt(at)
		if i == 0 {
			ic.SetPaymentIntentID(s.payment.PaymentID)
		}
		inv, err := ic.Save(ctx)
		must(err)
		s.invoices = append(s.invoices, inv)
	}
	return s
}

// nodeIDs is the ids of a connection's nodes, in its order.
type nodeIDs struct {
	TotalCount int
	Edges      []struct{ Node struct{ ID string } }
}

func (c nodeIDs) ids() []string {
	out := make([]string, len(c.Edges))
	for i, e := range c.Edges {
		out[i] = e.Node.ID
	}
	return out
}

// TestSubscriptionConnections: subscriptions, invoices, subscriptionItems,
// coupons and testClocks are connections, newest first by default, in the
// order asked for otherwise, filtered by their where-inputs and paged by
// cursors; an item nests its prices, a subscription its invoices, its
// customer, plan and price, an invoice its payment.
func TestSubscriptionConnections(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	s := seedBilling(t, srv, tn)
	c := newGQL(t, srv.URL, tn.key)
	subs := func(is ...int) []string {
		return pick(s.subscriptions, func(r *ent.BillingSubscription) string { return r.ID }, is)
	}
	invs := func(is ...int) []string { return pick(s.invoices, func(r *ent.Invoice) string { return r.ID }, is) }
	for _, tc := range []struct {
		name, connection, args string
		want                   []string
	}{
		{"subscriptions newest first", "subscriptions", ``, subs(2, 1, 0)},
		{"subscriptions by status", "subscriptions", `where: {statusIn: [active, paused]}`, subs(1, 0)},
		{"subscriptions on a clock", "subscriptions", fmt.Sprintf(`where: {testClockID: %q}`, s.clock.ID), subs(0)},
		{"subscriptions of a customer", "subscriptions", fmt.Sprintf(`where: {customerID: %q}`, s.customer.CustomerID), subs(2, 1, 0)},
		{"subscriptions oldest first", "subscriptions", `orderBy: [{field: CREATED_AT, direction: ASC}]`, subs(0, 1, 2)},
		{"invoices newest first", "invoices", ``, invs(2, 1, 0)},
		{"invoices by amount", "invoices", `orderBy: [{field: AMOUNT, direction: DESC}]`, invs(2, 1, 0)},
		{"invoices by due date", "invoices", `orderBy: [{field: DUE_AT, direction: ASC}]`, invs(0, 1, 2)},
		{"invoices of a subscription", "invoices", fmt.Sprintf(`where: {subscriptionID: %q}`, s.subscriptions[0].ID), invs(1, 0)},
		{"invoices by status", "invoices", `where: {status: payment_failed}`, invs(2)},
		{"items", "subscriptionItems", ``, []string{s.items[1].ID, s.items[0].ID}},
		{"plans", "subscriptionItems", `where: {itemType: plan}`, []string{s.items[0].ID}},
		{"coupons by code", "coupons", `orderBy: [{field: CODE, direction: ASC}]`, []string{s.coupons[1].ID, s.coupons[0].ID}},
		{"percentage coupons", "coupons", `where: {discountType: percentage}`, []string{s.coupons[0].ID}},
		{"test clocks", "testClocks", ``, []string{s.clock.ID}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out map[string]nodeIDs
			c.on(t).must(fmt.Sprintf(`{ %s(first: 10, %s) { totalCount edges { node { id } } } }`, tc.connection, tc.args), nil, &out)
			if got := out[tc.connection]; !slices.Equal(got.ids(), tc.want) || got.TotalCount != len(tc.want) {
				t.Fatalf("%s: %+v, want %v", tc.connection, got, tc.want)
			}
		})
	}

	// Paging: two pages of two and one, by the cursors the first gave.
	var first struct {
		Subscriptions struct {
			nodeIDs
			PageInfo struct {
				HasNextPage bool
				EndCursor   string
			}
		}
	}
	c.must(`{ subscriptions(first: 2) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }`, nil, &first)
	if !slices.Equal(first.Subscriptions.ids(), subs(2, 1)) || !first.Subscriptions.PageInfo.HasNextPage {
		t.Fatalf("the first page: %+v", first)
	}
	var second struct{ Subscriptions nodeIDs }
	c.must(`query($after: Cursor) { subscriptions(first: 2, after: $after) { edges { node { id } } } }`,
		map[string]any{"after": first.Subscriptions.PageInfo.EndCursor}, &second)
	if !slices.Equal(second.Subscriptions.ids(), subs(0)) {
		t.Fatalf("the second page: %+v", second)
	}

	// One subscription with what it reaches.
	var one struct {
		Subscription struct {
			ID, Status, CouponCode, TestClockID string
			Customer                            struct{ CustomerID, Name string }
			Plan                                struct{ ID, Name string }
			ItemPrice                           struct{ ID, DisplayAmount string }
			Invoices                            struct {
				TotalCount int
				Edges      []struct {
					Node struct {
						ID, Status, DisplayAmount string
						Payment                   *struct{ PaymentID, Status string }
					}
				}
			}
		}
	}
	c.must(`query($id: ID!) { subscription(id: $id) { id status couponCode testClockID
		customer { customerID name } plan { id name } itemPrice { id displayAmount }
		invoices(first: 5) { totalCount edges { node { id status displayAmount payment { paymentID status } } } } } }`,
		map[string]any{"id": s.subscriptions[0].ID}, &one)
	sub := one.Subscription
	if sub.ID != s.subscriptions[0].ID || sub.Status != "active" || sub.CouponCode != "WELCOME25" || sub.TestClockID != s.clock.ID ||
		sub.Customer.CustomerID != s.customer.CustomerID || sub.Customer.Name != "Ada" || sub.Plan.ID != s.items[0].ID ||
		sub.ItemPrice.ID != s.prices[0].ID || sub.ItemPrice.DisplayAmount != "USD 9.00" {
		t.Fatalf("the subscription: %+v", sub)
	}
	inv := sub.Invoices
	if inv.TotalCount != 2 || inv.Edges[0].Node.ID != s.invoices[1].ID || inv.Edges[0].Node.Payment != nil ||
		inv.Edges[1].Node.DisplayAmount != "USD 6.75" || inv.Edges[1].Node.Payment == nil ||
		inv.Edges[1].Node.Payment.PaymentID != s.payment.PaymentID || inv.Edges[1].Node.Payment.Status != "succeeded" {
		t.Fatalf("its invoices (newest first): %+v", inv)
	}

	var plan struct {
		Node struct {
			Name   string
			Prices struct {
				Edges []struct {
					Node struct{ ID, Interval, DisplayAmount string }
				}
			}
		}
	}
	c.must(`query($id: ID!) { node(id: $id) { ... on SubscriptionItem { name prices(first: 5) { edges { node { id interval displayAmount } } } } } }`,
		map[string]any{"id": s.items[0].ID}, &plan)
	if p := plan.Node.Prices.Edges; len(p) != 2 || p[0].Node.ID != s.prices[1].ID || p[0].Node.Interval != "Year" ||
		p[0].Node.DisplayAmount != "USD 90.00" || p[1].Node.ID != s.prices[0].ID {
		t.Fatalf("the plan's prices (newest first): %+v", plan)
	}
	var clockRead struct {
		TestClock struct{ ID, Name, Status string }
	}
	c.must(`query($id: ID!) { testClock(id: $id) { id name status } }`, map[string]any{"id": s.clock.ID}, &clockRead)
	if clockRead.TestClock.ID != s.clock.ID || clockRead.TestClock.Name != "a year" || clockRead.TestClock.Status != "ready" {
		t.Fatalf("the test clock: %+v", clockRead)
	}
}

// TestSubscriptionNodesAndTenancy: node(id:) finds every billing type by
// its id's prefix; another merchant sees none of the rows, and their ids
// are null to it.
func TestSubscriptionNodesAndTenancy(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	s := seedBilling(t, srv, tn)
	c := newGQL(t, srv.URL, tn.key)
	byType := map[string]string{
		"SubscriptionItem": s.items[0].ID, "ItemPrice": s.prices[0].ID, "Coupon": s.coupons[0].ID,
		"TestClock": s.clock.ID, "BillingSubscription": s.subscriptions[0].ID, "Invoice": s.invoices[0].ID,
	}
	for typename, id := range byType {
		var out struct {
			Node *struct {
				Typename string `json:"__typename"`
				ID       string
			}
		}
		c.must(`query($id: ID!) { node(id: $id) { __typename id } }`, map[string]any{"id": id}, &out)
		if out.Node == nil || out.Node.Typename != typename || out.Node.ID != id {
			t.Errorf("node(%s): %+v, want a %s", id, out.Node, typename)
		}
	}

	other := newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_subs_other").key)
	for _, connection := range []string{"subscriptions", "invoices", "subscriptionItems", "coupons", "testClocks"} {
		var out map[string]nodeIDs
		other.must(fmt.Sprintf(`{ %s(first: 10) { totalCount edges { node { id } } } }`, connection), nil, &out)
		if out[connection].TotalCount != 0 || len(out[connection].Edges) != 0 {
			t.Errorf("another merchant sees %s: %+v", connection, out[connection])
		}
	}
	for _, id := range byType {
		var out struct{ Node *struct{ ID string } }
		other.must(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id}, &out)
		if out.Node != nil {
			t.Errorf("another merchant's node(%s): %+v", id, out.Node)
		}
	}
	var lookups struct {
		Subscription *struct{ ID string }
		TestClock    *struct{ ID string }
	}
	other.must(`query($sub: ID!, $clock: ID!) { subscription(id: $sub) { id } testClock(id: $clock) { id } }`,
		map[string]any{"sub": s.subscriptions[0].ID, "clock": s.clock.ID}, &lookups)
	if lookups.Subscription != nil || lookups.TestClock != nil {
		t.Fatalf("another merchant's lookups: %+v", lookups)
	}
}

// pick is the ids of rows at those indexes.
func pick[T any](rows []T, id func(T) string, at []int) []string {
	out := make([]string, len(at))
	for k, i := range at {
		out[k] = id(rows[i])
	}
	return out
}
