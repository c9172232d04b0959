package analytics

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	entsql "entgo.io/ent/dialect/sql"

	"switchyard/ent/dispute"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/paymentattempt"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/ent/schema"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// What payment metrics may be grouped by: the payment's columns.
const (
	ByStatus        = paymentintent.FieldStatus
	ByConnector     = paymentintent.FieldConnector
	ByPaymentMethod = paymentintent.FieldPaymentMethod
	ByCurrency      = paymentintent.FieldCurrency
)

// PaymentMetric is the payments of one bucket with one value of the
// grouping (Key: the status, connector, payment method or currency; ""
// while a payment has none) in one currency: how many, and the sum of their
// amounts in that currency's minor units. Volumes are never summed across
// currencies.
type PaymentMetric struct {
	BucketStart time.Time
	Key         string
	Currency    string
	Count       int64
	Volume      int64
}

// ConnectorRate is one connector account's attempts in one bucket.
// Succeeded counts those the connector authorized (whatever came after),
// Failed those it declined or that failed authentication; the rest are
// still pending.
type ConnectorRate struct {
	MerchantConnectorID string
	Connector           string
	BucketStart         time.Time
	Attempts            int64
	Succeeded           int64
	Failed              int64
}

// DecidedRate is Succeeded ÷ (Succeeded + Failed), the connector's verdicts
// alone, or nil when none came.
func (r ConnectorRate) DecidedRate() *float64 {
	done := r.Succeeded + r.Failed
	if done == 0 {
		return nil
	}
	v := float64(r.Succeeded) / float64(done)
	return &v
}

// RefundMetric is the refunds of one bucket, status and currency.
type RefundMetric struct {
	BucketStart time.Time
	Status      string
	Currency    string
	Count       int64
	Volume      int64
}

// DisputeMetric is the disputes of one bucket and status.
type DisputeMetric struct {
	BucketStart time.Time
	Status      string
	Count       int64
}

// groupRow is one group of a grouped statement; each statement fills the
// columns it selects.
type groupRow struct {
	Bucket    int64  `sql:"bucket"`
	Key       string `sql:"k"`
	Currency  string `sql:"currency"`
	Count     int64  `sql:"n"`
	Volume    int64  `sql:"volume"`
	Succeeded int64  `sql:"succeeded"`
	Failed    int64  `sql:"failed"`
}

// aggregate is a select-list expression of a group and its alias.
type aggregate struct{ expr, as string }

var (
	countAll  = aggregate{"COUNT(*)", "n"}
	sumAmount = aggregate{"SUM(amount)", "volume"}
)

// grouped selects the range's rows (created_at in [from, to), the
// profile's when one is set and profiled), per bucket and per value of key
// (and of currency when withCurrency), with the aggregates, ordered by
// bucket then key. A NULL key (nullableKeys) is "".
func (sc scope) grouped(key string, withCurrency, profiled bool, aggs ...aggregate) func(*entsql.Selector) {
	return func(sel *entsql.Selector) {
		created := sel.C("created_at")
		sel.Where(entsql.And(entsql.GTE(created, sc.from), entsql.LT(created, sc.to)))
		if profiled && sc.profileID != nil {
			sel.Where(entsql.EQ(sel.C("profile_id"), *sc.profileID))
		}
		sel.Select().
			AppendSelectExprAs(entsql.Expr(sc.sql(sel.Dialect(), created)), "bucket").
			AppendSelectExprAs(entsql.Expr(keyExpr(sel.C(key), key)), "k")
		groups := []string{"bucket", "k"}
		if withCurrency {
			sel.AppendSelectExprAs(entsql.Expr(sel.C("currency")), "currency")
			groups = append(groups, "currency")
		}
		for _, a := range aggs {
			sel.AppendSelectExprAs(entsql.Expr(a.expr), a.as)
		}
		sel.GroupBy(groups...).OrderBy(groups...)
	}
}

// nullableKeys are the grouping columns that may be NULL (a payment not
// routed yet has no connector): only they are wrapped in COALESCE. An ENUM
// column wrapped becomes a string, which makes every row's grouping key a
// string: a fifth of a month's statement on MariaDB.
var nullableKeys = map[string]bool{paymentintent.FieldConnector: true, paymentintent.FieldPaymentMethod: true}

