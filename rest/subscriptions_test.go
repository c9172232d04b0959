package rest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/invoice"
)

// Subscriptions: the catalogue, a subscription's life (create, confirm,
// renewals by the worker and by test clocks, dunning, pause, resume,
// cancel, plan changes) through the REST routes (docs/subscriptions.md).

// billing is a test server with a catalogue: a monthly plan at 1000 USD
// (price), the same plan with a 7-day trial (trial), a dearer plan
// (premium, 3000 USD a month) and a 25% coupon for two invoices (QUARTER).
type billing struct {
	*client
	plan, price, trial, premiumPlan, premium string
}

func newBilling(t *testing.T) *billing {
	t.Helper()
	c := newClient(t)
	b := &billing{client: c}
	b.plan = b.sub("POST", "/subscriptions/catalogue/items", map[string]any{"item_type": "plan", "name": "Basic"}).
		must(t, 200).str("item_id")
	b.price = b.sub("POST", "/subscriptions/catalogue/items/"+b.plan+"/prices", map[string]any{
		"amount": 1000, "currency": "USD", "interval": "Month", "interval_count": 1}).must(t, 200).str("price_id")
	b.trial = b.sub("POST", "/subscriptions/catalogue/items/"+b.plan+"/prices", map[string]any{
		"amount": 1000, "currency": "USD", "interval": "Month", "trial_period": 7, "trial_period_unit": "Day"}).
		must(t, 200).str("price_id")
	b.premiumPlan = b.sub("POST", "/subscriptions/catalogue/items", map[string]any{"item_type": "plan", "name": "Premium"}).
		must(t, 200).str("item_id")
	b.premium = b.sub("POST", "/subscriptions/catalogue/items/"+b.premiumPlan+"/prices", map[string]any{
		"amount": 3000, "currency": "USD", "interval": "Month"}).must(t, 200).str("price_id")
	b.sub("POST", "/subscriptions/catalogue/coupons", map[string]any{"code": "QUARTER", "discount_type": "percentage",
		"percent_off_bps": 2500, "duration": "limited_period", "duration_periods": 2}).must(t, 200)
	return b
}

// sub calls a billing route with the demo merchant's key and profile.
func (b *billing) sub(method, path string, body any) response {
	b.t.Helper()
	return b.doWith(method, path, b.merchantKey(), body, map[string]string{"X-Profile-Id": b.srv.Demo.ProfileID})
}

// clock creates a test clock frozen at 2030-01-31 (a month end).
func (b *billing) clock(t *testing.T) string {
	t.Helper()
	return b.sub("POST", "/test_helpers/test_clocks", map[string]any{"name": "c", "frozen_time": "2030-01-31T10:00:00Z"}).
		must(t, 200).str("id")
}

// advance moves the clock to at.
func (b *billing) advance(t *testing.T, clock, at string) response {
	t.Helper()
	return b.sub("POST", "/test_helpers/test_clocks/"+clock+"/advance", map[string]any{"frozen_time": at}).must(t, 200)
}

// subscribe creates and confirms a subscription to price, paid with the
// card number, with extra members.
func (b *billing) subscribe(t *testing.T, customer, price, number string, extra map[string]any) response {
	t.Helper()
	b.customer(t, customer)
	body := map[string]any{"item_price_id": price, "customer_id": customer, "payment_details": map[string]any{
		"payment_method": "card", "payment_method_type": "credit", "payment_method_data": card(number),
		"return_url": "https://shop.example/return"}}
	for k, v := range extra {
		body[k] = v
	}
	return b.sub("POST", "/subscriptions", body)
}

func (b *billing) customer(t *testing.T, id string) {
	t.Helper()
	if r := b.do("POST", "/customers", b.merchantKey(), map[string]any{"customer_id": id}); r.Status != 200 && r.errCode() != "HE_01" {
		t.Fatalf("customer %s: %s", id, r.Raw)
	}
}

