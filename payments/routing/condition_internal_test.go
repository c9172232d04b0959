package routing

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

func parseConditionJSON(t *testing.T, raw string) (condition, error) {
	t.Helper()
	var w comparisonWire
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return parseCondition("c", w, paymentKeys)
}

// TestParseConditionRefusals: every refusal of a rule's condition, with the
// member at fault.
func TestParseConditionRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, raw    string
		field, words string
	}{
		{"no lhs", `{"comparison":"equal","value":{"type":"number","value":1}}`, "c.lhs", "Missing"},
		{"unknown lhs", `{"lhs":"shoe_size","comparison":"equal","value":{"type":"number","value":1}}`, "c.lhs", `"shoe_size" is not a routing key`},
		{"card is card_type", `{"lhs":"card","comparison":"equal","value":{"type":"enum_variant","value":"debit"}}`, "c.lhs", `"card" is not a routing key`},
		{"no comparison", `{"lhs":"amount","value":{"type":"number","value":1}}`, "c.comparison", "Missing"},
		{"unknown comparison", `{"lhs":"amount","comparison":"about","value":{"type":"number","value":1}}`, "c.comparison", `"about" is not a valid ComparisonType`},
		{"no value", `{"lhs":"amount","comparison":"equal"}`, "c.value", "Missing"},
		{"no value type", `{"lhs":"amount","comparison":"equal","value":{"value":1}}`, "c.value.type", "Missing"},
		{"amount as a string", `{"lhs":"amount","comparison":"equal","value":{"type":"str_value","value":"1"}}`,
			"c.value.type", `amount compares with number, number_array or number_comparison_array, got "str_value"`},
		{"currency as a number", `{"lhs":"currency","comparison":"equal","value":{"type":"number","value":1}}`,
			"c.value.type", `currency compares with enum_variant or enum_variant_array, got "number"`},
		{"card_bin as an enum", `{"lhs":"card_bin","comparison":"equal","value":{"type":"enum_variant","value":"424242"}}`,
			"c.value.type", `got "enum_variant"`},
		{"global_ref", `{"lhs":"amount","comparison":"equal","value":{"type":"global_ref","value":"x"}}`, "c.value.type", `got "global_ref"`},
		{"ordered enum", `{"lhs":"currency","comparison":"greater_than","value":{"type":"enum_variant","value":"USD"}}`,
			"c.comparison", `currency with a enum_variant value is equal or not_equal, got "greater_than"`},
		{"ordered number list", `{"lhs":"amount","comparison":"less_than","value":{"type":"number_array","value":[1]}}`,
			"c.comparison", "equal or not_equal"},
		{"ordered number comparisons", `{"lhs":"amount","comparison":"less_than_equal","value":{"type":"number_comparison_array","value":[]}}`,
			"c.comparison", "equal or not_equal"},
		{"ordered metadata", `{"lhs":"metadata","comparison":"greater_than_equal","value":{"type":"metadata_variant","value":{"key":"k","value":"v"}}}`,
			"c.comparison", "equal or not_equal"},
		{"ordered string", `{"lhs":"card_bin","comparison":"greater_than","value":{"type":"str_value","value":"4"}}`,
			"c.comparison", "equal or not_equal"},
		{"negative number", `{"lhs":"amount","comparison":"equal","value":{"type":"number","value":-1}}`,
			"c.value.value", "a number value is a whole number, at least 0"},
		{"fractional number", `{"lhs":"amount","comparison":"equal","value":{"type":"number","value":1.5}}`, "c.value.value", "whole number"},
		{"null number", `{"lhs":"amount","comparison":"equal","value":{"type":"number","value":null}}`, "c.value.value", "whole number"},
		{"number missing", `{"lhs":"amount","comparison":"equal","value":{"type":"number"}}`, "c.value.value", "whole number"},
		{"number as text", `{"lhs":"amount","comparison":"equal","value":{"type":"number","value":"1"}}`, "c.value.value", "whole number"},
		{"number list of text", `{"lhs":"amount","comparison":"equal","value":{"type":"number_array","value":["1"]}}`,
			"c.value.value", "a number_array value is a list of whole numbers"},
		{"null number list", `{"lhs":"amount","comparison":"equal","value":{"type":"number_array","value":null}}`, "c.value.value", "list of whole numbers"},
		{"number comparisons not a list", `{"lhs":"amount","comparison":"equal","value":{"type":"number_comparison_array","value":{}}}`,
			"c.value.value", "a list of {comparisonType, number}"},
		{"number comparison of unknown kind", `{"lhs":"amount","comparison":"equal","value":{"type":"number_comparison_array","value":[{"comparisonType":"less_than","number":1},{"comparisonType":"near","number":2}]}}`,
			"c.value.value[1].comparisonType", `"near"`},
		{"number comparison without number", `{"lhs":"amount","comparison":"equal","value":{"type":"number_comparison_array","value":[{"comparisonType":"less_than"}]}}`,
			"c.value.value[0].number", "Missing"},
		{"enum as a number", `{"lhs":"currency","comparison":"equal","value":{"type":"enum_variant","value":1}}`,
			"c.value.value", "a enum_variant value is a string"},
		{"unknown currency", `{"lhs":"currency","comparison":"equal","value":{"type":"enum_variant","value":"XXY"}}`,
			"c.value.value", `"XXY" is not a value of currency`},
		{"unknown country", `{"lhs":"billing_country","comparison":"equal","value":{"type":"enum_variant","value":"Atlantis"}}`,
			"c.value.value", `"Atlantis" is not a value of billing_country`},
		{"string as a list", `{"lhs":"card_bin","comparison":"equal","value":{"type":"str_value","value":["4"]}}`,
			"c.value.value", "a str_value value is a string"},
		{"enum list of one unknown", `{"lhs":"card_network","comparison":"equal","value":{"type":"enum_variant_array","value":["Visa","Diners Club"]}}`,
			"c.value.value[1]", `"Diners Club" is not a value of card_network`},
		{"enum list as a string", `{"lhs":"card_network","comparison":"equal","value":{"type":"enum_variant_array","value":"Visa"}}`,
			"c.value.value", "a list of strings"},
		{"metadata not an object", `{"lhs":"metadata","comparison":"equal","value":{"type":"metadata_variant","value":"tier"}}`,
			"c.value.value", "a metadata_variant value is {key, value}"},
		{"metadata without key", `{"lhs":"metadata","comparison":"equal","value":{"type":"metadata_variant","value":{"value":"gold"}}}`,
			"c.value.value.key", "Missing"},
		{"metadata without value", `{"lhs":"metadata","comparison":"equal","value":{"type":"metadata_variant","value":{"key":"tier"}}}`,
			"c.value.value.value", "Missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseConditionJSON(t, tc.raw)
			e, ok := errs.As(err)
			refused := errors.Is(err, errs.ErrMissingField) || errors.Is(err, errs.ErrInvalidValue)
			if !ok || !refused || e.Field != tc.field || !strings.Contains(err.Error(), tc.words) {
				t.Fatalf("%v; want %s refused, saying %q", err, tc.field, tc.words)
			}
		})
	}
}

