package graph_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"switchyard/ent"
	"switchyard/ent/apikey"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/testenv"
)

// connCase is one connection: a query with ARGS where its arguments go and
// CONN where its selection goes, the path to it in the data, its rows
// newest first, and a filter with the rows it keeps.
type connCase struct {
	name      string
	query     string
	path      []string
	want      []string
	where     string
	wantWhere []string
}

const connSelection = `totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } }`

type connPage struct {
	ids                    []string
	total                  int
	start, end             string
	hasNext, hasPrev       bool
	firstEdgeCursor, query string
}

func fetchConn(t *testing.T, c gql, cs connCase, args string) connPage {
	t.Helper()
	q := strings.Replace(strings.Replace(cs.query, "ARGS", args, 1), "CONN", connSelection, 1)
	var data map[string]any
	c.must(q, nil, &data)
	conn, ok := at(data, cs.path...).(map[string]any)
	if !ok {
		t.Fatalf("%s: no connection at %v in %v", cs.name, cs.path, data)
	}
	p := connPage{total: int(conn["totalCount"].(float64)), query: q}
	pi := conn["pageInfo"].(map[string]any)
	p.start, p.end = str(pi["startCursor"]), str(pi["endCursor"])
	p.hasNext, p.hasPrev = pi["hasNextPage"].(bool), pi["hasPreviousPage"].(bool)
	for i, e := range conn["edges"].([]any) {
		p.ids = append(p.ids, str(at(e, "node", "id")))
		if i == 0 {
			p.firstEdgeCursor = str(at(e, "cursor"))
		}
	}
	return p
}

// pageForward pages with first: size and returns every id in order.
func pageForward(t *testing.T, c gql, cs connCase, size int, extra string) []string {
	t.Helper()
	var all []string
	args := fmt.Sprintf("first: %d%s", size, extra)
	for n := 0; n < 50; n++ {
		p := fetchConn(t, c, cs, args)
		if n == 0 && p.hasPrev {
			t.Errorf("%s: the first page says it has a previous page", cs.name)
		}
		if len(p.ids) > size {
			t.Fatalf("%s: page of %d, asked for %d", cs.name, len(p.ids), size)
		}
		all = append(all, p.ids...)
		if !p.hasNext {
			return all
		}
		args = fmt.Sprintf(`first: %d, after: %q%s`, size, p.end, extra)
	}
	t.Fatalf("%s: paging forward never ended", cs.name)
	return nil
}

