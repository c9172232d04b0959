package rest

import (
	"context"
	"net/http"

	"switchyard/ent"
	"switchyard/payments/errs"
	"switchyard/payments/events"
)

// Retrier sends an event again now (the webhook worker).
type Retrier interface {
	Retry(ctx context.Context, eventID string) (*ent.EventDeliveryAttempt, error)
}

// deliveryAttemptBody is Hyperswitch's EventRetrieveResponse, one delivery
// attempt of an event: an EventListItemResponse with what was sent and
// answered.
type deliveryAttemptBody struct {
	eventListItem
	Request         deliveryRequest  `json:"request"`
	Response        deliveryResponse `json:"response"`
	DeliveryAttempt string           `json:"delivery_attempt"`
}

// deliveryAttemptOf maps an attempt. The initial attempt carries the event's
// id; each later one its own, with initial_attempt_id pointing back.
func deliveryAttemptOf(ev *ent.Event, a *ent.EventDeliveryAttempt) deliveryAttemptBody {
	id := a.ID
	if a.DeliveryAttempt == "initial_attempt" {
		id = ev.ID
	}
	item := eventListItemOf(ev)
	item.EventID, item.InitialAttemptID, item.Created = id, a.InitialAttemptID, Timestamp(a.CreatedAt)
	item.IsDeliverySuccessful = &a.IsDeliverySuccessful
	out := deliveryAttemptBody{
		eventListItem:   item,
		DeliveryAttempt: string(a.DeliveryAttempt),
		Request:         deliveryRequest{Headers: [][2]string{}},
		Response:        deliveryResponse{Headers: [][2]string{}},
	}
	if a.Request != nil {
		out.Request = deliveryRequest{Body: a.Request.Body, Headers: nonNilHeaders(a.Request.Headers)}
	}
	if out.Request.Body == "" { // what was sent: the event's content (attempts do not copy it)
		out.Request.Body = ev.Content
	}
	if r := a.Response; r != nil {
		out.Response = deliveryResponse{Body: r.Body, Headers: nonNilHeaders(r.Headers), StatusCode: r.StatusCode, ErrorMessage: r.ErrorMessage}
	}
	return out
}

func nonNilHeaders(h [][2]string) [][2]string {
	if h == nil {
		return [][2]string{}
	}
	return h
}

// registerEvents adds the event routes (admin key, as the spec documents).
func registerEvents(a *api, svc *events.Service, retrier Retrier) {
	a.handle("GET /events/{merchant_id}/{event_id}/attempts", AdminOnly, func(r *http.Request) (any, error) {
		ev, atts, err := svc.EventAttempts(r.Context(), r.PathValue("event_id"))
		if err != nil {
			return nil, err
		}
		return each(func(at *ent.EventDeliveryAttempt) deliveryAttemptBody { return deliveryAttemptOf(ev, at) })(atts), nil
	})
	a.handle("POST /events/{merchant_id}/{event_id}/retry", AdminOnly, func(r *http.Request) (any, error) {
		ev, err := svc.GetEvent(r.Context(), r.PathValue("event_id"))
		if err != nil {
			return nil, err
		}
		if retrier == nil {
			return nil, errs.Unavailable("webhook delivery")
		}
		att, err := retrier.Retry(r.Context(), ev.ID)
		if err != nil {
			return nil, errs.InvalidValue("event_id", "the event cannot be sent: %v", err)
		}
		return deliveryAttemptOf(ev, att), nil
	})
	a.handle("POST /events/{merchant_id}", AdminOnly, withBody(readingBody((*eventListRequest).filter, func(r *http.Request, f events.EventFilter) (any, error) {
		return respond(eventListOf)(svc.ListEvents(r.Context(), f))
	})))
	// The profile's events: the same list, held to the caller's profile
	// (X-Profile-Id with the merchant's key; Hyperswitch's JWT carries it).
	a.handle("POST /events/profile/list", MerchantOrAdmin, withBody(readingBody((*eventListRequest).filter, func(r *http.Request, f events.EventFilter) (any, error) {
		profileID := principal(r).ProfileID
		if profileID == "" {
			return nil, errs.MissingField("X-Profile-Id")
		}
		if f.ProfileID != nil && *f.ProfileID != profileID {
			return nil, errs.ProfileNotFound(*f.ProfileID)
		}
		f.ProfileID = &profileID
		return respond(eventListOf)(svc.ListEvents(r.Context(), f))
	})))
}

// filter is the domain's event filter; a limit of 0 is refused, as
// Hyperswitch refuses it.
func (req *eventListRequest) filter() (events.EventFilter, error) {
	f := events.EventFilter{
		CreatedAfter: req.CreatedAfter, CreatedBefore: req.CreatedBefore, ObjectID: req.ObjectID,
		ProfileID: req.ProfileID, EventID: req.EventID, EventClasses: req.EventClasses,
		EventTypes: req.EventTypes, IsDelivered: req.IsDelivered,
	}
	if req.Limit != nil {
		f.Limit = *req.Limit
		if f.Limit == 0 {
			return f, errs.InvalidValue("limit", "must be between 1 and 100")
		}
	}
	if req.Offset != nil {
		f.Offset = *req.Offset
	}
	return f, nil
}

func eventListOf(list *events.EventList) eventListResponse {
	out := eventListResponse{Events: make([]eventListItem, len(list.Events)), TotalCount: list.TotalCount}
	for i, ev := range list.Events {
		out.Events[i] = eventListItemOf(ev)
	}
	return out
}

// eventListItemOf is an event as its list shows it.
func eventListItemOf(ev *ent.Event) eventListItem {
	delivered := ev.IsDelivered
	return eventListItem{
		EventID: ev.ID, MerchantID: ev.MerchantID, ProfileID: ev.ProfileID, ObjectID: ev.ObjectID,
		EventType: string(ev.EventType), EventClass: string(ev.EventClass), IsDeliverySuccessful: &delivered,
		InitialAttemptID: ev.ID, Created: Timestamp(ev.CreatedAt), ProcessorMerchantID: ev.MerchantID,
	}
}
