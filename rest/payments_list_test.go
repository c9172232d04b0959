package rest_test

import (
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// GET /payments/list: every query parameter alone and combined with its
// boundaries, paging both ways under concurrent inserts, the page's golden
// JSON, the statement count of a page, and tenancy.

// TestPaymentsListParameters: every parameter alone and combined, at its
// boundaries, against the model; and every refusal.
func TestPaymentsListParameters(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	base := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	created := make([]time.Time, 25)
	for i := range created {
		created[i] = base.Add(time.Duration(i)*10*time.Second + 250*time.Millisecond)
	}
	created[11], created[12] = created[10], created[10] // a tie, ordered by id
	created[20] = base.Add(200 * time.Second)           // exactly on a second
	all := seedPayments(t, c.srv.Store.Client, c.srv.Demo.MerchantID, created, seedOptions{
		customers: []string{"cus_list_a", "cus_list_b"}, customerEvery: 3,
	})
	sorted := slices.Clone(all)
	slices.SortFunc(sorted, newerFirst)
	newest, oldest := sorted[0].id, sorted[len(sorted)-1].id
	shown := func(i int) *time.Time { s := all[i].created.Truncate(time.Second); return &s }
	at := func(t time.Time) *time.Time { return &t }
	p := func(i int) string { return all[i].id }

	cases := []struct {
		name string
		m    listModel
	}{
		{"defaults", listModel{}},
		{"limit=1", listModel{limit: 1}},
		{"limit=24", listModel{limit: 24}},
		{"limit=25", listModel{limit: 25}},
		{"limit=100", listModel{limit: 100}},
		{"customer a", listModel{customer: "cus_list_a", limit: 100}},
		{"customer b", listModel{customer: "cus_list_b"}},
		{"unknown customer", listModel{customer: "cus_nobody"}},
		{"customer id with a NUL and accents", listModel{customer: "cus_\x00é"}},
		{"created on a fraction-stored second", listModel{eq: shown(5)}},
		{"created on a tie", listModel{eq: shown(10)}},
		{"created on an exact second", listModel{eq: shown(20)}},
		{"created on an empty second", listModel{eq: at(shown(5).Add(-time.Second))}},
		{"created with a fraction", listModel{eq: at(shown(5).Add(500 * time.Millisecond))}},
		{"created.lt", listModel{lt: shown(5), limit: 100}},
		{"created.lte", listModel{lte: shown(5), limit: 100}},
		{"created.gt", listModel{gt: shown(5), limit: 100}},
		{"created.gte", listModel{gte: shown(5), limit: 100}},
		{"created.lt exact second", listModel{lt: shown(20), limit: 100}},
		{"created.lte exact second", listModel{lte: shown(20), limit: 100}},
		{"created.gt exact second", listModel{gt: shown(20), limit: 100}},
		{"created.gte exact second", listModel{gte: shown(20), limit: 100}},
		{"created.lt with a fraction", listModel{lt: at(shown(5).Add(100 * time.Millisecond)), limit: 100}},
		{"created.gte with a fraction", listModel{gte: at(shown(5).Add(100 * time.Millisecond)), limit: 100}},
		{"created.gt before everything", listModel{gt: at(base.Add(-time.Hour))}},
		{"created.lt before everything", listModel{lt: at(base)}},
		{"created.gte after everything", listModel{gte: at(base.Add(time.Hour))}},
		{"empty range", listModel{gte: shown(20), lt: shown(20)}},
		{"range", listModel{gte: shown(3), lt: shown(20), limit: 100}},
		{"range and customer", listModel{gt: shown(3), lte: shown(20), customer: "cus_list_a", limit: 100}},
		{"range and limit", listModel{gte: shown(3), lte: shown(20), limit: 2}},
		{"created and lte", listModel{eq: shown(10), lte: shown(10)}},
		{"created and lt", listModel{eq: shown(10), lt: shown(10)}},
		{"starting_after the newest", listModel{after: newest}},
		{"starting_after the oldest", listModel{after: oldest}},
		{"ending_before the newest", listModel{before: newest}},
		{"ending_before the oldest", listModel{before: oldest}},
		{"ending_before the oldest, limit=100", listModel{before: oldest, limit: 100}},
		{"starting_after a tie", listModel{after: p(11), limit: 3}},
		{"starting_after each tie", listModel{after: p(10), limit: 3}},
		{"ending_before a tie", listModel{before: p(11), limit: 2}},
		{"ending_before each tie", listModel{before: p(12), limit: 2}},
		{"starting_after and customer", listModel{after: p(15), customer: "cus_list_b"}},
		{"starting_after a payment the filter leaves out", listModel{after: p(16), customer: "cus_list_a", limit: 3}},
		{"starting_after and range", listModel{after: p(15), gte: shown(3), limit: 100}},
		{"starting_after outside the range", listModel{after: p(2), gte: shown(3)}},
		{"ending_before and range", listModel{before: p(2), lte: shown(20), limit: 5}},
		{"ending_before, customer, range, limit", listModel{before: p(1), customer: "cus_list_a", gte: shown(2), lte: shown(22), limit: 2}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, got := listPage(t, c, key, tc.m.query(), nil)
			if want := tc.m.expect(all); !slices.Equal(got, want) {
				t.Fatalf("?%s:\n got %v\nwant %v", tc.m.query(), got, want)
			}
		})
	}

	// The boundaries, spelled out (so the model is checked too): a payment
	// shown as created at T is in created=T, lte and gte, not in lt or gt.
	for _, i := range []int{5, 20} {
		T := shown(i).Format(timestampLayoutTest)
		for q, in := range map[string]bool{"created=": true, "created.lte=": true, "created.gte=": true,
			"created.lt=": false, "created.gt=": false, "created_lte=": true, "created_gte=": true,
			"created_lt=": false, "created_gt=": false} {
			_, got := listPage(t, c, key, q+T+"&limit=100", nil)
			if slices.Contains(got, p(i)) != in {
				t.Errorf("%s%s: payment %d (created %s) listed = %v, want %v", q, T, i, all[i].created, !in, in)
			}
		}
	}
	// The tie is ordered by id, newest first, and a cursor inside it splits it.
	_, tie := listPage(t, c, key, "created="+shown(10).Format(timestampLayoutTest), nil)
	if len(tie) != 3 || !slices.IsSortedFunc(tie, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("tie: %v", tie)
	}
	if _, got := listPage(t, c, key, "created="+shown(10).Format(timestampLayoutTest)+"&starting_after="+tie[0], nil); !slices.Equal(got, tie[1:]) {
		t.Errorf("starting_after %s inside the tie: %v, want %v", tie[0], got, tie[1:])
	}
	if _, got := listPage(t, c, key, "created="+shown(10).Format(timestampLayoutTest)+"&ending_before="+tie[2], nil); !slices.Equal(got, tie[:2]) {
		t.Errorf("ending_before %s inside the tie: %v, want %v", tie[2], got, tie[:2])
	}

	// Other spellings of the same query give the same page.
	T5 := *shown(5)
	for _, pair := range [][2]string{
		{"created_lt=" + T5.Format(timestampLayoutTest), "created.lt=" + T5.Format(timestampLayoutTest)},
		{"created_gt=" + T5.Format(timestampLayoutTest), "created.gt=" + T5.Format(timestampLayoutTest)},
		{"created_lte=" + T5.Format(timestampLayoutTest), "created.lte=" + T5.Format(timestampLayoutTest)},
		{"created_gte=" + T5.Format(timestampLayoutTest), "created.gte=" + T5.Format(timestampLayoutTest)},
		{"created.gte=" + url.QueryEscape(T5.In(time.FixedZone("", 2*3600)).Format(time.RFC3339)), "created.gte=" + T5.Format(timestampLayoutTest)},
		{"created.gte=" + T5.In(time.FixedZone("", 2*3600)).Format(time.RFC3339), "created.gte=" + T5.Format(timestampLayoutTest)}, // "+" sent unescaped
		{"created.gte=" + T5.In(time.FixedZone("", -5*3600)).Format(time.RFC3339), "created.gte=" + T5.Format(timestampLayoutTest)},
		{"created.lte=" + T5.Format("2006-01-02T15:04:05"), "created.lte=" + T5.Format(timestampLayoutTest)}, // no zone: UTC
		{"created.lte=" + T5.Format("2006-01-02T15:04:05.000Z"), "created.lte=" + T5.Format(timestampLayoutTest)},
	} {
		_, a := listPage(t, c, key, pair[0]+"&limit=100", nil)
		_, b := listPage(t, c, key, pair[1]+"&limit=100", nil)
		if !slices.Equal(a, b) || len(a) == 0 {
			t.Errorf("%q gives %v, %q gives %v", pair[0], a, pair[1], b)
		}
	}
	if _, a := listPage(t, c, key, "", nil); !slices.Equal(a, listModel{limit: 10}.expect(all)) {
		t.Errorf("no parameters: %v, want the newest 10", a)
	}

	// Refusals: 400 (404 for a cursor that is not the caller's payment) in
	// the envelope, naming the parameter; never a 500.
	refusals := []struct {
		query, code, names string
		status             int
	}{
		{"limit=0", "IR_07", "limit", 400},
		{"limit=101", "IR_07", "limit", 400},
		{"limit=-1", "IR_07", "limit", 400},
		{"limit=abc", "IR_07", "limit", 400},
		{"limit=1.5", "IR_07", "limit", 400},
		{"limit=99999999999999999999", "IR_07", "limit", 400},
		{"limit=", "IR_07", "limit", 400},
		{"limit=1&limit=2", "IR_07", "limit", 400},
		{"customer_id=" + strings.Repeat("c", 65), "IR_07", "customer_id", 400},
		{"customer_id=", "IR_07", "customer_id", 400},
		{"starting_after=" + newest + "&ending_before=" + oldest, "IR_07", "ending_before", 400},
		{"starting_after=", "IR_07", "starting_after", 400},
		{"ending_before=", "IR_07", "ending_before", 400},
		{"starting_after=pay_unknown", "HE_02", "starting_after", 404},
		{"ending_before=pay_unknown", "HE_02", "ending_before", 404},
		{"starting_after=" + strings.Repeat("x", 300), "HE_02", "starting_after", 404},
		{"created.lt=2024-05-01T12:00:00Z&created_lt=2024-05-01T12:00:00Z", "IR_07", "created_lt", 400},
		{"created_gte=2024-05-01T12:00:00Z&created.gte=2024-05-01T12:00:01Z", "IR_07", "created_gte", 400},
		{"created.gte=yesterday", "IR_07", "created.gte", 400},
		{"created=2024-05-01", "IR_07", "created", 400},
		{"created.lt=2024-13-01T00:00:00Z", "IR_07", "created.lt", 400},
		{"created.gt=2024-05-01T25:00:00Z", "IR_07", "created.gt", 400},
		{"created_lte=1714564800", "IR_07", "created_lte", 400},
		{"created.lte=", "IR_07", "created.lte", 400},
		{"foo=1", "IR_06", "foo", 400},
		{"Limit=10", "IR_06", "Limit", 400},
		{"created.eq=2024-05-01T12:00:00Z", "IR_06", "created.eq", 400},
		{"customer=cus_list_a", "IR_06", "customer", 400},
		{"offset=10", "IR_06", "offset", 400},
		{"limit=10&%zz", "IR_06", "malformed", 400},
		{"starting_after=pay_%FF", "IR_07", "starting_after", 400},
		{"customer_id=%C3%28", "IR_07", "customer_id", 400},
		{"starting_after=pay_%00", "HE_02", "starting_after", 404},
	}
	for _, rf := range refusals {
		r := c.do("GET", "/payments/list?"+rf.query, key, nil)
		if r.Status != rf.status || r.errCode() != rf.code || !strings.Contains(r.str("error", "message"), rf.names) {
			t.Errorf("?%s: %d %s, want %d %s naming %s", rf.query, r.Status, r.Raw, rf.status, rf.code, rf.names)
		}
	}
}