// invoices are the subscription's invoices, oldest first: status, amount.
func (b *billing) invoices(t *testing.T, subID string) []string {
	t.Helper()
	rows, err := b.srv.Store.DB.Query("SELECT status, amount FROM invoices WHERE subscription_id = ? ORDER BY period_start, created_at", subID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var st string
		var amount int64
		if err := rows.Scan(&st, &amount); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s:%d", st, amount))
	}
	return out
}

// paymentsOf counts the payments of a customer.
func (b *billing) paymentsOf(t *testing.T, customer string) int {
	t.Helper()
	var n int
	if err := b.srv.Store.DB.QueryRow("SELECT COUNT(*) FROM payment_intents p JOIN customers c ON c.id = p.customer_id WHERE c.customer_id = ?",
		customer).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func sameList(got []string, want ...string) bool {
	return fmt.Sprint(got) == fmt.Sprint(want)
}

// TestSubscriptionCreateThenConfirm: create makes the subscription
// (created), its first invoice and an unconfirmed payment; confirm pays it
// with the card, activates the subscription, records the mandate and opens
// the next invoice; GET shows the paid invoice and its payment.
func TestSubscriptionCreateThenConfirm(t *testing.T) {
	b := newBilling(t)
	b.customer(t, "cus_sub1")
	r := b.sub("POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "plan_id": b.plan,
		"customer_id": "cus_sub1", "coupon_code": "QUARTER", "merchant_reference_id": "ref-1",
		"payment_details": map[string]any{"return_url": "https://shop.example/return"}}).must(t, 200)
	id := r.str("id")
	if r.str("status") != "created" || r.str("invoice", "status") != "invoice_created" ||
		r.str("payment", "status") != "requires_payment_method" || r.str("client_secret") == "" ||
		r.str("merchant_reference_id") != "ref-1" || r.str("coupon_code") != "QUARTER" {
		t.Fatalf("create: %s", r.Raw)
	}
	if inv := r.obj()["invoice"].(map[string]any); inv["amount"].(float64) != 750 {
		t.Fatalf("first invoice with 25%% off 1000: %v", inv)
	}
	// A second confirm of the same subscription after it is active is refused.
	conf := map[string]any{"client_secret": r.str("client_secret"), "payment_details": map[string]any{
		"payment_method": "card", "payment_method_data": card("4242424242424242")}}
	c := b.sub("POST", "/subscriptions/"+id+"/confirm", conf).must(t, 200)
	if c.str("status") != "active" || c.str("invoice", "status") != "invoice_paid" || c.str("payment", "status") != "succeeded" {
		t.Fatalf("confirm: %s", c.Raw)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:750", "invoice_created:750") {
		t.Fatalf("invoices after confirm: %v (the coupon discounts two)", got)
	}
	if again := b.sub("POST", "/subscriptions/"+id+"/confirm", conf); again.Status != 400 || again.errCode() != "IR_16" {
		t.Fatalf("second confirm: %d %s", again.Status, again.Raw)
	}
	g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200)
	if g.str("status") != "active" || g.str("payment", "payment_id") != c.str("payment", "payment_id") {
		t.Fatalf("GET: %s", g.Raw)
	}
	wrong := conf
	wrong["client_secret"] = "sub_nope_secret_x"
	if r := b.sub("POST", "/subscriptions/"+id+"/confirm", wrong); r.Status != 400 || r.errCode() != "IR_09" {
		t.Fatalf("confirm with another client secret: %d %s", r.Status, r.Raw)
	}
}

