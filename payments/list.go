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
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// PaymentListFilter is GET /payments/list's query.
//
// The created bounds compare a payment's creation time at the resolution the
// wire shows it, whole seconds (the record's "created" is
// YYYY-MM-DDThh:mm:ssZ): a payment shown as created at T is matched by
// created=T, created.lte=T and created.gte=T, and not by created.lt=T or
// created.gt=T, although the stored time carries microseconds. A bound with
// a fraction of a second compares the same way (created=T.5 matches nothing).
type PaymentListFilter struct {
	CustomerID *string
	// StartingAfter and EndingBefore are payment ids (mutually exclusive).
	StartingAfter *string
	EndingBefore  *string
	// Limit is the page size, 1 to MaxListLimit; 0 means DefaultListLimit.
	Limit      int
	Created    *time.Time
	CreatedLT  *time.Time
	CreatedGT  *time.Time
	CreatedLTE *time.Time
	CreatedGTE *time.Time
}

// ListPayments pages through the payments of the merchant in ctx (and of
// its profile, when the principal names one), newest first, with a keyset
// on (merchant_id, created_at, id): no OFFSET, and stable while new payments
// arrive (they sort before the first page, and a cursor is a position, not a
// count). StartingAfter gives the page of payments older than that payment,
// EndingBefore the page of payments newer than it, both newest first. A
// cursor that is not one of the caller's payments is HE_02.
//
// A page costs a constant number of statements, whatever its size: the
// customer and cursor lookups when given, the page's keys and rows, and one
// query per kind of nested record (LoadViews).
func (s *Service) ListPayments(ctx context.Context, f PaymentListFilter) ([]*PaymentView, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	where, err := s.listWhere(ctx, f)
	if err != nil {
		return nil, err
	}
	if where.none {
		return []*PaymentView{}, nil
	}
	rows, err := s.listPage(ctx, where, f.Limit)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return []*PaymentView{}, nil
	}
	return s.LoadViews(ctx, rows)
}

// check refuses a page size outside 1..MaxListLimit (0 becomes
// DefaultListLimit) and both cursors at once.
func (f *PaymentListFilter) check() error {
	if err := validate.PageLimit(&f.Limit); err != nil {
		return err
	}
	if f.StartingAfter != nil && f.EndingBefore != nil {
		return errs.InvalidValue("starting_after", "cannot be combined with ending_before")
	}
	return nil
}

// listQuery is what a list selects: the caller's profile, the rows after
// (or, backwards, before) the cursor, the customer's, and the created
// range. none is a customer that does not exist: none of its payments.
type listQuery struct {
	preds     []predicate.PaymentIntent
	backwards bool
	none      bool
}

// listWhere reads what the filter names (the cursor first: a foreign or
// unknown cursor is 404 whatever the other filters select, then the
// customer) into the list's predicates.
func (s *Service) listWhere(ctx context.Context, f PaymentListFilter) (listQuery, error) {
	w := listQuery{preds: txn.InProfile(ctx, paymentintent.ProfileID)}
	for _, cursor := range []struct {
		id     *string
		before bool
		field  string
	}{{f.StartingAfter, false, "starting_after"}, {f.EndingBefore, true, "ending_before"}} {
		if cursor.id == nil {
			continue
		}
		at, err := s.db.Client.PaymentIntent.Query().Where(paymentWhere(ctx, *cursor.id)...).
			Select(paymentintent.FieldCreatedAt, paymentintent.FieldID).Only(ctx)
		if ent.IsNotFound(err) {
			return w, errCursorNotFound(*cursor.id, cursor.field)
		}
		if err != nil {
			return w, errs.Internal(err)
		}
		w.preds = append(w.preds, keysetAfter(at.CreatedAt, at.ID, cursor.before))
		w.backwards = cursor.before
	}
	if f.CustomerID != nil {
		c, err := s.db.Client.Customer.Query().Where(customer.CustomerID(*f.CustomerID)).
			Select(customer.FieldID).Only(ctx)
		if ent.IsNotFound(err) {
			w.none = true
			return w, nil
		}
		if err != nil {
			return w, errs.Internal(err)
		}
		w.preds = append(w.preds, paymentintent.CustomerID(c.ID))
	}
	w.preds = append(w.preds, f.createdPreds()...)
	return w, nil
}

