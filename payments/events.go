package payments

import (
	"context"
	"encoding/json"

	"switchyard/ent"
	"switchyard/ent/dispute"
	"switchyard/ent/event"
	"switchyard/ent/paymentintent"
	"switchyard/ent/refund"
	"switchyard/payments/errs"
	"switchyard/payments/events"
)

// Renderer turns payments, refunds and disputes into the JSON the REST API
// returns for them, so an event's content.object is exactly what GET would show. The
// REST layer provides it; the domain knows nothing of the wire.
type Renderer interface {
	Payment(v *PaymentView) (json.RawMessage, error)
	Refund(r *ent.Refund, paymentID string) (json.RawMessage, error)
	Dispute(v *DisputeView) (json.RawMessage, error)
}

// paymentEventType is Hyperswitch's status → event mapping (docs/webhooks.md):
// a status with an event of its name (succeeded, failed, processing,
// cancelled, cancelled_post_capture, expired) writes it, and these others.
func paymentEventType(s paymentintent.Status) (event.EventType, bool) {
	return events.TypeOf("payment_", s, renamedPaymentEvents)
}

var renamedPaymentEvents = map[paymentintent.Status]event.EventType{
	paymentintent.StatusRequiresCustomerAction:                event.EventTypeActionRequired,
	paymentintent.StatusRequiresMerchantAction:                event.EventTypeActionRequired,
	paymentintent.StatusRequiresCapture:                       event.EventTypePaymentAuthorized,
	paymentintent.StatusPartiallyAuthorizedAndRequiresCapture: event.EventTypePaymentPartiallyAuthorized,
	paymentintent.StatusPartiallyCaptured:                     event.EventTypePaymentCaptured,
}

// refundEventType: a succeeded or failed refund writes its event.
func refundEventType(s refund.Status) (event.EventType, bool) {
	return events.TypeOf("refund_", s, nil)
}

// disputeEventType maps each dispute status to its dispute_* event
// (docs/webhooks.md: each dispute status → its event, of the same name).
func disputeEventType(s dispute.DisputeStatus) (event.EventType, bool) {
	return events.TypeOf("", s, nil)
}

// emitPaymentEvent writes the event a payment's new status maps to, and its
// delivery task, inside tx: the transactional outbox. It does nothing when
// the status maps to no event or the event was already written.
//
// It returns the payment's view it rendered (nil when it wrote no event):
// read inside tx after the change, it is what the caller answers with, so
// the payment is not read a second time.
func (s *Service) emitPaymentEvent(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent) (*PaymentView, error) {
	return s.emitPaymentEventOf(ctx, tx, pi, nil)
}

// emitPaymentEventOf is emitPaymentEvent with the payment's view when the
// transaction already holds all of it (known), else nil to read it.
func (s *Service) emitPaymentEventOf(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent, known *PaymentView) (*PaymentView, error) {
	et, ok := paymentEventType(pi.Status)
	if !ok || s.render == nil {
		return nil, nil
	}
	view := known
	if view == nil {
		views, err := s.loadViews(ctx, tx.Client(), []*ent.PaymentIntent{pi})
		if err != nil {
			return nil, err
		}
		view = views[0]
	}
	obj, err := s.render.Payment(view)
	if err != nil {
		return nil, errs.Internal(err)
	}
	id := pi.ID
	view.readInTx, view.rendered = true, obj
	return view, s.events.Write(ctx, tx, events.Event{
		ProfileID: pi.ProfileID, ObjectID: pi.PaymentID, PaymentIntentID: &id,
		Type: et, Class: event.EventClassPayments, ContentType: "payment_details",
		Status: string(pi.Status), Object: obj, PrimaryObjectCreatedAt: &pi.CreatedAt,
	})
}

// emitRefundEvent writes a refund's succeeded or failed event inside tx.
func (s *Service) emitRefundEvent(ctx context.Context, tx *ent.Tx, r *ent.Refund, pi *ent.PaymentIntent) error {
	et, ok := refundEventType(r.Status)
	if !ok || s.render == nil {
		return nil
	}
	return s.writeEventOf(ctx, tx, pi, func() (json.RawMessage, error) { return s.render.Refund(r, pi.PaymentID) },
		events.Event{ProfileID: r.ProfileID, ObjectID: r.RefundID, Type: et, Class: event.EventClassRefunds,
			ContentType: "refund_details", Status: string(r.Status)})
}

// writeEventOf writes e, the event of a row of payment pi, inside tx, with
// its object as render makes it.
func (s *Service) writeEventOf(ctx context.Context, tx *ent.Tx, pi *ent.PaymentIntent,
	render func() (json.RawMessage, error), e events.Event) error {
	obj, err := render()
	if err != nil {
		return errs.Internal(err)
	}
	id := pi.ID
	e.PaymentIntentID, e.Object = &id, obj
	return s.events.Write(ctx, tx, e)
}

// emitDisputeEvent writes the event of a dispute's status inside tx, its
// content.object what GET /disputes/{dispute_id} shows. captured is the
// payment's amount captured as of this transaction (the payment row may
// not be written yet when its dispute opens).
func (s *Service) emitDisputeEvent(ctx context.Context, tx *ent.Tx, d *ent.Dispute, pi *ent.PaymentIntent, captured int64) error {
	et, ok := disputeEventType(d.DisputeStatus)
	if !ok || s.render == nil {
		return nil
	}
	views, err := s.disputeViews(ctx, tx.Client(), []*ent.Dispute{d}, map[string]int64{pi.ID: captured})
	if err != nil {
		return err
	}
	return s.writeEventOf(ctx, tx, pi, func() (json.RawMessage, error) { return s.render.Dispute(views[0]) },
		events.Event{ProfileID: d.ProfileID, ObjectID: d.ID, Type: et, Class: event.EventClassDisputes,
			ContentType: "dispute_details", Status: string(d.DisputeStatus)})
}
