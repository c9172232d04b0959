package routing

import (
	"encoding/json"
	"testing"

	"switchyard/ent"
	"switchyard/ent/routingalgorithm"
	"switchyard/ent/schema/schematype"
)

// TestPayoutDecisions: a payout's facts through the payout slot's
// algorithm: the processors it chooses first, then the rest in their
// fallback order; none active leaves the fallback order.
func TestPayoutDecisions(t *testing.T) {
	accounts := []*ent.MerchantConnectorAccount{{ID: "mca_a", ConnectorName: "adyen"}, {ID: "mca_w", ConnectorName: "wise"}}
	sel := func(c string) map[string]any {
		return map[string]any{"type": "priority", "data": []any{map[string]any{"connector": c}}}
	}
	cond := func(lhs, vt string, v any) map[string]any {
		return map[string]any{"lhs": lhs, "comparison": "equal", "value": map[string]any{"type": vt, "value": v}}
	}
	data, _ := json.Marshal(map[string]any{"defaultSelection": sel("wise"), "rules": []any{
		map[string]any{"name": "sepa", "connectorSelection": sel("adyen"), "statements": []any{map[string]any{"condition": []any{
			cond("payment_method", "enum_variant", "bank_transfer"), cond("payment_method_type", "enum_variant", "sepa")}}}},
		map[string]any{"name": "dutch", "connectorSelection": sel("adyen"), "statements": []any{map[string]any{"condition": []any{
			cond("business_country", "enum_variant", "Netherlands")}}}},
	}})
	advanced, err := parseAlgorithm(&schematype.RoutingAlgorithm{Type: KindAdvanced, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		algo  *Algorithm
		facts Payment
		want  []string
		rule  string
	}{
		{"no payout configuration", nil, PayoutFacts(1000, "EUR", "bank", "sepa", ""), []string{"adyen", "wise"}, ""},
		{"a SEPA payout", advanced, PayoutFacts(1000, "EUR", "bank", "sepa", ""), []string{"adyen", "wise"}, "sepa"},
		{"an ACH payout", advanced, PayoutFacts(1000, "USD", "bank", "ach", ""), []string{"wise", "adyen"}, ""},
		{"a card payout of a Dutch business", advanced, PayoutFacts(1000, "EUR", "card", "debit", "NL"), []string{"adyen", "wise"}, "dutch"},
		{"a priority", &Algorithm{Kind: KindPriority, Priority: []schematype.RoutableConnector{{Connector: "wise"}}},
			PayoutFacts(1000, "USD", "card", "debit", ""), []string{"wise", "adyen"}, ""},
	}
	for _, tt := range tests {
		pr := profileRouting{algorithmID: "routing_x", algorithm: tt.algo}
		if tt.algo == nil {
			pr.algorithmID = ""
		}
		d := pr.decide(accounts, &tt.facts, 0)
		var got []string
		for _, a := range d.Candidates {
			got = append(got, a.ConnectorName)
		}
		if len(got) != len(tt.want) || got[0] != tt.want[0] || got[1] != tt.want[1] || d.Rule != tt.rule {
			t.Errorf("%s: %v (rule %q), want %v (rule %q)", tt.name, got, d.Rule, tt.want, tt.rule)
		}
	}
}

// TestTransactionTypes: what a configuration's transaction_type may be.
func TestTransactionTypes(t *testing.T) {
	str := func(s string) *string { return &s }
	for _, tt := range []struct {
		given *string
		want  routingalgorithm.TransactionType
		ok    bool
	}{
		{nil, routingalgorithm.TransactionTypePayment, true},
		{str("payment"), routingalgorithm.TransactionTypePayment, true},
		{str("payout"), routingalgorithm.TransactionTypePayout, true},
		{str("three_ds_authentication"), routingalgorithm.TransactionTypeThreeDsAuthentication, true},
		{str("refund"), "", false},
	} {
		got, err := transactionType(tt.given)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("%v: %q, %v", tt.given, got, err)
		}
	}
}

// TestAlgorithmFor: a three_ds_decision_rule is for three_ds_authentication
// (when not given too), and nothing else is.
func TestAlgorithmFor(t *testing.T) {
	const (
		payment = routingalgorithm.TransactionTypePayment
		payout  = routingalgorithm.TransactionTypePayout
		threeDS = routingalgorithm.TransactionTypeThreeDsAuthentication
	)
	for _, tt := range []struct {
		kind  string
		t     routingalgorithm.TransactionType
		given bool
		want  routingalgorithm.TransactionType
	}{
		{KindThreeDSDecisionRule, payment, false, threeDS},
		{KindThreeDSDecisionRule, threeDS, true, threeDS},
		{KindThreeDSDecisionRule, payment, true, ""},
		{KindThreeDSDecisionRule, payout, true, ""},
		{KindAdvanced, threeDS, true, ""},
		{KindPriority, payout, true, payout},
		{KindSingle, payment, false, payment},
	} {
		got, err := algorithmFor(tt.kind, tt.t, tt.given)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("%s %s (given %v): %q, %v", tt.kind, tt.t, tt.given, got, err)
		}
	}
}
