package rest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// TestPaymentsCrossTenant: another merchant's payment id is 404 on every
// payment route, whatever the key, and the payment is untouched.
func TestPaymentsCrossTenant(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_pay_a")
	b := makeMerchant(t, c, "merchant_pay_b")
	bPay := func(members map[string]any) string {
		t.Helper()
		return c.do("POST", "/payments", b.key, payment(members)).must(t, 200).str("payment_id")
	}
	open := bPay(nil)
	authorized := bPay(map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
	bAcct := c.do("GET", "/accounts/"+b.id, c.admin(), nil).must(t, 200)
	bSecret := c.do("GET", "/payments/"+open, b.key, nil).must(t, 200).str("client_secret")
	aAcct := c.do("GET", "/accounts/"+a.id, c.admin(), nil).must(t, 200)

	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", "/payments/" + open, nil},
		{"POST", "/payments/" + open, map[string]any{"description": "mine now"}},
		{"POST", "/payments/" + open + "/confirm", map[string]any{"payment_method_data": card("4242424242424242")}},
		{"POST", "/payments/" + authorized + "/capture", map[string]any{}},
		{"POST", "/payments/" + authorized + "/cancel", map[string]any{}},
	}
	callers := []struct {
		name    string
		key     string
		headers map[string]string
	}{
		{"A's secret key", a.key, nil},
		{"the admin key as A", c.admin(), map[string]string{"X-Merchant-Id": a.id}},
		{"A's publishable key", aAcct.str("publishable_key"), nil},
		{"B's key narrowed to its other profile", b.key, map[string]string{"X-Profile-Id": b.profileID}},
	}
	for _, rt := range routes {
		for _, cl := range callers {
			r := c.doWith(rt.method, rt.path, cl.key, rt.body, cl.headers)
			want := 404
			if cl.name == "A's publishable key" && !strings.HasSuffix(rt.path, "/confirm") && rt.method != "GET" {
				want = 401 // not a client route
			}
			if r.Status != want || (want == 404 && r.errCode() != "HE_02") {
				t.Errorf("%s %s with %s: %d %s, want %d", rt.method, rt.path, cl.name, r.Status, r.Raw, want)
			}
			if strings.Contains(string(r.Raw), b.id) {
				t.Errorf("B's data leaked: %s", r.Raw)
			}
		}
	}
	// B's publishable key and secret on a route that names A's payment id:
	aPay := c.do("POST", "/payments", a.key, payment(nil)).must(t, 200).str("payment_id")
	if r := c.do("GET", "/payments/"+aPay+"?client_secret="+url.QueryEscape(bSecret), bAcct.str("publishable_key"), nil); r.Status != 404 {
		t.Errorf("B's pk on A's payment: %d %s", r.Status, r.Raw)
	}
	// The admin key without a merchant has no payments to act on.
	if r := c.do("GET", "/payments/"+open, c.admin(), nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Errorf("admin without X-Merchant-Id: %d %s", r.Status, r.Raw)
	}
	// B's payments are untouched, and B still sees them.
	if r := c.do("GET", "/payments/"+open, b.key, nil).must(t, 200); r.str("status") != "requires_payment_method" || r.obj()["description"] != nil {
		t.Errorf("B's open payment changed: %s", r.Raw)
	}
	if r := c.do("GET", "/payments/"+authorized, b.key, nil).must(t, 200); r.str("status") != "requires_capture" {
		t.Errorf("B's authorized payment changed: %s", r.Raw)
	}
	if r := c.doWith("GET", "/payments/"+open, c.admin(), nil, map[string]string{"X-Merchant-Id": b.id}); r.Status != 200 {
		t.Errorf("admin as B: %d %s", r.Status, r.Raw)
	}
}

func keysOf(m map[string]any) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ",")
}

