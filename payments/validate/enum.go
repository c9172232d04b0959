// Package validate holds the value rules more than one bounded context
// checks, in Hyperswitch's terms and never stricter: closed sets (enums,
// countries, currencies, payment method types, card networks), field paths,
// lengths, URLs, e-mail addresses and addresses. Every rule returns a
// *errs.Error naming the request field: IR_04 for a required member that is
// missing, IR_07 for a value outside its set or limits.
//
// Rules of one context live in that context; this package imports no
// domain package.
package validate

import (
	"fmt"
	"slices"
	"strings"

	"switchyard/payments/errs"
)

// Path is a member's location in a request body: members joined by ".",
// array elements as "[i]".
type Path string

// Key is the member k of p.
func (p Path) Key(k string) Path {
	if p == "" {
		return Path(k)
	}
	return p + "." + Path(k)
}

// At is the element i of p.
func (p Path) At(i int) Path { return Path(fmt.Sprintf("%s[%d]", p, i)) }

func (p Path) String() string { return string(p) }

// Indexed is the element i of the member field, as a string: "field[i]".
func Indexed(field string, i int) string { return Path(field).At(i).String() }

// Enum is a closed set of string values and the name errors call it by.
type Enum struct {
	name   string
	values []string
	set    map[string]struct{}
}

// NewEnum is the set of values, called name in errors.
func NewEnum(name string, values ...string) *Enum {
	e := &Enum{name: name, values: values, set: make(map[string]struct{}, len(values))}
	for _, v := range values {
		e.set[v] = struct{}{}
	}
	return e
}

// Name is what errors call the set.
func (e *Enum) Name() string { return e.name }

// Values are the set's values, in their declared order.
func (e *Enum) Values() []string { return slices.Clone(e.values) }

// Has reports whether v is in the set.
func (e *Enum) Has(v string) bool {
	_, ok := e.set[v]
	return ok
}

// Check is nil when v is in the set, else IR_07 naming field. Short sets are
// listed in the message; long ones (connectors, countries) are not.
func (e *Enum) Check(field Path, v string) error {
	if e.Has(v) {
		return nil
	}
	if len(e.values) <= 16 {
		return errs.InvalidValue(field.String(), "%q is not a valid %s; expected one of %s",
			v, e.name, strings.Join(e.values, ", "))
	}
	return errs.InvalidValue(field.String(), "%q is not a valid %s", v, e.name)
}

// Required checks a required enum member: IR_04 when empty, else Check.
func (e *Enum) Required(field Path, v string) error {
	if v == "" {
		return errs.MissingField(field.String())
	}
	return e.Check(field, v)
}

// Optional checks an optional enum member.
func (e *Enum) Optional(field Path, v *string) error {
	if v == nil {
		return nil
	}
	return e.Check(field, *v)
}

// OneOf checks an optional member against a short closed set, named in the
// message ("must be one of a, b or c").
func OneOf(field string, v *string, allowed ...string) error {
	if v == nil || slices.Contains(allowed, *v) {
		return nil
	}
	return errs.InvalidValue(field, "must be one of %s, got %q", JoinOr(allowed), *v)
}

// JoinOr lists items for a message: "a", "a or b", "a, b or c".
func JoinOr(items []string) string {
	out := ""
	for i, s := range items {
		switch {
		case i == 0:
		case i == len(items)-1:
			out += " or "
		default:
			out += ", "
		}
		out += s
	}
	return out
}

// NonEmpty is &s, or nil for "": an optional member's value from a column
// that keeps "" for none.
func NonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Countries is the full ISO 3166-1 alpha-2 set (Hyperswitch's CountryAlpha2):
// business_country and accepted_countries of connector accounts, the
// merchant's address and primary_business_details.
var Countries = NewEnum("CountryAlpha2",
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
