package validate

import (
	"errors"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// TestTimeZone: IANA names load, backward links too; anything else is
// errs.ErrInvalidValue on the field, never a panic or an internal error.
func TestTimeZone(t *testing.T) {
	for _, name := range []string{"UTC", "Asia/Kolkata", "America/Los_Angeles", "America/Argentina/ComodRivadavia", "Etc/GMT+5"} {
		if loc, err := TimeZone("timeZone", name); err != nil || loc.String() != name {
			t.Errorf("%q: %v %v", name, loc, err)
		}
	}
	for _, name := range []string{"", "Local", "Mars/Olympus_Mons", "../../etc/passwd", "/etc/localtime", "Europe/Berlin ",
		"GMT+5:30", strings.Repeat("A", 65), "Europe/\x00Berlin"} {
		_, err := TimeZone("timeZone", name)
		e, ok := errs.As(err)
		if !ok || !errors.Is(err, errs.ErrInvalidValue) || e.Field != "timeZone" {
			t.Errorf("%q: %v", name, err)
		}
	}
}
