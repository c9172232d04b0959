package customer

import (
	"errors"
	"time"

	"switchyard/payments/cards"
	"switchyard/payments/errs"
)

// validateCard rejects bad card data before any connector call: a number
// that is too short or fails the Luhn check is CE_04 naming the field, an
// expiry in the past is CE_05. Messages carry the last four digits at most.
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
	if err := cards.ValidateExpiry(c.ExpMonth, c.ExpYear, time.Now()); err != nil {
		return cardError(err)
	}
	if c.CVC != "" {
		if err := cards.ValidateCVC(c.CVC); err != nil {
			return cardError(err)
		}
	}
	return nil
}

func cardError(err error) error {
	ce, ok := cards.AsError(err)
	if !ok {
		return errs.InvalidValue(cards.FieldCardNumber, "invalid card data")
	}
	if errors.Is(err, cards.ErrExpired) {
		e := errs.New(errs.KindInvalid, "CE_05", "The card has expired: %s", ce.Error())
		e.Field = ce.Field
		return e
	}
	e := errs.New(errs.KindInvalid, "CE_04", "The card data is invalid: %s", ce.Error())
	e.Field = ce.Field
	return e
}
