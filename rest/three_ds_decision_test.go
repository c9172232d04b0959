package rest_test

import (
	"net/http"
	"strings"
	"testing"
)

// threeDSRule is a three_ds_decision_rule algorithm: Hyperswitch's
// ProgramThreeDsDecisionRule with its default decision.
func threeDSRule(def string, rules ...map[string]any) map[string]any {
	return map[string]any{"type": "three_ds_decision_rule", "data": map[string]any{
		"defaultSelection": map[string]any{"decision": def}, "rules": rules, "metadata": map[string]any{}}}
}

// decisionRule is one of its rules, its decision as Hyperswitch's engine
// reads it ({decision}).
func decisionRule(name, decision string, statements ...map[string]any) map[string]any {
	return map[string]any{"name": name, "connectorSelection": map[string]any{"decision": decision}, "statements": statements}
}

// execFacts are the facts of an execute request; each non-empty argument
// is a member.
func execFacts(routingID string, amount int, currency, issuerCountry, acquirerCountry string, extra map[string]any) map[string]any {
	out := map[string]any{"routing_id": routingID, "payment": map[string]any{"amount": amount, "currency": currency}}
	if issuerCountry != "" {
		out["issuer"] = map[string]any{"name": "Bank", "country": issuerCountry}
	}
	if acquirerCountry != "" {
		out["acquirer"] = map[string]any{"country": acquirerCountry}
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// TestThreeDSDecisionExecute: POST /routing stores a three_ds_decision_rule
// (for three_ds_authentication, never active), and executing it answers
// the decision of the first rule that holds for the request's facts, else
// the default, adjusted for PSD2 as Hyperswitch adjusts it: both issuer
// and acquirer in the PSD2 region turn no_three_ds into
// challenge_requested; outside it every other decision becomes
// challenge_requested.
func TestThreeDSDecisionExecute(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_3ds")
	created := c.do("POST", "/routing", m.key, map[string]any{"name": "3ds", "profile_id": m.profileID,
		"algorithm": threeDSRule("no_three_ds",
			decisionRule("big euro payments", "challenge_requested", when(cond("amount", "greater_than", "number", 100000),
				cond("currency", "equal", "enum_variant", "EUR"))),
			decisionRule("low value at home", "three_ds_exemption_requested_low_value",
				when(cond("amount", "less_than", "number", 3000), cond("issuer_country", "equal", "enum_variant", "Germany"))),
			decisionRule("trusted acquirer", "three_ds_exemption_requested_tra",
				when(cond("acquirer_fraud_rate", "less_than", "number", 1),
					cond("customer_device_platform", "equal", "enum_variant_array", []string{"web", "ios"}))),
			// The bare decision of Hyperswitch's OpenAPI document is read too.
			map[string]any{"name": "phones", "connectorSelection": "challenge_preferred", "statements": []any{
				when(cond("customer_device_type", "equal", "enum_variant", "mobile"), cond("issuer_name", "equal", "str_value", "SBI"),
					cond("customer_device_display_size", "not_equal", "enum_variant", "size1920x1080"))}},
		)}).must(t, 200)
	if created.str("kind") != "three_ds_decision_rule" || created.str("algorithm_for") != "three_ds_authentication" {
		t.Fatalf("created: %s", created.Raw)
	}
	id := created.str("id")
	web := func(rate float64) map[string]any {
		return map[string]any{"customer_device": map[string]any{"platform": "web"}, "acquirer": map[string]any{"country": "France", "fraud_rate": rate}}
	}
	phone := map[string]any{"customer_device": map[string]any{"platform": "android", "device_type": "mobile", "display_size": "size390x844"},
		"issuer": map[string]any{"name": "SBI", "country": "NL"}, "payment_method": map[string]any{"card_network": "Visa", "card_discovery": "manual"}}
	for _, tc := range []struct {
		name  string
		facts map[string]any
		want  string
	}{
		{"a big euro payment", execFacts(id, 200000, "EUR", "Germany", "France", nil), "challenge_requested"},
		{"a big dollar payment: the default, under PSD2", execFacts(id, 200000, "USD", "Germany", "France", nil), "challenge_requested"},
		{"a small payment of a German card", execFacts(id, 2000, "EUR", "Germany", "France", nil), "three_ds_exemption_requested_low_value"},
		{"a trusted acquirer on the web", execFacts(id, 50000, "EUR", "Germany", "", web(0.5)), "three_ds_exemption_requested_tra"},
		{"an acquirer over the rate", execFacts(id, 50000, "EUR", "Germany", "", web(2)), "challenge_requested"},
		{"a phone (issuer by code)", execFacts(id, 50000, "EUR", "", "Spain", phone), "challenge_preferred"},
		{"outside PSD2 the default stands", execFacts(id, 50000, "USD", "India", "India", nil), "no_three_ds"},
		{"outside PSD2 no exemption", execFacts(id, 2000, "EUR", "India", "", web(0.5)), "challenge_requested"},
		{"no facts but the payment", execFacts(id, 2000, "EUR", "", "", nil), "no_three_ds"},
	} {
		r := c.do("POST", "/three_ds_decision/execute", m.key, tc.facts).must(t, 200)
		if r.str("decision") != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, r.Raw, tc.want)
		}
	}

	// It decides 3-D Secure, not connectors: it cannot be activated, and
	// payments still go by the fallback order.
	if r := c.do("POST", "/routing/"+id+"/activate", m.key, nil); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("activate: %d %s", r.Status, r.Raw)
	}
	if got := m.connectorOf(t, c); got != "stripe_test" {
		t.Fatalf("a payment went to %s", got)
	}
	listed := c.do("GET", "/routing?transaction_type=three_ds_authentication", m.key, nil).must(t, 200)
	if !strings.Contains(string(listed.Raw), id) {
		t.Fatalf("list: %s", listed.Raw)
	}
	// It reads back as the merchant wrote it.
	got := c.do("GET", "/routing/"+id, m.key, nil).must(t, 200)
	if got.str("algorithm", "type") != "three_ds_decision_rule" || got.str("algorithm_for") != "three_ds_authentication" ||
		!strings.Contains(string(got.Raw), `"connectorSelection":"challenge_preferred"`) {
		t.Fatalf("read back: %s", got.Raw)
	}
}