// pageBackward pages with last: size from the end and returns every id in
// order.
func pageBackward(t *testing.T, c gql, cs connCase, size int, extra string) []string {
	t.Helper()
	var all []string
	args := fmt.Sprintf("last: %d%s", size, extra)
	for n := 0; n < 50; n++ {
		p := fetchConn(t, c, cs, args)
		all = append(slices.Clone(p.ids), all...)
		if !p.hasPrev {
			return all
		}
		args = fmt.Sprintf(`last: %d, before: %q%s`, size, p.start, extra)
	}
	t.Fatalf("%s: paging backward never ended", cs.name)
	return nil
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// TestConnections: every connection, at the root and nested, pages forward
// and backward two at a time with the same rows in the same order (newest
// first by default), honours an explicit order and a filter, and reports
// its totalCount; nested connections page through their parent's node.
func TestConnections(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	w := seedWorld(t, srv, demoTenant(srv))
	c := newGQL(t, srv.URL, w.key)
	ctx := merchantCtx(w.merchantID)
	db := srv.Store.Client

	check := func(ids []string, err error) []string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	mcas := check(db.MerchantConnectorAccount.Query().Order(ent.Desc(merchantconnectoraccount.FieldCreatedAt)).IDs(ctx))
	profiles := check(db.Profile.Query().Order(ent.Desc(profile.FieldCreatedAt)).IDs(ctx))
	keys := check(db.APIKey.Query().Order(ent.Desc(apikey.FieldCreatedAt)).IDs(ctx))
	defaultMCAs := check(db.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ProfileID(w.profileID)).
		Order(ent.Desc(merchantconnectoraccount.FieldCreatedAt)).IDs(ctx))
	pay := func(is ...int) []string {
		out := make([]string, len(is))
		for k, i := range is {
			out[k] = w.payments[i].ID
		}
		return out
	}
	payments := idsOf(w.payments, func(p *ent.PaymentIntent) string { return p.ID })
	refunds := idsOf(w.refunds, func(r *ent.Refund) string { return r.ID })
	events := idsOf(w.events, func(e *ent.Event) string { return e.ID })

	cases := []connCase{
		{name: "paymentIntents", query: `{ paymentIntents(ARGS) { CONN } }`, path: []string{"paymentIntents"},
			want: payments, where: `status: succeeded`, wantWhere: pay(6, 4, 0)},
		{name: "payments", query: `{ payments(ARGS) { CONN } }`, path: []string{"payments"},
			want: payments, where: `currency: USD`, wantWhere: pay(7, 5, 1, 0)},
		{name: "refunds", query: `{ refunds(ARGS) { CONN } }`, path: []string{"refunds"},
			want: refunds, where: `status: failed`, wantWhere: []string{w.refunds[1].ID}},
		{name: "disputes", query: `{ disputes(ARGS) { CONN } }`, path: []string{"disputes"},
			want: idsOf(w.disputes, func(d *ent.Dispute) string { return d.ID }), where: `amountGT: 1000`, wantWhere: []string{w.disputes[1].ID}},
		{name: "mandates", query: `{ mandates(ARGS) { CONN } }`, path: []string{"mandates"},
			want: idsOf(w.mandates, func(m *ent.Mandate) string { return m.ID }), where: `status: active`, wantWhere: []string{w.mandates[0].ID}},
		{name: "customers", query: `{ customers(ARGS) { CONN } }`, path: []string{"customers"},
			want: idsOf(w.customers, func(c *ent.Customer) string { return c.ID }), where: `name: "Grace"`, wantWhere: []string{w.customers[1].ID}},
		{name: "events", query: `{ events(ARGS) { CONN } }`, path: []string{"events"},
			want: events, where: `eventType: refund_succeeded`, wantWhere: []string{w.events[2].ID}},
		{name: "connectorAccounts", query: `{ connectorAccounts(ARGS) { CONN } }`, path: []string{"connectorAccounts"},
			want: mcas, where: `connectorName: "adyen_test"`, wantWhere: []string{w.mcas[1].ID}},
		{name: "profiles", query: `{ profiles(ARGS) { CONN } }`, path: []string{"profiles"},
			want: profiles, where: `isDefault: true`, wantWhere: []string{w.profileID}},
		{name: "merchantAccounts", query: `{ merchantAccounts(ARGS) { CONN } }`, path: []string{"merchantAccounts"},
			want: []string{w.merchantID}, where: `idNEQ: "nobody"`, wantWhere: []string{w.merchantID}},
		// Nested, through the parent's node or the merchant account.
		{name: "payment.refunds", query: fmt.Sprintf(`{ node(id: %q) { ... on PaymentIntent { refunds(ARGS) { CONN } } } }`, w.payments[0].ID),
			path: []string{"node", "refunds"}, want: refunds, where: `status: succeeded`, wantWhere: []string{w.refunds[0].ID}},
		{name: "payment.events", query: fmt.Sprintf(`{ payment(id: %q) { events(ARGS) { CONN } } }`, w.payments[0].PaymentID),
			path: []string{"payment", "events"}, want: events, where: `isDelivered: false`, wantWhere: []string{w.events[0].ID}},
		{name: "event.deliveryAttempts", query: fmt.Sprintf(`{ event(id: %q) { deliveryAttempts(ARGS) { CONN } } }`, w.events[0].ID),
			path:  []string{"event", "deliveryAttempts"},
			want:  []string{w.deliveries[1].ID, w.deliveries[0].ID},
			where: `isDeliverySuccessful: true`, wantWhere: []string{w.deliveries[1].ID}},
		{name: "customer.payments", query: fmt.Sprintf(`{ node(id: %q) { ... on Customer { payments(ARGS) { CONN } } } }`, w.customers[0].ID),
			path: []string{"node", "payments"}, want: pay(6, 2, 0), where: `currency: USD`, wantWhere: pay(0)},
		{name: "merchantAccount.events", query: `{ merchantAccount { events(ARGS) { CONN } } }`,
			path: []string{"merchantAccount", "events"}, want: events, where: `eventClass: refunds`, wantWhere: []string{w.events[2].ID}},
		{name: "merchantAccount.profiles", query: `{ merchantAccount { profiles(ARGS) { CONN } } }`,
			path: []string{"merchantAccount", "profiles"}, want: profiles, where: `isDefault: false`, wantWhere: []string{w.otherProfileID}},
		{name: "merchantAccount.apiKeys", query: `{ merchantAccount { apiKeys(ARGS) { CONN } } }`,
			path: []string{"merchantAccount", "apiKeys"}, want: keys, where: `name: "second"`, wantWhere: []string{w.apiKeys[0].ID}},
		{name: "merchantAccount.connectorAccounts", query: `{ merchantAccount { connectorAccounts(ARGS) { CONN } } }`,
			path: []string{"merchantAccount", "connectorAccounts"}, want: mcas, where: `connectorName: "checkout"`, wantWhere: []string{w.mcas[2].ID}},
		{name: "profile.connectorAccounts", query: fmt.Sprintf(`{ node(id: %q) { ... on Profile { connectorAccounts(ARGS) { CONN } } } }`, w.profileID),
			path: []string{"node", "connectorAccounts"}, want: defaultMCAs, where: `connectorName: "stripe_test"`,
			wantWhere: check(db.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ProfileID(w.profileID),
				merchantconnectoraccount.ConnectorName("stripe_test")).Order(ent.Desc(merchantconnectoraccount.FieldCreatedAt)).IDs(ctx))},
	}
	for _, cs := range cases {
		t.Run(cs.name, func(t *testing.T) {
			c := c.on(t)
			if len(cs.want) < 2 {
				if cs.name != "merchantAccounts" {
					t.Fatalf("seed gives %d rows; paging needs more", len(cs.want))
				}
			}
			first := fetchConn(t, c, cs, "first: 2")
			if first.total != len(cs.want) {
				t.Errorf("totalCount %d, want %d", first.total, len(cs.want))
			}
			if got := pageForward(t, c, cs, 2, ""); !slices.Equal(got, cs.want) {
				t.Errorf("forward: %v\nwant     %v", got, cs.want)
			}
			if got := pageBackward(t, c, cs, 2, ""); !slices.Equal(got, cs.want) {
				t.Errorf("backward: %v\nwant      %v", got, cs.want)
			}
			asc := ", orderBy: {field: CREATED_AT, direction: ASC}"
			if got := pageForward(t, c, cs, 2, asc); !slices.Equal(got, reversed(cs.want)) {
				t.Errorf("oldest first: %v\nwant          %v", got, reversed(cs.want))
			}
			if got := pageBackward(t, c, cs, 2, asc); !slices.Equal(got, reversed(cs.want)) {
				t.Errorf("oldest first, backward: %v\nwant                    %v", got, reversed(cs.want))
			}
			filter := ", where: {" + cs.where + "}"
			if got := pageForward(t, c, cs, 1, filter); !slices.Equal(got, cs.wantWhere) {
				t.Errorf("where {%s}: %v, want %v", cs.where, got, cs.wantWhere)
			}
			if p := fetchConn(t, c, cs, "first: 1"+filter); p.total != len(cs.wantWhere) {
				t.Errorf("where {%s}: totalCount %d, want %d", cs.where, p.total, len(cs.wantWhere))
			}
			// A cursor belongs to its query: the same cursor under another
			// filter or order is refused.
			if first.hasNext {
				r := c.do(strings.Replace(strings.Replace(cs.query, "ARGS", fmt.Sprintf(`first: 2, after: %q%s`, first.end, asc), 1), "CONN", connSelection, 1), nil)
				if !strings.Contains(r.message(), "different query") || r.code() != "IR_06" {
					t.Errorf("cursor under another order: %s", r.Raw)
				}
			}
		})
	}
}

