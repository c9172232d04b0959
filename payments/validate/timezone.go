package validate

import (
	"time"
	// The IANA zone database, embedded: a zone a merchant chose must load
	// on a host or image without /usr/share/zoneinfo too (about 450 KB).
	_ "time/tzdata"

	"switchyard/payments/errs"
)

// maxTimeZoneLen bounds a time zone name: the longest IANA name is 32
// characters (America/Argentina/ComodRivadavia); the column holds 64.
const maxTimeZoneLen = 64

// TimeZone is the IANA time zone name (Europe/Berlin, Asia/Kolkata, UTC)
// loaded, or IR_07 on field: an unknown name, "Local" (the server's own
// zone, which a merchant cannot mean) and "" are refused.
func TimeZone(field, name string) (*time.Location, error) {
	if name == "" || name == "Local" || len(name) > maxTimeZoneLen {
		return nil, errTimeZone(field, name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, errTimeZone(field, name)
	}
	return loc, nil
}

func errTimeZone(field, name string) error {
	return errs.InvalidValue(field, "unknown time zone %q: give an IANA name such as Europe/Berlin", name)
}