// TestNumberConditionHolds: every comparison of an amount with a number,
// for amounts one below, at and one above it.
func TestNumberConditionHolds(t *testing.T) {
	for _, tc := range []struct {
		op               string
		below, at, above bool
	}{
		{"equal", false, true, false},
		{"not_equal", true, false, true},
		{"less_than", true, false, false},
		{"less_than_equal", true, true, false},
		{"greater_than", false, false, true},
		{"greater_than_equal", false, true, true},
	} {
		c, err := parseConditionJSON(t, `{"lhs":"amount","comparison":"`+tc.op+`","value":{"type":"number","value":100}}`)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		for n, want := range map[int64]bool{99: tc.below, 100: tc.at, 101: tc.above} {
			if got := c.holds(&Payment{Amount: n}); got != want {
				t.Errorf("%d %s 100: %v", n, tc.op, got)
			}
		}
	}
}

// TestConditionHolds: the other value types, read from a rule, against
// payments with and without their value; a fact the payment lacks makes
// no comparison hold.
func TestConditionHolds(t *testing.T) {
	amount := func(n int64) *Payment { return &Payment{Amount: n} }
	for _, tc := range []struct {
		raw  string
		pay  *Payment
		want bool
	}{
		{`{"lhs":"amount","comparison":"equal","value":{"type":"number","value":0}}`, amount(0), true},
		{`{"lhs":"amount","comparison":"equal","value":{"type":"number_array","value":[1,2]}}`, amount(2), true},
		{`{"lhs":"amount","comparison":"equal","value":{"type":"number_array","value":[1,2]}}`, amount(3), false},
		{`{"lhs":"amount","comparison":"not_equal","value":{"type":"number_array","value":[1,2]}}`, amount(3), true},
		{`{"lhs":"amount","comparison":"not_equal","value":{"type":"number_array","value":[]}}`, amount(3), true},
		{`{"lhs":"amount","comparison":"equal","value":{"type":"number_comparison_array","value":[{"comparisonType":"less_than","number":10},{"comparisonType":"greater_than","number":100}]}}`, amount(101), true},
		{`{"lhs":"amount","comparison":"equal","value":{"type":"number_comparison_array","value":[{"comparisonType":"less_than","number":10},{"comparisonType":"greater_than","number":100}]}}`, amount(50), false},
		{`{"lhs":"amount","comparison":"not_equal","value":{"type":"number_comparison_array","value":[{"comparisonType":"less_than","number":10}]}}`, amount(50), true},
		{`{"lhs":"currency","comparison":"equal","value":{"type":"enum_variant","value":"EUR"}}`, &Payment{Currency: "EUR"}, true},
		{`{"lhs":"currency","comparison":"not_equal","value":{"type":"enum_variant","value":"EUR"}}`, &Payment{Currency: "EUR"}, false},
		{`{"lhs":"currency","comparison":"not_equal","value":{"type":"enum_variant","value":"EUR"}}`, &Payment{Currency: "USD"}, true},
		{`{"lhs":"currency","comparison":"not_equal","value":{"type":"enum_variant","value":"EUR"}}`, &Payment{}, false},
		{`{"lhs":"card_network","comparison":"equal","value":{"type":"enum_variant","value":"visa"}}`, &Payment{CardNetwork: "Visa"}, true},
		{`{"lhs":"card_network","comparison":"equal","value":{"type":"enum_variant_array","value":["mastercard","Visa"]}}`, &Payment{CardNetwork: "Visa"}, true},
		{`{"lhs":"card_network","comparison":"not_equal","value":{"type":"enum_variant_array","value":["Visa"]}}`, &Payment{CardNetwork: "Mastercard"}, true},
		{`{"lhs":"billing_country","comparison":"equal","value":{"type":"enum_variant","value":"Netherlands"}}`, &Payment{BillingCountry: "NL"}, true},
		{`{"lhs":"billing_country","comparison":"equal","value":{"type":"enum_variant","value":"NL"}}`, &Payment{BillingCountry: "NL"}, true},
		{`{"lhs":"wallet","comparison":"equal","value":{"type":"enum_variant","value":"apple_pay"}}`, &Payment{PaymentMethod: "wallet", PaymentMethodType: "apple_pay"}, true},
		{`{"lhs":"wallet","comparison":"not_equal","value":{"type":"enum_variant","value":"apple_pay"}}`, &Payment{PaymentMethod: "card", PaymentMethodType: "credit"}, false},
		{`{"lhs":"card_type","comparison":"equal","value":{"type":"enum_variant","value":"debit"}}`, &Payment{PaymentMethod: "card", PaymentMethodType: "debit"}, true},
		{`{"lhs":"card_bin","comparison":"equal","value":{"type":"str_value","value":"424242"}}`, &Payment{CardBin: "424242"}, true},
		{`{"lhs":"card_bin","comparison":"not_equal","value":{"type":"str_value","value":"424242"}}`, &Payment{CardBin: "555555"}, true},
		{`{"lhs":"metadata","comparison":"equal","value":{"type":"metadata_variant","value":{"key":"tier","value":"gold"}}}`, &Payment{Metadata: map[string]string{"tier": "gold"}}, true},
		{`{"lhs":"metadata","comparison":"not_equal","value":{"type":"metadata_variant","value":{"key":"tier","value":"gold"}}}`, &Payment{Metadata: map[string]string{"tier": "silver"}}, true},
		{`{"lhs":"metadata","comparison":"not_equal","value":{"type":"metadata_variant","value":{"key":"tier","value":"gold"}}}`, &Payment{}, false},
		// A metadata comparison may name any lhs: its key is in its value.
		{`{"lhs":"tier","comparison":"equal","value":{"type":"metadata_variant","value":{"key":"tier","value":"gold"}}}`, &Payment{Metadata: map[string]string{"tier": "gold"}}, true},
	} {
		c, err := parseConditionJSON(t, tc.raw)
		if err != nil {
			t.Errorf("%s: %v", tc.raw, err)
			continue
		}
		if got := c.holds(tc.pay); got != tc.want {
			t.Errorf("%s on %+v: holds %v, want %v", tc.raw, *tc.pay, got, tc.want)
		}
	}
}
