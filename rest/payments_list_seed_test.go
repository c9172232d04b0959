package rest_test

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentintent"
	"switchyard/ent/profile"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

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