// timestampLayoutTest is the wire's pattern.
const timestampLayoutTest = "2006-01-02T15:04:05Z"

// TestPaymentsListRoute: the literal /payments/list wins over
// /payments/{payment_id}; keys are checked as on every merchant route.
func TestPaymentsListRoute(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	id := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	if _, got := listPage(t, c, key, "", nil); !slices.Equal(got, []string{id}) {
		t.Fatalf("GET /payments/list: %v, want [%s]", got, id)
	}
	if r := c.do("GET", "/payments/"+id, key, nil).must(t, 200); r.str("payment_id") != id {
		t.Fatalf("GET /payments/%s: %s", id, r.Raw)
	}
	// With the admin key: as the merchant X-Merchant-Id names; never unscoped.
	if _, got := listPage(t, c, c.admin(), "", map[string]string{"X-Merchant-Id": c.srv.Demo.MerchantID}); !slices.Equal(got, []string{id}) {
		t.Fatalf("admin as the merchant: %v", got)
	}
	if r := c.do("GET", "/payments/list", c.admin(), nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("admin without a merchant: %d %s", r.Status, r.Raw)
	}
	pk := c.do("GET", "/accounts/"+c.srv.Demo.MerchantID, c.admin(), nil).must(t, 200).str("publishable_key")
	for name, k := range map[string]string{"no key": "", "an unknown key": "snd_unknown", "the publishable key": pk} {
		if r := c.do("GET", "/payments/list", k, nil); r.Status != 401 || r.errCode() != "IR_01" {
			t.Errorf("%s: %d %s, want 401 IR_01", name, r.Status, r.Raw)
		}
	}
	if r := c.do("DELETE", "/payments/list", key, nil); r.Status != 405 {
		t.Errorf("DELETE /payments/list: %d %s", r.Status, r.Raw)
	}
}