// TestPaymentFilters: the payment where-input serves the dashboard's
// filters: status, currency, connector, amount and created ranges,
// customer, merchant reference, payment method and card network, alone and
// combined.
func TestPaymentFilters(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	w := seedWorld(t, srv, demoTenant(srv))
	c := newGQL(t, srv.URL, w.key)
	pay := func(is ...int) []string {
		out := make([]string, len(is))
		for k, i := range is {
			out[k] = w.payments[i].PaymentID
		}
		return out
	}
	created := func(i int) string { return w.payments[i].CreatedAt.UTC().Format("2006-01-02T15:04:05Z") }
	for _, tc := range []struct {
		where string
		want  []string
	}{
		{`status: succeeded`, pay(6, 4, 0)},
		{`statusIn: [failed, cancelled]`, pay(5, 2)},
		{`currency: EUR`, pay(3, 2)},
		{`currencyIn: [JPY, KWD]`, pay(6, 4)},
		{`connector: "adyen_test"`, pay(4, 2)},
		{`connectorIsNil: true`, pay(3)},
		{`merchantConnectorID: "` + w.mcas[2].ID + `"`, pay(7, 5)},
		{`amountGTE: 3000, amountLT: 6000`, pay(4, 3, 2)},
		{`createdAtGTE: "` + created(2) + `", createdAtLTE: "` + created(4) + `"`, pay(4, 3, 2)},
		{`createdAtGT: "` + created(5) + `"`, pay(7, 6)},
		{`hasCustomerWith: {customerID: "` + w.customers[0].CustomerID + `"}`, pay(6, 2, 0)},
		{`customerID: "` + w.customers[0].CustomerID + `"`, pay(6, 2, 0)},
		{`customerIDIn: ["` + w.customers[0].CustomerID + `", "` + w.customers[1].CustomerID + `"]`, pay(7, 6, 2, 1, 0)},
		{`customerID: "` + w.customers[0].ID + `"`, nil}, // the row's id is customer { id }, not customerID
		{`and: [{customerID: "` + w.customers[0].CustomerID + `"}, {currency: USD}]`, pay(0)},
		{`hasCustomer: false`, pay(5, 3)},
		{`merchantReferenceID: "order-5"`, pay(5)},
		{`paymentMethod: "upi"`, pay(4)},
		{`cardNetwork: "Mastercard"`, pay(7, 1)},
		{`cardNetworkIn: ["Visa", "AmericanExpress"]`, pay(6, 5, 2, 0)},
		{`profileID: "` + w.otherProfileID + `"`, pay(6)},
		{`status: succeeded, currency: USD, cardNetwork: "Visa"`, pay(0)},
		{`or: [{currency: JPY}, {amountGT: 7000}]`, pay(7, 4)},
		{`not: {currency: USD}`, pay(6, 4, 3, 2)},
	} {
		t.Run(tc.where, func(t *testing.T) {
			c := c.on(t)
			var out struct {
				Payments struct {
					TotalCount int
					Edges      []struct{ Node struct{ PaymentID string } }
				}
			}
			c.must(`query($n: Int) { payments(first: $n, where: {`+tc.where+`}) { totalCount edges { node { paymentID } } } }`,
				map[string]any{"n": 100}, &out)
			var got []string
			for _, e := range out.Payments.Edges {
				got = append(got, e.Node.PaymentID)
			}
			if !slices.Equal(got, tc.want) || out.Payments.TotalCount != len(tc.want) {
				t.Fatalf("got %v (total %d), want %v", got, out.Payments.TotalCount, tc.want)
			}
		})
	}
	// The REST ids look up one payment and one refund; an unknown one is null.
	var out struct {
		Payment *struct {
			PaymentID, DisplayAmount string
			Customer                 *struct{ CustomerID string }
			ConnectorAccount         *struct{ ID, ConnectorName string }
		}
		Refund *struct {
			RefundID, DisplayAmount string
			Payment                 struct{ PaymentID string }
		}
		Missing *struct{ PaymentID string }
	}
	c.must(fmt.Sprintf(`{ payment(id: %q) { paymentID displayAmount customer { customerID } connectorAccount { id connectorName } }
		refund(id: %q) { refundID displayAmount payment { paymentID } } missing: payment(id: "pay_nope") { paymentID } }`,
		w.payments[6].PaymentID, w.refunds[2].RefundID), nil, &out)
	if out.Payment == nil || out.Payment.DisplayAmount != "KWD 7.000" || out.Payment.Customer == nil ||
		out.Payment.Customer.CustomerID != w.customers[0].CustomerID || out.Payment.ConnectorAccount == nil ||
		out.Payment.ConnectorAccount.ID != w.mcas[0].ID {
		t.Fatalf("payment lookup: %+v", out.Payment)
	}
	if out.Refund == nil || out.Refund.DisplayAmount != "USD 3.00" || out.Refund.Payment.PaymentID != w.payments[0].PaymentID {
		t.Fatalf("refund lookup: %+v", out.Refund)
	}
	if out.Missing != nil {
		t.Fatalf("unknown payment: %+v", out.Missing)
	}
	var jpy struct {
		Payment struct{ DisplayAmount string }
	}
	c.must(fmt.Sprintf(`{ payment(id: %q) { displayAmount } }`, w.payments[4].PaymentID), nil, &jpy)
	if jpy.Payment.DisplayAmount != "JPY 5000" {
		t.Fatalf("JPY display amount %q", jpy.Payment.DisplayAmount)
	}
}