// TestThreeDSDecisionRefusals: a rule that cannot be evaluated is refused
// with the member at fault, as an advanced one is; an execution names a
// rule of the merchant's (another's or none is 404 HE_02, a connector
// routing configuration 400 IR_07) and facts Hyperswitch can read.
func TestThreeDSDecisionRefusals(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_3ds_refusals")
	other := newRoutedMerchant(t, c, "merchant_3ds_other")
	one := func(r map[string]any) map[string]any { return threeDSRule("no_three_ds", r) }
	withCond := func(cd map[string]any) map[string]any { return one(decisionRule("r", "challenge_requested", when(cd))) }
	const rule0 = "algorithm.data.rules[0]"
	const cond0 = rule0 + ".statements[0].condition[0]"
	for _, tc := range []struct {
		name      string
		algorithm map[string]any
		forType   string
		code      string
		field     string
	}{
		{"an unknown default decision", threeDSRule("maybe"), "", "IR_07", "algorithm.data.defaultSelection.decision"},
		{"no default selection", map[string]any{"type": "three_ds_decision_rule", "data": map[string]any{"rules": []any{}}}, "", "IR_04", "algorithm.data.defaultSelection"},
		{"an unknown rule decision", one(decisionRule("r", "challenge_maybe", when(cond("amount", "greater_than", "number", 1)))), "", "IR_07", rule0 + ".connectorSelection.decision"},
		{"an unknown bare decision", one(map[string]any{"name": "r", "connectorSelection": "sometimes", "statements": []any{}}), "", "IR_07", rule0 + ".connectorSelection"},
		{"a connector selection", one(map[string]any{"name": "r", "connectorSelection": priorityOf("adyen"), "statements": []any{}}), "", "IR_04", rule0 + ".connectorSelection.decision"},
		{"no decision", one(map[string]any{"name": "r", "statements": []any{}}), "", "IR_04", rule0 + ".connectorSelection"},
		{"no statements", one(map[string]any{"name": "r", "connectorSelection": "no_three_ds"}), "", "IR_04", rule0 + ".statements"},
		{"a payment routing key", withCond(cond("billing_country", "equal", "enum_variant", "Germany")), "", "IR_07", cond0 + ".lhs"},
		{"metadata", withCond(cond("metadata", "equal", "metadata_variant", map[string]any{"key": "k", "value": "v"})), "", "IR_07", cond0 + ".lhs"},
		{"a platform that is not one", withCond(cond("customer_device_platform", "equal", "enum_variant", "windows")), "", "IR_07", cond0 + ".value.value"},
		{"an order on a country", withCond(cond("issuer_country", "greater_than", "enum_variant", "Germany")), "", "IR_07", cond0 + ".comparison"},
		{"a string for the fraud rate", withCond(cond("acquirer_fraud_rate", "equal", "str_value", "low")), "", "IR_07", cond0 + ".value.type"},
		{"for payments", threeDSRule("no_three_ds"), "payment", "IR_07", "transaction_type"},
		{"connectors for three_ds_authentication", program(priorityOf("adyen")), "three_ds_authentication", "IR_07", "transaction_type"},
	} {
		body := map[string]any{"name": "x", "algorithm": tc.algorithm, "profile_id": m.profileID}
		if tc.forType != "" {
			body["transaction_type"] = tc.forType
		}
		r := c.do("POST", "/routing", m.key, body)
		if msg := r.str("error", "message"); r.Status != 400 || r.errCode() != tc.code ||
			!strings.Contains(msg, tc.field+":") && !strings.HasSuffix(msg, tc.field) {
			t.Errorf("%s: %d %s, want 400 %s naming %s", tc.name, r.Status, r.Raw, tc.code, tc.field)
		}
	}

	mine := c.do("POST", "/routing", m.key, map[string]any{"name": "3ds", "profile_id": m.profileID,
		"algorithm": threeDSRule("challenge_requested")}).must(t, 200).str("id")
	theirs := c.do("POST", "/routing", other.key, map[string]any{"name": "3ds", "profile_id": other.profileID,
		"algorithm": threeDSRule("challenge_requested")}).must(t, 200).str("id")
	connectors := m.configure(t, c, "connectors", map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}})
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		field  string
	}{
		{"another merchant's rule", execFacts(theirs, 100, "EUR", "", "", nil), 404, "HE_02", ""},
		{"an unknown id", execFacts("routing_unknown", 100, "EUR", "", "", nil), 404, "HE_02", ""},
		{"a connector routing configuration", execFacts(connectors, 100, "EUR", "", "", nil), 400, "IR_07", "routing_id"},
		{"no payment", map[string]any{"routing_id": mine}, 400, "IR_04", "payment"},
		{"no currency", map[string]any{"routing_id": mine, "payment": map[string]any{"amount": 1}}, 400, "IR_04", "payment.currency"},
		{"a currency that is not one", execFacts(mine, 100, "EURO", "", "", nil), 400, "IR_07", "payment.currency"},
		{"a negative amount", execFacts(mine, -1, "EUR", "", "", nil), 400, "IR_07", "payment.amount"},
		{"an issuer without its country", execFacts(mine, 1, "EUR", "", "", map[string]any{"issuer": map[string]any{"name": "x"}}), 400, "IR_04", "issuer.country"},
		{"a country that is not one", execFacts(mine, 1, "EUR", "Atlantis", "", nil), 400, "IR_07", "issuer.country"},
		{"a device type that is not one", execFacts(mine, 1, "EUR", "", "", map[string]any{"customer_device": map[string]any{"device_type": "fridge"}}), 400, "IR_07", "customer_device.device_type"},
		{"a card discovery that is not one", execFacts(mine, 1, "EUR", "", "", map[string]any{"payment_method": map[string]any{"card_network": "Visa", "card_discovery": "guessed"}}), 400, "IR_07", "payment_method.card_discovery"},
		{"a card network that is not one", execFacts(mine, 1, "EUR", "", "", map[string]any{"payment_method": map[string]any{"card_network": "Vista", "card_discovery": "manual"}}), 400, "IR_07", "payment_method.card_network"},
		{"a negative fraud rate", execFacts(mine, 1, "EUR", "", "", map[string]any{"acquirer": map[string]any{"country": "France", "fraud_rate": -0.5}}), 400, "IR_07", "acquirer.fraud_rate"},
	} {
		r := c.do("POST", "/three_ds_decision/execute", m.key, tc.body)
		if msg := r.str("error", "message"); r.Status != tc.status || r.errCode() != tc.code ||
			tc.field != "" && !strings.Contains(msg, tc.field) {
			t.Errorf("%s: %d %s, want %d %s naming %q", tc.name, r.Status, r.Raw, tc.status, tc.code, tc.field)
		}
	}
}