// TestPaymentsListPaging pages forwards and backwards through 1,000
// payments while another goroutine keeps adding payments, both new ones
// (through POST /payments) and back-dated ones among the existing: every
// payment that existed at the start is seen exactly once, in order, and no
// page repeats a payment.
func TestPaymentsListPaging(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	merchant := c.srv.Demo.MerchantID
	start := time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Microsecond)
	created := make([]time.Time, 1000)
	for i := range created {
		// Groups of four share a timestamp, so pages split ties.
		created[i] = start.Add(time.Duration(i/4) * 7 * time.Second).Add(time.Duration(i/4%3) * 333 * time.Millisecond)
	}
	existing := seedPayments(t, c.srv.Store.Client, merchant, created, seedOptions{
		customers: []string{"cus_paging"}, customerEvery: 7,
	})
	slices.SortFunc(existing, newerFirst)
	want := make([]string, len(existing))
	for i, p := range existing {
		want[i] = p.id
	}
	isExisting := make(map[string]bool, len(want))
	for _, id := range want {
		isExisting[id] = true
	}

	// The writer runs beside the pager; the pager also waits for two more
	// writes before each page, so writes land between every two pages
	// however fast either side runs.
	stop, written := make(chan struct{}), make(chan struct{}, 1000)
	var wg sync.WaitGroup
	var stopOnce sync.Once
	halt := func() { stopOnce.Do(func() { close(stop) }); wg.Wait() }
	defer halt()
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(written)
		rng := rand.New(rand.NewPCG(1, 2))
		for n := 0; n < 400; n++ {
			select {
			case <-stop:
				return
			default:
			}
			if n%2 == 0 { // a new payment, as a merchant creates one
				r := c.do("POST", "/payments", key, payment(nil))
				if r.Status != 200 {
					t.Errorf("concurrent create: %d %s", r.Status, r.Raw)
					return
				}
			} else { // a back-dated one among the existing
				at := created[rng.IntN(len(created))].Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
				seedPayments(t, c.srv.Store.Client, merchant, []time.Time{at}, seedOptions{})
			}
			written <- struct{}{}
		}
	}()
	interleave := func() {
		for range 2 {
			<-written // returns at once when the writer has finished
		}
	}

	const limit = 100
	var forward []string
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 40 {
			t.Fatal("forward paging does not end")
		}
		q := "limit=" + strconv.Itoa(limit)
		if cursor != "" {
			q += "&starting_after=" + cursor
		}
		interleave()
		_, page := listPage(t, c, key, q, nil)
		if len(page) == 0 {
			break
		}
		forward = append(forward, page...)
		if len(page) < limit {
			break // the oldest page
		}
		cursor = page[len(page)-1]
	}
	var backward []string
	cursor = want[len(want)-1] // from the oldest payment, towards the newest
	for pages := 0; ; pages++ {
		if pages > 40 {
			t.Fatal("backward paging does not end")
		}
		interleave()
		_, page := listPage(t, c, key, "limit="+strconv.Itoa(limit)+"&ending_before="+cursor, nil)
		if len(page) == 0 {
			break
		}
		backward = append(slices.Clone(page), backward...)
		if len(page) < limit {
			break // the newest page, as of now: the writer may add more, forever
		}
		cursor = page[0]
	}
	backward = append(backward, want[len(want)-1])
	halt()

	for name, seen := range map[string][]string{"forward": forward, "backward": backward} {
		count := map[string]int{}
		var existingSeen []string
		for _, id := range seen {
			if count[id]++; count[id] == 2 {
				t.Errorf("%s: %s listed twice", name, id)
			}
			if isExisting[id] {
				existingSeen = append(existingSeen, id)
			}
		}
		if !slices.Equal(existingSeen, want) {
			missing := 0
			for _, id := range want {
				if count[id] == 0 {
					missing++
				}
			}
			t.Errorf("%s: %d of the %d existing payments listed (%d missing), or out of order",
				name, len(existingSeen), len(want), missing)
		}
		t.Logf("%s: %d payments listed, %d of them added while paging", name, len(seen), len(seen)-len(existingSeen))
	}
}

