package rest_test

import "testing"

// advancedSeed is an advanced configuration with a rule of each value type.
func advancedSeed() map[string]any {
	return map[string]any{"name": "rules", "algorithm": program(priorityOf("stripe_test"),
		ruleOf("big", priorityOf("stripe_test"), when(cond("amount", "greater_than", "number", 100),
			cond("amount", "equal", "number_comparison_array", []map[string]any{{"comparisonType": "less_than", "number": 9}}))),
		ruleOf("eu", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "stripe_test"}, "split": 100}}},
			map[string]any{"condition": []any{cond("currency", "equal", "enum_variant_array", []string{"EUR", "GBP"})},
				"nested": []any{when(cond("billing_country", "not_equal", "enum_variant", "Netherlands"))}}),
		ruleOf("gold", priorityOf("stripe_test"), when(cond("metadata", "equal", "metadata_variant", map[string]any{"key": "k", "value": "v"}),
			cond("card_bin", "equal", "str_value", "424242"))))}
}

func FuzzRoutingCreate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/routing" }, advancedSeed(),
		map[string]any{"name": "one", "algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "stripe_test"}}})
}

func FuzzRoutingRuleEvaluate(f *testing.F) {
	typed := func(typ string, v any) map[string]any { return map[string]any{"type": typ, "value": v} }
	fuzzRoute(f, "POST", secret, func(fx) string { return "/routing/rule/evaluate" },
		map[string]any{"fallback_output": []any{}, "parameters": map[string]any{
			"amount": typed("number", 10), "currency": typed("str_value", "EUR"), "card_bin": typed("str_value", "555555"),
			"metadata":        typed("metadata_variant", map[string]any{"key": "k", "value": "v"}),
			"billing_country": typed("enum_variant", "Germany")}},
		map[string]any{"parameters": map[string]any{}})
}

func FuzzRoutingEvaluate(f *testing.F) {
	fuzzRoute(f, "POST", secret, func(fx) string { return "/routing/evaluate" },
		map[string]any{"eligibleGatewayList": []string{"stripe_test"}, "paymentInfo": map[string]any{
			"paymentId": "p", "amount": 100, "currency": "USD", "paymentType": "ORDER_PAYMENT", "metadata": `{"k":"v"}`,
			"paymentMethodType": "credit", "paymentMethod": "card", "cardIsin": "424242"}},
		map[string]any{"paymentInfo": map[string]any{"amount": 1}})
}