// TestEveryTypeHasItsRESTID: each object a client links to REST by carries
// its REST id under its REST name beside the Relay id, with the same value:
// merchantID, profileID, merchantConnectorID, keyID, eventID, attemptID,
// captureID, disputeID, paymentMethodID and mandateID (paymentID, refundID
// and customerID are the merchant's own and were there before).
func TestEveryTypeHasItsRESTID(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	rest := func(path string, body map[string]any) {
		t.Helper()
		if status, out, err := testenv.Call(srv.URL, "POST", path, key, body); err != nil || status != 200 {
			t.Fatalf("POST %s: %d %s %v", path, status, out, err)
		}
	}
	card := func(number string) map[string]any {
		return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123"}}
	}
	rest("/customers", map[string]any{"customer_id": "cus_rest_ids"})
	// A saved card with its mandate, a disputed payment, and a captured one.
	rest("/payments", map[string]any{"amount": 100, "currency": "USD", "confirm": true, "customer_id": "cus_rest_ids",
		"setup_future_usage": "off_session", "payment_method": "card", "payment_method_data": card("4242424242424242"),
		"mandate_data": map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "offline"}}})
	rest("/payments", map[string]any{"amount": 100, "currency": "USD", "confirm": true, "payment_method": "card",
		"payment_method_data": card("4000000000000259")})
	var held struct {
		PaymentID string `json:"payment_id"`
	}
	status, body, err := testenv.Call(srv.URL, "POST", "/payments", key, map[string]any{"amount": 100, "currency": "USD", "confirm": true,
		"capture_method": "manual", "payment_method": "card", "payment_method_data": card("4242424242424242")})
	if err != nil || status != 200 || json.Unmarshal(body, &held) != nil {
		t.Fatalf("a held payment: %d %s %v", status, body, err)
	}
	rest("/payments/"+held.PaymentID+"/capture", map[string]any{})

	var out map[string]any
	newGQL(t, srv.URL, key).must(`{
		merchantAccount { id merchantID
			profiles(first: 5) { edges { node { id profileID } } }
			connectorAccounts(first: 5) { edges { node { id merchantConnectorID } } }
			apiKeys(first: 5) { edges { node { id keyID } } }
			events(first: 20) { edges { node { id eventID } } } }
		paymentIntents(first: 10) { edges { node { id attempts { id attemptID } captures { id captureID } disputes { id disputeID } } } }
		customers(first: 5) { edges { node { paymentMethods { id paymentMethodID } mandates { id mandateID } } } }
	}`, nil, &out)
	seen := map[string]int{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, name := range []string{"merchantID", "profileID", "merchantConnectorID", "keyID", "eventID", "attemptID",
				"captureID", "disputeID", "paymentMethodID", "mandateID"} {
				if restID, ok := v[name]; ok {
					seen[name]++
					if restID != v["id"] || restID == "" {
						t.Errorf("%s is %v where id is %v", name, restID, v["id"])
					}
				}
			}
			for _, child := range v {
				walk(child)
			}
		case []any:
			for _, child := range v {
				walk(child)
			}
		}
	}
	walk(out)
	for _, name := range []string{"merchantID", "profileID", "merchantConnectorID", "keyID", "eventID", "attemptID",
		"captureID", "disputeID", "paymentMethodID", "mandateID"} {
		if seen[name] == 0 {
			t.Errorf("no object answered %s: %v", name, out)
		}
	}
}
