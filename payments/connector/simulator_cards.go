package connector

import (
	"errors"
	"strings"

	"switchyard/payments/cards"
)

// The sandbox's cards (docs/sandbox.md, "Cards"): the card table's
// behaviours, saved cards' tokens and the payment checks.

// mandateToken is a saved card's connector token: the card's behaviour, not
// its number.
func mandateToken(behaviourKey, last4, attemptID string) string {
	return "sim_pm_" + behaviourKey + "_" + last4 + "_" + attemptID
}

// parseMandateToken returns the behaviour key and last4 of a token.
func parseMandateToken(tok string) (string, string, bool) {
	rest, ok := strings.CutPrefix(tok, "sim_pm_")
	if !ok {
		return "", "", false
	}
	parts := strings.SplitN(rest, "_", 3)
	if len(parts) != 3 || parts[2] == "" {
		return "", "", false
	}
	if _, known := behaviours[parts[0]]; !known {
		return "", "", false
	}
	return parts[0], parts[1], true
}

// authorizeCard decides a card payment (or a saved card's, by its token)
// from the card's sandbox behaviour.
func (s *Simulator) authorizeCard(req *AuthorizeRequest, st *state, attemptID string) {
	b, cvcGiven, ok := s.cardBehaviour(req.PaymentMethod, st)
	if !ok {
		return
	}
	st.Behaviour = b.key
	st.SetupFutureUsage = req.SetupFutureUsage
	st.Checks = &PaymentChecks{
		CVCCheck:               check(cvcGiven, b.cvcFail),
		AddressLine1Check:      check(strings.TrimSpace(req.Billing.Line1) != "", b.line1Fail),
		AddressPostalCodeCheck: check(strings.TrimSpace(req.Billing.Zip) != "", b.zipFail),
	}
	switch {
	case b.decline != "":
		st.fail(declineFor(b.decline))
	case b.chargeDeclined && req.Amount > 0:
		st.fail(declineFor("charge_declined"))
		if req.SetupFutureUsage {
			st.MandateID = mandateToken(b.key, st.CardLast4, attemptID)
		}
	case (b.challenge || (b.challengeOnSession && !req.OffSession)) && !req.ExternalThreeDS.Authenticated():
		st.Status = StatusAuthenticationPending
		st.ThreeDS = "challenge"
	case b.declineAfterChallenge != "" && req.ExternalThreeDS.Authenticated():
		// Authenticated elsewhere: what the approved challenge would have
		// led to.
		st.ThreeDS = "external"
		st.fail(declineFor(b.declineAfterChallenge))
	default:
		switch {
		case req.ExternalThreeDS.Authenticated():
			st.ThreeDS = "external"
		case b.challengeOnSession:
			st.ThreeDS = "exempt_off_session"
		case req.AuthenticationType == ThreeDS:
			st.ThreeDS = "frictionless"
		}
		st.succeed(attemptID)
	}
}

// cardBehaviour is the sandbox behaviour of the card paid with, or of the
// saved card a token names, with whether a CVC was given; the card's last
// four digits (and network) go on st. A card it cannot read fails st (ok
// false).
func (s *Simulator) cardBehaviour(pm PaymentMethod, st *state) (b behaviour, cvcGiven, ok bool) {
	switch {
	case pm.Card != nil:
		return s.numberBehaviour(pm.Card, st)
	case pm.ConnectorMandateID != "":
		key, l4, ok := parseMandateToken(pm.ConnectorMandateID)
		if !ok {
			st.fail(newDecline(CodeInvalidMandate, "No such saved payment method (resource_missing)."))
			return b, false, false
		}
		st.CardLast4 = l4
		return behaviours[key], false, true
	}
	st.fail(newDecline(CodeInvalidCardData, "The card data is invalid: card details are missing (invalid_card_data)."))
	return b, false, false
}

// numberBehaviour reads a card's number and expiry: an invalid or too
// short number, or a bad or past expiry, fails st; a number the card table
// does not list behaves as "ok".
func (s *Simulator) numberBehaviour(card *Card, st *state) (b behaviour, cvcGiven, ok bool) {
	digits, err := cards.ValidateNumber(card.Number)
	if err != nil {
		st.fail(invalidCardData(err))
		return b, false, false
	}
	if len(digits) < shortestCard {
		// Hyperswitch takes 8 digits and more; no network issues so short a card.
		st.fail(newDecline(CodeIncorrectNumber, "Your card number is incorrect (incorrect_number)."))
		return b, false, false
	}
	if card.ExpMonth != "" || card.ExpYear != "" {
		if err := cards.ValidateExpiry(card.ExpMonth, card.ExpYear, s.now()); err != nil {
			if errors.Is(err, cards.ErrExpired) {
				st.fail(declineFor("expired_card"))
			} else {
				st.fail(invalidCardData(err))
			}
			return b, false, false
		}
	}
	key, known := testCards[digits]
	if !known {
		key = "ok"
	}
	st.CardLast4 = digits[len(digits)-4:]
	st.CardNetwork = cards.Network(digits)
	return behaviours[key], strings.TrimSpace(card.CVC) != "", true
}

func check(given, fail bool) string {
	switch {
	case fail:
		return CheckFail
	case given:
		return CheckPass
	}
	return CheckUnavailable
}

// invalidCardData turns a cards validation error (which names last4 at
// most) into a decline.
func invalidCardData(err error) *Decline {
	reason := "the card data is invalid"
	if e, ok := cards.AsError(err); ok {
		reason = e.Field + ": " + e.Reason
	}
	return newDecline(CodeInvalidCardData, "The card data is invalid: "+reason+" (invalid_card_data).")
}
