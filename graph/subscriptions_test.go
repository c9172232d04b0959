package graph_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/ent/itemprice"
	"switchyard/ent/profile"
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

// billingTenant is a merchant a user signed up for: its admin's session,
// an OPERATOR's and a VIEWER's, and the tenant (secret key, default
// profile) the rows are seeded for.
type billingTenant struct {
	tenant
	admin, operator, viewer gql
}

func newBillingTenant(t *testing.T, srv *testenv.Server, name string) billingTenant {
	t.Helper()
	sess, key := signUp(t, srv.URL, "admin@"+name+".example", name)
	admin := bearer(t, srv.URL, sess.Token)
	prof, err := srv.Store.Client.Profile.Query().Where(profile.IsDefault(true)).Only(merchantCtx(sess.MerchantID))
	if err != nil {
		t.Fatal(err)
	}
	return billingTenant{tenant: tenant{merchantID: sess.MerchantID, key: key, profileID: prof.ID}, admin: admin,
		operator: bearer(t, srv.URL, member(t, srv.URL, admin, "operator@"+name+".example", "OPERATOR").Token),
		viewer:   bearer(t, srv.URL, member(t, srv.URL, admin, "viewer@"+name+".example", "VIEWER").Token)}
}

// restGet reads a REST route with key (headers: name, value, …).
func restGet(t *testing.T, srv *testenv.Server, key, path string, out any, headers ...string) {
	t.Helper()
	status, body, err := testenv.Call(srv.URL, "GET", path, key, nil, headers...)
	if err != nil || status != 200 {
		t.Fatalf("GET %s: %d %s %v", path, status, body, err)
	}
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogueAndClockMutations: an OPERATOR builds the catalogue (an
// item, its prices, a coupon) and runs a test clock through GraphQL, as
// REST then shows them; a retry with its key replays; bad input is refused
// with REST's codes; a VIEWER runs none of it.
func TestCatalogueAndClockMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	bt := newBillingTenant(t, srv, "catalogue")
	c := bt.operator

	key := "item-" + ids.Base62(10) // unique to the run: tests may share one Redis
	createItem := `mutation($in: CreateSubscriptionItemInput!, $key: String) { createSubscriptionItem(input: $in, idempotencyKey: $key) { item { id name itemType status } replayed } }`
	type itemAnswer struct {
		CreateSubscriptionItem struct {
			Item     struct{ ID, Name, ItemType, Status string }
			Replayed bool
		}
	}
	itemIn := map[string]any{"name": "Gold", "description": "the gold plan", "metadata": map[string]any{"tier": 3}}
	var made, again itemAnswer
	c.must(createItem, map[string]any{"in": itemIn, "key": key}, &made)
	item := made.CreateSubscriptionItem.Item
	if item.Name != "Gold" || item.ItemType != "plan" || item.Status != "active" || made.CreateSubscriptionItem.Replayed {
		t.Fatalf("createSubscriptionItem: %+v", made)
	}
	c.must(createItem, map[string]any{"in": itemIn, "key": key}, &again)
	if !again.CreateSubscriptionItem.Replayed || again.CreateSubscriptionItem.Item.ID != item.ID {
		t.Fatalf("the replay: %+v", again)
	}

	createPrice := `mutation($item: ID!, $in: CreateItemPriceInput!) { createItemPrice(itemID: $item, input: $in) { price { id amount interval intervalCount displayAmount } } }`
	var prices []string
	for _, in := range []map[string]any{
		{"amount": 1500, "currency": "USD"},
		{"amount": 15000, "currency": "USD", "interval": "Year", "trialPeriod": 14, "trialPeriodUnit": "Day"},
	} {
		var out struct {
			CreateItemPrice struct {
				Price struct {
					ID, Interval, DisplayAmount string
					Amount, IntervalCount       int
				}
			}
		}
		c.must(createPrice, map[string]any{"item": item.ID, "in": in}, &out)
		p := out.CreateItemPrice.Price
		if p.Amount != in["amount"] || p.IntervalCount != 1 || (in["interval"] == nil && p.Interval != "Month") {
			t.Fatalf("createItemPrice(%v): %+v", in, p)
		}
		prices = append(prices, p.ID)
	}
	var shown struct {
		ItemID string `json:"item_id"`
		Name   string
		Prices []struct {
			PriceID  string `json:"price_id"`
			Amount   int64
			Interval string
		}
	}
	restGet(t, srv, bt.key, "/subscriptions/catalogue/items/"+item.ID, &shown)
	if shown.ItemID != item.ID || shown.Name != "Gold" || len(shown.Prices) != 2 {
		t.Fatalf("REST shows the item as %+v", shown)
	}
	for _, p := range shown.Prices {
		if !slices.Contains(prices, p.PriceID) {
			t.Fatalf("REST shows a price GraphQL did not make: %+v (made %v)", shown, prices)
		}
	}

	createCoupon := `mutation($in: CreateCouponInput!) { createCoupon(input: $in) { coupon { id code discountType percentOffBps duration } } }`
	var coupon struct {
		CreateCoupon struct {
			Coupon struct {
				ID, Code, DiscountType, Duration string
				PercentOffBps                    int
			}
		}
	}
	couponIn := map[string]any{"code": "SPRING", "discountType": "percentage", "percentOffBps": 1500, "duration": "forever"}
	c.must(createCoupon, map[string]any{"in": couponIn}, &coupon)
	if cp := coupon.CreateCoupon.Coupon; cp.Code != "SPRING" || cp.PercentOffBps != 1500 || cp.Duration != "forever" {
		t.Fatalf("createCoupon: %+v", cp)
	}
	var listed struct{ Coupons nodeIDs }
	c.must(`{ coupons(first: 5, where: {code: "SPRING"}) { totalCount edges { node { id } } } }`, nil, &listed)
	if !slices.Equal(listed.Coupons.ids(), []string{coupon.CreateCoupon.Coupon.ID}) {
		t.Fatalf("the coupon is not listed: %+v", listed)
	}

	// The test clock: created, moved forward, never back.
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var clock struct {
		CreateTestClock struct {
			TestClock struct{ ID, Name, FrozenTime, Status string }
		}
	}
	c.must(`mutation($at: Time!) { createTestClock(input: {name: "Q1", frozenTime: $at}) { testClock { id name frozenTime status } } }`,
		map[string]any{"at": start.Format(time.RFC3339)}, &clock)
	tc := clock.CreateTestClock.TestClock
	if tc.Name != "Q1" || tc.Status != "ready" || tc.FrozenTime != start.Format(time.RFC3339) {
		t.Fatalf("createTestClock: %+v", tc)
	}
	advance := `mutation($id: ID!, $at: Time!) { advanceTestClock(id: $id, frozenTime: $at) { testClock { frozenTime status } } }`
	later := start.AddDate(0, 2, 0)
	var moved struct {
		AdvanceTestClock struct {
			TestClock struct{ FrozenTime, Status string }
		}
	}
	c.must(advance, map[string]any{"id": tc.ID, "at": later.Format(time.RFC3339)}, &moved)
	if m := moved.AdvanceTestClock.TestClock; m.FrozenTime != later.Format(time.RFC3339) || m.Status != "ready" {
		t.Fatalf("advanceTestClock: %+v", m)
	}
	var restClock struct {
		FrozenTimeUnix int64 `json:"frozen_time_unix"`
	}
	restGet(t, srv, bt.key, "/test_helpers/test_clocks/"+tc.ID, &restClock)
	if restClock.FrozenTimeUnix != later.Unix() {
		t.Fatalf("REST shows the clock at %d, want %d", restClock.FrozenTimeUnix, later.Unix())
	}
	if e := c.fails("IR_07", advance, map[string]any{"id": tc.ID, "at": start.Format(time.RFC3339)}); e.Extensions["field"] != "frozen_time" {
		t.Fatalf("moving the clock back: %+v", e)
	}

	// Bad input, refused as REST refuses it.
	for _, tc := range []struct {
		name, code, doc string
		vars            map[string]any
	}{
		{"an unknown item type", "IR_07", createItem, map[string]any{"in": map[string]any{"name": "X", "itemType": "bundle"}}},
		{"an empty name", "IR_04", createItem, map[string]any{"in": map[string]any{"name": ""}}},
		{"an unknown currency", "IR_07", createPrice, map[string]any{"item": item.ID, "in": map[string]any{"amount": 100, "currency": "XYZ"}}},
		{"an unknown interval", "IR_07", createPrice, map[string]any{"item": item.ID, "in": map[string]any{"amount": 100, "currency": "USD", "interval": "Fortnight"}}},
		{"another's item", "HE_02", createPrice, map[string]any{"item": "item_none", "in": map[string]any{"amount": 100, "currency": "USD"}}},
		{"a percentage without its percentage", "IR_04", createCoupon, map[string]any{"in": map[string]any{"code": "NOPCT", "discountType": "percentage"}}},
		{"a code already used", "HE_01", createCoupon, map[string]any{"in": couponIn}},
		{"an unknown clock", "HE_02", advance, map[string]any{"id": "clock_none", "at": later.Format(time.RFC3339)}},
	} {
		t.Run(tc.name, func(t *testing.T) { c.on(t).fails(tc.code, tc.doc, tc.vars) })
	}

	// A VIEWER runs none of them; the secret key and the admin do.
	for _, tc := range []struct {
		doc  string
		vars map[string]any
	}{
		{createItem, map[string]any{"in": map[string]any{"name": "Viewer's"}}},
		{createPrice, map[string]any{"item": item.ID, "in": map[string]any{"amount": 100, "currency": "USD"}}},
		{createCoupon, map[string]any{"in": map[string]any{"code": "VIEW", "discountType": "percentage", "percentOffBps": 100}}},
		{`mutation { createTestClock(input: {frozenTime: "2026-01-01T00:00:00Z"}) { testClock { id } } }`, nil},
		{advance, map[string]any{"id": tc.ID, "at": later.AddDate(0, 1, 0).Format(time.RFC3339)}},
	} {
		bt.viewer.fails("IR_22", tc.doc, tc.vars)
	}
	for _, caller := range []gql{bt.admin, newGQL(t, srv.URL, bt.key)} {
		caller.must(createItem, map[string]any{"in": map[string]any{"name": "Addon", "itemType": "addon"}}, nil)
	}
	var items struct{ SubscriptionItems nodeIDs }
	bt.viewer.must(`{ subscriptionItems(first: 10) { totalCount edges { node { id } } } }`, nil, &items)
	if items.SubscriptionItems.TotalCount != 3 {
		t.Fatalf("the viewer reads %+v", items)
	}
}

// TestSubscriptionLifecycleMutations: an OPERATOR pauses, resumes, moves
// to another price and cancels a subscription through GraphQL, as REST and
// GraphQL then show it; a status that does not allow a change is refused
// (IR_16), bad input too; another merchant's subscription is not found; a
// VIEWER changes nothing.
func TestSubscriptionLifecycleMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	bt := newBillingTenant(t, srv, "lifecycle")
	s := seedBilling(t, srv, bt.tenant)
	c := bt.operator
	id := s.subscriptions[0].ID
	type subAnswer struct {
		Subscription struct {
			ID, Status, ItemPriceID string
			PausedAt, CancelledAt   *string
			CancelReasonCode        *string
		}
		Replayed bool
	}
	const selection = `subscription { id status itemPriceID pausedAt cancelledAt cancelReasonCode } replayed`
	run := func(g gql, mutation, decl, args string, vars map[string]any) subAnswer {
		t.Helper()
		var out map[string]subAnswer
		g.must(fmt.Sprintf(`mutation($id: ID!, $key: String%s) { %s(id: $id%s, idempotencyKey: $key) { %s } }`,
			decl, mutation, args, selection), vars, &out)
		return out[mutation]
	}
	restStatus := func() string {
		t.Helper()
		var sub struct{ Status string }
		restGet(t, srv, bt.key, "/subscriptions/"+id, &sub, "X-Profile-Id", bt.profileID)
		return sub.Status
	}
	pauseDoc := `mutation($id: ID!, $in: PauseSubscriptionInput) { pauseSubscription(id: $id, input: $in) { subscription { id } } }`

	// The viewer first: nothing changes.
	for _, doc := range []string{
		pauseDoc,
		`mutation($id: ID!) { resumeSubscription(id: $id) { subscription { id } } }`,
		`mutation($id: ID!) { cancelSubscription(id: $id) { subscription { id } } }`,
		`mutation($id: ID!) { changeSubscriptionPlan(id: $id, input: {planID: "item_x", itemPriceID: "price_x"}) { subscription { id } } }`,
	} {
		bt.viewer.fails("IR_22", doc, map[string]any{"id": id})
	}
	if st := restStatus(); st != "active" {
		t.Fatalf("after the viewer's tries the subscription is %s", st)
	}

	key := "pause-" + ids.Base62(10)
	paused := run(c, "pauseSubscription", "", "", map[string]any{"id": id, "key": key})
	if paused.Subscription.Status != "paused" || paused.Subscription.PausedAt == nil || paused.Replayed {
		t.Fatalf("paused: %+v", paused)
	}
	if again := run(c, "pauseSubscription", "", "", map[string]any{"id": id, "key": key}); !again.Replayed || again.Subscription.Status != "paused" {
		t.Fatalf("the replay: %+v", again)
	}
	if st := restStatus(); st != "paused" {
		t.Fatalf("REST shows %s after the pause", st)
	}
	c.fails("IR_16", pauseDoc, map[string]any{"id": id})

	resumed := run(c, "resumeSubscription", ", $in: ResumeSubscriptionInput", ", input: $in",
		map[string]any{"id": id, "in": map[string]any{"option": "immediately"}})
	if resumed.Subscription.Status != "active" || resumed.Subscription.PausedAt != nil {
		t.Fatalf("resumed: %+v", resumed)
	}

	changed := run(c, "changeSubscriptionPlan", ", $in: ChangeSubscriptionPlanInput!", ", input: $in",
		map[string]any{"id": id, "in": map[string]any{"planID": s.items[0].ID, "itemPriceID": s.prices[1].ID}})
	if changed.Subscription.ItemPriceID != s.prices[1].ID || changed.Subscription.Status != "active" {
		t.Fatalf("changed: %+v", changed)
	}
	var open struct {
		Subscription struct {
			Invoices struct {
				Edges []struct {
					Node struct{ Status, DisplayAmount string }
				}
			}
		}
	}
	c.must(`query($id: ID!) { subscription(id: $id) { invoices(first: 5, where: {status: invoice_created}) { edges { node { status displayAmount } } } } }`,
		map[string]any{"id": id}, &open)
	// The new price, less the subscription's coupon (WELCOME25).
	discounted := s.prices[1].Currency.Display(s.prices[1].Amount * int64(10000-*s.coupons[0].PercentOffBps) / 10000)
	if e := open.Subscription.Invoices.Edges; len(e) != 1 || e[0].Node.DisplayAmount != discounted {
		t.Fatalf("the open invoice after the change charges %+v, want %s", e, discounted)
	}

	cancelled := run(c, "cancelSubscription", ", $in: CancelSubscriptionInput", ", input: $in",
		map[string]any{"id": id, "in": map[string]any{"reasonCode": "too_expensive"}})
	if st := cancelled.Subscription; st.Status != "cancelled" || st.CancelledAt == nil || st.CancelReasonCode == nil || *st.CancelReasonCode != "too_expensive" {
		t.Fatalf("cancelled: %+v", cancelled)
	}
	if st := restStatus(); st != "cancelled" {
		t.Fatalf("REST shows %s after the cancel", st)
	}

	// Refusals: a cancelled subscription changes no more; bad options;
	// another merchant's id is not found.
	for _, tc := range []struct {
		name, code, doc string
		vars            map[string]any
	}{
		{"cancel a cancelled one", "IR_16", `mutation($id: ID!) { cancelSubscription(id: $id) { subscription { id } } }`, map[string]any{"id": id}},
		{"an unknown pause option", "IR_07", pauseDoc, map[string]any{"id": s.subscriptions[1].ID, "in": map[string]any{"option": "someday"}}},
		{"a date without a date", "IR_04", `mutation($id: ID!) { resumeSubscription(id: $id, input: {option: "specific_date"}) { subscription { id } } }`,
			map[string]any{"id": s.subscriptions[1].ID}},
		{"no plan", "IR_04", `mutation($id: ID!) { changeSubscriptionPlan(id: $id, input: {planID: "", itemPriceID: "price_x"}) { subscription { id } } }`,
			map[string]any{"id": s.subscriptions[1].ID}},
		{"an unknown subscription", "HE_02", pauseDoc, map[string]any{"id": "sub_none"}},
	} {
		t.Run(tc.name, func(t *testing.T) { c.on(t).fails(tc.code, tc.doc, tc.vars) })
	}
	other := newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_subs_mut_other").key)
	other.fails("HE_02", `mutation($id: ID!) { resumeSubscription(id: $id) { subscription { id } } }`, map[string]any{"id": s.subscriptions[1].ID})
	var still struct{ Subscription struct{ Status string } }
	c.must(`query($id: ID!) { subscription(id: $id) { status } }`, map[string]any{"id": s.subscriptions[1].ID}, &still)
	if still.Subscription.Status != "paused" {
		t.Fatalf("another merchant's resume changed the subscription: %+v", still)
	}
}
