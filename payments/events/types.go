package events

import "switchyard/ent/event"

// TypeOf is the event a change to status s writes, by the naming every kind
// of event follows (Hyperswitch's, docs/webhooks.md): the event named
// prefix+s where there is one (payment_ + succeeded), else the one renamed
// maps s to (payment_authorized for requires_capture). A status neither
// names writes no event.
func TypeOf[S ~string](prefix string, s S, renamed map[S]event.EventType) (event.EventType, bool) {
	if et, ok := renamed[s]; ok {
		return et, true
	}
	if et := event.EventType(prefix + string(s)); event.EventTypeValidator(et) == nil {
		return et, true
	}
	return "", false
}