func keyExpr(column, key string) string {
	if nullableKeys[key] {
		return "COALESCE(" + column + ", '')"
	}
	return column
}

// scanner is an ent query made grouped (its Modify's answer).
type scanner interface {
	Scan(ctx context.Context, v any) error
}

// groups resolves r, scans the grouped statements query builds for it,
// and makes each group a T. A range of more than a few days is read as
// slices (sliced) that run at once on MySQL, each its own range of the
// covering index, and their groups are added up: a month of a busy
// merchant is hundreds of thousands of index entries, and one statement
// reads them on one core.
func groups[T any](ctx context.Context, s *Service, r Range, query func(scope) (scanner, error), row func(scope, groupRow) T) ([]T, error) {
	sc, err := s.resolve(ctx, r)
	if err != nil {
		return nil, err
	}
	parts := sc.sliced()
	found := make([][]groupRow, len(parts))
	reads := make([]func() error, len(parts))
	for i, part := range parts {
		q, err := query(part)
		if err != nil {
			return nil, err
		}
		reads[i] = func() error { return q.Scan(ctx, &found[i]) }
	}
	if err := s.db.RunReads(s.client(), reads); err != nil {
		return nil, errs.Internal(err)
	}
	rows := mergeGroups(found)
	out := make([]T, len(rows))
	for i, g := range rows {
		out[i] = row(sc, g)
	}
	return out, nil
}

// slicesOver is the span above which a range is read in slices, and
// rangeSlices how many.
const (
	slicesOver  = 3 * 24 * time.Hour
	rangeSlices = 4
)

// sliced cuts the scope's range into rangeSlices consecutive ranges at
// bucket starts (so that, bucketed, each bucket is read by one slice),
// each with the whole range's grid; a short range stays whole.
func (sc scope) sliced() []scope {
	if sc.to.Sub(sc.from) <= slicesOver {
		return []scope{sc}
	}
	cuts := []time.Time{sc.from}
	first, n := sc.number(sc.from), sc.count()
	for i := int64(1); i < rangeSlices; i++ {
		var at time.Time
		if sc.width == 0 {
			at = sc.from.Add(sc.to.Sub(sc.from) * time.Duration(i) / rangeSlices).Truncate(time.Second)
		} else {
			at = sc.start(first + n*i/rangeSlices)
		}
		if at.After(cuts[len(cuts)-1]) && at.Before(sc.to) {
			cuts = append(cuts, at)
		}
	}
	out := make([]scope, len(cuts))
	for i, from := range cuts {
		part := sc
		part.from, part.to = from, sc.to
		if i+1 < len(cuts) {
			part.to = cuts[i+1]
		}
		out[i] = part
	}
	return out
}

// mergeGroups adds up the groups the slices found (a group read by two
// slices, as a whole range's are, is one group), ordered by bucket, key
// and currency as strings (the database orders an ENUM key by its
// position), the same however the range was sliced.
func mergeGroups(found [][]groupRow) []groupRow {
	type groupKey struct {
		bucket        int64
		key, currency string
	}
	at := map[groupKey]int{}
	var out []groupRow
	for _, rows := range found {
		for _, g := range rows {
			k := groupKey{g.Bucket, g.Key, g.Currency}
			i, ok := at[k]
			if !ok {
				at[k] = len(out)
				out = append(out, g)
				continue
			}
			out[i].Count += g.Count
			out[i].Volume += g.Volume
			out[i].Succeeded += g.Succeeded
			out[i].Failed += g.Failed
		}
	}
	slices.SortFunc(out, func(a, b groupRow) int {
		return cmp.Or(cmp.Compare(a.Bucket, b.Bucket), cmp.Compare(a.Key, b.Key), cmp.Compare(a.Currency, b.Currency))
	})
	return out
}

