package payments

import (
	"context"
	"encoding/json"
	"slices"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/event"
	"switchyard/ent/paymentintent"
	"switchyard/ent/profile"
	"switchyard/ent/refund"
	"switchyard/internal/ids"
	"switchyard/payments/errs"
)

// Renderer turns domain objects into the JSON the REST API returns for
// them, so an event's content.object is exactly what GET would show. The
// REST layer provides it; the domain knows nothing of the wire.
type Renderer interface {
	Payment(v *PaymentView) (json.RawMessage, error)
	Refund(r *ent.Refund, paymentID string) (json.RawMessage, error)
	Dispute(v *DisputeView) (json.RawMessage, error)
	Mandate(v *MandateView) (json.RawMessage, error)
}

// paymentEventType is the status → event mapping of DESIGN.md.
func paymentEventType(s paymentintent.Status) (event.EventType, bool) {
	switch s {
	case paymentintent.StatusSucceeded:
		return event.EventTypePaymentSucceeded, true
	case paymentintent.StatusFailed:
		return event.EventTypePaymentFailed, true
	case paymentintent.StatusProcessing:
		return event.EventTypePaymentProcessing, true
	case paymentintent.StatusRequiresCustomerAction, paymentintent.StatusRequiresMerchantAction:
		return event.EventTypeActionRequired, true
	case paymentintent.StatusCancelled:
		return event.EventTypePaymentCancelled, true
	case paymentintent.StatusCancelledPostCapture:
		return event.EventTypePaymentCancelledPostCapture, true
	case paymentintent.StatusRequiresCapture:
		return event.EventTypePaymentAuthorized, true
	case paymentintent.StatusPartiallyAuthorizedAndRequiresCapture:
		return event.EventTypePaymentPartiallyAuthorized, true
	case paymentintent.StatusPartiallyCaptured:
		return event.EventTypePaymentCaptured, true
	case paymentintent.StatusExpired:
		return event.EventTypePaymentExpired, true
	}
	return "", false
}

func refundEventType(s refund.Status) (event.EventType, bool) {
	switch s {
	case refund.StatusSucceeded:
		return event.EventTypeRefundSucceeded, true
	case refund.StatusFailed:
		return event.EventTypeRefundFailed, true
	}
	return "", false
}

