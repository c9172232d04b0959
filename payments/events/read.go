package events

import (
	"context"
	"time"

	"entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/predicate"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
	"switchyard/payments/txn"
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
	classes, err := enumsOf("event_classes", "event class", f.EventClasses, event.EventClassValidator)
	if err != nil {
		return nil, err
	}
	types, err := enumsOf("event_types", "event type", f.EventTypes, event.EventTypeValidator)
	if err != nil {
		return nil, err
	}
	q := s.db.Client.Event.Query().Where(
		given(f.CreatedAfter, event.CreatedAtGTE), given(f.CreatedBefore, event.CreatedAtLTE),
		given(f.ObjectID, event.ObjectID), given(f.ProfileID, event.ProfileID), given(f.EventID, event.ID),
		given(f.IsDelivered, event.IsDelivered))
	if len(classes) > 0 {
		q = q.Where(event.EventClassIn(classes...))
	}
	if len(types) > 0 {
		q = q.Where(event.EventTypeIn(types...))
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

// given is p(*v) when the filter gives v, and no condition when it does not.
func given[T any](v *T, p func(T) predicate.Event) predicate.Event {
	if v == nil {
		return func(*sql.Selector) {}
	}
	return p(*v)
}

// enumsOf is a filter's list of names (member) as the enum E, each checked
// by valid; an unknown one is refused, naming its index.
func enumsOf[E ~string](member, what string, names []string, valid func(E) error) ([]E, error) {
	out := make([]E, len(names))
	for i, n := range names {
		if out[i] = E(n); valid(out[i]) != nil {
			return nil, errs.InvalidValue(validate.Indexed(member, i), "unknown %s %q", what, n)
		}
	}
	return out, nil
}

// GetEvent returns one of the merchant's events.
func (s *Service) GetEvent(ctx context.Context, eventID string) (*ent.Event, error) {
	where := []predicate.Event{event.ID(eventID)}
	if p, _ := tenancy.FromContext(ctx); p.ProfileID != "" {
		where = append(where, event.ProfileID(p.ProfileID)) // another profile's event is not found
	}
	ev, err := s.db.Client.Event.Query().Where(where...).Only(ctx)
	if err != nil {
		return nil, txn.ReadError(err, errEventNotFound)
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
