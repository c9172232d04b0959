// Package cards holds the card-data utilities of the payments domain: PAN
// normalisation and the Luhn check, network detection by IIN range, the
// non-sensitive card details Switchyard may keep (last4, BIN, network, card
// type, issuer), and expiry and CVC validation.
//
// Nothing in this package logs, and no error it returns contains a full card
// number or a CVC: errors name the request field and, for card numbers, at
// most the last four digits. Every validation error is a *Error whose Field is
// the Hyperswitch request path (e.g. "payment_method_data.card.card_number"),
// so the domain can map it to a 400 that names the field; errors.Is against
// the Err* sentinels tells the kinds apart.
package cards

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The request fields that validation errors name.
const (
	FieldCardNumber = "payment_method_data.card.card_number"
	FieldExpMonth   = "payment_method_data.card.card_exp_month"
	FieldExpYear    = "payment_method_data.card.card_exp_year"
	FieldCVC        = "payment_method_data.card.card_cvc"
)

// PAN length bounds: Hyperswitch's (ISO/IEC 7812 allows 8 to 19 digits). A
// number the connector does not know is the connector's to refuse.
const (
	MinLength = 8
	MaxLength = 19
)

// Sentinel kinds, matched with errors.Is on a *Error. The expiry and CVC
// errors' Reason is Hyperswitch's own message for them (its
// validate_card_data), so callers can answer in its words.
var (
	ErrCardNumberRequired = errors.New("card number is required")
	ErrCardNumberFormat   = errors.New("card number must contain only digits, spaces or dashes")
	ErrCardNumberLength   = errors.New("card number must have between 8 and 19 digits")
	ErrLuhn               = errors.New("card number fails the Luhn check")
	ErrExpiryMonth        = errors.New("invalid expiry month")
	ErrExpiryYear         = errors.New("invalid expiry year")
	ErrExpired            = errors.New("card has expired")
	ErrCVC                = errors.New("invalid card security code")
	ErrNotNumeric         = errors.New("must be a number")
)

// Hyperswitch's words for a card number it refuses while reading the
// request (its CardNumber type): characters, then length, then Luhn.
const (
	ReasonNumberCharacters = "invalid character found in card number"
	ReasonNumberLength     = "invalid card number length"
	ReasonNumberInvalid    = "card number invalid"
)

// Hyperswitch's messages for the expiry and CVC checks.
const (
	ReasonExpiryMonth = "Invalid Expiry Month"
	ReasonExpiryYear  = "Invalid Expiry Year"
	ReasonExpired     = "Card Expired"
	ReasonCVCLength   = "Invalid card_cvc length"
)

// Error is a card validation failure. It never carries the PAN or the CVC.
type Error struct {
	// Field is the request field at fault, one of the Field* constants.
	Field string
	// Reason says what is wrong, safe to show to the caller.
	Reason string
	// Last4 is the last four digits of the card number, when known.
	Last4 string
	// Kind is one of the Err* sentinels.
	Kind error
}

func (e *Error) Error() string { return e.Field + ": " + e.Reason }

// Unwrap returns the sentinel kind, for errors.Is.
func (e *Error) Unwrap() error { return e.Kind }

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func numberError(kind error, last4, reason string) *Error {
	if last4 != "" {
		reason += " (card ending " + last4 + ")"
	}
	return &Error{Field: FieldCardNumber, Reason: reason, Last4: last4, Kind: kind}
}

