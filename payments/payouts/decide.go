package payouts

import (
	"slices"

	"switchyard/ent/event"
	"switchyard/ent/payout"
	"switchyard/payments/connector"
	"switchyard/payments/errs"
	"switchyard/payments/events"
)

// The state machine. Every function here is pure: it reads a status and an
// answer and says what they make, and the operations apply that in one
// transaction with the event it maps to (Hyperswitch's payout rules:
// core/payouts/helpers.rs).

// terminalStatuses end a payout: nothing but a sync (a reversal) moves it.
var terminalStatuses = []payout.Status{payout.StatusSuccess, payout.StatusFailed, payout.StatusCancelled,
	payout.StatusIneligible, payout.StatusReversed, payout.StatusExpired}

// inFlightStatuses are a payout whose money the connector is sending.
var inFlightStatuses = []payout.Status{payout.StatusInitiated, payout.StatusPending}

// locallyCancellable are the statuses before the connector knows the payout.
var locallyCancellable = []payout.Status{payout.StatusRequiresCreation, payout.StatusRequiresConfirmation,
	payout.StatusRequiresPayoutMethodData, payout.StatusRequiresVendorAccountCreation}

func isTerminal(s payout.Status) bool { return slices.Contains(terminalStatuses, s) }
func inFlight(s payout.Status) bool   { return slices.Contains(inFlightStatuses, s) }

// statusRefused is Hyperswitch's refusal of flow ("cancelled", …) for a
// payout in status s.
func statusRefused(id, flow string, s payout.Status) error {
	return errs.ErrPayoutStatusInvalid.Newf("Payout %s cannot be %s for status %s", id, flow, s)
}

// createdStatus is a new payout's status before any confirm: it waits for
// its confirmation when it has a payout method, else for the method.
func createdStatus(hasMethod bool) payout.Status {
	if hasMethod {
		return payout.StatusRequiresConfirmation
	}
	return payout.StatusRequiresPayoutMethodData
}

// decideUpdate refuses an update of a payout that is sent or ended, and a
// change of what is paid (amount, currency, method) once the connector
// has created the payout.
func decideUpdate(id string, s payout.Status, changesMoney bool) error {
	if isTerminal(s) || inFlight(s) || (s == payout.StatusRequiresFulfillment && changesMoney) {
		return statusRefused(id, "updated", s)
	}
	return nil
}

// decideConfirm refuses a confirm of a payout past creation at the
// connector; a payout without a method is told to give one.
func decideConfirm(id string, s payout.Status, hasMethod bool) error {
	if isTerminal(s) || inFlight(s) || s == payout.StatusRequiresFulfillment {
		return statusRefused(id, "confirmed", s)
	}
	if !hasMethod {
		return errs.MissingField("payout_method_data")
	}
	return nil
}

// decideFulfil refuses a fulfilment of a payout not waiting for one.
func decideFulfil(id string, s payout.Status) error {
	if s != payout.StatusRequiresFulfillment {
		return statusRefused(id, "fulfilled", s)
	}
	return nil
}

// cancelStep is what a cancel does.
type cancelStep int

const (
	// cancelLocally: the connector does not know the payout yet.
	cancelLocally cancelStep = iota + 1
	// cancelAtConnector: the connector created it, and must cancel it.
	cancelAtConnector
)

// decideCancel says how a payout in status s is cancelled, or refuses.
func decideCancel(id string, s payout.Status) (cancelStep, error) {
	switch {
	case isTerminal(s):
		return 0, statusRefused(id, "cancelled", s)
	case slices.Contains(locallyCancellable, s):
		return cancelLocally, nil
	}
	return cancelAtConnector, nil
}

// outcome is what an answer makes of a payout: its new status and, for a
// failure, the connector's error.
type outcome struct {
	status  payout.Status
	changed bool
	decline *connector.Decline
}

// decideAnswer is what the connector's answer (callErr: none came) makes
// of a payout in status current. No answer changes nothing: the call's
// fate is unknown, and the recovery pass asks the connector.
func decideAnswer(current payout.Status, res *connector.PayoutResult, callErr error) outcome {
	if callErr != nil || res == nil {
		return outcome{status: current}
	}
	next := payout.Status(res.Status)
	if payout.StatusValidator(next) != nil || next == current {
		return outcome{status: current}
	}
	if isTerminal(current) && !(current == payout.StatusSuccess && next == payout.StatusReversed) {
		return outcome{status: current} // a late answer changes nothing twice
	}
	return outcome{status: next, changed: true, decline: res.Decline}
}

// created is whether o settles a creation (current: requires_creation)
// into a payout created at its processor (requires_fulfillment).
func created(current payout.Status, o outcome) bool {
	return current == payout.StatusRequiresCreation && o.changed && o.status == payout.StatusRequiresFulfillment
}

// decideFulfilAtOnce is o with the fulfilment reserved in it when o
// settles a creation (current: requires_creation) into
// requires_fulfillment for an auto-fulfilling payout within its confirm:
// the payout and its attempt go straight to initiated, committed before
// the fulfilment's call as its own reserve step would have, in the
// creation's settle transaction. It says whether it did.
func decideFulfilAtOnce(current payout.Status, o outcome, autoFulfill, withinConfirm bool) (outcome, bool) {
	if !withinConfirm || !autoFulfill || !created(current, o) {
		return o, false
	}
	o.status = payout.StatusInitiated
	return o, true
}

// decideCancelAnswer refuses a cancel the connector did not make (it was
// sending the payout, or had sent it): the payout stays as it was.
func decideCancelAnswer(id string, res *connector.PayoutResult) error {
	if res.Status == connector.PayoutCancelled {
		return nil
	}
	msg := "the connector did not cancel it"
	if res.Decline != nil {
		msg = res.Decline.Message
	}
	return errs.ErrPayoutFailed.Newf("Payout %s was not cancelled: %s", id, msg)
}

// eventOf is the event a payout's new status writes: the payout_ event of
// its name (success, failed, initiated, cancelled, expired, reversed), and
// these others.
func eventOf(s payout.Status) (event.EventType, bool) {
	return events.TypeOf("payout_", s, renamedEvents)
}

var renamedEvents = map[payout.Status]event.EventType{
	payout.StatusIneligible: event.EventTypePayoutFailed,
	payout.StatusPending:    event.EventTypePayoutProcessing,
}