// TestSubscriptionRenewsOnTestClock: a subscription on a test clock renews
// by the clock: advancing it three months (from Jan 31, across February's
// end) charges three invoices once each, in order, and a second advance
// to the same time charges nothing more.
func TestSubscriptionRenewsOnTestClock(t *testing.T) {
	b := newBilling(t)
	clock := b.clock(t)
	r := b.subscribe(t, "cus_clock", b.price, "4242424242424242", map[string]any{"test_clock_id": clock}).must(t, 200)
	id := r.str("id")
	if r.str("status") != "active" {
		t.Fatalf("create and confirm: %s", r.Raw)
	}
	c := b.advance(t, clock, "2030-04-30T11:00:00Z")
	if c.str("status") != "ready" || c.str("frozen_time") != "2030-04-30T11:00:00Z" {
		t.Fatalf("advanced clock: %s", c.Raw)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:1000", "invoice_paid:1000", "invoice_paid:1000",
		"invoice_paid:1000", "invoice_created:1000") {
		t.Fatalf("invoices after three months: %v", got)
	}
	var ends []time.Time
	rows, err := b.srv.Store.DB.Query("SELECT period_end FROM invoices WHERE subscription_id = ? ORDER BY period_start", id)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var e time.Time
		if err := rows.Scan(&e); err != nil {
			t.Fatal(err)
		}
		ends = append(ends, e.UTC())
	}
	rows.Close()
	if len(ends) < 2 || ends[0].Format("01-02") != "02-28" || ends[1].Format("01-02") != "03-28" {
		t.Fatalf("periods from Jan 31: %v (a month after Jan 31 is Feb 28)", ends)
	}
	if n := b.paymentsOf(t, "cus_clock"); n != 4 {
		t.Fatalf("%d payments, want 4 (the first and three renewals)", n)
	}
	b.advance(t, clock, "2030-04-30T11:00:00Z")
	if n := b.paymentsOf(t, "cus_clock"); n != 4 {
		t.Fatalf("%d payments after advancing to the same time, want 4", n)
	}
	if r := b.sub("POST", "/test_helpers/test_clocks/"+clock+"/advance", map[string]any{"frozen_time": "2030-01-01T00:00:00Z"}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("advance backwards: %d %s", r.Status, r.Raw)
	}
}

// TestSubscriptionRenewDueRealTime: without a clock the worker's pass
// (RenewDue) charges an invoice once the server's time passes its due
// date, once: a second pass charges nothing.
func TestSubscriptionRenewDueRealTime(t *testing.T) {
	b := newBilling(t)
	id := b.subscribe(t, "cus_real", b.price, "4242424242424242", nil).must(t, 200).str("id")
	ctx := context.Background()
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 0 {
		t.Fatalf("renewal before the period ends: %d, %v", n, err)
	}
	b.srv.Clock.Advance(32 * 24 * time.Hour)
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 1 {
		t.Fatalf("renewal after the period ends: %d, %v", n, err)
	}
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 0 {
		t.Fatalf("second pass: %d, %v", n, err)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:1000", "invoice_paid:1000", "invoice_created:1000") {
		t.Fatalf("invoices: %v", got)
	}
	if n := b.paymentsOf(t, "cus_real"); n != 2 {
		t.Fatalf("%d payments, want 2", n)
	}
}