// stripSeparators removes spaces and dashes.
func stripSeparators(number string) string {
	if !strings.ContainsAny(number, " -") {
		return number
	}
	var b strings.Builder
	b.Grow(len(number))
	for _, r := range number {
		if r != ' ' && r != '-' {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// last4 returns the last four digits, or "" for fewer than 8 digits (where
// four would give away too much of the input).
func last4(digits string) string {
	if len(digits) < 8 || !allDigits(digits) {
		return ""
	}
	return digits[len(digits)-4:]
}

// Luhn reports whether number passes the Luhn (mod 10) check. Spaces and
// dashes are ignored; any other non-digit, or fewer than two digits, fails.
func Luhn(number string) bool {
	d := stripSeparators(number)
	if len(d) < 2 || !allDigits(d) {
		return false
	}
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n > 9 {
				n -= 9
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

// Normalize strips spaces and dashes and returns the digits. It fails when
// anything else remains or when the number has fewer than 8 or more than 19
// digits. It does not run the Luhn check (see ValidateNumber).
func Normalize(number string) (string, error) {
	d := stripSeparators(strings.TrimSpace(number))
	if d == "" {
		return "", &Error{Field: FieldCardNumber, Reason: ErrCardNumberRequired.Error(), Kind: ErrCardNumberRequired}
	}
	if !allDigits(d) {
		return "", numberError(ErrCardNumberFormat, "", ErrCardNumberFormat.Error())
	}
	if len(d) < MinLength || len(d) > MaxLength {
		return "", numberError(ErrCardNumberLength, last4(d),
			ErrCardNumberLength.Error()+", got "+strconv.Itoa(len(d)))
	}
	return d, nil
}

// ValidateNumber normalizes number and checks it with Luhn. It returns the
// digits, or a *Error naming FieldCardNumber.
func ValidateNumber(number string) (string, error) {
	d, err := Normalize(number)
	if err != nil {
		return "", err
	}
	if !Luhn(d) {
		return "", numberError(ErrLuhn, last4(d), ErrLuhn.Error())
	}
	return d, nil
}

// ValidateExpiry checks an expiry month (a number from 1 to 12) and year
// (2 digits meaning 20YY, or 4 digits) as Hyperswitch does: a month or year
// that is not a number is ErrNotNumeric; then the month, then the year (a
// past year is ErrExpired, with Hyperswitch's "Invalid Expiry Year"), then
// the month within this year. A card is valid through the last day of its
// expiry month, evaluated in UTC against now.
func ValidateExpiry(month, year string, now time.Time) error {
	month, year = strings.TrimSpace(month), strings.TrimSpace(year)
	m, err := strconv.Atoi(month)
	if !allDigits(month) || err != nil {
		return &Error{Field: FieldExpMonth, Reason: "card_exp_month must be a number", Kind: ErrNotNumeric}
	}
	if m < 1 || m > 12 {
		return &Error{Field: FieldExpMonth, Reason: ReasonExpiryMonth, Kind: ErrExpiryMonth}
	}
	y, err := strconv.Atoi(year)
	if !allDigits(year) || err != nil {
		return &Error{Field: FieldExpYear, Reason: "card_exp_year must be a number", Kind: ErrNotNumeric}
	}
	if len(year) != 2 && len(year) != 4 {
		return &Error{Field: FieldExpYear, Reason: ReasonExpiryYear, Kind: ErrExpiryYear}
	}
	if len(year) == 2 {
		y += 2000
	}
	now = now.UTC()
	if y < now.Year() {
		return &Error{Field: FieldExpYear, Reason: ReasonExpiryYear, Kind: ErrExpired}
	}
	if y == now.Year() && time.Month(m) < now.Month() {
		return &Error{Field: FieldExpYear, Reason: ReasonExpired, Kind: ErrExpired}
	}
	return nil
}

// ValidateCVC checks a card security code as Hyperswitch does, length
// first: 3 or 4 characters whatever the network (American Express prints 4
// on the front, yet its issuers and Hyperswitch's connectors take the 3 on
// the back too), then digits only. The code itself never appears in the
// error.
func ValidateCVC(cvc string) error {
	cvc = strings.TrimSpace(cvc)
	if len(cvc) < 3 || len(cvc) > 4 {
		return &Error{Field: FieldCVC, Reason: ReasonCVCLength, Kind: ErrCVC}
	}
	if !allDigits(cvc) {
		return &Error{Field: FieldCVC, Reason: "card_cvc must be a number", Kind: ErrNotNumeric}
	}
	return nil
}

// longDigitRun is a run of digits as long as a card number.
var longDigitRun = regexp.MustCompile(`[0-9]{` + strconv.Itoa(MinLength) + `,` + strconv.Itoa(MaxLength) + `}`)

// MaskNumbers masks every run of 8 to 19 digits in s but its last four,
// so a message that quotes a request cannot carry a card number out.
func MaskNumbers(s string) string {
	return longDigitRun.ReplaceAllStringFunc(s, func(run string) string {
		return strings.Repeat("*", len(run)-4) + run[len(run)-4:]
	})
}
