package subscriptions

import (
	"context"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/payments/errs"
	"switchyard/payments/events"
)

// The events billing writes (event_class subscriptions), each in the
// transaction of the change it reports. The outbox writes an object's
// event of a type once: a second pause of one subscription, or a second
// failed try of one invoice, writes no second event.
const (
	subscriptionCreated   = event.EventTypeSubscriptionCreated
	subscriptionActive    = event.EventTypeSubscriptionActive
	subscriptionPaused    = event.EventTypeSubscriptionPaused
	subscriptionResumed   = event.EventTypeSubscriptionResumed
	subscriptionCancelled = event.EventTypeSubscriptionCancelled
	subscriptionUnpaid    = event.EventTypeSubscriptionUnpaid
	invoicePaid           = event.EventTypeInvoicePaid
	invoicePaymentFailed  = event.EventTypeInvoicePaymentFailed
)

// emit writes the subscription event et of sub, read again in tx so that
// content.object is what GET shows after the change.
func (s *Service) emit(ctx context.Context, tx *ent.Tx, sub *ent.BillingSubscription, et event.EventType) error {
	if s.render == nil || s.events == nil {
		return nil
	}
	v, err := s.view(ctx, tx.Client(), sub.ID, false)
	if err != nil {
		return err
	}
	obj, err := s.render.Subscription(v)
	if err != nil {
		return errs.Internal(err)
	}
	return s.events.Write(ctx, tx, events.Event{ProfileID: sub.ProfileID, ObjectID: sub.ID, Type: et,
		Class: event.EventClassSubscriptions, ContentType: "subscription_details", Status: string(v.Subscription.Status),
		Object: obj, PrimaryObjectCreatedAt: &sub.CreatedAt})
}

// emitInvoice writes the invoice event et of inv.
func (s *Service) emitInvoice(ctx context.Context, tx *ent.Tx, inv *ent.Invoice, et event.EventType) error {
	if s.render == nil || s.events == nil {
		return nil
	}
	obj, err := s.render.Invoice(inv)
	if err != nil {
		return errs.Internal(err)
	}
	return s.events.Write(ctx, tx, events.Event{ProfileID: inv.ProfileID, ObjectID: inv.ID, Type: et,
		Class: event.EventClassSubscriptions, ContentType: "invoice_details", Status: string(inv.Status),
		Object: obj, PaymentIntentID: nil, PrimaryObjectCreatedAt: &inv.CreatedAt})
}

// statusEvent is the event a subscription entering status st writes.
func statusEvent(st string) (event.EventType, bool) {
	switch st {
	case "active", "trial":
		return subscriptionActive, true
	case "paused":
		return subscriptionPaused, true
	case "cancelled":
		return subscriptionCancelled, true
	case "unpaid":
		return subscriptionUnpaid, true
	}
	return "", false
}