// TestSubscriptionRenewalNeverSentIsSentAgain: a renewal whose payment a
// crash left before it reached the connector is failed by the payments'
// recovery as never sent (nothing charged); the billing engine sends the
// same try again at once under a key of its own, instead of counting it as
// a decline: the invoice is paid by the new payment, the subscription
// never goes unpaid, no invoice_payment_failed event is written, and one
// payment succeeded for it.
func TestSubscriptionRenewalNeverSentIsSentAgain(t *testing.T) {
	b := newBilling(t)
	id := b.subscribe(t, "cus_resend", b.price, "4242424242424242", nil).must(t, 200).str("id")
	ctx, db := systemDB(b.client)
	before, err := db.BillingSubscription.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	b.srv.Clock.Advance(32 * 24 * time.Hour)
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 1 {
		t.Fatalf("renewal: %d, %v", n, err)
	}
	// Back to the moment of the crash: the renewal claimed (its claim
	// lapsed), its payment recorded but never sent, the subscription
	// and its invoices as they were (its events stay: none says failed).
	renewal, err := db.Invoice.Query().Where(invoice.SubscriptionID(id), invoice.StatusEQ(invoice.StatusInvoicePaid)).
		Order(ent.Desc(invoice.FieldPeriodStart)).First(ctx)
	if err != nil || renewal.PaymentIntentID == nil {
		t.Fatalf("the paid renewal: %v, %v", renewal, err)
	}
	lost := *renewal.PaymentIntentID
	strand(t, b.client, lost, true, true)
	if err := db.Invoice.UpdateOneID(renewal.ID).SetStatus(invoice.StatusPaymentPending).ClearPaidAt().ClearClaimedUntil().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Invoice.Delete().Where(invoice.SubscriptionID(id), invoice.StatusEQ(invoice.StatusInvoiceCreated)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.BillingSubscription.UpdateOneID(id).SetNillableCurrentPeriodStart(before.CurrentPeriodStart).
		SetCurrentPeriodEnd(*before.CurrentPeriodEnd).SetNextBillingAt(*before.NextBillingAt).Exec(ctx); err != nil {
		t.Fatal(err)
	}

	recoverNow(t, b.client, 1)
	if p := b.pay("GET", "/payments/"+lost, nil).must(t, 200); p.str("status") != "failed" || p.str("error_code") != "connector_transaction_not_found" {
		t.Fatalf("the payment that never reached the connector: %s", p.Raw)
	}
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 0 {
		t.Fatalf("the pass that finds the try never sent settles nothing: %d, %v", n, err)
	}
	if g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200); g.str("status") != "active" {
		t.Fatalf("a try never sent is not a decline: %s", g.Raw)
	}
	if n, err := b.srv.Subscriptions.RenewDue(ctx, 10); err != nil || n != 1 {
		t.Fatalf("the try sent again: %d, %v", n, err)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:1000", "invoice_paid:1000", "invoice_created:1000") {
		t.Fatalf("invoices: %v", got)
	}
	paid, err := db.Invoice.Get(ctx, renewal.ID)
	if err != nil {
		t.Fatal(err)
	}
	if paid.AttemptCount != 1 || paid.ResendCount != 1 || paid.PaymentIntentID == nil || *paid.PaymentIntentID == lost {
		t.Fatalf("the renewal: try %d, sent again %d times, paid by %v (the lost payment %s)", paid.AttemptCount, paid.ResendCount,
			paid.PaymentIntentID, lost)
	}
	if p := b.pay("GET", "/payments/"+*paid.PaymentIntentID, nil).must(t, 200); p.str("status") != "succeeded" {
		t.Fatalf("the payment sent again: %s", p.Raw)
	}
	failed, err := db.Event.Query().Where(event.EventTypeEQ(event.EventTypeInvoicePaymentFailed)).Count(ctx)
	if err != nil || failed != 0 {
		t.Fatalf("%d invoice_payment_failed events (%v), want none", failed, err)
	}
}