// syncBuffer is a log sink the server's goroutines share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCardNumberNeverLeaves: card numbers (and CVCs) sent through every
// payment path appear in no response, no log line at debug level, no
// database column and no Redis value.
func TestCardNumberNeverLeaves(t *testing.T) {
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	prev := slog.Default()
	slog.SetDefault(logger)
	t.Cleanup(func() { slog.SetDefault(prev) })
	c := &client{t: t, srv: testenv.NewServerWith(t, testenv.Config(t, testenv.Database(t)), logger)}

	numbers := []string{"4242424242424242", "4000000000009995", "4000000000003063", "5555555555554444",
		"4000000000000259", "378282246310005", "6011111111111117",
		"31415920"} // the shortest Hyperswitch takes, which the connector declines
	const cvc = "987"
	var responses []string
	record := func(r response) response {
		responses = append(responses, string(r.Raw))
		return r
	}
	cardWithCVC := func(number string) map[string]any {
		cv := cvc
		if strings.HasPrefix(number, "3") {
			cv = "9876"
		}
		return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "11",
			"card_exp_year": futureYear, "card_holder_name": "Card Holder", "card_cvc": cv}}
	}
	for _, n := range numbers {
		// Create and confirm at once; create, then confirm from the vault; update with the card;
		// confirm with the publishable key; a mismatched card number (a refused request).
		r := record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "return_url": "https://shop.example/r",
			"payment_method_data": cardWithCVC(n)})))
		if r.str("status") == "requires_customer_action" {
			authenticate(t, r, "Approve")
			record(c.pay("GET", "/payments/"+r.str("payment_id"), nil))
		}
		id := record(c.pay("POST", "/payments", payment(map[string]any{"payment_method_data": cardWithCVC(n)}))).str("payment_id")
		record(c.idem("POST", "/payments/"+id+"/confirm", "confirm-"+id, map[string]any{}))
		id = record(c.pay("POST", "/payments", payment(nil))).str("payment_id")
		record(c.pay("POST", "/payments/"+id, map[string]any{"payment_method_data": cardWithCVC(n)}))
		created := record(c.pay("POST", "/payments", payment(nil)))
		record(c.do("POST", "/payments/"+created.str("payment_id")+"/confirm", c.srv.Demo.PublishableKey,
			map[string]any{"client_secret": created.str("client_secret"), "payment_method_data": cardWithCVC(n)}))
		record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "wallet",
			"payment_method_data": cardWithCVC(n)})))
	}
	record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": cardWithCVC("4242424242424241")})))
	// A mandate saves the card (masked) and charges it again without it.
	setup := payment(map[string]any{"confirm": true, "customer_id": "cus_never", "setup_future_usage": "off_session",
		"payment_method_data": cardWithCVC("4242424242424242"), "mandate_data": map[string]any{
			"customer_acceptance": map[string]any{"acceptance_type": "offline"}}})
	mandateID := record(c.pay("POST", "/payments", setup)).str("mandate_id")
	if mandateID == "" {
		t.Fatalf("no mandate: %s", responses[len(responses)-1])
	}
	record(c.pay("POST", "/payments", map[string]any{"amount": 500, "currency": "USD", "confirm": true,
		"off_session": true, "customer_id": "cus_never", "mandate_id": mandateID}))
	record(c.pay("GET", "/mandates/"+mandateID, nil))
	record(c.pay("GET", "/customers/cus_never/mandates", nil))
	if len(responses) < 40 {
		t.Fatalf("only %d responses", len(responses))
	}
	numbers = append(numbers, "4242424242424241")

	check := func(where, s string) {
		t.Helper()
		for _, n := range numbers {
			if strings.Contains(s, n) {
				t.Errorf("%s holds the card number %s", where, n)
			}
		}
		if strings.Contains(s, `"card_cvc"`) || strings.Contains(s, `"9876"`) || strings.Contains(s, `"`+cvc+`"`) {
			t.Errorf("%s holds a CVC", where)
		}
	}
	for i, r := range responses {
		check(fmt.Sprintf("response %d", i), r)
	}
	if !strings.Contains(logs.String(), "http request") {
		t.Fatalf("the log capture saw no request: %q", logs.String())
	}
	check("the log", logs.String())
	dump := dumpDatabase(t, c)
	sawCard := false
	for _, v := range dump {
		check(v.table+"."+v.column, string(v.value))
		if strings.Contains(string(v.value), `"last4":"4242"`) || strings.Contains(string(v.value), `"last4": "4242"`) {
			sawCard = true
		}
	}
	if !sawCard {
		t.Fatal("the dump holds no card details: it does not read the attempts")
	}
	for _, table := range []string{"mandates", "payment_methods"} {
		if !slices.ContainsFunc(dump, func(v storedValue) bool { return v.table == table }) {
			t.Fatalf("the dump has no %s row: the mandate's card is not checked", table)
		}
	}
	// Cards given without confirm wait sealed in the Redis vault (the
	// updated payments above were never confirmed).
	ctx := context.Background()
	rdb := c.srv.Redis.Client
	keys := testenv.RedisKeys(t, rdb, "pmv:*")
	if len(keys) == 0 {
		t.Fatal("no vaulted card to check")
	}
	for _, k := range append(keys, testenv.RedisKeys(t, rdb, "idem:*")...) {
		if v, err := rdb.Get(ctx, k).Result(); err == nil {
			check("redis "+k, v)
		}
	}
}

