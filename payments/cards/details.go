package cards

// Card types.
const (
	Credit = "credit"
	Debit  = "debit"
)

// TestIssuer is the issuer reported for the public test card numbers.
const TestIssuer = "Stripe Test Bank"

// minWithBIN is the shortest number whose BIN is kept and shown: with the
// last four, the BIN of a shorter one (Hyperswitch takes 8 digits) would
// give most or all of it away.
const minWithBIN = 12

// Details are the card facts Switchyard may keep and show: never the PAN.
type Details struct {
	Last4 string
	// BIN is the first 6 digits.
	BIN string
	// ExtendedBIN is the first 8 digits, set only for PANs of 16 digits or more.
	ExtendedBIN string
	// Network is a CardNetwork value, or "" when unknown.
	Network string
	// CardType is "credit" or "debit".
	CardType string
	// Issuer is the issuing bank's name when known ("Stripe Test Bank" for the
	// public test numbers), else "".
	Issuer string
	// IssuingCountry is an ISO 3166-1 alpha-2 code when known ("US" for the
	// public test numbers), else "".
	IssuingCountry string
}

// testCards are the public test numbers (docs/sandbox.md, Hyperswitch's dummy
// connector and Stripe's testing docs) with their card type.
var testCards = map[string]string{
	// the sandbox card table (docs/sandbox.md)
	"4242424242424242": Credit,
	"4111111111111111": Credit,
	"5555555555554444": Credit,
	"378282246310005":  Credit,
	"371449635398431":  Credit,
	"6011111111111117": Credit,
	"38000000000006":   Credit,
	"3566002020360505": Credit,
	"4000000000000077": Credit,
	"4000000000000002": Credit,
	"4000000000009995": Credit,
	"4000000000009987": Credit,
	"4000000000009979": Credit,
	"4000000000000069": Credit,
	"4000000000000127": Credit,
	"4000000000000119": Credit,
	"4000000000000101": Credit,
	"4000000000000036": Credit,
	"4000000000000028": Credit,
	"4000000000003063": Credit,
	"4000002760003184": Credit,
	"4000003800000446": Credit,
	"4000000000003220": Credit,
	"4000008260003178": Credit,
	"4000002500003155": Credit,
	"4000000000000259": Credit,
	"4000000000002685": Credit,
	"4000000000000341": Credit,
	// Stripe's prepaid Mastercard, reported as debit (there is no "prepaid"
	// card type here).
	"5105105105105100": Debit,
	// Stripe's debit test numbers.
	"4000056655665556": Debit,
	"5200828282828210": Debit,
	"6011981111111113": Debit,
	"6200000000000047": Debit,
	"6555900000604105": Debit,
	// Other Stripe brand test numbers.
	"4012888888881881":    Credit,
	"2223003122003222":    Credit,
	"6011000990139424":    Credit,
	"3056930009020004":    Credit,
	"36227206271667":      Credit,
	"6200000000000005":    Credit,
	"6205500000000000004": Credit,
}

// IsTestCard reports whether number (spaces and dashes ignored) is one of the
// public test card numbers.
func IsTestCard(number string) bool {
	_, ok := testCards[stripSeparators(number)]
	return ok
}

// Describe returns the non-sensitive details of number. Spaces and dashes are
// ignored; for anything that is not all digits it returns zero Details. It
// does not validate: call ValidateNumber first.
func Describe(number string) Details {
	d := stripSeparators(number)
	if !allDigits(d) {
		return Details{}
	}
	det := Details{Last4: last4(d), Network: Network(d), CardType: Credit}
	if len(d) >= minWithBIN {
		det.BIN = d[:6]
	}
	if len(d) >= 16 {
		det.ExtendedBIN = d[:8]
	}
	if t, ok := testCards[d]; ok {
		det.CardType = t
		det.Issuer = TestIssuer
		det.IssuingCountry = "US"
	}
	return det
}
