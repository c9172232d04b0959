package events

import (
	"context"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/predicate"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/validate"
)

// EventFilter narrows the events list (Hyperswitch's EventListConstraints).
type EventFilter struct {
	CreatedAfter  *time.Time
	CreatedBefore *time.Time
	Limit         int
	Offset        int
	ObjectID      *string
	ProfileID     *string
	EventID       *string
	EventClasses  []string
	EventTypes    []string
	IsDelivered   *bool
}

// EventList is a page of events and the count of all that match.
type EventList struct {
	Events     []*ent.Event
	TotalCount int
}

func errEventNotFound() *errs.Error { return errs.NotFound("Event") }

// ListEvents lists the merchant's events, newest first.
func (s *Service) ListEvents(ctx context.Context, f EventFilter) (*EventList, error) {
	if err := validate.PageLimit(&f.Limit); err != nil {
		return nil, err
	}
	if err := validate.Offset(f.Offset); err != nil {
		return nil, err
	}
	q := s.db.Client.Event.Query()
	if f.CreatedAfter != nil {
		q = q.Where(event.CreatedAtGTE(*f.CreatedAfter))
	}
	if f.CreatedBefore != nil {
		q = q.Where(event.CreatedAtLTE(*f.CreatedBefore))
	}
	if f.ObjectID != nil {
		q = q.Where(event.ObjectID(*f.ObjectID))
	}
	if f.ProfileID != nil {
		q = q.Where(event.ProfileID(*f.ProfileID))
	}
	if f.EventID != nil {
		q = q.Where(event.ID(*f.EventID))
	}
	if f.IsDelivered != nil {
		q = q.Where(event.IsDelivered(*f.IsDelivered))
	}
	if len(f.EventClasses) > 0 {
		cs := make([]event.EventClass, len(f.EventClasses))
		for i, c := range f.EventClasses {
			if cs[i] = event.EventClass(c); event.EventClassValidator(cs[i]) != nil {
				return nil, errs.InvalidValue(validate.Indexed("event_classes", i), "unknown event class %q", c)
			}
		}
		q = q.Where(event.EventClassIn(cs...))
	}
	if len(f.EventTypes) > 0 {
		ts := make([]event.EventType, len(f.EventTypes))
		for i, t := range f.EventTypes {
			if ts[i] = event.EventType(t); event.EventTypeValidator(ts[i]) != nil {
				return nil, errs.InvalidValue(validate.Indexed("event_types", i), "unknown event type %q", t)
			}
		}
		q = q.Where(event.EventTypeIn(ts...))
	}
	total, err := q.Clone().Count(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	evs, err := q.Order(ent.Desc(event.FieldCreatedAt), ent.Desc(event.FieldID)).
		Limit(f.Limit).Offset(f.Offset).All(ctx)
	if err != nil {
		return nil, errs.Internal(err)
	}
	return &EventList{Events: evs, TotalCount: total}, nil
}

// GetEvent returns one of the merchant's events.
func (s *Service) GetEvent(ctx context.Context, eventID string) (*ent.Event, error) {
	where := []predicate.Event{event.ID(eventID)}
	if p, _ := tenancy.FromContext(ctx); p.ProfileID != "" {
		where = append(where, event.ProfileID(p.ProfileID)) // another profile's event is not found
	}
	ev, err := s.db.Client.Event.Query().Where(where...).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, errEventNotFound()
	}
	if err != nil {
		return nil, errs.Internal(err)
	}
	return ev, nil
}

// EventAttempts returns an event with its delivery attempts, oldest first.
func (s *Service) EventAttempts(ctx context.Context, eventID string) (*ent.Event, []*ent.EventDeliveryAttempt, error) {
	ev, err := s.GetEvent(ctx, eventID)
	if err != nil {
		return nil, nil, err
	}
	atts, err := s.db.Client.EventDeliveryAttempt.Query().
		Where(eventdeliveryattempt.EventID(ev.ID)).
		Order(ent.Asc(eventdeliveryattempt.FieldCreatedAt), ent.Asc(eventdeliveryattempt.FieldID)).All(ctx)
	if err != nil {
		return nil, nil, errs.Internal(err)
	}
	return ev, atts, nil
}