// Payments counts and sums the range's payments per bucket, per value of
// by (ByStatus, ByConnector, ByPaymentMethod, ByCurrency) and currency, in
// one grouped statement answered from the index paymentintent_analytics
// (merchant_id, created_at, profile_id, status, connector, payment_method,
// currency, amount) alone.
func (s *Service) Payments(ctx context.Context, r Range, by string) ([]PaymentMetric, error) {
	switch by {
	case ByStatus, ByConnector, ByPaymentMethod, ByCurrency:
	default:
		return nil, errs.InvalidValue("groupBy", "must be status, connector, payment_method or currency, got %q", by)
	}
	return groups(ctx, s, r, func(sc scope) (scanner, error) {
		return s.client().PaymentIntent.Query().Modify(sc.grouped(by, true, true, countAll, sumAmount)), nil
	}, func(sc scope, g groupRow) PaymentMetric {
		return PaymentMetric{BucketStart: sc.start(g.Bucket), Key: g.Key, Currency: g.Currency, Count: g.Count, Volume: g.Volume}
	})
}

// Refunds counts and sums the range's refunds per bucket, status and
// currency, from the index refund_analytics alone.
func (s *Service) Refunds(ctx context.Context, r Range) ([]RefundMetric, error) {
	return groups(ctx, s, r, func(sc scope) (scanner, error) {
		return s.client().Refund.Query().Modify(sc.grouped(refund.FieldStatus, true, true, countAll, sumAmount)), nil
	}, func(sc scope, g groupRow) RefundMetric {
		return RefundMetric{BucketStart: sc.start(g.Bucket), Status: g.Key, Currency: g.Currency, Count: g.Count, Volume: g.Volume}
	})
}

// Disputes counts the range's disputes per bucket and status, from the
// index dispute_analytics alone.
func (s *Service) Disputes(ctx context.Context, r Range) ([]DisputeMetric, error) {
	return groups(ctx, s, r, func(sc scope) (scanner, error) {
		return s.client().Dispute.Query().Modify(sc.grouped(dispute.FieldDisputeStatus, false, true, countAll)), nil
	}, func(sc scope, g groupRow) DisputeMetric {
		return DisputeMetric{BucketStart: sc.start(g.Bucket), Status: g.Key, Count: g.Count}
	})
}

// ConnectorRates counts the range's attempts per bucket and connector
// account, with how many the connector authorized and declined, from the
// index (merchant_id, created_at, merchant_connector_id, status) alone;
// then reads the accounts' connector names. With a profile, its accounts'
// attempts are counted (an account belongs to one profile), so the index
// still serves.
func (s *Service) ConnectorRates(ctx context.Context, r Range) ([]ConnectorRate, error) {
	var accounts []string // the profile's, read once for every slice
	rates, err := groups(ctx, s, r, func(sc scope) (scanner, error) {
		q := s.client().PaymentAttempt.Query().Where(paymentattempt.MerchantConnectorIDNotNil())
		if sc.profileID != nil {
			if accounts == nil {
				ids, err := s.client().MerchantConnectorAccount.Query().
					Where(merchantconnectoraccount.ProfileID(*sc.profileID)).IDs(ctx)
				if err != nil {
					return nil, errs.Internal(err)
				}
				accounts = append(make([]string, 0, len(ids)), ids...)
			}
			q = q.Where(paymentattempt.MerchantConnectorIDIn(accounts...))
		}
		return q.Modify(sc.grouped(paymentattempt.FieldMerchantConnectorID, false, false, countAll,
			aggregate{statusIn(schema.AuthorizedAttemptStatuses), "succeeded"},
			aggregate{statusIn(schema.DeclinedAttemptStatuses), "failed"})), nil
	}, func(sc scope, g groupRow) ConnectorRate {
		return ConnectorRate{MerchantConnectorID: g.Key, BucketStart: sc.start(g.Bucket), Attempts: g.Count,
			Succeeded: g.Succeeded, Failed: g.Failed}
	})
	if err != nil {
		return nil, err
	}
	accountIDs := make([]string, len(rates))
	for i, g := range rates {
		accountIDs[i] = g.MerchantConnectorID
	}
	names, err := txn.ConnectorNames(ctx, s.client(), accountIDs)
	for i := range rates {
		rates[i].Connector = names[rates[i].MerchantConnectorID]
	}
	return rates, err
}

// statusIn counts a group's rows whose status is one of statuses (the
// schema's constants, written inline: see grid.sql).
func statusIn(statuses []string) string {
	return "SUM(CASE WHEN status IN ('" + strings.Join(statuses, "', '") + "') THEN 1 ELSE 0 END)"
}
