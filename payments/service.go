// Package payments is the domain core that rest/ and graph/ both call:
// merchant accounts, profiles, API keys and connector accounts, and (as they
// land) payment intents, attempts, captures and refunds with their state
// machines. Each operation runs in one database transaction, writes its
// outbox events in that transaction, and returns typed *errs.Error values that
// the transports map onto the wire. It knows nothing of HTTP or GraphQL.
package payments

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql"
	"github.com/redis/go-redis/v9"

	"switchyard/ent"
	"switchyard/internal/secrets"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
)

// Service runs the domain operations.
type Service struct {
	client *ent.Client
	box    *secrets.Box
	now    func() time.Time
	// rowLocks is false on SQLite, which has no SELECT … FOR UPDATE and
	// serialises writers anyway (one connection).
	rowLocks bool
	// concurrentReads lets independent reads run at once on the pool's
	// connections (MySQL; SQLite has one connection).
	concurrentReads bool
	deps            Deps
	// keyCacheDownUntil (unix ns) pauses key-cache lookups after a failure.
	keyCacheDownUntil atomic.Int64
}

// Deps are what payment operations need beyond the database.
type Deps struct {
	// Redis holds the short-lived card vault between create and confirm.
	Redis redis.UniversalClient
	// Connectors resolves a connector name to its integration.
	Connectors *connector.Registry
	// PublicURL is where customers' browsers reach this server (the 3-D
	// Secure page), without a trailing slash.
	PublicURL string
	// Render gives events their content; without it no events are written.
	Render Renderer
	// DeliveriesQueued, when set, is called after a transaction that queued
	// webhook deliveries commits, so the workers send them now instead of
	// at their next poll.
	DeliveriesQueued func()
}

// Configure sets the payment dependencies.
func (s *Service) Configure(d Deps) {
	if d.Connectors == nil {
		d.Connectors = connector.NewRegistry(connector.NewSimulator())
	}
	s.deps = d
}

// NewService returns the domain core over client (of the given ent dialect),
// sealing secrets with box.
func NewService(client *ent.Client, box *secrets.Box, dialectName string) *Service {
	return &Service{
		client:          client,
		box:             box,
		now:             func() time.Time { return time.Now().UTC() },
		rowLocks:        dialectName == dialect.MySQL,
		concurrentReads: dialectName == dialect.MySQL,
	}
}

// lockable is every generated ent query.
type lockable[Q any] interface {
	ForUpdate(...sql.LockOption) Q
}

// forUpdate locks the rows q reads until the transaction ends, where the
// database supports it.
func forUpdate[Q lockable[Q]](s *Service, q Q) Q {
	if !s.rowLocks {
		return q
	}
	return q.ForUpdate()
}

// Client is the ent client the service writes through; read paths (GraphQL
// connections) use it directly.
func (s *Service) Client() *ent.Client { return s.client }

// Box seals and hashes secrets.
func (s *Service) Box() *secrets.Box { return s.box }

// inTx runs fn in one transaction: committed if fn returns nil, rolled back
// otherwise (and on panic).
func (s *Service) inTx(ctx context.Context, fn func(tx *ent.Tx) error) (err error) {
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return errs.Internal(fmt.Errorf("begin: %w", err))
	}
	defer func() {
		if v := recover(); v != nil {
			_ = tx.Rollback()
			panic(v)
		}
	}()
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return errs.Internal(fmt.Errorf("commit: %w", err))
	}
	return nil
}