// TestSubscriptionDunning: a card that can be saved but never charged
// (4000000000000341) passes the trial's mandate set-up; its first renewal
// fails and is retried after 1, 3 and 5 days (the subscription unpaid),
// and the last failure cancels it, the invoice left payment_failed.
func TestSubscriptionDunning(t *testing.T) {
	b := newBilling(t)
	clock := b.clock(t)
	r := b.subscribe(t, "cus_dun", b.trial, "4000000000000341", map[string]any{"test_clock_id": clock}).must(t, 200)
	id := r.str("id")
	if r.str("status") != "trial" || r.str("invoice", "status") != "invoice_paid" {
		t.Fatalf("trial subscription: %s", r.Raw)
	}
	b.advance(t, clock, "2030-02-08T10:00:00Z") // the trial ends on Feb 7
	if g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200); g.str("status") != "unpaid" || g.str("invoice", "status") != "payment_failed" {
		t.Fatalf("after the first failed renewal: %s", g.Raw)
	}
	b.advance(t, clock, "2030-02-12T10:00:00Z") // retries on Feb 8 and Feb 11
	if g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200); g.str("status") != "unpaid" {
		t.Fatalf("after two retries: %s", g.Raw)
	}
	b.advance(t, clock, "2030-02-17T10:00:00Z") // the last retry on Feb 16
	g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200)
	if g.str("status") != "cancelled" || g.str("invoice", "status") != "payment_failed" {
		t.Fatalf("after the last retry: %s", g.Raw)
	}
	if n := b.paymentsOf(t, "cus_dun"); n != 5 {
		t.Fatalf("%d payments, want 5 (the set-up and four tries)", n)
	}
	b.advance(t, clock, "2030-06-01T10:00:00Z")
	if n := b.paymentsOf(t, "cus_dun"); n != 5 {
		t.Fatalf("%d payments after the cancellation, want 5", n)
	}
	var types []string
	rows, err := b.srv.Store.DB.Query("SELECT event_type FROM events WHERE event_class = 'subscriptions' ORDER BY created_at, event_type")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var et string
		_ = rows.Scan(&et)
		types = append(types, et)
	}
	rows.Close()
	listed := b.do("POST", "/events/"+b.srv.Demo.MerchantID, b.admin(), map[string]any{"object_id": id}).must(t, 200)
	if items, _ := listed.obj()["events"].([]any); len(items) < 3 {
		t.Fatalf("the subscription's events: %s", listed.Raw)
	}
	for _, want := range []string{"subscription_created", "subscription_active", "invoice_paid", "invoice_payment_failed", "subscription_unpaid", "subscription_cancelled"} {
		found := false
		for _, et := range types {
			found = found || et == want
		}
		if !found {
			t.Errorf("no %s event among %v", want, types)
		}
	}
}

// TestSubscriptionPauseResumeCancel: a paused subscription is not charged
// however far its clock moves; resumed, it is charged again from the
// resume; cancelled, its open invoice is voided and it can be neither
// paused nor resumed.
func TestSubscriptionPauseResumeCancel(t *testing.T) {
	b := newBilling(t)
	clock := b.clock(t)
	id := b.subscribe(t, "cus_pause", b.price, "4242424242424242", map[string]any{"test_clock_id": clock}).must(t, 200).str("id")
	p := b.sub("POST", "/subscriptions/"+id+"/pause", map[string]any{"pause_option": "immediately"}).must(t, 200)
	if p.str("status") != "paused" || p.str("paused_at") == "" {
		t.Fatalf("pause: %s", p.Raw)
	}
	if r := b.sub("POST", "/subscriptions/"+id+"/pause", nil); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("pause a paused subscription: %d %s", r.Status, r.Raw)
	}
	b.advance(t, clock, "2030-05-01T00:00:00Z")
	if n := b.paymentsOf(t, "cus_pause"); n != 1 {
		t.Fatalf("%d payments while paused, want 1", n)
	}
	res := b.sub("POST", "/subscriptions/"+id+"/resume", map[string]any{"resume_option": "immediately"}).must(t, 200)
	if res.str("status") != "active" || res.str("next_billing_at") != "2030-05-01T00:00:00Z" {
		t.Fatalf("resume: %s", res.Raw)
	}
	b.advance(t, clock, "2030-05-02T00:00:00Z")
	if n := b.paymentsOf(t, "cus_pause"); n != 2 {
		t.Fatalf("%d payments after the resume, want 2", n)
	}
	c := b.sub("POST", "/subscriptions/"+id+"/cancel", map[string]any{"cancel_option": "immediately", "cancel_reason_code": "too_expensive"}).must(t, 200)
	if c.str("status") != "cancelled" || c.str("cancelled_at") == "" {
		t.Fatalf("cancel: %s", c.Raw)
	}
	if got := b.invoices(t, id); got[len(got)-1] != "voided:1000" {
		t.Fatalf("invoices after the cancel: %v", got)
	}
	for _, op := range []string{"pause", "resume", "cancel"} {
		if r := b.sub("POST", "/subscriptions/"+id+"/"+op, nil); r.Status != 400 || r.errCode() != "IR_16" {
			t.Fatalf("%s a cancelled subscription: %d %s", op, r.Status, r.Raw)
		}
	}
	b.advance(t, clock, "2030-09-01T00:00:00Z")
	if n := b.paymentsOf(t, "cus_pause"); n != 2 {
		t.Fatalf("%d payments after the cancel, want 2", n)
	}
}