// TestPaymentsListCrossTenant: another merchant's payment id as a cursor is
// 404, as is one of another profile when X-Profile-Id narrows the key; the
// list never shows another merchant's (or profile's) payments.
func TestPaymentsListCrossTenant(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_list_a")
	b := makeMerchant(t, c, "merchant_list_b")
	base := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	times := func(n int) []time.Time {
		out := make([]time.Time, n)
		for i := range out {
			out[i] = base.Add(time.Duration(i) * time.Minute)
		}
		return out
	}
	aPays := seedPayments(t, c.srv.Store.Client, a.id, times(5), seedOptions{customers: []string{"cus_shared"}, customerEvery: 1})
	bPays := seedPayments(t, c.srv.Store.Client, b.id, times(5), seedOptions{customers: []string{"cus_shared"}, customerEvery: 1, nested: true})
	bOther := seedPayments(t, c.srv.Store.Client, b.id, times(2), seedOptions{profileID: b.profileID})
	ids := func(ps []seededPayment) []string {
		out := []string{}
		for _, p := range ps {
			out = append(out, p.id)
		}
		return out
	}
	leaks := func(name string, r response, foreign []string) {
		t.Helper()
		for _, id := range foreign {
			if strings.Contains(string(r.Raw), id) {
				t.Errorf("%s: %s leaked: %s", name, id, r.Raw)
			}
		}
	}
	callers := []struct {
		name    string
		key     string
		headers map[string]string
	}{
		{"A's key", a.key, nil},
		{"the admin key as A", c.admin(), map[string]string{"X-Merchant-Id": a.id}},
	}
	for _, cl := range callers {
		for _, q := range []string{"limit=100", "customer_id=cus_shared&limit=100", "created.gte=" + base.Format(timestampLayoutTest) + "&limit=100"} {
			r, got := listPage(t, c, cl.key, q, cl.headers)
			slices.Sort(got)
			want := ids(aPays)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("%s ?%s: %v, want A's %v", cl.name, q, got, want)
			}
			leaks(cl.name+" ?"+q, r, append(ids(bPays), append(ids(bOther), b.id)...))
		}
		for _, p := range append(ids(bPays), ids(bOther)...) {
			for _, param := range []string{"starting_after", "ending_before"} {
				r := c.doWith("GET", "/payments/list?"+param+"="+p, cl.key, nil, cl.headers)
				if r.Status != 404 || r.errCode() != "HE_02" {
					t.Errorf("%s with B's %s as %s: %d %s, want 404 HE_02", cl.name, p, param, r.Status, r.Raw)
				}
				leaks(cl.name+" cursor", r, []string{b.id})
			}
		}
	}
	// B's key narrowed to its second profile sees that profile's payments
	// only, and a cursor of its default profile is not found.
	narrowed := map[string]string{"X-Profile-Id": b.profileID}
	r, got := listPage(t, c, b.key, "limit=100", narrowed)
	if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(ids(bOther)))) {
		t.Errorf("B narrowed to %s: %v, want %v", b.profileID, got, ids(bOther))
	}
	leaks("B narrowed", r, append(ids(aPays), ids(bPays)...))
	if r := c.doWith("GET", "/payments/list?starting_after="+bPays[0].id, b.key, nil, narrowed); r.Status != 404 || r.errCode() != "HE_02" {
		t.Errorf("cursor of another profile: %d %s", r.Status, r.Raw)
	}
	// And B, unnarrowed, sees all of its own.
	if _, got := listPage(t, c, b.key, "limit=100", nil); len(got) != len(bPays)+len(bOther) {
		t.Errorf("B: %d payments, want %d", len(got), len(bPays)+len(bOther))
	}
}

