package graph_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/payoutattempt"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
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

// payoutProcessor adds a sandbox payout_processor account (every payout
// method) to the demo merchant's default profile.
func payoutProcessor(t *testing.T, srv *testenv.Server) {
	t.Helper()
	status, body, err := testenv.Call(srv.URL, "POST", "/account/"+srv.Demo.MerchantID+"/connectors", srv.Demo.SecretKey,
		map[string]any{"connector_type": "payout_processor", "connector_name": "stripe_test", "connector_label": "payouts",
			"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_payout_test_1234"}})
	if err != nil || status != 200 {
		t.Fatalf("a payout processor: %d %s %v", status, body, err)
	}
}

// payoutCard is a card payout method, as the input takes it.
func payoutCard(number string) map[string]any {
	return map[string]any{"card": map[string]any{"cardNumber": number, "expiryMonth": "12", "expiryYear": "2040",
		"cardHolderName": "Ada Lovelace"}}
}

// payoutOut is what the mutation tests read of a payout.
type payoutOut struct {
	PayoutID, Status string
	PayoutMethodData map[string]any
	Attempts         struct{ TotalCount int }
}

const payoutSelection = `payout { payoutID status payoutMethodData attempts(first: 5) { totalCount } } replayed`

type payoutAnswer struct {
	Payout   payoutOut
	Replayed bool
}

