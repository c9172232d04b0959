package payouts

import (
	"context"
	"slices"
	"time"

	"switchyard/ent"
	"switchyard/ent/payout"
	"switchyard/ent/predicate"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// ListFilter narrows the payout list (GET /payouts/list's
// PayoutListConstraints and POST /payouts/list's
// PayoutListFilterConstraints). Nil and empty are no constraint.
type ListFilter struct {
	CustomerID               *string
	PayoutID                 *string
	MerchantOrderReferenceID *string
	ProfileID                *string
	// StartingAfter and EndingBefore are payout ids: the page after one
	// (older) or before one (newer), newest first.
	StartingAfter, EndingBefore *string
	Created                     *time.Time
	CreatedGTE, CreatedLTE      *time.Time
	Connectors                  []string
	Currencies                  []string
	Statuses                    []string
	PayoutMethods               []string
	EntityTypes                 []string
	Limit, Offset               int
}

// List is a page of payouts, newest first, and how many match in all.
type List struct {
	Payouts    []*View
	TotalCount int
}

// List pages through the merchant's payouts.
func (s *Service) List(ctx context.Context, f ListFilter) (*List, error) {
	where, err := s.listWhere(ctx, f)
	if err != nil {
		return nil, err
	}
	total, err := s.db.Client.Payout.Query().Where(where...).Count(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	page, err := s.page(ctx, f, where)
	if err != nil {
		return nil, err
	}
	out := &List{TotalCount: total, Payouts: make([]*View, len(page))}
	for i, po := range page {
		if out.Payouts[i], err = s.view(ctx, s.db.Client, po); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// page reads one page, after or before a cursor when f names one.
func (s *Service) page(ctx context.Context, f ListFilter, where []predicate.Payout) ([]*ent.Payout, error) {
	q := s.db.Client.Payout.Query().Where(where...).Limit(f.Limit).Offset(f.Offset)
	newestFirst := []payout.OrderOption{ent.Desc(payout.FieldCreatedAt), ent.Desc(payout.FieldID)}
	if f.EndingBefore != nil && f.StartingAfter == nil {
		c, err := s.load(ctx, s.db.Client, *f.EndingBefore, false)
		if err != nil {
			return nil, err
		}
		rows, err := q.Where(payout.Or(payout.CreatedAtGT(c.CreatedAt), payout.And(payout.CreatedAt(c.CreatedAt), payout.IDGT(c.ID)))).
			Order(ent.Asc(payout.FieldCreatedAt), ent.Asc(payout.FieldID)).All(ctx)
		slices.Reverse(rows)
		return rows, internalOrNil(err)
	}
	if f.StartingAfter != nil {
		c, err := s.load(ctx, s.db.Client, *f.StartingAfter, false)
		if err != nil {
			return nil, err
		}
		q.Where(payout.Or(payout.CreatedAtLT(c.CreatedAt), payout.And(payout.CreatedAt(c.CreatedAt), payout.IDLT(c.ID))))
	}
	rows, err := q.Order(newestFirst...).All(ctx)
	return rows, internalOrNil(err)
}

// listWhere are f's constraints (and the caller's profile, when its key
// has one).
func (s *Service) listWhere(ctx context.Context, f ListFilter) ([]predicate.Payout, error) {
	var w []predicate.Payout
	if p, ok := tenancy.FromContext(ctx); ok && p.ProfileID != "" {
		if f.ProfileID != nil && *f.ProfileID != p.ProfileID {
			return nil, errs.ProfileNotFound(*f.ProfileID)
		}
		f.ProfileID = &p.ProfileID
	}
	for _, m := range []struct {
		v  *string
		by func(string) predicate.Payout
	}{{f.CustomerID, payout.CustomerID}, {f.PayoutID, payout.ID},
		{f.MerchantOrderReferenceID, payout.MerchantOrderReferenceID}, {f.ProfileID, payout.ProfileID}} {
		w = txn.WhereIf(w, m.v, m.by)
	}
	for _, m := range []struct {
		v  *time.Time
		by func(time.Time) predicate.Payout
	}{{f.Created, payout.CreatedAt}, {f.CreatedGTE, payout.CreatedAtGTE}, {f.CreatedLTE, payout.CreatedAtLTE}} {
		w = txn.WhereIf(w, m.v, m.by)
	}
	w = txn.WhereIn(w, f.Connectors, payout.ConnectorIn)
	w = txn.WhereIn(w, txn.Enums[schematype.Currency](f.Currencies), payout.CurrencyIn)
	w = txn.WhereIn(w, txn.Enums[payout.Status](f.Statuses), payout.StatusIn)
	w = txn.WhereIn(w, txn.Enums[payout.PayoutType](f.PayoutMethods), payout.PayoutTypeIn)
	return txn.WhereIn(w, f.EntityTypes, payout.EntityTypeIn), nil
}

// Filters are the values the merchant's payouts in a time range take
// (POST /payouts/filter's PayoutListFilters).
type Filters struct {
	Connectors, Currencies, Statuses, PayoutMethods []string
}

// Filters lists the connectors, currencies, statuses and payout methods of
// the payouts created from start (to end, when given).
func (s *Service) Filters(ctx context.Context, start time.Time, end *time.Time) (*Filters, error) {
	w, err := s.listWhere(ctx, ListFilter{CreatedGTE: &start, CreatedLTE: end})
	if err != nil {
		return nil, err
	}
	rows, err := s.db.Client.Payout.Query().Where(w...).
		Select(payout.FieldConnector, payout.FieldCurrency, payout.FieldStatus, payout.FieldPayoutType).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	f := &Filters{Connectors: []string{}, Currencies: []string{}, Statuses: []string{}, PayoutMethods: []string{}}
	for _, r := range rows {
		f.Connectors = addOnce(f.Connectors, deref(r.Connector))
		f.Currencies = addOnce(f.Currencies, string(r.Currency))
		f.Statuses = addOnce(f.Statuses, string(r.Status))
		if r.PayoutType != nil {
			f.PayoutMethods = addOnce(f.PayoutMethods, string(*r.PayoutType))
		}
	}
	return f, nil
}

func addOnce(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	return append(list, v)
}

func internalOrNil(err error) error {
	if err == nil {
		return nil
	}
	return errs.Internal(err)
}
