// Package analytics owns the dashboard's charts: payment count and volume
// by status, connector, payment method and currency; connector success
// rates over time; refund count and volume; dispute count by status. Each
// is one grouped SQL statement over a range of the merchant's rows (and
// optionally one profile's), cut in hours, days or weeks of a time zone,
// and answered from a covering index alone: no row is loaded into Go.
//
// It must not import another domain package.
package analytics

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
	"switchyard/payments/validate"
)

// Service answers the analytics queries.
type Service struct {
	db *txn.DB
}

// New returns the analytics service over db.
func New(db *txn.DB) *Service { return &Service{db: db} }

// Range is what every analytics query is asked over: the merchant's rows
// created in [From, To), whole (Bucket empty) or cut in hours, days or
// weeks (from Monday) of TimeZone (an IANA name; UTC when empty), and only
// ProfileID's when it is set.
type Range struct {
	From, To  time.Time
	Bucket    string
	TimeZone  string
	ProfileID *string
}

// earliest is the first instant a range may start at: bucket numbers are
// computed on epoch seconds, which stay positive from there.
var earliest = time.Date(1971, 1, 1, 0, 0, 0, 0, time.UTC)

// scope is a validated range: its grid, and the profile when one was named.
type scope struct {
	grid
	profileID *string
}

// resolve checks r and the caller: a merchant, from before to, a known time
// zone, a known bucket, at most MaxBuckets buckets, and a profile of the
// merchant's (the key's own when it is narrowed to one).
func (s *Service) resolve(ctx context.Context, r Range) (scope, error) {
	if _, err := txn.Merchant(ctx); err != nil {
		return scope{}, err
	}
	if r.From.IsZero() || r.To.IsZero() {
		return scope{}, errs.MissingField("from and to")
	}
	if r.From.Before(earliest) {
		return scope{}, errs.InvalidValue("from", "must be in 1971 or later")
	}
	if !r.To.After(r.From) {
		return scope{}, errs.InvalidValue("to", "must be after from")
	}
	name := r.TimeZone
	if name == "" {
		name = "UTC"
	}
	loc, err := validate.TimeZone("timeZone", name)
	if err != nil {
		return scope{}, err
	}
	if _, ok := bucketWidth[r.Bucket]; r.Bucket != "" && !ok {
		return scope{}, errs.InvalidValue("bucket", "must be hour, day or week, got %q", r.Bucket)
	}
	g := newGrid(loc, r.From, r.To, r.Bucket)
	if n := g.count(); n > MaxBuckets {
		return scope{}, errs.InvalidValue("bucket", "the range spans %d %s buckets, at most %d are allowed: use a wider bucket or a shorter range",
			n, r.Bucket, MaxBuckets)
	}
	sc := scope{grid: g}
	named := r.ProfileID
	if p, ok := tenancy.FromContext(ctx); ok && named == nil && p.ProfileID != "" {
		named = &p.ProfileID // a key narrowed to a profile sees that profile's figures only
	}
	if named != nil {
		prof, err := txn.Profile(ctx, s.db.Client, named)
		if err != nil {
			return scope{}, err
		}
		sc.profileID = &prof.ID
	}
	return sc, nil
}

// client is the ent client reads go through.
func (s *Service) client() *ent.Client { return s.db.Client }
