package rest_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSubscriptionModel is a model-based test of a subscription's life on a
// test clock. For each seed it starts a clock, subscribes customers to
// random prices (a card charged every time, or with a trial the card
// 4000000000000341 that saves but declines every charge) and sends a random
// sequence of clock advances (a day to two months), pauses, resumes,
// cancels (immediately or at the end of the term), plan changes and
// estimates through the HTTP API. A model of the billing rules
// (subModel.advance and the operations below) predicts every answer; after
// every step each subscription is checked against it:
//
//   - its status and price (GET /subscriptions/{id});
//   - its invoices: how many, each one's amount and status;
//   - its payments (GET /payments/list by the subscription's customer):
//     every paid invoice was charged EXACTLY ONCE, by one succeeded
//     payment of its amount that its payment_intent_id names, and no
//     other payment succeeded; and as many payments were tried as the
//     model tried (none while paused, none after a cancel).
//
// Replay one seed with
//
//	go test ./rest -run TestSubscriptionModel -subs.seed=N
//
// -subs.runs sets how many seeds run (default 12, from 1).
func TestSubscriptionModel(t *testing.T) {
	c := newClient(t)
	a := subsAPI{t: t, c: c}
	cat := &subsCatalogue{
		monthly:  a.plan("Monthly", 2500, "Month", 1, 0),
		daily:    a.plan("Daily", 300, "Day", 7, 0),
		trial:    a.plan("Monthly with a trial", 1900, "Month", 1, 14),
		upgrade:  a.plan("Pro", 4000, "Month", 1, 0),
		yearlyTr: a.plan("Yearly with a trial", 24000, "Year", 1, 3),
	}
	seen := map[string]int{}
	for _, seed := range subsModelSeeds() {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			r := &subsModelRun{t: t, a: subsAPI{t: t, c: c}, cat: cat, seen: seen,
				rng: rand.New(rand.NewPCG(seed, seed^0x5eb5))}
			r.run()
		})
	}
	if *subsSeedFlag == 0 && !t.Failed() {
		// The generator must keep reaching these, or the test quietly
		// stopped testing what it says.
		for _, k := range []string{"status active", "status trial", "status unpaid", "status cancelled", "status paused",
			"invoice invoice_paid", "invoice payment_failed", "op pause 200", "op resume 200", "op cancel 200",
			"op cancel_end 200", "op update 200", "op estimate 200"} {
			if seen[k] == 0 {
				t.Errorf("coverage: no %q (%v)", k, seen)
			}
		}
	}
}

var (
	subsSeedFlag = flag.Uint64("subs.seed", 0, "TestSubscriptionModel: replay this one seed")
	subsRunsFlag = flag.Int("subs.runs", 12, "TestSubscriptionModel: number of seeds")
)

func subsModelSeeds() []uint64 {
	if *subsSeedFlag != 0 {
		return []uint64{*subsSeedFlag}
	}
	out := make([]uint64, *subsRunsFlag)
	for i := range out {
		out[i] = uint64(i + 1)
	}
	return out
}

// subsCatalogue is the prices a run subscribes to.
type subsCatalogue struct{ monthly, daily, trial, upgrade, yearlyTr *proofPrice }

// invModel is what the model knows of one invoice.
type invModel struct {
	amount int64
	status string
	tries  int // payments made for it
}

// subModel is what the model knows of one subscription: the billing rules
// of docs/subscriptions.md, stated without a database.
type subModel struct {
	id, customer string
	declines     bool // its card declines every charge
	// dunning is the wait after each failed try of a renewal before the
	// next one; the try after the last wait failing cancels the
	// subscription (SWITCHYARD_DUNNING_SCHEDULE: 1, 3 and 5 days).
	dunning []time.Duration
	price   *proofPrice
	status  string
	// curStart, curEnd: the current (last paid, or trial) period.
	curStart, curEnd time.Time
	// The open invoice (the last of invoices while hasOpen): its period
	// starts at openStart; it is tried next at due, failures tries failed.
	hasOpen   bool
	openStart time.Time
	due       time.Time
	failures  int
	// cancelAt is a scheduled cancellation (end_of_term).
	cancelAt *time.Time
	invoices []*invModel // oldest first
}

func (m *subModel) open() *invModel { return m.invoices[len(m.invoices)-1] }

// billable reports whether the renewal worker charges its invoices.
func (m *subModel) billable() bool {
	return m.status == "active" || m.status == "trial" || m.status == "unpaid"
}

func (m *subModel) ended() bool { return m.status == "cancelled" || m.status == "failed" }

