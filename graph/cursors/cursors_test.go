package cursors

import (
	"testing"
	"time"

	"entgo.io/contrib/entgql"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
)

// TestBindingSeesContent: bindings differ when the filters or order differ
// in content, and agree when only the addresses differ.
func TestBindingSeesContent(t *testing.T) {
	amount := func(v int64) *ent.PaymentIntentWhereInput { return &ent.PaymentIntentWhereInput{AmountGT: &v} }
	since := func(ts time.Time) *ent.PaymentIntentWhereInput {
		return &ent.PaymentIntentWhereInput{CreatedAtGTE: &ts}
	}
	status := func(s paymentintent.Status) *ent.PaymentIntentWhereInput {
		return &ent.PaymentIntentWhereInput{Status: &s}
	}
	order := func(f *ent.PaymentIntentOrderField, d entgql.OrderDirection) []*ent.PaymentIntentOrder {
		return []*ent.PaymentIntentOrder{{Field: f, Direction: d}}
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	same := [][2]string{
		{Binding("p", amount(5), nil), Binding("p", amount(5), nil)},
		{Binding("p", since(t0), nil), Binding("p", since(t0.In(time.FixedZone("x", 3600))), nil)},
		{Binding("p", nil, order(ent.PaymentIntentOrderFieldAmount, entgql.OrderDirectionAsc)),
			Binding("p", nil, order(ent.PaymentIntentOrderFieldAmount, entgql.OrderDirectionAsc))},
	}
	for i, p := range same {
		if p[0] != p[1] {
			t.Errorf("same query %d got two bindings", i)
		}
	}
	different := [][2]string{
		{Binding("p", amount(5), nil), Binding("p", amount(6), nil)},
		{Binding("p", since(t0), nil), Binding("p", since(t0.Add(time.Microsecond)), nil)},
		{Binding("p", status(paymentintent.StatusSucceeded), nil), Binding("p", status(paymentintent.StatusFailed), nil)},
		{Binding("p", nil, order(ent.PaymentIntentOrderFieldAmount, entgql.OrderDirectionAsc)),
			Binding("p", nil, order(ent.PaymentIntentOrderFieldAmount, entgql.OrderDirectionDesc))},
		{Binding("p", nil, order(ent.PaymentIntentOrderFieldAmount, entgql.OrderDirectionAsc)),
			Binding("p", nil, order(ent.PaymentIntentOrderFieldCreatedAt, entgql.OrderDirectionAsc))},
		{Binding("p", nil, nil), Binding("q", nil, nil)},
	}
	for i, p := range different {
		if p[0] == p[1] {
			t.Errorf("different queries %d share a binding", i)
		}
	}
}