// TestSubscriptionCancelAtPeriodEnd: cancelled at the end of its term, a
// subscription is charged no more and is cancelled when its period ends.
func TestSubscriptionCancelAtPeriodEnd(t *testing.T) {
	b := newBilling(t)
	clock := b.clock(t)
	id := b.subscribe(t, "cus_eot", b.price, "4242424242424242", map[string]any{"test_clock_id": clock}).must(t, 200).str("id")
	c := b.sub("POST", "/subscriptions/"+id+"/cancel", map[string]any{"cancel_option": "end_of_term"}).must(t, 200)
	if c.str("status") != "active" {
		t.Fatalf("cancel at the end of term: %s", c.Raw)
	}
	b.advance(t, clock, "2030-03-15T00:00:00Z")
	g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200)
	if g.str("status") != "cancelled" || b.paymentsOf(t, "cus_eot") != 1 {
		t.Fatalf("after the period's end: %s (%d payments)", g.Raw, b.paymentsOf(t, "cus_eot"))
	}
}

// TestSubscriptionUpdateAndEstimate: an estimate prices a plan with its
// coupon and trial, and (subscription_id) a change of plan with its
// proration; the change itself puts the new price and the proration on
// the next invoice.
func TestSubscriptionUpdateAndEstimate(t *testing.T) {
	b := newBilling(t)
	e := b.sub("GET", "/subscriptions/estimate?plan_id="+b.plan+"&coupon_id=QUARTER", nil).must(t, 200)
	if e.num("amount") != 750 || len(e.list("line_items")) != 2 {
		t.Fatalf("estimate with the coupon: %s", e.Raw)
	}
	if e := b.sub("GET", "/subscriptions/estimate?plan_id="+b.plan+"&trial_days=14", nil).must(t, 200); e.num("amount") != 0 {
		t.Fatalf("estimate with a trial: %s", e.Raw)
	}
	clock := b.clock(t)
	id := b.subscribe(t, "cus_upd", b.price, "4242424242424242", map[string]any{"test_clock_id": clock}).must(t, 200).str("id")
	// Jan 31 to Feb 28 is 28 days; 14 days in, half of the 2000 difference.
	b.advance(t, clock, "2030-02-14T10:00:00Z")
	est := b.sub("GET", "/subscriptions/estimate?plan_id="+b.premiumPlan+"&subscription_id="+id, nil).must(t, 200)
	if est.num("amount") != 4000 {
		t.Fatalf("estimate of the change: %s", est.Raw)
	}
	u := b.sub("PUT", "/subscriptions/"+id+"/update", map[string]any{"plan_id": b.premiumPlan, "item_price_id": b.premium}).must(t, 200)
	if u.str("item_price_id") != b.premium || u.str("plan_id") != b.premiumPlan {
		t.Fatalf("update: %s", u.Raw)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:1000", "invoice_created:4000") {
		t.Fatalf("invoices after the change: %v", got)
	}
	if r := b.sub("PUT", "/subscriptions/"+id+"/update", map[string]any{"plan_id": b.plan, "item_price_id": b.premium}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("update with a price of another plan: %d %s", r.Status, r.Raw)
	}
}

