// Package events owns a merchant's events: the transactional outbox that
// every state change writes its event into (Write, inside the change's own
// transaction, with a webhook delivery task when the profile wants one),
// and the events read back (list, get, delivery attempts). The webhooks
// package delivers what is written here.
//
// Which status maps to which event, and what an event's object looks like,
// is each domain package's; this package imports none of them.
package events

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
)

// Service writes and reads events.
type Service struct {
	db               *txn.DB
	deliveriesQueued func()
	paymentChanged   func(merchantID, paymentID string)
}

// Deps are what the events need.
type Deps struct {
	DB *txn.DB
	// DeliveriesQueued, when set, is called after a transaction that queued
	// webhook deliveries commits, so the workers send them now instead of
	// at their next poll.
	DeliveriesQueued func()
	// PaymentChanged, when set, is told after a transaction commits which
	// payment (its merchant and row id) it changed, for the live updates
	// of open dashboards. It must not block; it cannot fail the change,
	// which has committed already.
	PaymentChanged func(merchantID, paymentID string)
}

// New returns the events service over d.
func New(d Deps) *Service {
	return &Service{db: d.DB, deliveriesQueued: d.DeliveriesQueued, paymentChanged: d.PaymentChanged}
}

// PaymentChanged tells Deps.PaymentChanged, once tx has committed, that tx
// changed the payment paymentID (its row id) of merchantID. Write calls it
// for every event of a payment; a change that writes no event (a payment
// created unconfirmed, an update) calls it itself. Nothing is told when
// tx rolls back.
func (s *Service) PaymentChanged(tx *ent.Tx, merchantID, paymentID string) {
	changed := s.paymentChanged
	if changed == nil {
		return
	}
	tx.OnCommit(func(next ent.Committer) ent.Committer {
		return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
			err := next.Commit(ctx, tx)
			if err == nil {
				changed(merchantID, paymentID)
			}
			return err
		})
	})
}

// webhookBody is the JSON POSTed to the merchant.
type webhookBody struct {
	MerchantID string       `json:"merchant_id"`
	EventID    string       `json:"event_id"`
	EventType  string       `json:"event_type"`
	Content    eventContent `json:"content"`
	Timestamp  string       `json:"timestamp"`
}

