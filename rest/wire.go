package rest

// The wire structs that transcribe the spec are generated from it (rest/wire.yaml).
//go:generate go run switchyard/internal/tools/wiregen -config wire.yaml

import (
	"encoding/json"
	"time"

	"switchyard/payments/errs"
)

// timestampLayout is the spec's wire pattern for times: YYYY-MM-DDThh:mm:ssZ.
const timestampLayout = "2006-01-02T15:04:05Z"

// Timestamp is a time on the wire.
type Timestamp time.Time

// MarshalJSON writes the spec's pattern in UTC.
func (t Timestamp) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Time(t).UTC().Format(timestampLayout))
}

// ts converts a stored time (nil stays nil, so it encodes as null).
func ts(t *time.Time) *Timestamp {
	if t == nil {
		return nil
	}
	v := Timestamp(*t)
	return &v
}

// Expiration is an API key expiry: the string "never" or an RFC 3339 time.
type Expiration struct {
	Never bool
	At    time.Time
}

// MarshalJSON writes "never" or the timestamp.
func (e Expiration) MarshalJSON() ([]byte, error) {
	if e.Never {
		return []byte(`"never"`), nil
	}
	return Timestamp(e.At).MarshalJSON()
}

// UnmarshalJSON reads "never" or an RFC 3339 time.
func (e *Expiration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errs.InvalidValue("expiration", `must be "never" or an ISO 8601 date-time`)
	}
	if s == "never" {
		*e = Expiration{Never: true}
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return errs.InvalidValue("expiration", `must be "never" or an ISO 8601 date-time, got %q`, s)
	}
	*e = Expiration{At: t.UTC()}
	return nil
}

func (e *Expiration) expiresAt() *time.Time {
	if e == nil || e.Never {
		return nil
	}
	return &e.At
}

func expirationOf(t *time.Time) Expiration {
	if t == nil {
		return Expiration{Never: true}
	}
	return Expiration{At: *t}
}

// deref is a string member's value, "" when absent.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