// TestSubscriptionItems: GET /subscriptions/items lists the plans with
// their prices; the catalogue's item route shows one.
func TestSubscriptionItems(t *testing.T) {
	b := newBilling(t)
	r := b.sub("GET", "/subscriptions/items?item_type=plan&limit=1", nil).must(t, 200)
	items, _ := r.Body.([]any)
	if len(items) != 1 || items[0].(map[string]any)["item_id"] != b.plan || len(items[0].(map[string]any)["price_id"].([]any)) != 2 {
		t.Fatalf("items: %s", r.Raw)
	}
	if r := b.sub("GET", "/subscriptions/items?item_type=addon", nil).must(t, 200); len(r.Body.([]any)) != 0 {
		t.Fatalf("addons: %s", r.Raw)
	}
	g := b.sub("GET", "/subscriptions/catalogue/items/"+b.premiumPlan, nil).must(t, 200)
	if g.str("name") != "Premium" || len(g.list("prices")) != 1 {
		t.Fatalf("item: %s", g.Raw)
	}
}

// TestSubscriptionIdempotentCreate: the same Idempotency-Key makes one
// subscription and one payment.
func TestSubscriptionIdempotentCreate(t *testing.T) {
	b := newBilling(t)
	b.customer(t, "cus_idem")
	body := map[string]any{"item_price_id": b.price, "customer_id": "cus_idem", "payment_details": map[string]any{
		"payment_method": "card", "payment_method_data": card("4242424242424242"), "return_url": "https://shop.example/r"}}
	h := map[string]string{"X-Profile-Id": b.srv.Demo.ProfileID, "Idempotency-Key": "sub-key-1"}
	one := b.doWith("POST", "/subscriptions", b.merchantKey(), body, h).must(t, 200)
	two := b.doWith("POST", "/subscriptions", b.merchantKey(), body, h).must(t, 200)
	if one.str("id") != two.str("id") || b.paymentsOf(t, "cus_idem") != 1 {
		t.Fatalf("two creates with one key: %s / %s (%d payments)", one.Raw, two.Raw, b.paymentsOf(t, "cus_idem"))
	}
}

// TestSubscriptionValidation: each refusal names its member with
// Hyperswitch's code.
func TestSubscriptionValidation(t *testing.T) {
	b := newBilling(t)
	b.customer(t, "cus_val")
	pd := map[string]any{"return_url": "https://shop.example/r"}
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code, field        string
	}{
		{"no item_price_id", "POST", "/subscriptions/create", map[string]any{"customer_id": "cus_val", "payment_details": pd}, 400, "IR_04", "item_price_id"},
		{"no customer_id", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "payment_details": pd}, 400, "IR_04", "customer_id"},
		{"no return_url", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "customer_id": "cus_val", "payment_details": map[string]any{}}, 400, "IR_04", "payment_details.return_url"},
		{"unknown price", "POST", "/subscriptions/create", map[string]any{"item_price_id": "price_nope", "customer_id": "cus_val", "payment_details": pd}, 404, "HE_02", ""},
		{"unknown customer", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "customer_id": "cus_nobody", "payment_details": pd}, 404, "HE_02", ""},
		{"plan not the price's", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "plan_id": b.premiumPlan, "customer_id": "cus_val", "payment_details": pd}, 400, "IR_07", "plan_id"},
		{"unknown coupon", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "coupon_code": "NOPE", "customer_id": "cus_val", "payment_details": pd}, 400, "IR_07", "coupon_code"},
		{"unknown member", "POST", "/subscriptions/create", map[string]any{"item_price_id": b.price, "customer_id": "cus_val", "payment_details": pd, "colour": "red"}, 400, "IR_06", ""},
		{"unknown subscription", "GET", "/subscriptions/sub_nope", nil, 404, "HE_02", ""},
		{"bad pause option", "POST", "/subscriptions/sub_nope/pause", map[string]any{"pause_option": "someday"}, 400, "IR_07", "pause_option"},
		{"no item_type", "GET", "/subscriptions/items", nil, 400, "IR_04", "item_type"},
		{"no plan_id", "GET", "/subscriptions/estimate", nil, 400, "IR_04", "plan_id"},
		{"bad interval", "POST", "/subscriptions/catalogue/items/" + b.plan + "/prices", map[string]any{"amount": 5, "currency": "USD", "interval": "Fortnight"}, 400, "IR_07", "interval"},
		{"bad item type", "POST", "/subscriptions/catalogue/items", map[string]any{"item_type": "bundle", "name": "x"}, 400, "IR_07", "item_type"},
		{"coupon without percent", "POST", "/subscriptions/catalogue/coupons", map[string]any{"code": "X", "discount_type": "percentage", "duration": "once"}, 400, "IR_04", "percent_off_bps"},
		{"no frozen_time", "POST", "/test_helpers/test_clocks", map[string]any{"name": "x"}, 400, "IR_04", "frozen_time"},
		{"unknown clock", "GET", "/test_helpers/test_clocks/clock_nope", nil, 404, "HE_02", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := b.sub(tc.method, tc.path, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("%d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
		})
	}
	if r := b.do("GET", "/subscriptions/sub_x", b.merchantKey(), nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("without X-Profile-Id: %d %s", r.Status, r.Raw)
	}
}