// TestThreeDSRuleContract: with its rules corrected to the list Hyperswitch
// answers (correctThreeDSRules), the contract still refuses a decision
// rule that is not one, and passes one that is.
func TestThreeDSRuleContract(t *testing.T) {
	c, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	h := http.Header{"Content-Type": []string{"application/json"}}
	answer := func(decision string) []byte {
		return []byte(`{"id":"routing_1","profile_id":"pro_1","name":"3ds","description":"","created_at":1,"modified_at":1,
			"algorithm_for":"three_ds_authentication","algorithm":{"type":"three_ds_decision_rule","data":{
			"defaultSelection":{"decision":"no_three_ds"},"metadata":{},"rules":[{"name":"r","statements":[],
			"connectorSelection":{"decision":"` + decision + `"}}]}}}`)
	}
	if msg := c.check("GET", "/routing/routing_1", 200, h, answer("challenge_requested")); msg != "" {
		t.Fatalf("a decision rule failed: %s", msg)
	}
	if msg := c.check("GET", "/routing/routing_1", 200, h, answer("maybe")); msg == "" {
		t.Fatal("a rule with an unknown decision passed")
	}
}

// TestThreeDSDecisionRuleInGraphQL: the dashboard creates a decision rule
// through the same domain call, sees its kind and transaction type, cannot
// activate it, and REST executes it.
func TestThreeDSDecisionRuleInGraphQL(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_3ds_gql")
	create := `mutation($in: CreateRoutingAlgorithmInput!) {
		createRoutingAlgorithm(input: $in) { routingAlgorithm { id kind transactionType active } } }`
	in := map[string]any{"name": "3ds", "profileID": m.profileID, "algorithm": threeDSRule("no_three_ds",
		decisionRule("visa", "challenge_requested", when(cond("card_network", "equal", "enum_variant", "Visa"))))}
	cfg := c.gqlData(t, m.key, create, map[string]any{"in": in})["createRoutingAlgorithm"].(map[string]any)["routingAlgorithm"].(map[string]any)
	if cfg["kind"] != "three_ds_decision_rule" || cfg["transactionType"] != "three_ds_authentication" || cfg["active"] != false {
		t.Fatalf("created: %v", cfg)
	}
	id := cfg["id"].(string)
	activate := `mutation($id: ID!) { activateRoutingAlgorithm(id: $id) { routingAlgorithm { id active } } }`
	if code := c.gqlErrorCode(t, m.key, activate, map[string]any{"id": id}); code != "IR_16" {
		t.Fatalf("activating a decision rule: %s", code)
	}
	visa := execFacts(id, 1000, "USD", "India", "India", map[string]any{"payment_method": map[string]any{"card_network": "Visa", "card_discovery": "saved_card"}})
	if r := c.do("POST", "/three_ds_decision/execute", m.key, visa).must(t, 200); r.str("decision") != "challenge_requested" {
		t.Fatalf("execute: %s", r.Raw)
	}
}
