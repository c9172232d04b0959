package validate

import (
	"net/mail"
	"net/url"
	"regexp"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
)

// MaxAmount is Hyperswitch's largest amount, in minor units.
const MaxAmount = 999_999_999_999

const maxEmailLen = 255

// First is the first violation of checks made in the request's order, or
// nil: for checks that each stand alone (none needs another to pass first).
func First(checks ...error) error {
	for _, err := range checks {
		if err != nil {
			return err
		}
	}
	return nil
}

// AbsoluteHTTPURL accepts an absolute http or https URL of at most max characters.
func AbsoluteHTTPURL(field, v string, max int) error {
	if err := MaxLen(field, &v, max); err != nil {
		return err
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
		return errs.InvalidValue(field, "must be an absolute http or https URL")
	}
	return nil
}

// Email accepts an e-mail address of at most 255 characters.
func Email(field string, v *string) error {
	if v == nil {
		return nil
	}
	if err := MaxLen(field, v, maxEmailLen); err != nil {
		return err
	}
	if a, err := mail.ParseAddress(*v); err != nil || a.Address != *v {
		return errs.InvalidValue(field, "must be an email address")
	}
	return nil
}

// Address checks an address wrapper (billing, shipping) with
// Hyperswitch's limits: a CountryAlpha2 country, bounded lines, a phone
// country code with its leading plus sign, an email address.
func Address(field string, w *schematype.AddressWrapper) error {
	if w == nil {
		return nil
	}
	if err := PostalAddress(field+".address", w.Address); err != nil {
		return err
	}
	if p := w.Phone; p != nil {
		if err := MaxLen(field+".phone.number", p.Number, 255); err != nil {
			return err
		}
		if p.CountryCode != nil && !phoneCountryCode.MatchString(*p.CountryCode) {
			return errs.InvalidValue(field+".phone.country_code", "must be a plus sign and 1 to 4 digits, like +1")
		}
	}
	return Email(field+".email", w.Email)
}

// PostalAddress checks an address (its lines, with Hyperswitch's limits,
// and a CountryAlpha2 country); field is the address member's path.
func PostalAddress(field string, a *schematype.Address) error {
	if a == nil {
		return nil
	}
	for _, m := range []struct {
		name string
		v    *string
		max  int
	}{
		{"city", a.City, 50}, {"line1", a.Line1, 200}, {"line2", a.Line2, 50}, {"line3", a.Line3, 50},
		{"zip", a.Zip, 50}, {"state", a.State, 255}, {"first_name", a.FirstName, 255},
		{"last_name", a.LastName, 255}, {"origin_zip", a.OriginZip, 50},
	} {
		if err := MaxLen(field+"."+m.name, m.v, m.max); err != nil {
			return err
		}
	}
	if a.Country != nil && !Countries.Has(*a.Country) {
		return errs.InvalidValue(field+".country", "%q is not an ISO 3166-1 alpha-2 country code", *a.Country)
	}
	return nil
}

var phoneCountryCode = regexp.MustCompile(`^\+[0-9]{1,4}$`)