// TestSubscriptionTenancy: another merchant's subscription and test clock
// are 404 on every route.
func TestSubscriptionTenancy(t *testing.T) {
	b := newBilling(t)
	clock := b.clock(t)
	id := b.subscribe(t, "cus_ten", b.price, "4242424242424242", nil).must(t, 200).str("id")
	_, key, profile := otherMerchant(t, b.client, "merchant_other_billing")
	h := map[string]string{"X-Profile-Id": profile}
	for _, call := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/subscriptions/" + id, nil},
		{"POST", "/subscriptions/" + id + "/pause", nil},
		{"POST", "/subscriptions/" + id + "/resume", nil},
		{"POST", "/subscriptions/" + id + "/cancel", nil},
		{"PUT", "/subscriptions/" + id + "/update", map[string]any{"plan_id": b.premiumPlan, "item_price_id": b.premium}},
		{"POST", "/subscriptions/" + id + "/confirm", map[string]any{"payment_details": map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242")}}},
		{"GET", "/test_helpers/test_clocks/" + clock, nil},
		{"POST", "/test_helpers/test_clocks/" + clock + "/advance", map[string]any{"frozen_time": "2031-01-01T00:00:00Z"}},
		{"GET", "/subscriptions/catalogue/items/" + b.plan, nil},
	} {
		if r := b.doWith(call.method, call.path, key, call.body, h); r.Status != 404 {
			t.Errorf("%s %s with another merchant's key: %d %s", call.method, call.path, r.Status, r.Raw)
		}
	}
}

// TestSubscriptionPendingUntilThreeDSSettles: a first payment that needs
// the customer (3-D Secure) leaves the subscription pending; once the
// customer approves, GET brings it up to date: active, the invoice paid.
func TestSubscriptionPendingUntilThreeDSSettles(t *testing.T) {
	b := newBilling(t)
	r := b.subscribe(t, "cus_3ds", b.price, "4000000000003220", nil).must(t, 200)
	id, pay := r.str("id"), r.str("payment", "payment_id")
	if r.str("status") != "pending" || r.str("invoice", "status") != "payment_pending" || r.str("payment", "status") != "requires_customer_action" {
		t.Fatalf("create and confirm with a 3-D Secure card: %s", r.Raw)
	}
	b.do("POST", "/sandbox/payments/"+pay+"/customer_action", b.merchantKey(), map[string]any{"approve": true}).must(t, 200)
	g := b.sub("GET", "/subscriptions/"+id, nil).must(t, 200)
	if g.str("status") != "active" || g.str("invoice", "status") != "invoice_paid" || g.str("payment", "status") != "succeeded" {
		t.Fatalf("after the customer approved: %s", g.Raw)
	}
	if got := b.invoices(t, id); !sameList(got, "invoice_paid:1000", "invoice_created:1000") {
		t.Fatalf("invoices: %v", got)
	}
}
