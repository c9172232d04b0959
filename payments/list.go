package payments

import (
	"context"
	"slices"
	"time"

	"entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/ent/customer"
	"switchyard/ent/paymentintent"
	"switchyard/ent/predicate"
)

// PaymentListFilter is GET /payments/list's query.
type PaymentListFilter struct {
	CustomerID *string
	// StartingAfter and EndingBefore are payment ids (mutually exclusive).
	StartingAfter *string
	EndingBefore  *string
	Limit         int
	Created       *time.Time
	CreatedLT     *time.Time
	CreatedGT     *time.Time
	CreatedLTE    *time.Time
	CreatedGTE    *time.Time
}

// Page size bounds of payment lists.
const (
	DefaultListLimit = 10
	MaxListLimit     = 100
)

// ListPayments pages through the merchant's payments, newest first, with a
// keyset on (merchant_id, created_at, id): no OFFSET, and stable while new
// payments arrive (they sort before the first page). The page and its
// nested records cost a constant number of queries (see LoadViews).
func (s *Service) ListPayments(ctx context.Context, f PaymentListFilter) ([]*PaymentView, error) {
	if f.Limit == 0 {
		f.Limit = DefaultListLimit
	}
	if f.Limit < 1 || f.Limit > MaxListLimit {
		return nil, ErrInvalidValue("limit", "must be between 1 and %d", MaxListLimit)
	}
	if f.StartingAfter != nil && f.EndingBefore != nil {
		return nil, ErrInvalidValue("starting_after", "cannot be combined with ending_before")
	}
	q := s.client.PaymentIntent.Query()
	var preds []predicate.PaymentIntent
	if f.CustomerID != nil {
		c, err := s.client.Customer.Query().Where(customer.CustomerID(*f.CustomerID)).Only(ctx)
		if ent.IsNotFound(err) {
			return []*PaymentView{}, nil // a customer with no payments here
		}
		if err != nil {
			return nil, ErrInternal(err)
		}
		preds = append(preds, paymentintent.CustomerID(c.ID))
	}
	if f.Created != nil {
		preds = append(preds, paymentintent.CreatedAtEQ(*f.Created))
	}
	if f.CreatedLT != nil {
		preds = append(preds, paymentintent.CreatedAtLT(*f.CreatedLT))
	}
	if f.CreatedGT != nil {
		preds = append(preds, paymentintent.CreatedAtGT(*f.CreatedGT))
	}
	if f.CreatedLTE != nil {
		preds = append(preds, paymentintent.CreatedAtLTE(*f.CreatedLTE))
	}
	if f.CreatedGTE != nil {
		preds = append(preds, paymentintent.CreatedAtGTE(*f.CreatedGTE))
	}
	backwards := false
	for _, cursor := range []struct {
		id     *string
		before bool
		field  string
	}{{f.StartingAfter, false, "starting_after"}, {f.EndingBefore, true, "ending_before"}} {
		if cursor.id == nil {
			continue
		}
		at, err := s.client.PaymentIntent.Query().Where(paymentintent.PaymentID(*cursor.id)).
			Select(paymentintent.FieldCreatedAt, paymentintent.FieldID).Only(ctx)
		if ent.IsNotFound(err) {
			e := ErrNotFound("Payment")
			e.Message = "Payment " + *cursor.id + " given in " + cursor.field + " does not exist in our records"
			e.Field = cursor.field
			return nil, e
		}
		if err != nil {
			return nil, ErrInternal(err)
		}
		preds = append(preds, keysetAfter(at.CreatedAt, at.ID, cursor.before))
		backwards = cursor.before
	}
	q = q.Where(preds...)
	if backwards {
		q = q.Order(ent.Asc(paymentintent.FieldCreatedAt), ent.Asc(paymentintent.FieldID))
	} else {
		q = q.Order(ent.Desc(paymentintent.FieldCreatedAt), ent.Desc(paymentintent.FieldID))
	}
	rows, err := q.Limit(f.Limit).All(ctx)
	if err != nil {
		return nil, ErrInternal(err)
	}
	if backwards {
		slices.Reverse(rows)
	}
	return s.LoadViews(ctx, rows)
}

// keysetAfter selects the rows after (created_at, id) in newest-first order,
// or before it when newer is true. It is written as
// `created_at <= c AND (created_at < c OR id < i)` so the index range on
// (merchant_id, created_at) does the work.
func keysetAfter(c time.Time, id string, newer bool) predicate.PaymentIntent {
	return predicate.PaymentIntent(func(s *sql.Selector) {
		created, pk := s.C(paymentintent.FieldCreatedAt), s.C(paymentintent.FieldID)
		if newer {
			s.Where(sql.And(sql.GTE(created, c), sql.Or(sql.GT(created, c), sql.GT(pk, id))))
			return
		}
		s.Where(sql.And(sql.LTE(created, c), sql.Or(sql.LT(created, c), sql.LT(pk, id))))
	})
}
