package payments

import (
	"strings"
	"switchyard/payments/errs"
)

// This file holds the closed sets more than one part of the domain checks
// against: the enum type and the ISO 3166-1 country codes.

// enum is a closed set of string values and the name errors call it by.
type enum struct {
	name   string
	values []string
	set    map[string]struct{}
}

func newEnum(name string, values ...string) *enum {
	e := &enum{name: name, values: values, set: make(map[string]struct{}, len(values))}
	for _, v := range values {
		e.set[v] = struct{}{}
	}
	return e
}

func (e *enum) has(v string) bool {
	_, ok := e.set[v]
	return ok
}

// check is nil when v is in the set, else IR_07 naming field. Short sets are
// listed in the message; long ones (connectors, countries) are not.
func (e *enum) check(field fieldPath, v string) error {
	if e.has(v) {
		return nil
	}
	if len(e.values) <= 16 {
		return errs.InvalidValue(field.String(), "%q is not a valid %s; expected one of %s",
			v, e.name, strings.Join(e.values, ", "))
	}
	return errs.InvalidValue(field.String(), "%q is not a valid %s", v, e.name)
}

// required checks a required enum member: IR_04 when empty, else check.
func (e *enum) required(field fieldPath, v string) error {
	if v == "" {
		return errs.MissingField(field.String())
	}
	return e.check(field, v)
}

// optional checks an optional enum member.
func (e *enum) optional(field fieldPath, v *string) error {
	if v == nil {
		return nil
	}
	return e.check(field, *v)
}

// countries is the full ISO 3166-1 alpha-2 set (Hyperswitch's CountryAlpha2):
// business_country and accepted_countries of connector accounts, the
// merchant's address and primary_business_details.
var countries = newEnum("CountryAlpha2",
	"AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX",
	"AZ", "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ",
	"BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK",
	"CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW", "CX", "CY", "CZ", "DE", "DJ", "DK", "DM",
	"DO", "DZ", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "FI", "FJ", "FK", "FM", "FO", "FR",
	"GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS",
	"GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "ID", "IE", "IL", "IM", "IN",
	"IO", "IQ", "IR", "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN",
	"KP", "KR", "KW", "KY", "KZ", "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV",
	"LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ",
	"MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI",
	"NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM",
	"PN", "PR", "PS", "PT", "PW", "PY", "QA", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC",
	"SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV",
	"SX", "SY", "SZ", "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR",
	"TT", "TV", "TW", "TZ", "UA", "UG", "UM", "US", "UY", "UZ", "VA", "VC", "VE", "VG", "VI",
	"VN", "VU", "WF", "WS", "YE", "YT", "ZA", "ZM", "ZW",
)