// TestStoredDataGivesNoCardAway: after a card payment made with an
// Idempotency-Key over REST and another over GraphQL, no Redis value and no
// database row holds the card number, the CVC, or an unkeyed hash, hex or
// base64 form of the request body (from which a brute force over the few
// million plausible cards would recover both).
func TestStoredDataGivesNoCardAway(t *testing.T) {
	c := newClient(t)
	const pan, cvc = "4000000000000077", "739"
	body := []byte(`{"amount":2500,"currency":"USD","confirm":true,"payment_method":"card","payment_method_data":` +
		`{"card":{"card_number":"` + pan + `","card_exp_month":"11","card_exp_year":"` + futureYear + `","card_cvc":"` + cvc + `"}}}`)
	r := c.idem("POST", "/payments", runKey("stored"), body).must(t, 200)
	if r.str("status") != "succeeded" {
		t.Fatalf("payment: %s", r.Raw)
	}
	gql := `mutation($k: String) { createPayment(input: {amount: 700, currency: "USD", confirm: true, paymentMethod: "card",
		paymentMethodData: {card: {cardNumber: "` + pan + `", cardExpMonth: "11", cardExpYear: "` + futureYear + `", cardCvc: "` + cvc + `"}}},
		idempotencyKey: $k) { payment { status } } }`
	gqlBody, _ := json.Marshal(map[string]any{"query": gql, "variables": map[string]any{"k": runKey("stored-gql")}})
	g := c.doWith("POST", "/graphql", c.merchantKey(), gqlBody, nil).must(t, 200)
	if !strings.Contains(string(g.Raw), `"status":"succeeded"`) {
		t.Fatalf("GraphQL payment: %s", g.Raw)
	}

	var forbidden []string
	for _, b := range [][]byte{body, gqlBody} {
		sum := sha256.Sum256(b)
		withOp := sha256.Sum256(append([]byte("POST /payments\x00"), b...))
		forbidden = append(forbidden, hex.EncodeToString(sum[:]), hex.EncodeToString(withOp[:]),
			base64.StdEncoding.EncodeToString(sum[:]), base64.StdEncoding.EncodeToString(b),
			base64.RawURLEncoding.EncodeToString(b), hex.EncodeToString(b))
	}
	// The CVC written as a number is looked for under a member naming a
	// CVC: a bare ":739," would also match an amount of 739, which tests
	// running beside this one write to the same Redis.
	numericCVC := regexp.MustCompile(`(?i)"[a-z_]*(cvc|cvv|security_code)[a-z_]*"\s*:\s*` + cvc + `\b`)
	check := func(where, v string) {
		t.Helper()
		if strings.Contains(v, pan) || strings.Contains(v, `"`+cvc+`"`) || numericCVC.MatchString(v) {
			t.Errorf("%s holds the card number or the CVC: %.200s", where, v)
		}
		for _, f := range forbidden {
			if strings.Contains(v, f) {
				t.Errorf("%s holds an unkeyed form of the request body", where)
			}
		}
	}
	for _, v := range dumpDatabase(t, c) {
		check(v.table+"."+v.column, string(v.value))
	}
	ctx := context.Background()
	rdb := c.srv.Redis.Client
	sawIdem, keys := 0, testenv.RedisKeys(t, rdb, "*")
	for _, k := range keys {
		var values []string
		switch rdb.Type(ctx, k).Val() {
		case "string":
			values = []string{rdb.Get(ctx, k).Val()}
		case "hash":
			for f, v := range rdb.HGetAll(ctx, k).Val() {
				values = append(values, f, v)
			}
		case "list":
			values = rdb.LRange(ctx, k, 0, -1).Val()
		case "set":
			values = rdb.SMembers(ctx, k).Val()
		}
		for _, v := range values {
			check("redis "+k, v)
			if strings.Contains(v, `"fingerprint"`) {
				sawIdem++
			}
		}
	}
	if sawIdem < 2 {
		t.Fatalf("%d idempotency records among %d Redis keys: the scan misses them", sawIdem, len(keys))
	}
}