// TestPaymentsListStatements: a page costs the same number of SQL
// statements whatever its size (no N+1): limit=1 and limit=100 over
// payments that each carry an attempt, captures, a refund, a dispute and a
// customer, with and without a cursor and filters.
func TestPaymentsListStatements(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	c := &client{t: t, srv: srv}
	base := time.Now().UTC().Add(-time.Hour).Truncate(time.Second)
	created := make([]time.Time, 150)
	for i := range created {
		created[i] = base.Add(time.Duration(i) * time.Second)
	}
	seeded := seedPayments(t, srv.Store.Client, srv.Demo.MerchantID, created, seedOptions{
		customers: []string{"cus_count_a", "cus_count_b", "cus_count_c"}, customerEvery: 1, nested: true,
	})
	slices.SortFunc(seeded, newerFirst)
	statements := func(query string, wantSize int) []string {
		t.Helper()
		reqID := "count-" + ids.Base62(12)
		r, got := listPage(t, c, c.merchantKey(), query, map[string]string{"X-Request-Id": reqID})
		if len(got) != wantSize {
			t.Fatalf("?%s: %d payments, want %d", query, len(got), wantSize)
		}
		for _, rec := range r.Body.([]any)[0].(map[string]any)["data"].([]any) {
			m := rec.(map[string]any)
			for _, k := range []string{"attempts", "captures", "refunds", "disputes"} {
				if l, _ := m[k].([]any); len(l) == 0 {
					t.Fatalf("?%s: %s has no %s", query, m["payment_id"], k)
				}
			}
			if m["customer"] == nil {
				t.Fatalf("?%s: %s has no customer", query, m["payment_id"])
			}
		}
		return counter.Statements(reqID)
	}
	statements("limit=1", 1) // the key is cached from here on: no statement of its own
	cursor := seeded[10].id
	for _, q := range []struct{ small, large string }{
		{"limit=1", "limit=100"},
		{"limit=1&starting_after=" + cursor, "limit=100&starting_after=" + cursor},
		{"limit=1&ending_before=" + seeded[len(seeded)-1].id, "limit=100&ending_before=" + seeded[len(seeded)-1].id},
		{"limit=1&customer_id=cus_count_a&created.gte=" + base.Format(timestampLayoutTest), "limit=100&customer_id=cus_count_a&created.gte=" + base.Format(timestampLayoutTest)},
	} {
		small := statements(q.small, 1)
		wantLarge := 100
		if strings.Contains(q.large, "customer_id") {
			wantLarge = 50
		}
		large := statements(q.large, wantLarge)
		if len(small) != len(large) || len(small) == 0 {
			t.Errorf("?%s costs %d statements, ?%s costs %d:\n%s\n---\n%s", q.small, len(small), q.large, len(large),
				strings.Join(small, "\n"), strings.Join(large, "\n"))
		}
		// The cursor and customer when given, the page's keys and rows, and
		// one query per nested kind (attempts, captures, refunds, disputes,
		// incremental authorizations, customers). The API key comes from
		// the key cache.
		want := 2 + 6
		for _, p := range []string{"starting_after", "ending_before", "customer_id"} {
			if strings.Contains(q.large, p) {
				want++
			}
		}
		if len(large) != want {
			t.Errorf("?%s: %d statements, want %d:\n%s", q.large, len(large), want, strings.Join(large, "\n"))
		}
	}
}
