package customer

import (
	"errors"
	"time"

	"switchyard/payments/cards"
	"switchyard/payments/errs"
)

// validateCard rejects bad card data before any connector call, in
// Hyperswitch's order: the number (Hyperswitch refuses it while reading the
// body: 400 IR_06 "Json deserialize error: …"), the expiry members'
// presence, then
// its validate_card_data: the CVC's length when one is given, the month,
// the year, and whether the card has expired, each a 400 IR_16 in its
// words ("Invalid card_cvc length", "Invalid Expiry Month", "Invalid
// Expiry Year", "Card Expired"). Messages carry the last four digits at
// most.
func validateCard(c *CardInput) error {
	if c.Number == "" {
		return errs.MissingField(cards.FieldCardNumber)
	}
	if _, err := cards.ValidateNumber(c.Number); err != nil {
		return cardError(err)
	}
	if c.ExpMonth == "" {
		return errs.MissingField(cards.FieldExpMonth)
	}
	if c.ExpYear == "" {
		return errs.MissingField(cards.FieldExpYear)
	}
	if c.CVC != "" {
		if err := cards.ValidateCVC(c.CVC); err != nil {
			return cardError(err)
		}
	}
	if err := cards.ValidateExpiry(c.ExpMonth, c.ExpYear, time.Now()); err != nil {
		return cardError(err)
	}
	return nil
}

// cardError maps a cards validation error onto the envelope as Hyperswitch
// answers it: a member that is not a number is IR_07 (InvalidDataValue),
// a CVC length or an expiry it refuses is IR_16 (PreconditionFailed) in its
// words, and a card number its CardNumber type refuses is the error of a
// body it cannot read, 400 IR_06, in that type's words. Everything else a
// card may be refused for (a number no issuer knows, a wrong CVC) is the
// connector's to say, as a failed payment.
func cardError(err error) error {
	ce, ok := cards.AsError(err)
	if !ok {
		return errs.InvalidValue(cards.FieldCardNumber, "invalid card data")
	}
	switch {
	case errors.Is(err, cards.ErrNotNumeric):
		return errs.InvalidValue(ce.Field, "%s", ce.Reason)
	case errors.Is(err, cards.ErrCVC), errors.Is(err, cards.ErrExpiryMonth),
		errors.Is(err, cards.ErrExpiryYear), errors.Is(err, cards.ErrExpired):
		return errs.PreconditionFailed("%s", ce.Reason).WithField(ce.Field)
	}
	reason := cards.ReasonNumberInvalid
	switch {
	case errors.Is(err, cards.ErrCardNumberFormat):
		reason = cards.ReasonNumberCharacters
	case errors.Is(err, cards.ErrCardNumberLength), errors.Is(err, cards.ErrCardNumberRequired):
		reason = cards.ReasonNumberLength
	}
	return errs.InvalidRequest("Json deserialize error: %s", reason).WithField(ce.Field)
}
