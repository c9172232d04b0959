package schematype

import (
	"fmt"
	"io"
	"strconv"
)

// Currency is an ISO 4217 code from the spec's closed set.
type Currency string

var currencySet = func() map[string]struct{} {
	m := make(map[string]struct{}, len(currencies))
	for _, c := range currencies {
		m[c] = struct{}{}
	}
	return m
}()

// Values lists the allowed values; ent uses it for the column's enum.
func (Currency) Values() []string { return currencies }

// Valid reports whether c is in the spec's set.
func (c Currency) Valid() bool {
	_, ok := currencySet[string(c)]
	return ok
}

// String returns the ISO code.
func (c Currency) String() string { return string(c) }

// MarshalGQL writes the code as a GraphQL enum value.
func (c Currency) MarshalGQL(w io.Writer) { _, _ = io.WriteString(w, strconv.Quote(string(c))) }

// UnmarshalGQL reads a GraphQL enum value.
func (c *Currency) UnmarshalGQL(v any) error {
	s, ok := v.(string)
	if !ok {
		return fmt.Errorf("currency must be a string")
	}
	if !Currency(s).Valid() {
		return fmt.Errorf("%q is not a supported currency", s)
	}
	*c = Currency(s)
	return nil
}

// minorDigits are the ISO 4217 currencies whose minor unit is not a
// hundredth (the exponent of their minor unit).
var minorDigits = func() map[string]int {
	m := map[string]int{"CLF": 4}
	for _, c := range []string{"BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"} {
		m[c] = 0
	}
	for _, c := range []string{"BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"} {
		m[c] = 3
	}
	return m
}()

// Exponent is the number of decimal digits of the currency's minor unit:
// 2 for most, 0 for JPY or KRW, 3 for BHD or KWD.
func (c Currency) Exponent() int {
	if d, ok := minorDigits[string(c)]; ok {
		return d
	}
	return 2
}

// Major shows a minor-unit amount in major units: 1050 USD → "10.50",
// 1050 JPY → "1050", 1050 KWD → "1.050".
func (c Currency) Major(minor int64) string {
	digits := c.Exponent()
	s := strconv.FormatInt(minor, 10)
	if digits == 0 {
		return s
	}
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	for len(s) <= digits {
		s = "0" + s
	}
	s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	if neg {
		s = "-" + s
	}
	return s
}

// Display is the currency code and the amount in major units: "USD 12.34".
func (c Currency) Display(minor int64) string { return string(c) + " " + c.Major(minor) }
