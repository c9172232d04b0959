package schematype

import (
	"fmt"
	"io"
	"strconv"
)

// Currency is an ISO 4217 code from the spec's closed set.
type Currency string

// currencies is the spec's currency set, in its order.
var currencies = []string{
	"AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD",
	"BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN",
	"BZD", "CAD", "CDF", "CHF", "CLF", "CLP", "CNY", "COP", "CRC", "CUC", "CUP", "CVE",
	"CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP",
	"GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD", "HNL", "HRK", "HTG", "HUF",
	"IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD", "JPY", "KES", "KGS", "KHR",
	"KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR", "LRD", "LSL", "LYD",
	"MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR", "MWK", "MXN",
	"MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN", "PGK",
	"PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR",
	"SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS", "SRD", "SSP", "STD", "STN", "SVC",
	"SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH",
	"UGX", "USD", "UYU", "UZS", "VES", "VND", "VUV", "WST", "XAF", "XCD", "XOF", "XPF",
	"YER", "ZAR", "ZMW", "ZWL",
}

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