// TestPayoutMutations: createPayout, confirmPayout, fulfillPayout and
// cancelPayout run the payouts service's rules through GraphQL: a confirmed
// card payout waits for its fulfilment (the card kept masked), a retry
// with its key replays it, fulfilling pays it and a paid payout cannot be
// cancelled; a payout without a method is confirmed with one, and another
// is cancelled; bad input is refused with REST's codes; another merchant's
// payout is not found; a VIEWER may read payouts and run none of them.
func TestPayoutMutations(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	c := newGQL(t, srv.URL, srv.Demo.SecretKey)
	payoutProcessor(t, srv)
	// run runs mutation with args (decl declares their variables).
	run := func(mutation, decl, args string, vars map[string]any) payoutAnswer {
		t.Helper()
		var out map[string]payoutAnswer
		c.must(fmt.Sprintf(`mutation(%s, $key: String) { %s(%s, idempotencyKey: $key) { %s } }`,
			decl, mutation, args, payoutSelection), vars, &out)
		return out[mutation]
	}
	create := func(in map[string]any, key any) payoutAnswer {
		t.Helper()
		return run("createPayout", "$in: CreatePayoutInput!", "input: $in", map[string]any{"in": in, "key": key})
	}
	byID := func(mutation, id string) payoutAnswer {
		t.Helper()
		return run(mutation, "$id: ID!", "id: $id", map[string]any{"id": id, "key": nil})
	}

	key := "payout-" + ids.Base62(10) // unique to the run: tests may share one Redis
	in := map[string]any{"amount": 1500, "currency": "USD", "payoutType": "card", "confirm": true,
		"payoutMethodData": payoutCard("4242424242424242"), "customerID": "cus_payee"}
	made := create(in, key)
	if p := made.Payout; p.Status != "requires_fulfillment" || p.Attempts.TotalCount != 1 || made.Replayed {
		t.Fatalf("a confirmed card payout: %+v", made)
	}
	card, _ := made.Payout.PayoutMethodData["card"].(map[string]any)
	if card["last4"] != "4242" || strings.Contains(fmt.Sprint(made.Payout.PayoutMethodData), "4242424242424242") {
		t.Fatalf("the method is not masked: %v", made.Payout.PayoutMethodData)
	}
	if again := create(in, key); !again.Replayed || again.Payout.PayoutID != made.Payout.PayoutID {
		t.Fatalf("the replay: %+v", again)
	}
	id := made.Payout.PayoutID
	if paid := byID("fulfillPayout", id); paid.Payout.Status != "success" {
		t.Fatalf("fulfilled: %+v", paid)
	}
	cancel := `mutation($id: ID!) { cancelPayout(id: $id) { payout { status } } }`
	c.fails("IR_06", cancel, map[string]any{"id": id})

	// Without a method it waits for one; confirmPayout gives it.
	waiting := create(map[string]any{"amount": 900, "currency": "EUR", "payoutType": "card"}, nil)
	if waiting.Payout.Status != "requires_payout_method_data" {
		t.Fatalf("a payout without a method: %+v", waiting)
	}
	confirmed := run("confirmPayout", "$id: ID!, $cin: ConfirmPayoutInput", "id: $id, input: $cin", map[string]any{"id": waiting.Payout.PayoutID,
		"cin": map[string]any{"payoutMethodData": payoutCard("4000056655665556")}, "key": nil})
	if confirmed.Payout.Status != "requires_fulfillment" {
		t.Fatalf("confirmed: %+v", confirmed)
	}
	if gone := byID("cancelPayout", confirmed.Payout.PayoutID); gone.Payout.Status != "cancelled" {
		t.Fatalf("cancelled: %+v", gone)
	}

	// A SEPA payout: the IBAN is kept masked.
	sepa := create(map[string]any{"amount": 2500, "currency": "EUR", "payoutType": "bank", "confirm": true,
		"payoutMethodData": map[string]any{"bank": map[string]any{"iban": "DE89370400440532013000",
			"bic": "COBADEFFXXX", "accountHolderName": "Ada Lovelace"}}}, nil)
	bank, _ := sepa.Payout.PayoutMethodData["bank"].(map[string]any)
	if sepa.Payout.Status != "requires_fulfillment" || bank["iban"] != "******************3000" {
		t.Fatalf("a SEPA payout: %+v", sepa)
	}
	payoutMethodsAsREST(t, create)

	// Bad input, refused as REST refuses it.
	createDoc := `mutation($in: CreatePayoutInput!) { createPayout(input: $in) { payout { id } } }`
	for _, tc := range []struct {
		name, code string
		in         map[string]any
	}{
		{"no amount", "IR_04", map[string]any{"currency": "USD"}},
		{"no currency", "IR_04", map[string]any{"amount": 100}},
		{"a bad card number", "IR_07", map[string]any{"amount": 100, "currency": "USD", "payoutMethodData": payoutCard("4242424242424241")}},
		{"two methods", "IR_07", map[string]any{"amount": 100, "currency": "USD", "payoutMethodData": map[string]any{
			"card": payoutCard("4242424242424242")["card"], "bankRedirect": map[string]any{"interac": map[string]any{"email": "a@example.com"}}}}},
		{"a bank without a scheme's member", "IR_07", map[string]any{"amount": 100, "currency": "USD", "payoutMethodData": map[string]any{
			"bank": map[string]any{"bankName": "Chase", "bankAccountNumber": "000123456789"}}}},
		{"an ACH account without its number", "IR_04", map[string]any{"amount": 100, "currency": "USD", "payoutMethodData": map[string]any{
			"bank": map[string]any{"bankRoutingNumber": "110000000"}}}},
		{"a BACS account without its number", "IR_04", map[string]any{"amount": 100, "currency": "GBP", "payoutMethodData": map[string]any{
			"bankTransfer": map[string]any{"bankSortCode": "231470"}}}},
		{"a Venmo wallet without its telephone", "IR_04", map[string]any{"amount": 100, "currency": "USD", "payoutMethodData": map[string]any{
			"wallet": map[string]any{"venmo": map[string]any{}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) { c.on(t).fails(tc.code, createDoc, map[string]any{"in": tc.in}) })
	}

	// Another merchant: not found, and the payout is left as it was.
	other := newGQL(t, srv.URL, newTenant(t, srv, "merchant_gql_payout_mut_other").key)
	other.fails("HE_02", `mutation($id: ID!) { fulfillPayout(id: $id) { payout { id } } }`, map[string]any{"id": confirmed.Payout.PayoutID})
	other.fails("HE_02", cancel, map[string]any{"id": id})

	// A VIEWER reads payouts and runs none of the mutations.
	admin, adminKey := signUp(t, srv.URL, "admin@payouts.example", "Payouts")
	viewer := bearer(t, srv.URL, member(t, srv.URL, bearer(t, srv.URL, admin.Token), "viewer@payouts.example", "VIEWER").Token)
	var theirs map[string]payoutAnswer
	newGQL(t, srv.URL, adminKey).must(`mutation { createPayout(input: {amount: 300, currency: "USD"}) { `+payoutSelection+` } }`, nil, &theirs)
	pid := theirs["createPayout"].Payout.PayoutID
	for _, doc := range []string{
		`mutation($id: ID!) { fulfillPayout(id: $id) { payout { id } } }`,
		`mutation($id: ID!) { cancelPayout(id: $id) { payout { id } } }`,
		`mutation($id: ID!) { confirmPayout(id: $id) { payout { id } } }`,
	} {
		viewer.fails("IR_22", doc, map[string]any{"id": pid})
	}
	viewer.fails("IR_22", createDoc, map[string]any{"in": map[string]any{"amount": 100, "currency": "USD"}})
	var read struct{ Payout struct{ Status string } }
	viewer.must(`query($id: ID!) { payout(id: $id) { status } }`, map[string]any{"id": pid}, &read)
	if read.Payout.Status != "requires_payout_method_data" {
		t.Fatalf("the viewer reads %+v", read)
	}
}

// payoutMethodsAsREST: a bank account's scheme, and a wallet, are told
// from the members given, as REST tells them: no scheme is asked for.
func payoutMethodsAsREST(t *testing.T, create func(map[string]any, any) payoutAnswer) {
	t.Helper()
	for _, tc := range []struct {
		name, currency, payoutType string
		method                     map[string]any
		member, key, want          string
	}{
		{"ACH", "USD", "bank", map[string]any{"bank": map[string]any{"bankAccountNumber": "000123456789", "bankRoutingNumber": "110000000"}},
			"bank", "bank_routing_number", "*****0000"},
		{"BACS", "GBP", "bank", map[string]any{"bankTransfer": map[string]any{"bankAccountNumber": "55550259", "bankSortCode": "231470"}},
			"bank", "bank_sort_code", "**1470"},
		{"Pix", "BRL", "bank", map[string]any{"bank": map[string]any{"bankAccountNumber": "12345678", "pixKey": "pixkey0001", "emv": "x"}},
			"bank", "pix_key", "******0001"},
		{"PayPal", "USD", "wallet", map[string]any{"wallet": map[string]any{"paypal": map[string]any{"email": "ada@example.com"}}},
			"wallet", "email", "a**@example.com"},
		{"Interac", "CAD", "bank_redirect", map[string]any{"bankRedirect": map[string]any{"interac": map[string]any{"email": "ada@example.com"}}},
			"bank_redirect", "email", "a**@example.com"},
	} {
		got := create(map[string]any{"amount": 700, "currency": tc.currency, "payoutMethodData": tc.method}, nil)
		shown, _ := got.Payout.PayoutMethodData[tc.member].(map[string]any)
		if got.Payout.Status != "requires_confirmation" || shown[tc.key] != tc.want {
			t.Errorf("a %s payout without a scheme: %+v", tc.name, got)
		}
	}
}
