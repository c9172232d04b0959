package validate

import (
	"errors"
	"strings"
	"testing"

	"switchyard/ent/schema/schematype"
	"switchyard/payments/errs"
)

func ptr[T any](v T) *T { return &v }

// check asserts err is nil (want nil) or the failure want on field.
func check(t *testing.T, err error, want *errs.Failure, field string) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("want valid, got %v", err)
		}
		return
	}
	e, ok := errs.As(err)
	if !ok || !errors.Is(err, want) || e.Field != field || e.Kind != errs.KindInvalid {
		t.Fatalf("got %v, want %s on %q", err, want, field)
	}
}

func TestEnum(t *testing.T) {
	small := NewEnum("Color", "red", "green")
	check(t, small.Check("color", "red"), nil, "")
	check(t, small.Required("color", ""), errs.ErrMissingField, "color")
	check(t, small.Optional("color", nil), nil, "")
	err := small.Check("color", "blue")
	check(t, err, errs.ErrInvalidValue, "color")
	if !strings.Contains(err.Error(), "expected one of red, green") {
		t.Errorf("a short set is listed: %v", err)
	}
	if err := Countries.Check("country", "XX"); err == nil || strings.Contains(err.Error(), "expected one of") {
		t.Errorf("a long set is not listed: %v", err)
	}
	if small.Name() != "Color" || len(small.Values()) != 2 {
		t.Errorf("Name %q Values %v", small.Name(), small.Values())
	}
	v := small.Values()
	v[0] = "changed"
	if !small.Has("red") || small.Has("changed") {
		t.Error("Values shares the set's slice")
	}
}

func TestPath(t *testing.T) {
	p := Path("").Key("payment_methods_enabled").At(0).Key("card_networks").At(2)
	if got, want := p.String(), "payment_methods_enabled[0].card_networks[2]"; got != want {
		t.Errorf("Path = %s, want %s", got, want)
	}
	if got := Indexed("order_details", 3); got != "order_details[3]" {
		t.Errorf("Indexed = %s", got)
	}
}

func TestPageLimit(t *testing.T) {
	for _, c := range []struct {
		limit, want int
		failure     *errs.Failure
	}{
		{0, DefaultListLimit, nil}, {1, 1, nil}, {MaxListLimit, MaxListLimit, nil},
		{MaxListLimit + 1, 0, errs.ErrInvalidValue}, {-1, 0, errs.ErrInvalidValue},
	} {
		limit := c.limit
		err := PageLimit(&limit)
		check(t, err, c.failure, map[bool]string{true: "", false: "limit"}[c.failure == nil])
		if c.failure == nil && limit != c.want {
			t.Errorf("PageLimit(%d) = %d, want %d", c.limit, limit, c.want)
		}
	}
	check(t, Offset(0), nil, "")
	check(t, Offset(-1), errs.ErrInvalidValue, "offset")
}

func TestFields(t *testing.T) {
	long := strings.Repeat("x", 51)
	for _, c := range []struct {
		name  string
		err   error
		want  *errs.Failure
		field string
	}{
		{"url https", AbsoluteHTTPURL("return_url", "https://example.com/back", 255), nil, ""},
		{"url relative", AbsoluteHTTPURL("return_url", "/back", 255), errs.ErrInvalidValue, "return_url"},
		{"url ftp", AbsoluteHTTPURL("return_url", "ftp://example.com", 255), errs.ErrInvalidValue, "return_url"},
		{"url too long", AbsoluteHTTPURL("return_url", "https://example.com/"+long, 30), errs.ErrInvalidValue, "return_url"},
		{"max len ok", MaxLen("f", ptr("abc"), 3), nil, ""},
		{"max len over", MaxLen("f", ptr("abcd"), 3), errs.ErrInvalidValue, "f"},
		{"max len counts characters", MaxLen("f", ptr("ééé"), 3), nil, ""},
		{"max len counts emoji as one", MaxLen("f", ptr("😀😀😀😀"), 3), errs.ErrInvalidValue, "f"},
		{"email", Email("email", ptr("jane@example.com")), nil, ""},
		{"email with name", Email("email", ptr("Jane <jane@example.com>")), errs.ErrInvalidValue, "email"},
		{"email absent", Email("email", nil), nil, ""},
		{"address city", PostalAddress("billing.address", &schematype.Address{City: &long}), errs.ErrInvalidValue, "billing.address.city"},
		{"address country", PostalAddress("billing.address", &schematype.Address{Country: ptr("UK")}), errs.ErrInvalidValue, "billing.address.country"},
		{"address ok", PostalAddress("billing.address", &schematype.Address{Country: ptr("GB"), Line1: ptr("1 Main St")}), nil, ""},
		{"wrapper phone code", Address("billing", &schematype.AddressWrapper{Phone: &schematype.Phone{CountryCode: ptr("1")}}), errs.ErrInvalidValue, "billing.phone.country_code"},
		{"wrapper phone ok", Address("billing", &schematype.AddressWrapper{Phone: &schematype.Phone{CountryCode: ptr("+44")}}), nil, ""},
		{"wrapper email", Address("shipping", &schematype.AddressWrapper{Email: ptr("nope")}), errs.ErrInvalidValue, "shipping.email"},
		{"wrapper address", Address("shipping", &schematype.AddressWrapper{Address: &schematype.Address{Zip: &long}}), errs.ErrInvalidValue, "shipping.address.zip"},
	} {
		t.Run(c.name, func(t *testing.T) { check(t, c.err, c.want, c.field) })
	}
}

func TestMajorUnits(t *testing.T) {
	for _, tc := range []struct {
		amount   int64
		currency string
		want     string
	}{
		{1099, "USD", "10.99"}, {5, "EUR", "0.05"}, {1099, "JPY", "1099"}, {1099, "KWD", "1.099"}, {-250, "usd", "-2.50"},
	} {
		if got := MajorUnits(tc.amount, tc.currency); got != tc.want {
			t.Errorf("MajorUnits(%d, %s) = %q, want %q", tc.amount, tc.currency, got, tc.want)
		}
	}
}