// openNext opens the invoice of the period starting at start, at the
// current price plus extra (a plan change's proration), never below 0.
func (m *subModel) openNext(start time.Time, extra int64) {
	m.hasOpen, m.openStart, m.due, m.failures = true, start, start, 0
	m.invoices = append(m.invoices, &invModel{amount: max(m.price.amount+extra, 0), status: "invoice_created"})
}

// cancelNow cancels the subscription: its open invoice, unless paid, is
// voided and never charged.
func (m *subModel) cancelNow() {
	if m.hasOpen && m.open().status != "invoice_paid" {
		m.open().status = "voided"
	}
	m.status, m.hasOpen, m.cancelAt = "cancelled", false, nil
}

// advance moves the subscription's time to to, the way passing time does:
// every event due by then happens at its own time, in order: a scheduled
// cancellation (before a try due at the same moment), then each try of the
// open invoice. A paid try moves the current period on and opens the next
// one's invoice (unless the subscription ends by then); a failed try waits
// the dunning schedule's next delay (the subscription unpaid) or, after
// the last, cancels the subscription with the invoice payment_failed.
func (m *subModel) advance(to time.Time) {
	for !m.ended() {
		cancelDue := m.cancelAt != nil && !m.cancelAt.After(to)
		tryDue := m.billable() && m.hasOpen && !m.due.After(to)
		if cancelDue && (!tryDue || !m.cancelAt.After(m.due)) {
			m.cancelNow()
			return
		}
		if !tryDue {
			return
		}
		inv := m.open()
		if inv.amount > 0 {
			inv.tries++
		}
		if !m.declines || inv.amount == 0 {
			inv.status = "invoice_paid"
			m.status = "active"
			m.curStart, m.curEnd = m.openStart, m.price.next(m.openStart)
			m.hasOpen = false
			if m.cancelAt == nil || m.cancelAt.After(m.curEnd) {
				m.openNext(m.curEnd, 0)
			}
			continue
		}
		inv.status = "payment_failed"
		if m.failures == len(m.dunning) {
			m.status, m.hasOpen = "cancelled", false
			return
		}
		m.due = m.due.Add(m.dunning[m.failures])
		m.failures++
		m.status = "unpaid"
	}
}

// prorationOf is what a change from price from to price to at now adds to
// the next invoice of an active subscription: the difference for the part
// of the current period left, rounded to the nearest minor unit.
func (m *subModel) prorationOf(from, to *proofPrice, now time.Time) int64 {
	total, left := m.curEnd.Sub(m.curStart), m.curEnd.Sub(now)
	if m.status != "active" || total <= 0 || left <= 0 {
		return 0
	}
	return int64(math.Round(float64(to.amount-from.amount) * float64(min(left, total)) / float64(total)))
}

// subsModelRun is one seed's run.
type subsModelRun struct {
	t     *testing.T
	a     subsAPI
	cat   *subsCatalogue
	rng   *rand.Rand
	seen  map[string]int
	clock string
	now   time.Time
	subs  []*subModel
	log   []string
}

// subsModelEpoch is where every run's clock starts: a day of the month
// every month has, so month arithmetic has one answer.
var subsModelEpoch = time.Date(2031, time.March, 10, 9, 0, 0, 0, time.UTC)

func (r *subsModelRun) run() {
	r.now = subsModelEpoch
	r.clock = r.a.clock(r.now)
	for range 1 + r.rng.IntN(2) {
		r.subscribe(false)
	}
	r.subscribe(true)
	ops := []string{"advance", "advance", "advance", "pause", "resume", "cancel", "cancel_end", "update", "estimate"}
	for step := 0; step < 12; step++ {
		op := ops[r.rng.IntN(len(ops))]
		if op == "advance" {
			r.advance()
		} else {
			r.operate(op, r.subs[r.rng.IntN(len(r.subs))])
		}
		r.checkAll(op)
	}
}

// subscribe starts a subscription; declining ones have a trial, so that
// their start (a zero-amount mandate setup) succeeds and their first
// renewal fails.
func (r *subsModelRun) subscribe(declining bool) {
	price := []*proofPrice{r.cat.monthly, r.cat.daily, r.cat.trial, r.cat.yearlyTr}[r.rng.IntN(4)]
	number := proofGoodCard
	if declining {
		price, number = []*proofPrice{r.cat.trial, r.cat.yearlyTr}[r.rng.IntN(2)], proofDecliningCard
	}
	cust := r.a.customer()
	resp := r.a.subscribe(price, cust, number, r.clock).must(r.t, 200)
	m := &subModel{id: resp.str("id"), customer: cust, declines: declining, price: price, curStart: r.now,
		dunning: r.a.c.srv.Config.DunningSchedule}
	if price.trialDays > 0 {
		// The trial's first invoice is nothing: a mandate set-up.
		m.status, m.curEnd = "trial", r.now.AddDate(0, 0, price.trialDays)
		m.invoices = []*invModel{{amount: 0, status: "invoice_paid"}}
	} else {
		m.status, m.curEnd = "active", price.next(r.now)
		m.invoices = []*invModel{{amount: price.amount, status: "invoice_paid", tries: 1}}
	}
	m.openNext(m.curEnd, 0)
	r.subs = append(r.subs, m)
	r.note("subscribe %s to %s/%d %s (%s card): %s", m.id, price.interval, price.count, proofMoney(price.amount),
		map[bool]string{true: "declining", false: "good"}[declining], resp.str("status"))
	r.checkAll("subscribe")
}

