package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/invoice"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
)

// TestRenewalsKill9 runs the real binary with n subscriptions whose renewal
// invoices are due, kills it with SIGKILL in the middle of the renewal
// worker's batch (once some invoices are payment_pending: claimed, their
// payments on their way), restarts it, and waits until no invoice is due or
// pending. Then every renewal invoice was charged exactly once (one
// succeeded payment of its amount for it, through the payments list of its
// customer, and none twice), and every subscription moved on one period
// with its next invoice open.
func TestRenewalsKill9(t *testing.T) {
	const n, workers = 200, 16
	c := testenv.NewCluster(t, subsKillEnv)
	p := c.Serve()
	// call answers the decoded body of a 200, else nil after failing the
	// test (it runs in goroutines: t.Errorf, never t.Fatal).
	call := func(base, method, path string, body any) any {
		status, raw, err := testenv.Call(base, method, path, c.Keys.SecretKey, body, "X-Profile-Id", c.Keys.ProfileID)
		var out any
		if err == nil {
			err = json.Unmarshal(raw, &out)
		}
		if err != nil || status != 200 {
			t.Errorf("%s %s: %d %s (%v)", method, path, status, raw, err)
			return nil
		}
		return out
	}

	// A monthly plan and n subscribers, each its own customer, paid now.
	object := func(v any) map[string]any { m, _ := v.(map[string]any); return m }
	item := object(call(p.URL, "POST", "/subscriptions/catalogue/items", map[string]any{"item_type": "plan", "name": "Monthly"}))
	if item == nil {
		t.FailNow()
	}
	price := object(call(p.URL, "POST", "/subscriptions/catalogue/items/"+fmt.Sprint(item["item_id"])+"/prices",
		map[string]any{"amount": 1500, "currency": "USD", "interval": "Month", "interval_count": 1}))
	if price == nil {
		t.FailNow()
	}
	plan := &proofPrice{id: fmt.Sprint(price["price_id"]), planID: fmt.Sprint(item["item_id"])}
	subIDs, customers := make([]string, n), make([]string, n)
	inParallelRest(n, workers, func(i int) {
		cust := object(call(p.URL, "POST", "/customers", map[string]any{"name": fmt.Sprint("Subscriber ", i)}))
		if cust == nil {
			return
		}
		customers[i], _ = cust["customer_id"].(string)
		sub := object(call(p.URL, "POST", "/subscriptions", proofSubscribeBody(plan, customers[i], proofGoodCard, "")))
		if sub == nil || sub["status"] != "active" {
			t.Errorf("subscriber %d: %v", i, sub)
			return
		}
		subIDs[i], _ = sub["id"].(string)
	})
	if t.Failed() {
		t.FailNow()
	}

	// Their renewal invoices fall due now: the worker of the running
	// process claims them on its next pass.
	ctx := tenancy.System(context.Background())
	db := c.Store.Client
	before := map[string]*ent.BillingSubscription{}
	subs, err := db.BillingSubscription.Query().Where(billingsubscription.IDIn(subIDs...)).All(ctx)
	if err != nil || len(subs) != n {
		t.Fatalf("%d subscriptions (%v)", len(subs), err)
	}
	for _, s := range subs {
		before[s.ID] = s
	}
	due, err := db.Invoice.Update().Where(invoice.SubscriptionIDIn(subIDs...), invoice.StatusEQ(invoice.StatusInvoiceCreated)).
		SetDueAt(time.Now().UTC().Add(-time.Second)).Save(ctx)
	if err != nil || due != n {
		t.Fatalf("%d renewal invoices made due, want %d (%v)", due, n, err)
	}
	count := func(st invoice.Status) int {
		k, err := db.Invoice.Query().Where(invoice.SubscriptionIDIn(subIDs...), invoice.StatusEQ(st)).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}

	// Kill it in the middle of a batch: some renewals paid, some claimed
	// with their payments on their way.
	deadline := time.Now().Add(60 * time.Second)
	for count(invoice.StatusPaymentPending) == 0 || count(invoice.StatusInvoicePaid)-n < n/10 {
		if paid := count(invoice.StatusInvoicePaid) - n; paid == n {
			t.Fatalf("every renewal was paid before the test saw one pending: nothing to kill in the middle of")
		}
		if time.Now().After(deadline) {
			t.Fatalf("in 60 s, %d renewal invoices paid and %d payment_pending, never both", count(invoice.StatusInvoicePaid)-n,
				count(invoice.StatusPaymentPending))
		}
		time.Sleep(2 * time.Millisecond)
	}
	p.Kill()
	pending, paidAtKill := count(invoice.StatusPaymentPending), count(invoice.StatusInvoicePaid)-n

	// Restart; wait until nothing is due or pending.
	p2 := c.Serve()
	deadline = time.Now().Add(3 * time.Minute)
	for {
		open, err := db.Invoice.Query().Where(invoice.SubscriptionIDIn(subIDs...), invoice.Or(
			invoice.StatusEQ(invoice.StatusPaymentPending),
			invoice.And(invoice.StatusEQ(invoice.StatusInvoiceCreated), invoice.DueAtLTE(time.Now().UTC())))).Count(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if open == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d renewal invoices still due or pending 3 minutes after the restart", open)
		}
		time.Sleep(200 * time.Millisecond)
	}

	// Every subscription: its renewal paid once, one period on.
	var charged atomic.Int64
	inParallelRest(n, workers, func(i int) {
		id := subIDs[i]
		invs, err := db.Invoice.Query().Where(invoice.SubscriptionID(id)).Order(ent.Asc(invoice.FieldPeriodStart)).All(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		if len(invs) != 3 || invs[0].Status != invoice.StatusInvoicePaid || invs[1].Status != invoice.StatusInvoicePaid ||
			invs[2].Status != invoice.StatusInvoiceCreated {
			t.Errorf("%s: want the first and the renewal paid and the next open, got %s", id, killInvoiceLines(invs))
			return
		}
		old, s := before[id], (*ent.BillingSubscription)(nil)
		if s, err = db.BillingSubscription.Get(ctx, id); err != nil {
			t.Error(err)
			return
		}
		if old.CurrentPeriodEnd == nil {
			t.Errorf("%s had no current period before its renewal", id)
			return
		}
		wantEnd := old.CurrentPeriodEnd.AddDate(0, 1, 0)
		if s.Status != billingsubscription.StatusActive || !sameTime(s.CurrentPeriodStart, *old.CurrentPeriodEnd) ||
			!sameTime(s.CurrentPeriodEnd, wantEnd) || !invs[2].DueAt.Equal(wantEnd) {
			t.Errorf("%s: %s, period %v..%v, the next invoice due %v; want active, %v..%v", id, s.Status, s.CurrentPeriodStart,
				s.CurrentPeriodEnd, invs[2].DueAt, old.CurrentPeriodEnd, wantEnd)
		}
		// Exactly one succeeded payment per paid invoice, each named by its
		// invoice.
		// The list answers as Hyperswitch's does: an array holding one page.
		pages, _ := call(p2.URL, "GET", "/payments/list?"+url.Values{"customer_id": {customers[i]}, "limit": {"100"}}.Encode(), nil).([]any)
		if len(pages) != 1 {
			t.Errorf("%s: the payments list of %s: %v", id, customers[i], pages)
			return
		}
		succeeded := map[string]float64{}
		data, _ := object(pages[0])["data"].([]any)
		for _, raw := range data {
			pay := raw.(map[string]any)
			if pay["status"] == "succeeded" {
				succeeded[pay["payment_id"].(string)] = pay["amount"].(float64)
			}
		}
		if len(succeeded) != 2 {
			t.Errorf("%s: %d succeeded payments for 2 paid invoices: %v\n%s", id, len(succeeded), succeeded, killInvoiceLines(invs))
			return
		}
		for _, inv := range invs[:2] {
			if inv.PaymentIntentID == nil || succeeded[*inv.PaymentIntentID] != float64(inv.Amount) {
				t.Errorf("%s: invoice %s is not paid by one of its succeeded payments %v", id, proofInvoiceLine(inv), succeeded)
			}
		}
		charged.Add(1)
	})
	t.Logf("SIGKILL with %d renewals payment_pending and %d paid of %d; after the restart %d renewals each charged once",
		pending, paidAtKill, n, charged.Load())
}

// subsKillEnv makes the processes' renewal worker (a pass every 200 ms),
// its claims and the payments' recovery pass (both lapse after
// SWITCHYARD_RECOVERY_AFTER) quick enough for a test.
var subsKillEnv = map[string]string{
	"SWITCHYARD_RENEWAL_INTERVAL":  "200ms",
	"SWITCHYARD_RECOVERY_AFTER":    "3s",
	"SWITCHYARD_IDEMPOTENCY_LEASE": "2s",
}

// sameTime reports whether an optional time is set to v.
func sameTime(p *time.Time, v time.Time) bool { return p != nil && p.Equal(v) }

func killInvoiceLines(invs []*ent.Invoice) string {
	s := ""
	for _, inv := range invs {
		s += "\n  " + proofInvoiceLine(inv)
	}
	return s
}

// inParallelRest calls do(i) for i in [0, n) from workers goroutines.
func inParallelRest(n, workers int, do func(i int)) {
	var wg sync.WaitGroup
	var next atomic.Int64
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(i)
			}
		})
	}
	wg.Wait()
}