// disputeEventType maps each dispute status to its dispute_* event
// (DESIGN.md: each dispute status → its event).
func disputeEventType(s dispute.DisputeStatus) (event.EventType, bool) {
	switch s {
	case dispute.DisputeStatusDisputeOpened:
		return event.EventTypeDisputeOpened, true
	case dispute.DisputeStatusDisputeExpired:
		return event.EventTypeDisputeExpired, true
	case dispute.DisputeStatusDisputeAccepted:
		return event.EventTypeDisputeAccepted, true
	case dispute.DisputeStatusDisputeCancelled:
		return event.EventTypeDisputeCancelled, true
	case dispute.DisputeStatusDisputeChallenged:
		return event.EventTypeDisputeChallenged, true
	case dispute.DisputeStatusDisputeWon:
		return event.EventTypeDisputeWon, true
	case dispute.DisputeStatusDisputeLost:
		return event.EventTypeDisputeLost, true
	}
	return "", false
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

// outboxEvent is one event to write with the state change it reports.
type outboxEvent struct {
	profileID       string
	objectID        string
	paymentIntentID *string
	eventType       event.EventType
	class           event.EventClass
	contentType     string
	// status is the object's status, for the profile's status filters.
	status    string
	object    json.RawMessage
	createdAt *ent.PaymentIntent
}

// emitPaymentEvent writes the event a payment's new status maps to, and its
// delivery task, inside tx: the transactional outbox. It does nothing when
// the status maps to no event or the event was already written.
//
// It returns the payment's view it rendered (nil when it wrote no event):
// read inside tx after the change, it is what the caller answers with, so
// the payment is not read a second time.
func (s *Service) emitPaymentEvent(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent) (*PaymentView, error) {
	et, ok := paymentEventType(pi.Status)
	if !ok || s.deps.Render == nil {
		return nil, nil
	}
	views, err := s.loadViews(ctx, tx.Client(), []*ent.PaymentIntent{pi})
	if err != nil {
		return nil, err
	}
	obj, err := s.deps.Render.Payment(views[0])
	if err != nil {
		return nil, errs.Internal(err)
	}
	id := pi.ID
	views[0].readInTx = true
	return views[0], s.writeEvent(ctx, tx, outboxEvent{
		profileID: pi.ProfileID, objectID: pi.PaymentID, paymentIntentID: &id,
		eventType: et, class: event.EventClassPayments, contentType: "payment_details",
		status: string(pi.Status), object: obj, createdAt: pi,
	})
}

// emitRefundEvent writes a refund's succeeded or failed event inside tx.
func (s *Service) emitRefundEvent(ctx context.Context, tx *ent.Tx, r *ent.Refund, pi *ent.PaymentIntent) error {
	et, ok := refundEventType(r.Status)
	if !ok || s.deps.Render == nil {
		return nil
	}
	obj, err := s.deps.Render.Refund(r, pi.PaymentID)
	if err != nil {
		return errs.Internal(err)
	}
	id := pi.ID
	return s.writeEvent(ctx, tx, outboxEvent{
		profileID: r.ProfileID, objectID: r.RefundID, paymentIntentID: &id,
		eventType: et, class: event.EventClassRefunds, contentType: "refund_details",
		status: string(r.Status), object: obj,
	})
}

// emitDisputeEvent writes the event of a dispute's status inside tx, its
// content.object what GET /disputes/{dispute_id} shows. captured is the
// payment's amount captured as of this transaction (the payment row may
// not be written yet when its dispute opens).
func (s *Service) emitDisputeEvent(ctx context.Context, tx *ent.Tx, d *ent.Dispute, pi *ent.PaymentIntent, captured int64) error {
	et, ok := disputeEventType(d.DisputeStatus)
	if !ok || s.deps.Render == nil {
		return nil
	}
	views, err := s.disputeViews(ctx, tx.Client(), []*ent.Dispute{d}, map[string]int64{pi.ID: captured})
	if err != nil {
		return err
	}
	obj, err := s.deps.Render.Dispute(views[0])
	if err != nil {
		return errs.Internal(err)
	}
	id := pi.ID
	return s.writeEvent(ctx, tx, outboxEvent{
		profileID: d.ProfileID, objectID: d.ID, paymentIntentID: &id,
		eventType: et, class: event.EventClassDisputes, contentType: "dispute_details",
		status: string(d.DisputeStatus), object: obj,
	})
}

func (s *Service) writeEvent(ctx context.Context, tx *ent.Tx, e outboxEvent) error {
	idem := e.objectID + "_" + string(e.eventType)
	exists, err := tx.Event.Query().Where(event.IdempotentEventID(idem)).Exist(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	if exists {
		return nil // at most one initial event per object and event type
	}
	prof, err := tx.Profile.Query().Where(profile.ID(e.profileID)).Only(ctx)
	if err != nil {
		return errs.Internal(err)
	}
	now := s.now()
	id := ids.New(ids.Event)
	body, err := json.Marshal(webhookBody{
		MerchantID: prof.MerchantID, EventID: id, EventType: string(e.eventType),
		Content:   eventContent{Type: e.contentType, Object: e.object},
		Timestamp: now.Format("2006-01-02T15:04:05Z"),
	})
	if err != nil {
		return errs.Internal(err)
	}
	create := tx.Event.Create().
		SetID(id).
		SetProfileID(e.profileID).
		SetObjectID(e.objectID).
		SetNillablePaymentIntentID(e.paymentIntentID).
		SetEventType(e.eventType).
		SetEventClass(e.class).
		SetIdempotentEventID(idem).
		SetContent(string(body))
	if e.createdAt != nil {
		create.SetPrimaryObjectCreatedAt(e.createdAt.CreatedAt)
	}
	if _, err := create.Save(ctx); err != nil {
		return dbError(err, "event")
	}
	if !deliveryWanted(prof, e) {
		return nil
	}
	if _, err = tx.WebhookDeliveryTask.Create().SetEventID(id).SetNextAttemptAt(now).Save(ctx); err != nil {
		return dbError(err, "webhook delivery task")
	}
	if queued := s.deps.DeliveriesQueued; queued != nil {
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
func deliveryWanted(p *ent.Profile, e outboxEvent) bool {
	d := p.WebhookDetails
	if d == nil || d.WebhookURL == nil || *d.WebhookURL == "" || d.DeliveryDisabled {
		return false
	}
	if len(d.EnabledEventTypes) > 0 && !slices.Contains(d.EnabledEventTypes, string(e.eventType)) {
		return false
	}
	switch e.class {
	case event.EventClassPayments:
		return len(d.PaymentStatusesEnabled) == 0 || slices.Contains(d.PaymentStatusesEnabled, e.status)
	case event.EventClassRefunds:
		return len(d.RefundStatusesEnabled) == 0 || slices.Contains(d.RefundStatusesEnabled, e.status)
	case event.EventClassDisputes:
		return true // no status list: enabled_event_types (above) decides
	}
	return true
}
