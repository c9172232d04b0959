package payments

import (
	"slices"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/payments/validate"
)

// The list's rules without a database: which filters are refused, the page
// size, the created bounds at whole seconds, and a page's order.

func TestListFilterCheck(t *testing.T) {
	pay := "pay_1"
	for _, tc := range []struct {
		name      string
		f         PaymentListFilter
		want      string
		wantLimit int
	}{
		{name: "no filter: the default page", f: PaymentListFilter{}, wantLimit: validate.DefaultListLimit},
		{name: "one", f: PaymentListFilter{Limit: 1}, wantLimit: 1},
		{name: "the largest page", f: PaymentListFilter{Limit: validate.MaxListLimit}, wantLimit: validate.MaxListLimit},
		{name: "over the largest page", f: PaymentListFilter{Limit: validate.MaxListLimit + 1}, want: "invalid_value limit"},
		{name: "negative", f: PaymentListFilter{Limit: -1}, want: "invalid_value limit"},
		{name: "starting_after", f: PaymentListFilter{StartingAfter: &pay}, wantLimit: validate.DefaultListLimit},
		{name: "ending_before", f: PaymentListFilter{EndingBefore: &pay}, wantLimit: validate.DefaultListLimit},
		{name: "both cursors", f: PaymentListFilter{StartingAfter: &pay, EndingBefore: &pay}, want: "invalid_value starting_after"},
		{name: "the limit before the cursors", f: PaymentListFilter{Limit: -1, StartingAfter: &pay, EndingBefore: &pay}, want: "invalid_value limit"},
	} {
		f := tc.f
		err := f.check()
		checkRefusal(t, tc.name, err, tc.want)
		if err == nil && f.Limit != tc.wantLimit {
			t.Errorf("%s: limit %d, want %d", tc.name, f.Limit, tc.wantLimit)
		}
	}
}

// TestCreatedRange: the created bounds compare at the second the wire
// shows, folded into one half-open range of stored times.
func TestCreatedRange(t *testing.T) {
	T := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	half := T.Add(500 * time.Millisecond)
	next := T.Add(time.Second)
	at := func(t time.Time) *time.Time { return &t }
	for _, tc := range []struct {
		name        string
		f           PaymentListFilter
		from, until *time.Time
	}{
		{name: "unbounded"},
		{name: "created=T: the second T", f: PaymentListFilter{Created: &T}, from: &T, until: &next},
		{name: "created=T.5: nothing", f: PaymentListFilter{Created: &half}, from: &next, until: &next},
		{name: "created.lt=T", f: PaymentListFilter{CreatedLT: &T}, until: &T},
		{name: "created.lt=T.5: up to T's second", f: PaymentListFilter{CreatedLT: &half}, until: &next},
		{name: "created.lte=T", f: PaymentListFilter{CreatedLTE: &T}, until: &next},
		{name: "created.gt=T", f: PaymentListFilter{CreatedGT: &T}, from: &next},
		{name: "created.gte=T", f: PaymentListFilter{CreatedGTE: &T}, from: &T},
		{name: "created.gte=T.5: from the next second", f: PaymentListFilter{CreatedGTE: &half}, from: &next},
		{name: "the narrower bound wins", f: PaymentListFilter{CreatedGTE: &T, CreatedGT: &T, CreatedLTE: at(T.Add(time.Hour)), CreatedLT: at(T.Add(time.Minute))},
			from: &next, until: at(T.Add(time.Minute))},
		{name: "another zone compares in UTC", f: PaymentListFilter{Created: at(T.In(time.FixedZone("X", 3600)))}, from: &T, until: &next},
	} {
		from, until := tc.f.createdRange()
		if !sameTime(from, tc.from) || !sameTime(until, tc.until) {
			t.Errorf("%s: [%v, %v), want [%v, %v)", tc.name, from, until, tc.from, tc.until)
		}
		wantPreds := 0
		if tc.from != nil {
			wantPreds++
		}
		if tc.until != nil {
			wantPreds++
		}
		if n := len(tc.f.createdPreds()); n != wantPreds {
			t.Errorf("%s: %d predicates, want %d", tc.name, n, wantPreds)
		}
	}
}

func sameTime(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}

func TestOrderLike(t *testing.T) {
	rows := []*ent.PaymentIntent{{ID: "b"}, {ID: "c"}, {ID: "a"}}
	orderLike(rows, []string{"c", "a", "b"})
	var got []string
	for _, r := range rows {
		got = append(got, r.ID)
	}
	if !slices.Equal(got, []string{"c", "a", "b"}) {
		t.Errorf("order %v", got)
	}
}
