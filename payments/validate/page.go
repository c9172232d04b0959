package validate

import "switchyard/payments/errs"

// Page size bounds of every list.
const (
	DefaultListLimit = 10
	MaxListLimit     = 100
)

// PageLimit applies a list's default page size (DefaultListLimit) and
// checks the range (1 to MaxListLimit).
func PageLimit(limit *int) error {
	if *limit == 0 {
		*limit = DefaultListLimit
	}
	if *limit < 1 || *limit > MaxListLimit {
		return errs.InvalidValue("limit", "must be between 1 and %d", MaxListLimit)
	}
	return nil
}

// Offset refuses an offset-paged list's negative offset.
func Offset(offset int) error {
	if offset < 0 {
		return errs.InvalidValue("offset", "must not be negative")
	}
	return nil
}
