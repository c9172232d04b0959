package routing

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestFactsSayWhatRulesTake: Facts lists every key the rules evaluate,
// once; every value type and comparison it offers for a fact, with one of
// its values, makes a condition the rules accept, and every comparison it
// does not offer for that value type is refused.
func TestFactsSayWhatRulesTake(t *testing.T) {
	facts := Facts()
	seen := map[string]bool{}
	for _, f := range facts {
		if seen[f.Name] {
			t.Errorf("%s listed twice", f.Name)
		}
		seen[f.Name] = true
	}
	for name := range lhsKeys {
		if !seen[name] {
			t.Errorf("%s is evaluated but not listed", name)
		}
	}
	if facts[0].Name != "amount" || facts[0].Kind != "number" || len(facts[0].ValueTypes[0].Comparisons) != 6 {
		t.Errorf("amount first, every comparison on a number: %+v", facts[0])
	}
	for _, f := range facts {
		if (f.Kind == "enum") != (len(f.Values) > 0) {
			t.Errorf("%s (%s) has %d values", f.Name, f.Kind, len(f.Values))
		}
		for _, vt := range f.ValueTypes {
			var value any
			switch vt.Type {
			case valueNumber:
				value = 100
			case valueNumberArray:
				value = []int{100, 200}
			case valueNumberComparison:
				value = []any{map[string]any{"comparisonType": "less_than", "number": 100}}
			case valueEnumVariant:
				value = f.Values[len(f.Values)-1]
			case valueEnumVariantArray:
				value = f.Values[:1]
			case valueStr:
				value = "424242"
			case valueMetadataVariant:
				value = map[string]any{"key": "tier", "value": "gold"}
			default:
				t.Fatalf("%s: value type %s", f.Name, vt.Type)
			}
			for _, cmp := range comparisons.Values() {
				raw, _ := json.Marshal(map[string]any{"type": vt.Type, "value": value})
				lhs, op := f.Name, cmp
				var w valueWire
				_ = json.Unmarshal(raw, &w)
				_, err := parseCondition("c", comparisonWire{Lhs: &lhs, Comparison: &op, Value: &w}, paymentKeys)
				if offered := slices.Contains(vt.Comparisons, cmp); offered != (err == nil) {
					t.Errorf("%s %s %s: offered %v, accepted: %v", f.Name, cmp, vt.Type, offered, err)
				}
			}
		}
	}
}
