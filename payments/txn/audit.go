package txn

import (
	"context"
	"sync"

	"switchyard/ent"
	"switchyard/ent/auditentry"
)

// Audit is the record one change by a dashboard user leaves: who, for
// which merchant, which operation, on which object, and the request id.
// The front door puts it in the operation's context (WithAudit); the first
// transaction of the operation that commits writes it, inside that same
// transaction, so a change that did not commit leaves no entry and an
// operation that changed nothing (a refused or replayed one) leaves none.
type Audit struct {
	UserID, UserEmail, MerchantID string
	// AdminKey marks a change made with the platform admin key, not a
	// user's session (UserID is then empty).
	AdminKey  bool
	Operation string
	// ObjectID is the id the operation acted on; when empty, the first
	// object the operation creates fills it.
	ObjectID  string
	RequestID string

	mu      sync.Mutex
	written bool
}

// WithAudit makes the changes under ctx write a (the first committed
// transaction writes it, once).
func WithAudit(ctx context.Context, a *Audit) context.Context { return withValue(ctx, a) }

// auditOf is the operation's audit record, or nil.
func auditOf(ctx context.Context) *Audit { return valueOf[Audit](ctx) }

// writeAudit adds the operation's entry to tx unless one was committed
// already; committed says that tx committed.
func writeAudit(ctx context.Context, tx *ent.Tx) (committed func(), err error) {
	a := auditOf(ctx)
	if a == nil {
		return func() {}, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.written {
		return func() {}, nil
	}
	create := tx.AuditEntry.Create().SetMerchantID(a.MerchantID).SetUserID(a.UserID).SetUserEmail(a.UserEmail).
		SetOperation(a.Operation)
	if a.AdminKey {
		create.SetActor(auditentry.ActorAdminKey)
	}
	if a.ObjectID != "" {
		create.SetObjectID(a.ObjectID)
	}
	if a.RequestID != "" {
		create.SetRequestID(a.RequestID)
	}
	if err := create.Exec(ctx); err != nil {
		return nil, err
	}
	return func() {
		a.mu.Lock()
		a.written = true
		a.mu.Unlock()
	}, nil
}

// notAuditedObjects are rows an operation writes beside its object: its
// events and their deliveries, and the audit entry itself.
var notAuditedObjects = map[string]bool{
	ent.TypeAuditEntry: true, ent.TypeEvent: true, ent.TypeWebhookDeliveryTask: true,
	ent.TypeEventDeliveryAttempt: true,
}

// auditCreated is the hook that names the first object an audited
// operation creates, by the id the API shows (a payment's payment_id, a
// refund's refund_id).
func auditCreated(next ent.Mutator) ent.Mutator {
	return ent.MutateFunc(func(ctx context.Context, m ent.Mutation) (ent.Value, error) {
		a := auditOf(ctx)
		if a == nil || !m.Op().Is(ent.OpCreate) || notAuditedObjects[m.Type()] {
			return next.Mutate(ctx, m)
		}
		id := ""
		switch cm := m.(type) {
		case *ent.PaymentIntentMutation:
			id, _ = cm.PaymentID()
		case *ent.RefundMutation:
			id, _ = cm.RefundID()
		case interface{ ID() (string, bool) }:
			id, _ = cm.ID()
		}
		a.mu.Lock()
		if a.ObjectID == "" && !a.written {
			a.ObjectID = id
		}
		a.mu.Unlock()
		return next.Mutate(ctx, m)
	})
}