func proofMoney(v int64) string { return fmt.Sprintf("%d.%02d", v/100, v%100) }

// advance moves the clock forward by a random span.
func (r *subsModelRun) advance() {
	spans := []struct {
		name string
		to   func(time.Time) time.Time
	}{
		{"1 day", func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }},
		{"3 days", func(t time.Time) time.Time { return t.AddDate(0, 0, 3) }},
		{"10 days", func(t time.Time) time.Time { return t.AddDate(0, 0, 10) }},
		{"1 month", func(t time.Time) time.Time { return t.AddDate(0, 1, 0) }},
		{"2 months", func(t time.Time) time.Time { return t.AddDate(0, 2, 0) }},
		// Half a day past the declining card's next try: inside dunning,
		// where the subscription is unpaid.
		{"past the declining subscription's next try", func(t time.Time) time.Time {
			if m := r.subs[len(r.subs)-1]; m.billable() && m.hasOpen && m.due.After(t) {
				return m.due.Add(12 * time.Hour)
			}
			return t.AddDate(0, 0, 1)
		}},
	}
	s := spans[r.rng.IntN(len(spans))]
	to := s.to(r.now)
	r.a.advance(r.clock, to)
	r.note("advance %s to %s", s.name, to.Format(time.RFC3339))
	r.now = to
	for _, m := range r.subs {
		m.advance(to)
	}
}

// operate sends op for m and checks its answer against the model.
func (r *subsModelRun) operate(op string, m *subModel) {
	path := "/subscriptions/" + m.id
	var resp response
	want, was := 200, m.status
	refuse := func(allowed bool) bool {
		if !allowed {
			want = 400
		}
		return allowed
	}
	switch op {
	case "pause":
		resp = r.a.call("POST", path+"/pause", map[string]any{"pause_option": "immediately"})
		if refuse(m.status == "active" || m.status == "trial") {
			m.status = "paused"
		}
	case "resume":
		resp = r.a.call("POST", path+"/resume", map[string]any{"resume_option": "immediately"})
		if refuse(m.status == "paused") {
			// Billing reopens; an invoice that fell due while paused is
			// due from now, for a period starting now.
			m.status = "active"
			if m.hasOpen && m.due.Before(r.now) {
				m.openStart, m.due = r.now, r.now
			}
		}
	case "cancel":
		resp = r.a.call("POST", path+"/cancel", map[string]any{"cancel_option": "immediately"})
		if refuse(!m.ended()) {
			m.cancelNow()
		}
	case "cancel_end":
		resp = r.a.call("POST", path+"/cancel", map[string]any{"cancel_option": "end_of_term"})
		if refuse(!m.ended()) {
			// At the current period's end; a term that has ended already
			// (an unpaid subscription's) cancels at once.
			if at := m.curEnd; at.After(r.now) {
				m.cancelAt = &at
			} else {
				m.cancelNow()
			}
		}
	case "update":
		to := r.cat.upgrade
		if m.price == r.cat.upgrade {
			to = r.cat.monthly
		}
		resp = r.a.call("PUT", path+"/update", map[string]any{"plan_id": to.planID, "item_price_id": to.id})
		if refuse((m.status == "active" || m.status == "trial") && m.cancelAt == nil) {
			from := m.price
			m.price = to
			// The open invoice is the new price's, with the proration of
			// the change.
			if m.hasOpen && m.open().status == "invoice_created" {
				m.invoices = m.invoices[:len(m.invoices)-1]
				m.openNext(m.openStart, m.prorationOf(from, to, r.now))
			}
		}
	case "estimate":
		p := []*proofPrice{r.cat.monthly, r.cat.daily, r.cat.trial, r.cat.upgrade}[r.rng.IntN(4)]
		resp = r.a.call("GET", "/subscriptions/estimate?plan_id="+p.planID+"&item_price_id="+p.id+"&customer_id="+m.customer, nil)
		// What subscribing now would charge first: the price, or nothing
		// while a trial lasts.
		want := p.amount
		if p.trialDays > 0 {
			want = 0
		}
		if resp.Status == 200 && (resp.num("amount") != want || resp.str("currency") != "USD") {
			r.fail("estimate of %s: %s, the model says %d USD", p.id, resp.Raw, want)
		}
	}
	r.seen[fmt.Sprintf("op %s %d", op, resp.Status)]++
	r.note("%s %s: %d %s", op, m.id, resp.Status, resp.errCode())
	// A status that does not allow the operation is refused with IR_16
	// (Hyperswitch's PreconditionFailed) and changes nothing.
	wantCode := map[int]string{200: "", 400: "IR_16"}[want]
	if resp.Status != want || resp.errCode() != wantCode {
		r.fail("%s of a %s subscription answered %d %s, the model says %d %s: %s", op, was, resp.Status, resp.errCode(),
			want, wantCode, resp.Raw)
	}
}

