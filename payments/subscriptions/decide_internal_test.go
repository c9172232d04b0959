package subscriptions

import (
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/billingsubscription"
	"switchyard/ent/coupon"
	"switchyard/ent/invoice"
	"switchyard/ent/paymentintent"
	"switchyard/ent/subscriptionitem"
)

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestAddPeriodsClampsMonthEnds(t *testing.T) {
	for _, tc := range []struct {
		from, unit string
		n          int
		want       string
	}{
		{"2030-01-31T10:00:00Z", "Month", 1, "2030-02-28T10:00:00Z"},
		{"2032-01-31T10:00:00Z", "Month", 1, "2032-02-29T10:00:00Z"},
		{"2030-01-31T10:00:00Z", "Month", 2, "2030-03-31T10:00:00Z"},
		{"2030-03-31T00:00:00Z", "Month", 1, "2030-04-30T00:00:00Z"},
		{"2030-01-15T00:00:00Z", "Month", 1, "2030-02-15T00:00:00Z"},
		{"2032-02-29T00:00:00Z", "Year", 1, "2033-02-28T00:00:00Z"},
		{"2030-12-31T00:00:00Z", "Month", 2, "2031-02-28T00:00:00Z"},
		{"2030-01-01T00:00:00Z", "Week", 2, "2030-01-15T00:00:00Z"},
		{"2030-01-31T00:00:00Z", "Day", 1, "2030-02-01T00:00:00Z"},
	} {
		if got := addPeriods(date(tc.from), tc.unit, tc.n); !got.Equal(date(tc.want)) {
			t.Errorf("%s + %d %s = %s, want %s", tc.from, tc.n, tc.unit, got.Format(time.RFC3339), tc.want)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestDiscountAndCouponPeriods(t *testing.T) {
	pct := &ent.Coupon{DiscountType: coupon.DiscountTypePercentage, PercentOffBps: ptrTo(2500), Duration: coupon.DurationLimitedPeriod, DurationPeriods: ptrTo(2)}
	fixed := &ent.Coupon{DiscountType: coupon.DiscountTypeFixedAmount, AmountOff: ptrTo(int64(1500)), Duration: coupon.DurationOnce}
	forever := &ent.Coupon{DiscountType: coupon.DiscountTypePercentage, PercentOffBps: ptrTo(3333), Duration: coupon.DurationForever}
	for _, tc := range []struct {
		name   string
		c      *ent.Coupon
		amount int64
		used   int
		want   int64
	}{
		{"25% of 1000", pct, 1000, 0, 750},
		{"25% second period", pct, 1000, 1, 750},
		{"25% after its periods", pct, 1000, 2, 1000},
		{"fixed more than the price", fixed, 1000, 0, 0},
		{"fixed once, used", fixed, 1000, 1, 1000},
		{"33.33% rounds half up", forever, 1001, 50, 667},
		{"no coupon", nil, 1000, 0, 1000},
	} {
		item := &ent.SubscriptionItem{ItemType: subscriptionitem.ItemTypePlan, Name: "p"}
		price := &ent.ItemPrice{ID: "price_1", Amount: tc.amount, Currency: "USD"}
		if got := chargeFor(item, price, tc.c, tc.used, nil); got.Amount != tc.want {
			t.Errorf("%s: %d, want %d (%+v)", tc.name, got.Amount, tc.want, got.Lines)
		}
	}
}

func TestProration(t *testing.T) {
	start, end := date("2030-01-31T00:00:00Z"), date("2030-02-28T00:00:00Z")
	for _, tc := range []struct {
		name     string
		old, new int64
		now      string
		want     int64
		ok       bool
	}{
		{"upgrade halfway", 1000, 3000, "2030-02-14T00:00:00Z", 1000, true},
		{"downgrade halfway is a credit", 3000, 1000, "2030-02-14T00:00:00Z", -1000, true},
		{"at the start: the whole difference", 1000, 3000, "2030-01-31T00:00:00Z", 2000, true},
		{"at the end: nothing", 1000, 3000, "2030-02-28T00:00:00Z", 0, false},
		{"same price: nothing", 1000, 1000, "2030-02-14T00:00:00Z", 0, false},
	} {
		l, ok := proration(tc.old, tc.new, start, end, date(tc.now), "price_x", "USD")
		if ok != tc.ok || l.Amount != tc.want {
			t.Errorf("%s: %d %v, want %d %v", tc.name, l.Amount, ok, tc.want, tc.ok)
		}
	}
}

func TestDecideFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cur   billingsubscription.Status
		o     paymentOutcome
		trial bool
		want  firstChange
	}{
		{"paid", billingsubscription.StatusCreated, outcomePaid, false, firstChange{Sub: billingsubscription.StatusActive, Invoice: invoice.StatusInvoicePaid, Activate: true, Changed: true}},
		{"paid in a trial", billingsubscription.StatusCreated, outcomePaid, true, firstChange{Sub: billingsubscription.StatusTrial, Invoice: invoice.StatusInvoicePaid, Activate: true, Changed: true}},
		{"3DS pending", billingsubscription.StatusCreated, outcomeWaiting, false, firstChange{Sub: billingsubscription.StatusPending, Invoice: invoice.StatusPaymentPending, Changed: true}},
		{"still pending", billingsubscription.StatusPending, outcomeWaiting, false, firstChange{}},
		{"pending then paid", billingsubscription.StatusPending, outcomePaid, false, firstChange{Sub: billingsubscription.StatusActive, Invoice: invoice.StatusInvoicePaid, Activate: true, Changed: true}},
		{"failed", billingsubscription.StatusCreated, outcomeFailed, false, firstChange{Sub: billingsubscription.StatusFailed, Invoice: invoice.StatusPaymentFailed, Changed: true}},
		{"unconfirmed", billingsubscription.StatusCreated, outcomeOpen, false, firstChange{}},
		{"already active", billingsubscription.StatusActive, outcomePaid, false, firstChange{}},
	} {
		if got := decideFirst(tc.cur, tc.o, tc.trial); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestDecideRenewalDunning(t *testing.T) {
	now := date("2030-03-01T00:00:00Z")
	sched := []time.Duration{24 * time.Hour, 72 * time.Hour, 120 * time.Hour}
	for _, tc := range []struct {
		name      string
		cur       billingsubscription.Status
		o         paymentOutcome
		attempt   int
		ends      bool
		wantSub   billingsubscription.Status
		wantInv   invoice.Status
		next      bool
		retryIn   time.Duration
		wantRetry bool
	}{
		{"paid", billingsubscription.StatusActive, outcomePaid, 1, false, billingsubscription.StatusActive, invoice.StatusInvoicePaid, true, 0, false},
		{"paid after a trial", billingsubscription.StatusTrial, outcomePaid, 1, false, billingsubscription.StatusActive, invoice.StatusInvoicePaid, true, 0, false},
		{"paid on a retry", billingsubscription.StatusUnpaid, outcomePaid, 3, false, billingsubscription.StatusActive, invoice.StatusInvoicePaid, true, 0, false},
		{"paid, ends at period end", billingsubscription.StatusActive, outcomePaid, 1, true, billingsubscription.StatusActive, invoice.StatusInvoicePaid, false, 0, false},
		{"first failure", billingsubscription.StatusActive, outcomeFailed, 1, false, billingsubscription.StatusUnpaid, invoice.StatusPaymentFailed, false, 24 * time.Hour, true},
		{"third failure", billingsubscription.StatusUnpaid, outcomeFailed, 3, false, billingsubscription.StatusUnpaid, invoice.StatusPaymentFailed, false, 120 * time.Hour, true},
		{"last failure cancels", billingsubscription.StatusUnpaid, outcomeFailed, 4, false, billingsubscription.StatusCancelled, invoice.StatusPaymentFailed, false, 0, false},
		{"processing waits", billingsubscription.StatusActive, outcomeWaiting, 1, false, billingsubscription.StatusActive, invoice.StatusPaymentPending, false, 0, false},
		{"never sent is sent again", billingsubscription.StatusActive, outcomeNeverSent, 1, false, billingsubscription.StatusActive, invoice.StatusPaymentPending, false, 0, false},
		{"never sent on a retry stays unpaid", billingsubscription.StatusUnpaid, outcomeNeverSent, 4, false, billingsubscription.StatusUnpaid, invoice.StatusPaymentPending, false, 0, false},
	} {
		got := decideRenewal(tc.cur, tc.o, tc.attempt, sched, now, tc.ends)
		if got.Resend != (tc.o == outcomeNeverSent) || got.Wait != (tc.o == outcomeWaiting) {
			t.Errorf("%s: resend %v, wait %v", tc.name, got.Resend, got.Wait)
		}
		if got.Sub != tc.wantSub || got.Invoice != tc.wantInv || got.NextInvoice != tc.next || (got.RetryAt != nil) != tc.wantRetry ||
			(got.RetryAt != nil && !got.RetryAt.Equal(now.Add(tc.retryIn))) {
			t.Errorf("%s: %+v", tc.name, got)
		}
	}
}

func TestOutcomeOf(t *testing.T) {
	for st, want := range map[paymentintent.Status]paymentOutcome{
		paymentintent.StatusSucceeded: outcomePaid, paymentintent.StatusFailed: outcomeFailed,
		paymentintent.StatusRequiresCustomerAction: outcomeWaiting, paymentintent.StatusProcessing: outcomeWaiting,
		paymentintent.StatusRequiresPaymentMethod: outcomeOpen,
	} {
		if got := outcomeOf(st); got != want {
			t.Errorf("%s: %d, want %d", st, got, want)
		}
	}
}

func TestTransitions(t *testing.T) {
	for _, tc := range []struct {
		op      string
		cur     billingsubscription.Status
		allowed bool
	}{
		{"pause", billingsubscription.StatusActive, true},
		{"pause", billingsubscription.StatusPaused, false},
		{"pause", billingsubscription.StatusCancelled, false},
		{"resume", billingsubscription.StatusPaused, true},
		{"resume", billingsubscription.StatusActive, false},
		{"cancel", billingsubscription.StatusUnpaid, true},
		{"cancel", billingsubscription.StatusCancelled, false},
		{"confirm", billingsubscription.StatusCreated, true},
		{"confirm", billingsubscription.StatusActive, false},
		{"update", billingsubscription.StatusTrial, true},
		{"update", billingsubscription.StatusPaused, false},
	} {
		if got := transitionErr(tc.op, tc.cur, false) == ""; got != tc.allowed {
			t.Errorf("%s from %s: allowed %v, want %v", tc.op, tc.cur, got, tc.allowed)
		}
	}
}
