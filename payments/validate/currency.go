package validate

import (
	"fmt"
	"strings"
)

// currencyExponents are the ISO 4217 currencies whose minor unit is not a
// hundredth; every other currency has two decimals.
var currencyExponents = map[string]int{
	"BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "ISK": 0, "JPY": 0, "KMF": 0, "KRW": 0, "PYG": 0,
	"RWF": 0, "UGX": 0, "UYI": 0, "VND": 0, "VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
	"BHD": 3, "IQD": 3, "JOD": 3, "KWD": 3, "LYD": 3, "OMR": 3, "TND": 3,
}

// MajorUnits writes an amount in minor units in the currency's major unit
// ("10.99" for 1099 USD, "1099" for 1099 JPY), as wallet sheets show it.
func MajorUnits(amount int64, currency string) string {
	exp, ok := currencyExponents[strings.ToUpper(currency)]
	if !ok {
		exp = 2
	}
	if exp == 0 {
		return fmt.Sprint(amount)
	}
	sign := ""
	if amount < 0 {
		sign, amount = "-", -amount
	}
	div := int64(1)
	for range exp {
		div *= 10
	}
	return fmt.Sprintf("%s%d.%0*d", sign, amount/div, exp, amount%div)
}
