package routing

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkAdvancedDecision is what a payment's routing costs once its
// profile's program is cached: 20 rules of three conditions each (the
// amount, an enum list, metadata), none holding, so every condition of
// every rule is evaluated before the default selection.
func BenchmarkAdvancedDecision(b *testing.B) {
	var rules []any
	for i := range 20 {
		rules = append(rules, map[string]any{"name": fmt.Sprint("rule ", i),
			"connectorSelection": map[string]any{"type": "priority", "data": []any{map[string]any{"connector": "adyen"}}},
			"statements": []any{map[string]any{"condition": []any{
				map[string]any{"lhs": "amount", "comparison": "greater_than", "value": map[string]any{"type": "number", "value": 1}},
				map[string]any{"lhs": "currency", "comparison": "equal", "value": map[string]any{"type": "enum_variant_array", "value": []string{"EUR", "GBP"}}},
				map[string]any{"lhs": "metadata", "comparison": "equal", "value": map[string]any{"type": "metadata_variant",
					"value": map[string]any{"key": "tier", "value": fmt.Sprint("t", i)}}},
			}}}})
	}
	data, _ := json.Marshal(map[string]any{"defaultSelection": map[string]any{"type": "priority",
		"data": []any{map[string]any{"connector": "stripe_test"}}}, "rules": rules})
	prog, _, err := parseProgram(data)
	if err != nil {
		b.Fatal(err)
	}
	pay := &Payment{Amount: 1000, Currency: "EUR", Metadata: map[string]string{"tier": "none"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, rule := prog.evaluate(pay); rule != "" {
			b.Fatal(rule)
		}
	}
}