// errCursorNotFound is a cursor (given in field) that is not one of the
// caller's payments.
func errCursorNotFound(paymentID, field string) *errs.Error {
	e := errs.NotFound("Payment")
	e.Message = "Payment " + paymentID + " given in " + field + " does not exist in our records"
	e.Field = field
	return e
}

// createdPreds are the created bounds as predicates on the stored time
// (createdRange).
func (f PaymentListFilter) createdPreds() []predicate.PaymentIntent {
	var preds []predicate.PaymentIntent
	from, until := f.createdRange()
	if from != nil {
		preds = append(preds, paymentintent.CreatedAtGTE(*from))
	}
	if until != nil {
		preds = append(preds, paymentintent.CreatedAtLT(*until))
	}
	return preds
}

// listPage reads the page's rows, newest first.
//
// The page in two steps: its keys from the keyset index alone (it holds
// created_at and id), then its rows by primary key. Asked for whole rows
// in one statement, MariaDB's ORDER BY … LIMIT costing may walk the
// merchant's whole index from the newest entry and filter (EXPLAIN
// type=ref) instead of starting at the cursor or bound (type=range),
// which at a deep cursor reads every newer payment. An index-only scan
// keeps the range. cmd/loadgen checks the plan at a million payments.
func (s *Service) listPage(ctx context.Context, w listQuery, limit int) ([]*ent.PaymentIntent, error) {
	q := s.db.Client.PaymentIntent.Query().Where(w.preds...)
	if w.backwards {
		q = q.Order(ent.Asc(paymentintent.FieldCreatedAt), ent.Asc(paymentintent.FieldID))
	} else {
		q = q.Order(ent.Desc(paymentintent.FieldCreatedAt), ent.Desc(paymentintent.FieldID))
	}
	keys, err := q.Limit(limit).Unique(false).Select(paymentintent.FieldID).Strings(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	if len(keys) == 0 {
		return nil, nil
	}
	if w.backwards {
		slices.Reverse(keys)
	}
	rows, err := s.db.Client.PaymentIntent.Query().Where(paymentintent.IDIn(keys...)).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	orderLike(rows, keys)
	return rows, nil
}

// orderLike sorts rows into the order of their ids in keys.
func orderLike(rows []*ent.PaymentIntent, keys []string) {
	at := make(map[string]int, len(keys))
	for i, k := range keys {
		at[k] = i
	}
	slices.SortFunc(rows, func(a, b *ent.PaymentIntent) int { return at[a.ID] - at[b.ID] })
}

// createdRange folds the five created bounds into one half-open range
// [from, until) of stored times (nil: unbounded), comparing at whole seconds
// (see PaymentListFilter). With t the payment's stored time and ⌊t⌋ the
// second it shows:
//
//	⌊t⌋ = T  ⟺  ⌈T⌉ ≤ t < ⌊T⌋+1s (empty when T has a fraction)
//	⌊t⌋ < T  ⟺  t < ⌈T⌉          ⌊t⌋ ≤ T  ⟺  t < ⌊T⌋+1s
//	⌊t⌋ > T  ⟺  t ≥ ⌊T⌋+1s       ⌊t⌋ ≥ T  ⟺  t ≥ ⌈T⌉
func (f PaymentListFilter) createdRange() (from, until *time.Time) {
	floor := func(t time.Time) time.Time { return t.UTC().Truncate(time.Second) }
	ceil := func(t time.Time) time.Time {
		if fl := floor(t); !fl.Equal(t) {
			return fl.Add(time.Second)
		}
		return floor(t)
	}
	atLeast := func(t time.Time) {
		if from == nil || t.After(*from) {
			from = &t
		}
	}
	below := func(t time.Time) {
		if until == nil || t.Before(*until) {
			until = &t
		}
	}
	if t := f.Created; t != nil {
		atLeast(ceil(*t))
		below(floor(*t).Add(time.Second))
	}
	if t := f.CreatedLT; t != nil {
		below(ceil(*t))
	}
	if t := f.CreatedLTE; t != nil {
		below(floor(*t).Add(time.Second))
	}
	if t := f.CreatedGT; t != nil {
		atLeast(floor(*t).Add(time.Second))
	}
	if t := f.CreatedGTE; t != nil {
		atLeast(ceil(*t))
	}
	return from, until
}

// keysetAfter selects the rows after (created_at, id) in newest-first order,
// or before it when newer is true. It is written as
// `created_at <= c AND (created_at < c OR id < i)` so the index range on
// (merchant_id, created_at, id) does the work.
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
