package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"switchyard/payments/validate"
)

// TestCurrencyExponentsMatchTheServer: the dashboard's table of currency
// decimals (src/lib/currencyExponents.json, which money.ts formats with)
// says what the server's MajorUnits does, for every currency of the schema.
func TestCurrencyExponentsMatchTheServer(t *testing.T) {
	raw, err := os.ReadFile("src/lib/currencyExponents.json")
	if err != nil {
		t.Fatal(err)
	}
	var table map[string]int
	if err := json.Unmarshal(raw, &table); err != nil {
		t.Fatal(err)
	}
	schema, err := os.ReadFile("../graph/exported/schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	enum := regexp.MustCompile(`(?s)enum PaymentIntentCurrency \{(.*?)\}`).FindSubmatch(schema)
	if enum == nil {
		t.Fatal("no PaymentIntentCurrency in the exported schema")
	}
	currencies := strings.Fields(string(enum[1]))
	if len(currencies) < 100 {
		t.Fatalf("only %d currencies in the schema", len(currencies))
	}
	for c := range table {
		currencies = append(currencies, c)
	}
	for _, c := range currencies {
		want := 2
		if e, ok := table[c]; ok {
			want = e
		}
		// 1 minor unit in major units: "0.01", "1", "0.001".
		got := 0
		if _, frac, ok := strings.Cut(validate.MajorUnits(1, c), "."); ok {
			got = len(frac)
		}
		if got != want {
			t.Errorf("%s: the server writes %d decimals, the dashboard %d (%s)", c, got, want, fmt.Sprint(validate.MajorUnits(1, c)))
		}
	}
}