// checkAll checks every subscription of the run against the model.
func (r *subsModelRun) checkAll(after string) {
	r.t.Helper()
	for _, m := range r.subs {
		r.check(after, m)
	}
}

func (r *subsModelRun) check(after string, m *subModel) {
	r.t.Helper()
	got := r.a.get(m.id)
	r.seen["status "+got.str("status")]++
	if got.str("status") != m.status || got.str("item_price_id") != m.price.id {
		r.fail("after %s, %s is %s on %s, the model says %s on %s", after, m.id, got.str("status"), got.str("item_price_id"),
			m.status, m.price.id)
	}
	invs := r.a.invoices(m.id)
	var lines []string
	for _, inv := range invs {
		lines = append(lines, proofInvoiceLine(inv))
		r.seen["invoice "+string(inv.Status)]++
	}
	if len(invs) != len(m.invoices) {
		r.fail("after %s, %s has %d invoices, the model says %d:\n%s", after, m.id, len(invs), len(m.invoices), strings.Join(lines, "\n"))
	}
	paid := map[string]int64{} // payment id → the amount of the paid invoice it names
	tries := 0
	for i, inv := range invs {
		want := m.invoices[i]
		tries += want.tries
		if inv.Amount != want.amount || string(inv.Status) != want.status {
			r.fail("after %s, %s's invoice %d is %s, the model says %s amount %d:\n%s", after, m.id, i+1,
				proofInvoiceLine(inv), want.status, want.amount, strings.Join(lines, "\n"))
		}
		if want.status == "invoice_paid" && want.amount > 0 {
			if inv.PaymentIntentID == nil {
				r.fail("after %s, %s's invoice %d is paid without a payment:\n%s", after, m.id, i+1, strings.Join(lines, "\n"))
			}
			if _, twice := paid[*inv.PaymentIntentID]; twice {
				r.fail("after %s, one payment %s pays two invoices of %s:\n%s", after, *inv.PaymentIntentID, m.id, strings.Join(lines, "\n"))
			}
			paid[*inv.PaymentIntentID] = inv.Amount
		}
	}
	// Every invoice charged exactly once: the succeeded payments of the
	// customer are exactly the paid invoices' payments, each of its amount.
	pays := r.a.customerPayments(m.customer)
	charged, made := 0, 0
	for id, p := range pays {
		if p.num("amount") == 0 {
			continue // the trial's mandate setup charges nothing
		}
		made++
		if p.str("status") != "succeeded" {
			continue
		}
		charged++
		amount, ok := paid[id]
		if !ok {
			r.fail("after %s, payment %s of %s succeeded but pays no paid invoice:\n%s", after, id, m.id, strings.Join(lines, "\n"))
		}
		if p.num("amount") != amount {
			r.fail("after %s, payment %s charged %d for an invoice of %d", after, id, p.num("amount"), amount)
		}
	}
	if charged != len(paid) {
		r.fail("after %s, %s: %d succeeded payments for %d paid invoices:\n%s", after, m.id, charged, len(paid), strings.Join(lines, "\n"))
	}
	nonZeroTries := 0
	for _, w := range m.invoices {
		if w.amount > 0 {
			nonZeroTries += w.tries
		}
	}
	if made != nonZeroTries {
		r.fail("after %s, %s: %d payments were made, the model tried %d (of %d tries with the trial's):\n%s", after, m.id, made,
			nonZeroTries, tries, strings.Join(lines, "\n"))
	}
}

func (r *subsModelRun) note(format string, args ...any) {
	r.log = append(r.log, fmt.Sprintf("%s  ", r.now.Format("2006-01-02"))+fmt.Sprintf(format, args...))
}

// fail stops the seed with its history.
func (r *subsModelRun) fail(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("%s\nhistory:\n  %s", fmt.Sprintf(format, args...), strings.Join(r.log, "\n  "))
}
