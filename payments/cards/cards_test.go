package cards

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLuhn(t *testing.T) {
	tests := []struct {
		number string
		want   bool
	}{
		{"4242424242424242", true},
		{"4242 4242 4242 4242", true},
		{"4242-4242-4242-4242", true},
		{"4242424242424241", false},
		{"378282246310005", true},
		{"38000000000006", true},
		{"79927398713", true},
		{"79927398710", false},
		{"", false},
		{"0", false},
		{"00", true},
		{"4242a24242424242", false},
		{"４２４２", false},
	}
	for _, tc := range tests {
		if got := Luhn(tc.number); got != tc.want {
			t.Errorf("Luhn(%q) = %v, want %v", tc.number, got, tc.want)
		}
	}
}

func TestTestCardsAreLuhnValid(t *testing.T) {
	for n := range testCards {
		if !Luhn(n) {
			t.Errorf("test card ending %s fails Luhn", n[len(n)-4:])
		}
		if Network(n) == "" {
			t.Errorf("test card ending %s has no network", n[len(n)-4:])
		}
	}
}

func TestNormalize(t *testing.T) {
	tests := []struct {
		in      string
		want    string
		kind    error
		wantMsg string
	}{
		{in: "4242424242424242", want: "4242424242424242"},
		{in: " 4242 4242-4242 4242 ", want: "4242424242424242"},
		{in: "424242424242", want: "424242424242"},
		{in: "42424242", want: "42424242"}, // Hyperswitch's shortest
		{in: "4242424242424242424", want: "4242424242424242424"},
		{in: "", kind: ErrCardNumberRequired},
		{in: "  - ", kind: ErrCardNumberRequired},
		{in: "4242x424242424242", kind: ErrCardNumberFormat},
		{in: "4242.4242.4242.4242", kind: ErrCardNumberFormat},
		{in: "4242424", kind: ErrCardNumberLength},
		{in: "42424242424242424242", kind: ErrCardNumberLength, wantMsg: "got 20"},
		{in: "123", kind: ErrCardNumberLength},
	}
	for _, tc := range tests {
		got, err := Normalize(tc.in)
		if tc.kind == nil {
			if err != nil || got != tc.want {
				t.Errorf("Normalize(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		checkErr(t, err, tc.kind, FieldCardNumber, tc.in)
		if tc.wantMsg != "" && !strings.Contains(err.Error(), tc.wantMsg) {
			t.Errorf("Normalize(%q) error %q lacks %q", tc.in, err, tc.wantMsg)
		}
	}
}

// checkErr asserts a *Error of the given kind and field that does not leak
// the input.
func checkErr(t *testing.T, err error, kind error, field, input string) {
	t.Helper()
	if err == nil {
		t.Fatalf("input %q: want error %v, got nil", input, kind)
	}
	if !errors.Is(err, kind) {
		t.Errorf("input %q: error %v is not %v", input, err, kind)
	}
	e, ok := AsError(err)
	if !ok {
		t.Fatalf("input %q: error %T is not *Error", input, err)
	}
	if e.Field != field {
		t.Errorf("input %q: field %q, want %q", input, e.Field, field)
	}
	if e.Reason == "" {
		t.Errorf("input %q: empty reason", input)
	}
	digits := stripSeparators(strings.TrimSpace(input))
	if len(digits) > 4 && strings.Contains(err.Error(), digits) {
		t.Errorf("input %q: error %q leaks the input", input, err)
	}
}

func TestValidateNumber(t *testing.T) {
	tests := []struct {
		in   string
		kind error
	}{
		{"4242 4242 4242 4242", nil},
		{"4000000000000341", nil},
		{"4242424242424241", ErrLuhn},
		{"1234567812345678", ErrLuhn},
		{"4242", ErrCardNumberLength},
		{"card", ErrCardNumberFormat},
		{"", ErrCardNumberRequired},
	}
	for _, tc := range tests {
		d, err := ValidateNumber(tc.in)
		if tc.kind == nil {
			if err != nil || d != stripSeparators(tc.in) {
				t.Errorf("ValidateNumber(%q) = %q, %v", tc.in, d, err)
			}
			continue
		}
		checkErr(t, err, tc.kind, FieldCardNumber, tc.in)
	}
	_, err := ValidateNumber("4242424242424241")
	if e, _ := AsError(err); e == nil || e.Last4 != "4241" || !strings.Contains(e.Error(), "ending 4241") {
		t.Errorf("Luhn error should name last4: %v", err)
	}
}

func TestNetwork(t *testing.T) {
	tests := []struct {
		number, want string
	}{
		{"4242424242424242", Visa},
		{"4111 1111 1111 1111", Visa},
		{"4000056655665556", Visa},
		{"5555555555554444", Mastercard},
		{"5105105105105100", Mastercard},
		{"2223003122003222", Mastercard},
		{"2720990000000007", Mastercard},
		{"378282246310005", AmericanExpress},
		{"371449635398431", AmericanExpress},
		{"341111111111111", AmericanExpress},
		{"6011111111111117", Discover},
		{"6011000990139424", Discover},
		{"6445644564456445", Discover},
		{"6555900000604105", Discover},
		{"38000000000006", DinersClub},
		{"36227206271667", DinersClub},
		{"3056930009020004", DinersClub},
		{"3095000000000001", DinersClub},
		{"3566002020360505", JCB},
		{"3528000000000007", JCB},
		{"6200000000000005", UnionPay},
		{"6205500000000000004", UnionPay},
		{"8171999927660000", UnionPay},
		{"6521500000000001", RuPay},
		{"6070000000000000", RuPay},
		{"5085000000000000", RuPay},
		{"5018000000000009", Maestro},
		{"6304000000000000", Maestro},
		{"6759649826438453", Maestro},
		{"5600000000000000", Maestro},
		{"1234567812345670", ""},
		{"9999999999999995", ""},
		{"2220000000000000", ""},
		{"", ""},
		{"4242abc", ""},
	}
	for _, tc := range tests {
		if got := Network(tc.number); got != tc.want {
			t.Errorf("Network(%q) = %q, want %q", tc.number, got, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		number string
		want   Details
	}{
		{"4242424242424242", Details{Last4: "4242", BIN: "424242", ExtendedBIN: "42424242", Network: Visa, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"4242 4242 4242 4242", Details{Last4: "4242", BIN: "424242", ExtendedBIN: "42424242", Network: Visa, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"4000056655665556", Details{Last4: "5556", BIN: "400005", ExtendedBIN: "40000566", Network: Visa, CardType: Debit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"5200828282828210", Details{Last4: "8210", BIN: "520082", ExtendedBIN: "52008282", Network: Mastercard, CardType: Debit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"378282246310005", Details{Last4: "0005", BIN: "378282", Network: AmericanExpress, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"38000000000006", Details{Last4: "0006", BIN: "380000", Network: DinersClub, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"4000000000000341", Details{Last4: "0341", BIN: "400000", ExtendedBIN: "40000000", Network: Visa, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		// Not a test number: no issuer, no country, credit by default.
		{"4012000033330026", Details{Last4: "0026", BIN: "401200", ExtendedBIN: "40120000", Network: Visa, CardType: Credit}},
		{"1234567812345670", Details{Last4: "5670", BIN: "123456", ExtendedBIN: "12345678", CardType: Credit}},
		{"6205500000000000004", Details{Last4: "0004", BIN: "620550", ExtendedBIN: "62055000", Network: UnionPay, CardType: Credit, Issuer: TestIssuer, IssuingCountry: "US"}},
		{"31415920", Details{Last4: "5920", CardType: Credit}}, // no BIN: with the last four it would be the number
		{"not a card", Details{}},
	}
	for _, tc := range tests {
		if got := Describe(tc.number); got != tc.want {
			t.Errorf("Describe(%q) = %+v, want %+v", tc.number, got, tc.want)
		}
	}
	if !IsTestCard("4242-4242-4242-4242") || IsTestCard("4012000033330026") {
		t.Error("IsTestCard")
	}
}

func TestValidateExpiry(t *testing.T) {
	now := time.Date(2026, time.June, 30, 23, 59, 0, 0, time.UTC)
	tests := []struct {
		month, year string
		kind        error
		field       string
	}{
		{"12", "2030", nil, ""},
		{"06", "2026", nil, ""}, // valid through the end of the month
		{"6", "26", nil, ""},
		{"7", "26", nil, ""},
		{"01", "27", nil, ""},
		{" 12 ", " 30 ", nil, ""},
		{"012", "2030", nil, ""}, // a number from 1 to 12, as Hyperswitch reads it
		{"05", "2026", ErrExpired, FieldExpYear},
		{"12", "2025", ErrExpired, FieldExpYear},
		{"12", "25", ErrExpired, FieldExpYear},
		{"0", "2030", ErrExpiryMonth, FieldExpMonth},
		{"00", "2030", ErrExpiryMonth, FieldExpMonth},
		{"13", "2030", ErrExpiryMonth, FieldExpMonth},
		{"13", "2001", ErrExpiryMonth, FieldExpMonth}, // the month before the year
		{"-1", "2030", ErrNotNumeric, FieldExpMonth},
		{"ab", "2030", ErrNotNumeric, FieldExpMonth},
		{"", "2030", ErrNotNumeric, FieldExpMonth},
		{"12", "", ErrNotNumeric, FieldExpYear},
		{"12", "203", ErrExpiryYear, FieldExpYear},
		{"12", "20301", ErrExpiryYear, FieldExpYear},
		{"12", "2O30", ErrNotNumeric, FieldExpYear},
		{"12", "+30", ErrNotNumeric, FieldExpYear},
	}
	for _, tc := range tests {
		err := ValidateExpiry(tc.month, tc.year, now)
		if tc.kind == nil {
			if err != nil {
				t.Errorf("ValidateExpiry(%q, %q) = %v", tc.month, tc.year, err)
			}
			continue
		}
		checkErr(t, err, tc.kind, tc.field, "")
		if e, _ := AsError(err); tc.kind != ErrNotNumeric && !slices.Contains([]string{ReasonExpiryMonth, ReasonExpiryYear, ReasonExpired}, e.Reason) {
			t.Errorf("ValidateExpiry(%q, %q): reason %q is not Hyperswitch's", tc.month, tc.year, e.Reason)
		}
	}
	if e, _ := AsError(ValidateExpiry("12", "2025", now)); e.Reason != ReasonExpiryYear {
		t.Errorf("a past year: %q, want %q", e.Reason, ReasonExpiryYear)
	}
	if e, _ := AsError(ValidateExpiry("05", "2026", now)); e.Reason != ReasonExpired {
		t.Errorf("a past month of this year: %q, want %q", e.Reason, ReasonExpired)
	}
	// The month is judged in UTC: 1 July 01:00 in UTC+3 is still June in UTC.
	east := time.FixedZone("UTC+3", 3*3600)
	if err := ValidateExpiry("6", "2026", time.Date(2026, time.July, 1, 1, 0, 0, 0, east)); err != nil {
		t.Errorf("UTC evaluation: %v", err)
	}
	if err := ValidateExpiry("6", "2026", time.Date(2026, time.July, 1, 0, 0, 0, 0, time.UTC)); !errors.Is(err, ErrExpired) {
		t.Errorf("expired on the first of the next month: %v", err)
	}
}

func TestValidateCVC(t *testing.T) {
	tests := []struct {
		cvc string
		ok  bool
	}{
		{"123", true},
		{"000", true},
		{"1234", true}, // American Express's front code, or any network's
		{"12", false},
		{"12345", false},
		{"", false},
	}
	for _, tc := range tests {
		err := ValidateCVC(tc.cvc)
		if tc.ok {
			if err != nil {
				t.Errorf("ValidateCVC(%q) = %v", tc.cvc, err)
			}
			continue
		}
		checkErr(t, err, ErrCVC, FieldCVC, tc.cvc)
		if e, _ := AsError(err); e.Reason != ReasonCVCLength {
			t.Errorf("ValidateCVC(%q): reason %q, want %q", tc.cvc, e.Reason, ReasonCVCLength)
		}
		if tc.cvc != "" && strings.Contains(err.Error(), tc.cvc) {
			t.Errorf("ValidateCVC error %q leaks the code", err)
		}
	}
	// The length is checked before the digits, as Hyperswitch does.
	for _, cvc := range []string{"12a", "12 3"} {
		checkErr(t, ValidateCVC(cvc), ErrNotNumeric, FieldCVC, cvc)
	}
	checkErr(t, ValidateCVC("1a"), ErrCVC, FieldCVC, "1a")
}

func TestMaskNumbers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"value: 4242424242424242", "value: ************4242"},
		{`{"cardNumber":"378282246310005","cvc":"1234"}`, `{"cardNumber":"***********0005","cvc":"1234"}`},
		{"amount 1234567 and id pay_123", "amount 1234567 and id pay_123"}, // 7 digits: not a card number
		{"number 12345678", "number ****5678"},                             // 8: Hyperswitch takes it
		{"two 4000000000003063 5555555555554444", "two ************3063 ************4444"},
	} {
		if got := MaskNumbers(tc.in); got != tc.want {
			t.Errorf("MaskNumbers(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
