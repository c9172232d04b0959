// Package tenancy owns the authenticated principal carried in a request
// context and the one place where tenant scoping is enforced: the ent
// interceptor and hook that every tenant-owned schema installs. A query or
// mutation that runs without a principal fails closed.
package tenancy

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"entgo.io/ent"
	"entgo.io/ent/dialect/sql"
)

// Kind says who is calling.
type Kind int

const (
	// KindMerchant is a merchant's secret (or publishable) key: it sees only
	// its own merchant's rows, and only one profile's when ProfileID is set.
	KindMerchant Kind = iota + 1
	// KindAdmin is the platform admin key. Without a MerchantID it is
	// platform-wide (it manages merchant accounts); with one it is scoped
	// like that merchant.
	KindAdmin
	// KindSystem is the process itself (bootstrap, migrations, the webhook
	// worker). It is never derived from a request.
	KindSystem
	// KindAnonymous is a GraphQL caller with no credentials: it may run
	// the public operations (sign-up, sign-in) and nothing else. It has no
	// merchant, so any data access under it fails closed.
	KindAnonymous
)

// Principal is the caller on whose behalf the data layer runs.
type Principal struct {
	Kind       Kind
	MerchantID string
	// ProfileID narrows reads to one profile where the key or the
	// X-Profile-Id header names one. Empty means every profile.
	ProfileID string
	// KeyID is the API key that authenticated the call, for audit.
	KeyID string
	// ClientOnly marks a publishable key: it may only act on one payment,
	// and only with that payment's client secret.
	ClientOnly bool
	// CustomerID marks an ephemeral key: it may act on this customer of
	// the merchant only (its own customer routes).
	CustomerID string
	// UserID is the dashboard user whose session (Authorization: Bearer)
	// authenticated the call; it acts for MerchantID with Role. Empty for
	// an API key, which is not limited by roles.
	UserID    string
	UserEmail string
	Role      string
	// SessionID is the session's hash, for signing it out.
	SessionID string
}

// Unscoped reports whether the principal may read across merchants.
func (p Principal) Unscoped() bool {
	return p.Kind == KindSystem || (p.Kind == KindAdmin && p.MerchantID == "")
}

type ctxKey struct{}

// WithPrincipal returns a context that carries p.
func WithPrincipal(ctx context.Context, p Principal) context.Context {
	return context.WithValue(ctx, ctxKey{}, p)
}

// Slot is the principal of a request that one of its operations may
// replace while it runs: a GraphQL sign-in continues as the user it signed
// in, so the fields nested in its answer resolve for that user. gqlgen
// does not hand a resolver's context to the fields below it, so the change
// is made in the request's context, where every later field reads it.
type Slot struct{ p atomic.Pointer[Principal] }

// WithSlot returns a context that carries p in a slot that Become may
// change. A principal set over it (WithPrincipal, System, ForMerchant)
// still wins below that point.
func WithSlot(ctx context.Context, p Principal) context.Context {
	s := &Slot{}
	s.p.Store(&p)
	return context.WithValue(ctx, ctxKey{}, s)
}

// Become makes the rest of the request run as p, where ctx carries a slot
// (WithSlot) that no principal is set over; it reports whether it did.
func Become(ctx context.Context, p Principal) bool {
	s, ok := ctx.Value(ctxKey{}).(*Slot)
	if !ok {
		return false
	}
	s.p.Store(&p)
	return true
}

// System returns a context for work the process does on its own behalf.
func System(ctx context.Context) context.Context {
	return WithPrincipal(ctx, Principal{Kind: KindSystem})
}

// ForMerchant returns a context scoped to one merchant, keeping the caller's
// kind. Admin handlers use it once they have resolved the merchant in the path.
func ForMerchant(ctx context.Context, merchantID string) context.Context {
	p, ok := FromContext(ctx)
	if !ok {
		p = Principal{Kind: KindMerchant}
	}
	if p.Kind == KindSystem {
		p.Kind = KindAdmin
	}
	p.MerchantID = merchantID
	return WithPrincipal(ctx, p)
}

// FromContext returns the principal, if any.
func FromContext(ctx context.Context) (Principal, bool) {
	switch v := ctx.Value(ctxKey{}).(type) {
	case Principal:
		return v, true
	case *Slot:
		return *v.p.Load(), true
	}
	return Principal{}, false
}

// ErrNoPrincipal is returned by every query or mutation that runs without a
// principal in its context: scoping fails closed.
var ErrNoPrincipal = errors.New("tenancy: no principal in context")

// ErrForeignMerchant is returned when a mutation tries to write a row of a
// merchant other than the principal's.
var ErrForeignMerchant = errors.New("tenancy: row belongs to another merchant")

// Scope returns the merchant a query or mutation must be limited to: "" for
// an unscoped principal (system, platform admin), an error for none.
func Scope(ctx context.Context) (merchantID string, err error) {
	p, ok := FromContext(ctx)
	if !ok {
		return "", ErrNoPrincipal
	}
	if p.Unscoped() {
		return "", nil
	}
	if p.MerchantID == "" {
		return "", fmt.Errorf("tenancy: %v principal without a merchant", p.Kind)
	}
	return p.MerchantID, nil
}

// wherer is implemented by every generated ent mutation.
type wherer interface {
	WhereP(...func(*sql.Selector))
}

// merchantSetter is implemented by mutations of tables with a merchant_id.
type merchantSetter interface {
	MerchantID() (string, bool)
	SetMerchantID(string)
}

// Hook scopes writes: a create gets the principal's merchant (or must already
// carry it), and updates and deletes only touch the principal's rows.
func Hook(column string) ent.Hook {
	return func(next ent.Mutator) ent.Mutator {
		return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
			merchantID, err := Scope(ctx)
			if err != nil {
				return nil, err
			}
			if merchantID == "" {
				return next.Mutate(ctx, m)
			}
			if m.Op().Is(ent.OpCreate) {
				if column == "id" {
					return nil, fmt.Errorf("tenancy: a merchant cannot create merchant accounts")
				}
				ms, ok := m.(merchantSetter)
				if !ok {
					return nil, fmt.Errorf("tenancy: mutation %T cannot be scoped", m)
				}
				if got, set := ms.MerchantID(); set && got != merchantID {
					return nil, ErrForeignMerchant
				}
				ms.SetMerchantID(merchantID)
				return next.Mutate(ctx, m)
			}
			w, ok := m.(wherer)
			if !ok {
				return nil, fmt.Errorf("tenancy: mutation %T cannot be scoped", m)
			}
			w.WhereP(sql.FieldEQ(column, merchantID))
			return next.Mutate(ctx, m)
		})
	}
}

func (k Kind) String() string {
	switch k {
	case KindMerchant:
		return "merchant"
	case KindAdmin:
		return "admin"
	case KindSystem:
		return "system"
	case KindAnonymous:
		return "anonymous"
	}
	return "unknown"
}