type eventContent struct {
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

// marshalWebhookBody is json.Marshal(b), byte for byte, with the object
// spliced in as it is: it comes from json.Marshal (the Renderer), so it is
// already compact and escaped, and encoding/json would scan all of it
// again.
func marshalWebhookBody(b webhookBody) (string, error) {
	if len(b.Content.Object) == 0 {
		return "", fmt.Errorf("events: no object")
	}
	// Built as the string the events row stores: the body is a payment
	// object of about 5 KB, copied once.
	var out strings.Builder
	out.Grow(len(b.Content.Object) + 256)
	for _, part := range []struct{ prefix, value string }{
		{`{"merchant_id":`, b.MerchantID}, {`,"event_id":`, b.EventID}, {`,"event_type":`, b.EventType},
		{`,"content":{"type":`, b.Content.Type},
	} {
		s, err := json.Marshal(part.value)
		if err != nil {
			return "", err
		}
		out.WriteString(part.prefix)
		out.Write(s)
	}
	out.WriteString(`,"object":`)
	out.Write(b.Content.Object)
	ts, err := json.Marshal(b.Timestamp)
	if err != nil {
		return "", err
	}
	out.WriteString(`},"timestamp":`)
	out.Write(ts)
	out.WriteByte('}')
	return out.String(), nil
}

// Event is one event to write with the state change it reports.
type Event struct {
	ProfileID       string
	ObjectID        string
	PaymentIntentID *string
	Type            event.EventType
	Class           event.EventClass
	// ContentType is content.type: payment_details, refund_details, …
	ContentType string
	// Status is the object's status, for the profile's status filters.
	Status string
	// Object is content.object: the object as GET shows it.
	Object json.RawMessage
	// PrimaryObjectCreatedAt is when the object was created, if known.
	PrimaryObjectCreatedAt *time.Time
}

// Write writes e and, when the profile's webhook settings want it, its
// delivery task, inside tx: the state change and its event commit together.
// An object's first event of a type is its only one (writing it again does
// nothing).
func (s *Service) Write(ctx context.Context, tx *ent.Tx, e Event) error {
	idem := e.ObjectID + "_" + string(e.Type)
	pc, err := s.db.ProfileConfig(ctx, tx.Client(), e.ProfileID)
	if err != nil {
		return errs.Internal(err)
	}
	prof := pc.Profile
	if e.PaymentIntentID != nil {
		// Told even when the event was written before: a second partial
		// capture changes the payment without a new event.
		s.PaymentChanged(tx, prof.MerchantID, *e.PaymentIntentID)
	}
	now := s.db.Now()
	id := ids.New(ids.Event)
	body, err := marshalWebhookBody(webhookBody{
		MerchantID: prof.MerchantID, EventID: id, EventType: string(e.Type),
		Content:   eventContent{Type: e.ContentType, Object: e.Object},
		Timestamp: now.Format("2006-01-02T15:04:05Z"),
	})
	if err != nil {
		return errs.Internal(err)
	}
	create := tx.Event.Create().
		SetID(id).
		SetProfileID(e.ProfileID).
		SetObjectID(e.ObjectID).
		SetNillablePaymentIntentID(e.PaymentIntentID).
		SetEventType(e.Type).
		SetEventClass(e.Class).
		SetIdempotentEventID(idem).
		SetContent(body)
	create.SetNillablePrimaryObjectCreatedAt(e.PrimaryObjectCreatedAt)
	if _, err := create.Save(ctx); err != nil {
		if ent.IsConstraintError(err) {
			// At most one initial event per object and event type: the
			// unique key (merchant_id, idempotent_event_id) says it was
			// written. The failed INSERT alone is undone; the change's
			// transaction goes on.
			return nil
		}
		return txn.Error(err, "event")
	}
	if !deliveryWanted(prof, e) {
		return nil
	}
	return s.queueDelivery(ctx, tx, id, now)
}

// queueDelivery writes the delivery task of event id, due now, and tells
// the deliverer once tx commits.
func (s *Service) queueDelivery(ctx context.Context, tx *ent.Tx, id string, now time.Time) error {
	if _, err := tx.WebhookDeliveryTask.Create().SetEventID(id).SetNextAttemptAt(now).Save(ctx); err != nil {
		return txn.Error(err, "webhook delivery task")
	}
	if queued := s.deliveriesQueued; queued != nil {
		tx.OnCommit(func(next ent.Committer) ent.Committer {
			return ent.CommitFunc(func(ctx context.Context, tx *ent.Tx) error {
				err := next.Commit(ctx, tx)
				if err == nil {
					queued()
				}
				return err
			})
		})
	}
	return nil
}

// deliveryWanted applies the profile's webhook settings: delivery can be
// off, limited to some event types, or to some payment or refund statuses.
// webhook_details has no status list for disputes (nor mandates), so their
// events are limited by enabled_event_types alone: a list of payment
// statuses never silences them.
func deliveryWanted(p *ent.Profile, e Event) bool {
	d := p.WebhookDetails
	if d == nil || d.WebhookURL == nil || *d.WebhookURL == "" || d.DeliveryDisabled {
		return false
	}
	if len(d.EnabledEventTypes) > 0 && !slices.Contains(d.EnabledEventTypes, string(e.Type)) {
		return false
	}
	switch e.Class {
	case event.EventClassPayments:
		return len(d.PaymentStatusesEnabled) == 0 || slices.Contains(d.PaymentStatusesEnabled, e.Status)
	case event.EventClassRefunds:
		return len(d.RefundStatusesEnabled) == 0 || slices.Contains(d.RefundStatusesEnabled, e.Status)
	case event.EventClassDisputes:
		return true // no status list: enabled_event_types (above) decides
	}
	return true
}
