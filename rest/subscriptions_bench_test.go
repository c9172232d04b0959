package rest_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments"
	"switchyard/payments/customer"
)

// BenchmarkRenewals measures the renewal worker on MariaDB: a backlog of
// -renewals.backlog due invoices (at least -renewals), each of its own
// subscription, seeded with ent's CreateBulk in batches, of which one
// process charges -renewals (default 200, cheap enough for CI;
// docs/performance.md has the figures and their sizes) by calling RenewDue
// passes of renewalBatch (the worker's own limit), every claim reading the
// whole backlog's index:
//
//	go test ./rest -run '^$' -bench Renewals -benchtime 1x -renewals=1000 -renewals.backlog=100000
//
// In the same run the fair floor makes the same number of payments through
// the same payments path with the same input (payments.Service's
// CreatePayment: merchant-initiated, off-session, on the subscription's
// mandate, under an Idempotency-Key of its own, one after another as a
// pass charges them) without the subscription machinery: no claim, no
// settlement, no next invoice, no events of billing. It reports
// invoices/s, the floor's payments/s, and fair_ratio, the worker's time an
// invoice over the floor's time a payment: what billing adds to charging.
func BenchmarkRenewals(b *testing.B) {
	env := newBenchEnv(b)
	n := *benchRenewals
	backlog := max(*benchBacklog, n)
	seed := renewalSeed(b, env)
	var renew, floor time.Duration
	b.Run("renew", func(b *testing.B) {
		charged := 0
		for range b.N {
			b.StopTimer()
			seed.invoices(b, max(backlog-seed.due, n-seed.due, 0))
			b.StartTimer()
			start := time.Now()
			settled := 0
			for settled < n {
				k, err := env.srv.Subscriptions.RenewDue(context.Background(), renewalBatch)
				if err != nil {
					b.Fatal(err)
				}
				if k == 0 {
					break
				}
				settled += k
			}
			renew += time.Since(start)
			b.StopTimer()
			seed.due -= settled
			charged += settled
			seed.checkPaid(b, n, settled, charged)
			b.StartTimer()
		}
		b.ReportMetric(float64(charged)/renew.Seconds(), "invoices/s")
	})
	b.Run("fair_floor", func(b *testing.B) {
		for i := range b.N {
			start := time.Now()
			for j := range n {
				seed.floorPayment(b, fmt.Sprintf("floor:%d:%d:%s", i, j, seed.run))
			}
			floor += time.Since(start)
		}
		b.ReportMetric(float64(n*b.N)/floor.Seconds(), "payments/s")
	})
	if renew == 0 || floor == 0 {
		return
	}
	b.Run("ratio", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(0, "ns/op")
		b.ReportMetric(renew.Seconds()/floor.Seconds(), "fair_ratio")
		b.Logf("%d renewals: %.0f invoices/s; the fair floor %.0f payments/s; %.2f×", n,
			float64(n)/renew.Seconds(), float64(n)/floor.Seconds(), renew.Seconds()/floor.Seconds())
	})
}

var (
	benchRenewals = flag.Int("renewals", 200, "BenchmarkRenewals: due invoices a round charges")
	benchBacklog  = flag.Int("renewals.backlog", 0, "BenchmarkRenewals: due invoices waiting when a round starts (at least -renewals)")
)

// renewalBatch is how many invoices a pass claims, as the worker does.
const renewalBatch = 100

// renewalSeeder clones one real subscription (paid through the API, its
// card saved under a mandate) into due invoices of subscriptions of their
// own.
type renewalSeeder struct {
	ctx   context.Context
	env   *benchEnv
	model *ent.BillingSubscription
	price *proofPrice
	run   string
	ids   []string // every invoice seeded
	due   int      // how many of them are still due
}

func renewalSeed(b *testing.B, env *benchEnv) *renewalSeeder {
	b.Helper()
	// The API's own first subscription.
	srv := env.srv
	call := func(path string, body any) map[string]any {
		status, raw, err := testenv.Call(srv.URL, "POST", path, srv.Demo.SecretKey, body, "X-Profile-Id", srv.Demo.ProfileID)
		var out map[string]any
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil || status != 200 {
			b.Fatalf("POST %s: %d %s (%v)", path, status, raw, err)
		}
		return out
	}
	item := call("/subscriptions/catalogue/items", map[string]any{"item_type": "plan", "name": "Bench monthly"})
	price := &proofPrice{planID: item["item_id"].(string), amount: 1500, interval: "Month", count: 1}
	price.id = call("/subscriptions/catalogue/items/"+price.planID+"/prices",
		map[string]any{"amount": price.amount, "currency": "USD", "interval": "Month", "interval_count": 1})["price_id"].(string)
	cust := call("/customers", map[string]any{"name": "Bench subscriber"})["customer_id"].(string)
	sub := call("/subscriptions", proofSubscribeBody(price, cust, proofGoodCard, ""))
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), srv.Demo.MerchantID)
	model, err := srv.Store.Client.BillingSubscription.Get(ctx, sub["id"].(string))
	if err != nil || model.Status != billingsubscription.StatusActive || model.MandateID == nil {
		b.Fatalf("the model subscription %v is not active with a mandate (%v)", model, err)
	}
	return &renewalSeeder{ctx: ctx, env: env, model: model, price: price, run: ids.Base62(6)}
}

