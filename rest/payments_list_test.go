package rest_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentintent"
	"switchyard/ent/profile"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// GET /payments/list: every query parameter alone and combined with its
// boundaries, paging both ways under concurrent inserts, the page's golden
// JSON, the statement count of a page, and tenancy.

// seededPayment is a payment written straight through ent.
type seededPayment struct {
	id       string    // payment_id (= the row id, as for a v1 payment without one given)
	created  time.Time // stored created_at
	customer string    // merchant-facing customer_id, or ""
}

// seedOptions say what seedPayments writes beside each intent.
type seedOptions struct {
	profileID string
	// customers are merchant-facing customer ids; payment i belongs to
	// customers[i%len] when customerEvery divides i.
	customers     []string
	customerEvery int
	// nested gives every payment a charged attempt, two captures, a refund
	// and a dispute, as a captured and partly refunded payment has.
	nested bool
}

// seedPayments writes one payment per created time for merchantID, directly
// through ent with a merchant-scoped context (fast: no HTTP, batched
// inserts), and returns them.
func seedPayments(t testing.TB, client *ent.Client, merchantID string, created []time.Time, o seedOptions) []seededPayment {
	t.Helper()
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), merchantID)
	if o.profileID == "" {
		prof, err := client.Profile.Query().Where(profile.IsDefault(true)).Only(ctx)
		if err != nil {
			t.Fatal(err)
		}
		o.profileID = prof.ID
	}
	customerRows := map[string]string{} // customer_id → row id
	for _, cid := range o.customers {
		row, err := client.Customer.Query().Where(customer.CustomerID(cid)).Only(ctx)
		if ent.IsNotFound(err) {
			row, err = client.Customer.Create().SetCustomerID(cid).SetName("Customer " + cid).Save(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		customerRows[cid] = row.ID
	}
	out := make([]seededPayment, len(created))
	const batch = 200
	usd := schematype.Currency("USD")
	for start := 0; start < len(created); start += batch {
		end := min(start+batch, len(created))
		var intents []*ent.PaymentIntentCreate
		var attempts []*ent.PaymentAttemptCreate
		var captures []*ent.CaptureCreate
		var refunds []*ent.RefundCreate
		var disputes []*ent.DisputeCreate
		for i := start; i < end; i++ {
			at := created[i].UTC()
			id := ids.New(ids.Payment)
			out[i] = seededPayment{id: id, created: at}
			c := client.PaymentIntent.Create().SetID(id).SetPaymentID(id).SetProfileID(o.profileID).
				SetAmount(10000).SetCurrency(usd).SetClientSecret(ids.ClientSecret(id)).
				SetCreatedAt(at).SetModifiedAt(at).SetExpiresOn(at.Add(15 * time.Minute))
			if len(o.customers) > 0 && o.customerEvery > 0 && i%o.customerEvery == 0 {
				cid := o.customers[(i/o.customerEvery)%len(o.customers)]
				out[i].customer = cid
				c.SetCustomerID(customerRows[cid])
			}
			if o.nested {
				attempt := ids.New(ids.Attempt)
				connector := "stripe_test"
				c.SetStatus(paymentintent.StatusSucceeded).SetAmountCaptured(10000).SetAttemptCount(1).
					SetActiveAttemptID(attempt).SetCaptureMethod(paymentintent.CaptureMethodManualMultiple).
					SetConnector(connector).SetPaymentMethod("card")
				attempts = append(attempts, client.PaymentAttempt.Create().SetID(attempt).SetPaymentIntentID(id).
					SetStatus("charged").SetAmount(10000).SetNetAmount(10000).SetCurrency(usd).
					SetConnector(connector).SetPaymentMethod("card").SetCreatedAt(at).SetModifiedAt(at))
				for seq, amount := range []int64{6000, 4000} {
					captures = append(captures, client.Capture.Create().SetPaymentIntentID(id).
						SetAuthorizedAttemptID(attempt).SetStatus("charged").SetAmount(amount).SetCurrency(usd).
						SetConnector(connector).SetCaptureSequence(seq+1).
						SetCreatedAt(at.Add(time.Duration(seq+1)*time.Second)).SetModifiedAt(at))
				}
				ref := ids.New(ids.Refund)
				refunds = append(refunds, client.Refund.Create().SetID(ref).SetRefundID(ref).SetPaymentIntentID(id).
					SetAttemptID(attempt).SetProfileID(o.profileID).SetConnector(connector).SetAmount(1500).
					SetCurrency(usd).SetStatus("succeeded").SetCreatedAt(at.Add(time.Minute)).SetModifiedAt(at))
				disputes = append(disputes, client.Dispute.Create().SetPaymentIntentID(id).SetAttemptID(attempt).
					SetProfileID(o.profileID).SetAmount(10000).SetCurrency(usd).SetConnector(connector).
					SetConnectorStatus("needs_response").SetConnectorDisputeID("dp_conn_"+id[4:]).
					SetCreatedAt(at.Add(2*time.Minute)).SetModifiedAt(at))
			}
			intents = append(intents, c)
		}
		if err := client.PaymentIntent.CreateBulk(intents...).Exec(ctx); err != nil {
			t.Fatalf("seed payments: %v", err)
		}
		if len(attempts) > 0 {
			if err := client.PaymentAttempt.CreateBulk(attempts...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if err := client.Capture.CreateBulk(captures...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if err := client.Refund.CreateBulk(refunds...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
			if err := client.Dispute.CreateBulk(disputes...).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// listPage calls GET /payments/list?query and checks the body is the spec's
// shape: an array of exactly one {size, data} object whose size is the
// number of records in data. It returns the reply and the page's payment ids.
func listPage(t *testing.T, c *client, key, query string, headers map[string]string) (response, []string) {
	t.Helper()
	r := c.doWith("GET", "/payments/list?"+query, key, nil, headers)
	if r.Status != 200 {
		t.Fatalf("GET /payments/list?%s: %d %s", query, r.Status, r.Raw)
	}
	arr, ok := r.Body.([]any)
	if !ok || len(arr) != 1 {
		t.Fatalf("?%s: body is not an array of one object: %s", query, r.Raw)
	}
	obj, _ := arr[0].(map[string]any)
	data, ok := obj["data"].([]any)
	size, _ := obj["size"].(float64)
	if len(obj) != 2 || !ok || int(size) != len(data) {
		t.Fatalf("?%s: want exactly {size, data} with size = len(data): %s", query, r.Raw)
	}
	out := make([]string, len(data))
	for i, d := range data {
		rec, _ := d.(map[string]any)
		out[i], _ = rec["payment_id"].(string)
	}
	return r, out
}

// listModel is what a query asks for, evaluated over the seeded payments
// independently of the implementation: newest first by (created_at, id),
// created bounds compared with the second the record shows.
type listModel struct {
	customer, after, before string
	limit                   int
	eq, lt, gt, lte, gte    *time.Time
}

func (m listModel) query() string {
	v := url.Values{}
	set := func(k, s string) {
		if s != "" {
			v.Set(k, s)
		}
	}
	set("customer_id", m.customer)
	set("starting_after", m.after)
	set("ending_before", m.before)
	if m.limit != 0 {
		v.Set("limit", strconv.Itoa(m.limit))
	}
	for k, t := range map[string]*time.Time{"created": m.eq, "created.lt": m.lt, "created.gt": m.gt, "created.lte": m.lte, "created.gte": m.gte} {
		if t != nil {
			v.Set(k, t.Format(time.RFC3339Nano))
		}
	}
	return v.Encode()
}

func newerFirst(a, b seededPayment) int {
	if c := b.created.Compare(a.created); c != 0 {
		return c
	}
	return strings.Compare(b.id, a.id)
}

func (m listModel) expect(all []seededPayment) []string {
	sorted := slices.Clone(all)
	slices.SortFunc(sorted, newerFirst)
	find := func(id string) seededPayment {
		for _, p := range sorted {
			if p.id == id {
				return p
			}
		}
		panic("no seeded payment " + id)
	}
	var match []string
	for _, p := range sorted {
		shown := p.created.Truncate(time.Second)
		switch {
		case m.customer != "" && p.customer != m.customer,
			m.eq != nil && !shown.Equal(*m.eq),
			m.lt != nil && !shown.Before(*m.lt),
			m.lte != nil && shown.After(*m.lte),
			m.gt != nil && !shown.After(*m.gt),
			m.gte != nil && shown.Before(*m.gte),
			m.after != "" && newerFirst(p, find(m.after)) <= 0,
			m.before != "" && newerFirst(p, find(m.before)) >= 0:
			continue
		}
		match = append(match, p.id)
	}
	limit := cmp.Or(m.limit, 10)
	if len(match) <= limit {
		return match
	}
	if m.before != "" {
		return match[len(match)-limit:] // the ones just newer than the cursor
	}
	return match[:limit]
}

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

// TestPaymentsListGolden: a list page holding a payment with an attempt,
// two captures and two refunds, a declined payment and an open one, as
// golden JSON; and each element is byte for byte what GET /payments/{id}
// answers for that payment.
func TestPaymentsListGolden(t *testing.T) {
	c := newClient(t)
	c.pay("POST", "/payments", payment(map[string]any{
		"payment_id": "pay_list_golden_full", "confirm": true, "capture_method": "manual_multiple",
		"amount": 6000, "currency": "EUR", "shipping_cost": 500, "order_tax_amount": 400,
		"customer_id": "cus_list_golden", "customer": map[string]any{"name": "Jane Doe", "email": "jane@example.com",
			"phone": "5551234567", "phone_country_code": "+1"},
		"description": "Two books", "return_url": "https://shop.example/return",
		"merchant_order_reference_id": "order-list-golden-1",
		"billing":                     billingAddress,
		"order_details": []any{
			map[string]any{"product_name": "Book A", "quantity": 1, "amount": 4000},
			map[string]any{"product_name": "Book B", "quantity": 2, "amount": 1000},
		},
		"metadata":            map[string]any{"order": "list-golden-1"},
		"browser_info":        map[string]any{"user_agent": "Mozilla/5.0", "language": "en-GB"},
		"authentication_type": "no_three_ds",
		"payment_method":      "card",
		"payment_method_type": "credit",
		"payment_method_data": map[string]any{
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": futureYear,
				"card_holder_name": "Jane Doe", "card_cvc": "123"},
			"billing": billingAddress,
		},
	})).must(t, 200)
	c.pay("POST", "/payments/pay_list_golden_full/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
	c.pay("POST", "/payments/pay_list_golden_full/capture", map[string]any{"amount_to_capture": 2900}).must(t, 200)
	for i, amount := range []int{1500, 500} {
		c.do("POST", "/refunds", c.merchantKey(), map[string]any{"payment_id": "pay_list_golden_full",
			"refund_id": fmt.Sprintf("ref_list_golden_%d", i+1), "amount": amount, "reason": "customer returned a book",
			"metadata": map[string]any{"n": i + 1}}).must(t, 200)
	}
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_list_golden_declined", "confirm": true,
		"payment_method_data": card("4000000000009995"), "billing": billingAddress})).must(t, 200)
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_list_golden_open"})).must(t, 200)

	r, got := listPage(t, c, c.merchantKey(), "limit=3", nil)
	if want := []string{"pay_list_golden_open", "pay_list_golden_declined", "pay_list_golden_full"}; !slices.Equal(got, want) {
		t.Fatalf("page %v, want %v", got, want)
	}
	full := r.Body.([]any)[0].(map[string]any)["data"].([]any)[2].(map[string]any)
	if n := func(k string) int { l, _ := full[k].([]any); return len(l) }; n("attempts") != 1 || n("captures") != 2 || n("refunds") != 2 {
		t.Fatalf("the full payment's nested lists: %v", full)
	}
	paymentGolden(t, "payment_list", r.Raw)

	// The list element is the record GET /payments/{id} answers.
	var page []struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(r.Raw, &page); err != nil {
		t.Fatal(err)
	}
	for i, id := range got {
		one := c.pay("GET", "/payments/"+id, nil).must(t, 200)
		if string(page[0].Data[i]) != strings.TrimSpace(string(one.Raw)) {
			t.Errorf("%s: the list element differs from GET /payments/%s:\n%s\n%s", id, id, page[0].Data[i], one.Raw)
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
