package graph_test

import (
	"slices"
	"testing"

	"switchyard/internal/testenv"
)

// TestRoutingFactsInGraphQL: routingFacts answers the rule language a
// rules editor offers, amount first with every comparison on a single
// number, enums with their values as rules name them (currencies, card
// networks, countries by Hyperswitch's names), metadata as key and value.
func TestRoutingFactsInGraphQL(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	type valueType struct {
		Type        string
		Comparisons []string
	}
	var out struct {
		RoutingFacts []struct {
			Name, Kind string
			Values     []string
			ValueTypes []valueType
		}
	}
	newGQL(t, srv.URL, srv.Demo.SecretKey).must(`{ routingFacts { name kind values valueTypes { type comparisons } } }`, nil, &out)
	facts := map[string]int{}
	for i, f := range out.RoutingFacts {
		facts[f.Name] = i
	}
	amount := out.RoutingFacts[0]
	if amount.Name != "amount" || amount.Kind != "number" || len(amount.ValueTypes) != 3 ||
		len(amount.ValueTypes[0].Comparisons) != 6 || len(amount.ValueTypes[1].Comparisons) != 2 {
		t.Fatalf("amount: %+v", amount)
	}
	for name, want := range map[string]string{"currency": "KWD", "card_network": "Visa", "billing_country": "Netherlands",
		"payment_method": "card", "wallet": "apple_pay"} {
		i, ok := facts[name]
		if !ok || out.RoutingFacts[i].Kind != "enum" || !slices.Contains(out.RoutingFacts[i].Values, want) {
			t.Errorf("%s lacks %s: %+v", name, want, out.RoutingFacts[i])
		}
	}
	if m := out.RoutingFacts[facts["metadata"]]; m.Kind != "metadata" || len(m.Values) != 0 || m.ValueTypes[0].Type != "metadata_variant" {
		t.Errorf("metadata: %+v", m)
	}
}