// invoices writes n more due invoices, each of a new active subscription
// like the model, in batches of 1,000 rows a statement.
func (s *renewalSeeder) invoices(b *testing.B, n int) {
	b.Helper()
	db, m := s.env.srv.Store.Client, s.model
	now := time.Now().UTC().Truncate(time.Second)
	start, end := now.Add(-time.Minute), now.AddDate(0, 1, 0).Add(-time.Minute)
	s.due += n
	for done := 0; done < n; {
		k := min(1000, n-done)
		subs := make([]*ent.BillingSubscriptionCreate, k)
		invs := make([]*ent.InvoiceCreate, k)
		for i := range k {
			sid, iid := ids.New(ids.Subscription), ids.New(ids.Invoice)
			s.ids = append(s.ids, iid)
			subs[i] = db.BillingSubscription.Create().SetID(sid).SetProfileID(m.ProfileID).SetCustomerID(m.CustomerID).
				SetStatus(billingsubscription.StatusActive).SetPlanID(m.PlanID).SetItemPriceID(m.ItemPriceID).
				SetNillablePaymentMethodID(m.PaymentMethodID).SetNillableMandateID(m.MandateID).
				SetNillableMerchantConnectorID(m.MerchantConnectorID).SetCurrentPeriodStart(start.AddDate(0, -1, 0)).
				SetCurrentPeriodEnd(start).SetNextBillingAt(start).SetClientSecret(sid + "_secret_bench")
			invs[i] = db.Invoice.Create().SetID(iid).SetSubscriptionID(sid).SetProfileID(m.ProfileID).
				SetCustomerID(m.CustomerID).SetAmount(s.price.amount).SetCurrency("USD").
				SetStatus(invoice.StatusInvoiceCreated).SetPeriodStart(start).SetPeriodEnd(end).SetDueAt(start)
		}
		if err := db.BillingSubscription.CreateBulk(subs...).Exec(s.ctx); err != nil {
			b.Fatal(err)
		}
		if err := db.Invoice.CreateBulk(invs...).Exec(s.ctx); err != nil {
			b.Fatal(err)
		}
		done += k
	}
}

// checkPaid fails the benchmark unless the round settled at least n
// invoices and, of every invoice seeded, exactly the charged ones are paid.
func (s *renewalSeeder) checkPaid(b *testing.B, n, settled, charged int) {
	b.Helper()
	paid := 0
	for i := 0; i < len(s.ids); i += 1000 {
		k, err := s.env.srv.Store.Client.Invoice.Query().Where(invoice.IDIn(s.ids[i:min(i+1000, len(s.ids))]...),
			invoice.StatusEQ(invoice.StatusInvoicePaid)).Count(s.ctx)
		if err != nil {
			b.Fatal(err)
		}
		paid += k
	}
	if settled < n || paid != charged {
		b.Fatalf("%d invoices paid, %d charged; this round settled %d of its %d", paid, charged, settled, n)
	}
}

// floorPayment is one payment of the fair floor: what chargeRenewal asks
// payments for, with a key of its own.
func (s *renewalSeeder) floorPayment(b *testing.B, key string) {
	m := s.model
	offSession := true
	description := "Renewal of " + m.ID
	pv, err := s.env.srv.Payments.CreatePayment(s.ctx, payments.PaymentInput{
		ProfileID: &m.ProfileID, Amount: s.price.amount, Currency: "USD", Confirm: true,
		PaymentFields: payments.PaymentFields{
			Customer: &customer.CustomerInput{ID: m.CustomerID, Named: true}, MandateID: m.MandateID,
			OffSession: &offSession, Description: &description,
		},
		Idempotency: &payments.IdempotencyRef{Key: key, Fingerprint: "billing"},
	})
	if err != nil || pv.Intent.Status != "succeeded" {
		b.Fatalf("floor payment: %v %v", pv, err)
	}
}
