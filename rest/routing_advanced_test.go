package rest_test

import (
	"maps"
	"strings"
	"testing"
)

// The parts of Hyperswitch's ProgramConnectorSelection, as a dashboard
// sends them.
func program(def map[string]any, rules ...map[string]any) map[string]any {
	return map[string]any{"type": "advanced", "data": map[string]any{"defaultSelection": def, "rules": rules,
		"metadata": map[string]any{"created_by": "dashboard"}}}
}

func priorityOf(connectors ...string) map[string]any {
	data := []map[string]any{}
	for _, c := range connectors {
		data = append(data, map[string]any{"connector": c})
	}
	return map[string]any{"type": "priority", "data": data}
}

func ruleOf(name string, sel map[string]any, statements ...map[string]any) map[string]any {
	return map[string]any{"name": name, "connectorSelection": sel, "statements": statements}
}

func when(conditions ...map[string]any) map[string]any {
	return map[string]any{"condition": conditions}
}

func cond(lhs, comparison, valueType string, value any) map[string]any {
	return map[string]any{"lhs": lhs, "comparison": comparison, "value": map[string]any{"type": valueType, "value": value},
		"metadata": map[string]any{"ui": "x"}}
}

// TestRoutingAdvancedRefusals: an advanced configuration that cannot be
// evaluated is refused with the member at fault and Hyperswitch's code;
// what Hyperswitch accepts (metadata objects, country names or codes) is
// accepted.
func TestRoutingAdvancedRefusals(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_adv_rules")
	other := newRoutedMerchant(t, c, "merchant_adv_rules_other")
	// A second profile of the same merchant, with its own account.
	prof := c.do("POST", "/account/merchant_adv_rules/business_profile", m.key, map[string]any{"profile_name": "second"}).must(t, 200).str("profile_id")
	otherProfileAcct := c.do("POST", "/account/merchant_adv_rules/connectors", m.key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen", "profile_id": prof,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_second"},
	}).must(t, 200).str("merchant_connector_id")

	amountOver := func(n int) map[string]any { return when(cond("amount", "greater_than", "number", n)) }
	one := func(r map[string]any) map[string]any { return program(priorityOf("stripe_test"), r) }
	withCond := func(cd map[string]any) map[string]any {
		return one(ruleOf("r", priorityOf("adyen"), when(cd)))
	}
	const rule0 = "algorithm.data.rules[0]"
	const cond0 = rule0 + ".statements[0].condition[0]"
	for _, tc := range []struct {
		name      string
		algorithm map[string]any
		code      string
		field     string
	}{
		{"an unknown lhs", withCond(cond("card_colour", "equal", "enum_variant", "red")), "IR_07", cond0 + ".lhs"},
		{"no lhs", withCond(map[string]any{"comparison": "equal", "value": map[string]any{"type": "number", "value": 1}}), "IR_04", cond0 + ".lhs"},
		{"an unknown comparison", withCond(cond("amount", "like", "number", 1)), "IR_07", cond0 + ".comparison"},
		{"an order on an enum", withCond(cond("currency", "greater_than", "enum_variant", "EUR")), "IR_07", cond0 + ".comparison"},
		{"an order on a list", withCond(cond("amount", "less_than", "number_array", []int{1, 2})), "IR_07", cond0 + ".comparison"},
		{"a number for an enum", withCond(cond("currency", "equal", "number", 1)), "IR_07", cond0 + ".value.type"},
		{"an enum for the amount", withCond(cond("amount", "equal", "enum_variant", "EUR")), "IR_07", cond0 + ".value.type"},
		{"a string for metadata", withCond(cond("metadata", "equal", "str_value", "gold")), "IR_07", cond0 + ".value.type"},
		{"an unknown value type", withCond(cond("amount", "equal", "decimal", 1)), "IR_07", cond0 + ".value.type"},
		{"a currency that is not one", withCond(cond("currency", "equal", "enum_variant", "EURO")), "IR_07", cond0 + ".value.value"},
		{"a card network that is not one", withCond(cond("card_network", "equal", "enum_variant_array", []string{"Visa", "Vista"})), "IR_07", cond0 + ".value.value[1]"},
		{"a country that is not one", withCond(cond("billing_country", "equal", "enum_variant", "Atlantis")), "IR_07", cond0 + ".value.value"},
		{"a negative amount", withCond(cond("amount", "greater_than", "number", -1)), "IR_07", cond0 + ".value.value"},
		{"a metadata value without its key", withCond(cond("metadata", "equal", "metadata_variant", map[string]any{"value": "gold"})), "IR_04", cond0 + ".value.value.key"},
		{"a bad nested condition", one(ruleOf("r", priorityOf("adyen"), map[string]any{"condition": []any{},
			"nested": []any{when(cond("amount", "equal", "enum_variant_array", []string{"x"}))}})), "IR_07",
			rule0 + ".statements[0].nested[0].condition[0].value.type"},
		{"a statement without conditions", one(ruleOf("r", priorityOf("adyen"), map[string]any{"nested": []any{}})), "IR_04", rule0 + ".statements[0].condition"},
		{"a rule without a name", one(ruleOf("", priorityOf("adyen"), amountOver(1))), "IR_04", rule0 + ".name"},
		{"a rule without statements", one(map[string]any{"name": "r", "connectorSelection": priorityOf("adyen")}), "IR_04", rule0 + ".statements"},
		{"a rule without connectors", one(ruleOf("r", priorityOf(), amountOver(1))), "IR_07", rule0 + ".connectorSelection.data"},
		{"a rule without a selection", one(map[string]any{"name": "r", "statements": []any{amountOver(1)}}), "IR_04", rule0 + ".connectorSelection"},
		{"a single selection in a rule", one(ruleOf("r", map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}}, amountOver(1))), "IR_07", rule0 + ".connectorSelection.type"},
		{"a rule's splits not adding up to 100", one(ruleOf("r", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "adyen"}, "split": 50}, {"connector": map[string]any{"connector": "stripe_test"}, "split": 40}}},
			amountOver(1))), "IR_07", rule0 + ".connectorSelection.data"},
		{"a connector the profile lacks", one(ruleOf("r", priorityOf("adyen", "checkout"), amountOver(1))), "IR_07", rule0 + ".connectorSelection.data[1]"},
		{"another merchant's account", one(ruleOf("r", map[string]any{"type": "priority", "data": []map[string]any{
			{"connector": "adyen", "merchant_connector_id": other.adyenID}}}, amountOver(1))), "IR_07", rule0 + ".connectorSelection.data[0]"},
		{"another profile's account", one(ruleOf("r", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "adyen", "merchant_connector_id": otherProfileAcct}, "split": 100}}}, amountOver(1))),
			"IR_07", rule0 + ".connectorSelection.data[0].connector"},
		{"another profile's account as the default", program(map[string]any{"type": "priority", "data": []map[string]any{
			{"connector": "adyen", "merchant_connector_id": otherProfileAcct}}}), "IR_07", "algorithm.data.defaultSelection.data[0]"},
		{"no default selection", map[string]any{"type": "advanced", "data": map[string]any{"rules": []any{}}}, "IR_04", "algorithm.data.defaultSelection"},
	} {
		r := c.do("POST", "/routing", m.key, map[string]any{"name": "x", "algorithm": tc.algorithm, "profile_id": m.profileID})
		if r.Status != 400 || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.field+":") &&
			!strings.HasSuffix(r.str("error", "message"), tc.field) {
			t.Errorf("%s: %d %s, want 400 %s naming %s", tc.name, r.Status, r.Raw, tc.code, tc.field)
		}
	}
	// What Hyperswitch accepts is accepted: metadata objects anywhere or
	// none, countries by Hyperswitch's names or by code, enum values in any
	// case, a metadata comparison under another lhs, every comparison on
	// the amount, empty rules.
	noMeta := cond("billing_country", "equal", "enum_variant", "NL")
	delete(noMeta, "metadata")
	for _, algorithm := range []map[string]any{
		one(ruleOf("dutch", priorityOf("adyen"), when(cond("billing_country", "equal", "enum_variant", "Netherlands")), when(noMeta))),
		one(ruleOf("sizes", priorityOf("adyen"), when(cond("amount", "less_than_equal", "number", 5),
			cond("amount", "equal", "number_comparison_array", []map[string]any{{"comparisonType": "greater_than", "number": 1}}),
			cond("amount", "not_equal", "number_array", []int{3})))),
		one(ruleOf("lower case", priorityOf("adyen"), when(cond("card_network", "equal", "enum_variant_array", []string{"visa", "MASTERCARD"}),
			cond("tier", "equal", "metadata_variant", map[string]any{"key": "tier", "value": "gold"})))),
		program(priorityOf("stripe_test")),
		{"type": "advanced", "data": map[string]any{"defaultSelection": priorityOf("adyen"), "rules": []any{}}},
	} {
		m.configure(t, c, "accepted", algorithm)
	}
}

// advancedMerchant is a routed merchant whose active configuration is
// advanced: every rule sends to adyen unless it says otherwise, the
// default selection to stripe_test.
func advancedMerchant(t *testing.T, c *client, id string) (routedMerchant, string) {
	t.Helper()
	m := newRoutedMerchant(t, c, id)
	adyen := priorityOf("adyen")
	algorithm := program(priorityOf("stripe_test"),
		ruleOf("big amounts", adyen, when(cond("amount", "greater_than", "number", 50000))),
		// The first rule that holds wins: small euros go to stripe_test
		// although the next rule would send every euro to adyen.
		ruleOf("small euros", priorityOf("stripe_test", "adyen"), when(cond("currency", "equal", "enum_variant", "EUR"),
			cond("amount", "less_than", "number", 1000))),
		ruleOf("euros", adyen, when(cond("currency", "equal", "enum_variant", "EUR"))),
		ruleOf("mastercard", adyen, when(cond("card_network", "equal", "enum_variant", "Mastercard"))),
		// Statements are alternatives.
		ruleOf("dutch or german", adyen, when(cond("billing_country", "equal", "enum_variant", "Netherlands")),
			when(cond("billing_country", "equal", "enum_variant_array", []string{"DE", "Austria"}))),
		ruleOf("gold", adyen, when(cond("metadata", "equal", "metadata_variant", map[string]any{"key": "tier", "value": "gold"}))),
		// A statement's nested statements refine it: a card, and then GBP
		// or 777.
		ruleOf("card gbp or 777", adyen, map[string]any{"condition": []any{cond("payment_method", "equal", "enum_variant", "card")},
			"nested": []any{when(cond("currency", "equal", "enum_variant", "GBP")),
				when(cond("amount", "equal", "number_array", []int{777}))}}),
		ruleOf("yen split", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "stripe_test"}, "split": 0},
			{"connector": map[string]any{"connector": "adyen", "merchant_connector_id": m.adyenID}, "split": 100}}},
			when(cond("currency", "equal", "enum_variant", "JPY"))),
		// not_equal holds for another value, not for a fact the payment
		// lacks.
		ruleOf("not a card", adyen, when(cond("payment_method", "not_equal", "enum_variant", "card"))),
	)
	id2 := m.configure(t, c, "advanced", algorithm)
	c.do("POST", "/routing/"+id2+"/activate", m.key, nil).must(t, 200)
	return m, id2
}

// advancedCase is a payment's facts and where the advanced configuration
// sends it.
type advancedCase struct {
	name      string
	members   map[string]any
	connector string
	rule      string
	params    map[string]any // the same facts as /routing/rule/evaluate parameters
}

func advancedCases() []advancedCase {
	billing := func(country string) map[string]any {
		b := maps.Clone(billingAddress)
		addr := maps.Clone(billingAddress["address"].(map[string]any))
		addr["country"] = country
		b["address"] = addr
		return b
	}
	typed := func(typ string, v any) map[string]any { return map[string]any{"type": typ, "value": v} }
	usd := func(amount int) map[string]any {
		return map[string]any{"amount": typed("number", amount), "currency": typed("enum_variant", "USD"),
			"payment_method": typed("enum_variant", "card"), "card_bin": typed("str_value", "424242")}
	}
	with := func(base map[string]any, k string, v any) map[string]any {
		out := maps.Clone(base)
		out[k] = v
		return out
	}
	return []advancedCase{
		{"the default selection", map[string]any{"amount": 10000}, "stripe_test", "", usd(10000)},
		{"amount over 50000", map[string]any{"amount": 60000}, "adyen", "big amounts", usd(60000)},
		{"a big euro payment: the first rule that holds", map[string]any{"amount": 60000, "currency": "EUR"}, "adyen", "big amounts",
			with(usd(60000), "currency", typed("enum_variant", "EUR"))},
		{"small euros before euros", map[string]any{"amount": 500, "currency": "EUR"}, "stripe_test", "small euros",
			with(usd(500), "currency", typed("str_value", "EUR"))},
		{"euros", map[string]any{"amount": 5000, "currency": "EUR"}, "adyen", "euros",
			with(usd(5000), "currency", typed("enum_variant", "EUR"))},
		{"a Mastercard", map[string]any{"payment_method_data": card("5555555555554444")}, "adyen", "mastercard",
			with(usd(10000), "card_bin", typed("str_value", "555555"))},
		{"a Dutch billing address", map[string]any{"billing": billing("NL")}, "adyen", "dutch or german",
			with(usd(10000), "billing_country", typed("enum_variant", "Netherlands"))},
		{"a German one", map[string]any{"billing": billing("DE")}, "adyen", "dutch or german",
			with(usd(10000), "billing_country", typed("enum_variant", "DE"))},
		{"a French one", map[string]any{"billing": billing("FR")}, "stripe_test", "",
			with(usd(10000), "billing_country", typed("enum_variant", "France"))},
		{"gold metadata", map[string]any{"metadata": map[string]any{"tier": "gold", "n": 1}}, "adyen", "gold",
			with(usd(10000), "metadata", typed("metadata_variant", map[string]any{"key": "tier", "value": "gold"}))},
		{"silver metadata", map[string]any{"metadata": map[string]any{"tier": "silver"}}, "stripe_test", "",
			with(usd(10000), "metadata", typed("metadata_variant", map[string]any{"key": "tier", "value": "silver"}))},
		{"a card in GBP (nested)", map[string]any{"currency": "GBP"}, "adyen", "card gbp or 777",
			with(usd(10000), "currency", typed("enum_variant", "GBP"))},
		{"a card of 777 (nested)", map[string]any{"amount": 777}, "adyen", "card gbp or 777", usd(777)},
		{"a card of 778", map[string]any{"amount": 778}, "stripe_test", "", usd(778)},
		{"yen by a volume split", map[string]any{"currency": "JPY", "amount": 1000}, "adyen", "yen split",
			with(usd(1000), "currency", typed("enum_variant", "JPY"))},
	}
}

// attemptRouting is the GraphQL view of a payment's first attempt.
func attemptRouting(t *testing.T, c *client, key, paymentID string) map[string]any {
	t.Helper()
	g := c.do("POST", "/graphql", key, map[string]any{"query": `{ payment(id: "` + paymentID +
		`") { attempts { connector merchantConnectorID routingApproach routingAlgorithmID routingKind routingRule routingCandidates } } }`}).must(t, 200)
	atts, _ := g.obj()["data"].(map[string]any)["payment"].(map[string]any)["attempts"].([]any)
	if len(atts) != 1 {
		t.Fatalf("attempts: %s", g.Raw)
	}
	return atts[0].(map[string]any)
}

// TestRoutingAdvanced: each condition picks as configured, the first rule
// that holds wins, nested statements refine, a rule may split, and no
// rule holding leaves the default selection; the attempt records the
// configuration's kind and the rule, and GraphQL shows them with the
// candidates in order. /routing/rule/evaluate, asked first with the same
// facts, answers what the payment then does, and creates nothing.
func TestRoutingAdvanced(t *testing.T) {
	c := newClient(t)
	m, algoID := advancedMerchant(t, c, "merchant_adv")
	count := func() int {
		_, ids := listPage(t, c, m.key, "limit=100", nil)
		return len(ids)
	}
	for i, tc := range advancedCases() {
		ev := c.do("POST", "/routing/rule/evaluate", m.key, map[string]any{"created_by": m.profileID,
			"parameters": tc.params, "fallback_output": []any{}}).must(t, 200).obj()
		if n := count(); n != i {
			t.Fatalf("%s: %d payments before the %dth, evaluating made some", tc.name, n, i+1)
		}
		body := payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card("4242424242424242")})
		maps.Copy(body, tc.members)
		r := c.do("POST", "/payments", m.key, body).must(t, 200)
		if r.str("status") != "succeeded" || r.str("connector") != tc.connector {
			t.Errorf("%s: %s, want %s", tc.name, r.Raw, tc.connector)
			continue
		}
		att := attemptRouting(t, c, m.key, r.str("payment_id"))
		want := map[string]any{"routingApproach": "rule_based_routing", "routingAlgorithmID": algoID, "routingKind": "advanced"}
		if tc.rule != "" {
			want["routingRule"] = tc.rule
		} else {
			want["routingRule"] = nil
		}
		for k, v := range want {
			if att[k] != v {
				t.Errorf("%s: %s = %v, want %v", tc.name, k, att[k], v)
			}
		}
		cands, _ := att["routingCandidates"].([]any)
		if len(cands) != 2 || cands[0] != att["merchantConnectorID"] || cands[0] == cands[1] {
			t.Errorf("%s: candidates %v, first %v", tc.name, cands, att["merchantConnectorID"])
		}
		evaluated, _ := ev["evaluated_output"].([]any)
		if len(evaluated) != 2 || evaluated[0].(map[string]any)["merchant_connector_id"] != cands[0] ||
			evaluated[1].(map[string]any)["merchant_connector_id"] != cands[1] || ev["routing_rule"] != att["routingRule"] ||
			ev["routing_algorithm_id"] != algoID || ev["routing_kind"] != "advanced" || ev["status"] != "success" {
			t.Errorf("%s: evaluated %v, the payment went %v by %v", tc.name, ev, cands, att["routingRule"])
		}
	}
}

// TestRoutingEvaluate: /routing/evaluate answers in Hyperswitch's
// decide-gateway shape what the advanced configuration chooses (the card
// ISIN's network, metadata as JSON text), only among the eligible gateways
// named; /routing/rule/evaluate shows a split rule's shares and refuses a
// parameter that does not fit; neither creates a payment.
func TestRoutingEvaluate(t *testing.T) {
	c := newClient(t)
	m, algoID := advancedMerchant(t, c, "merchant_eval")
	count := func() int {
		_, ids := listPage(t, c, m.key, "limit=100", nil)
		return len(ids)
	}
	ids := map[string]string{"stripe_test": m.stripeID, "adyen": m.adyenID}
	m.connectorOf(t, c) // one payment, so that the count is seen to count
	before := count()
	// The yen rule's split shows its shares.
	yen := c.do("POST", "/routing/rule/evaluate", m.key, map[string]any{"created_by": m.profileID, "fallback_output": []any{},
		"parameters": map[string]any{"currency": map[string]any{"type": "enum_variant", "value": "JPY"}}}).must(t, 200)
	if yen.str("output", "type") != "volume_split" || len(yen.obj()["output"].(map[string]any)["splits"].([]any)) != 2 {
		t.Errorf("a split rule's output: %s", yen.Raw)
	}
	// not_equal: a wallet is not a card; a payment whose method is not
	// known is not "not a card" either.
	for _, tc := range []struct {
		params    map[string]any
		connector string
		rule      any
	}{
		{map[string]any{"payment_method": map[string]any{"type": "enum_variant", "value": "wallet"}}, "adyen", "not a card"},
		{map[string]any{"amount": map[string]any{"type": "number", "value": 5}}, "stripe_test", nil},
	} {
		r := c.do("POST", "/routing/rule/evaluate", m.key, map[string]any{"created_by": m.profileID, "fallback_output": []any{},
			"parameters": tc.params}).must(t, 200)
		if ev := r.obj()["evaluated_output"].([]any); ev[0].(map[string]any)["connector"] != tc.connector || r.obj()["routing_rule"] != tc.rule {
			t.Errorf("%v: %s, want %s by %v", tc.params, r.Raw, tc.connector, tc.rule)
		}
	}
	// The decide-gateway shape: a Mastercard ISIN, a big amount, gold
	// metadata, and the default.
	for _, tc := range []struct {
		info      map[string]any
		connector string
		rule      any
	}{
		{map[string]any{"amount": 100, "currency": "USD", "paymentMethod": "card", "cardIsin": "555555"}, "adyen", "mastercard"},
		{map[string]any{"amount": 60000, "currency": "USD", "paymentMethod": "card", "cardIsin": "424242"}, "adyen", "big amounts"},
		{map[string]any{"amount": 100, "currency": "USD", "paymentMethod": "card", "metadata": `{"tier":"gold"}`}, "adyen", "gold"},
		{map[string]any{"amount": 100, "currency": "USD", "paymentMethod": "card", "cardIsin": "424242", "paymentId": "p",
			"paymentType": "ORDER_PAYMENT", "paymentMethodType": "credit", "metadata": "none"}, "stripe_test", nil},
	} {
		r := c.do("POST", "/routing/evaluate", m.key, map[string]any{"merchantId": m.profileID, "paymentInfo": tc.info}).must(t, 200)
		if r.str("decided_gateway") != tc.connector+":"+ids[tc.connector] || r.obj()["routing_rule"] != tc.rule ||
			r.obj()["priority_logic_tag"] != tc.rule || r.str("routing_algorithm_id") != algoID {
			t.Errorf("evaluate %v: %s, want %s by %v", tc.info, r.Raw, tc.connector, tc.rule)
		}
	}
	// Only the eligible gateways named are answered.
	r := c.do("POST", "/routing/evaluate", m.key, map[string]any{"merchantId": m.profileID, "eligibleGatewayList": []string{"adyen"},
		"paymentInfo": map[string]any{"amount": 100, "currency": "USD", "paymentMethod": "card"}}).must(t, 200)
	if r.str("decided_gateway") != "adyen:"+m.adyenID {
		t.Errorf("eligible adyen only: %s", r.Raw)
	}
	if got := count(); got != before {
		t.Fatalf("evaluating made %d payments", got-before)
	}
	// A parameter that does not fit its key is refused, naming it.
	bad := c.do("POST", "/routing/rule/evaluate", m.key, map[string]any{"created_by": m.profileID, "fallback_output": []any{},
		"parameters": map[string]any{"currency": map[string]any{"type": "enum_variant", "value": "EURO"}}})
	if bad.Status != 400 || bad.errCode() != "IR_07" || !strings.Contains(bad.str("error", "message"), "parameters.currency") {
		t.Errorf("a currency that is not one: %d %s", bad.Status, bad.Raw)
	}
	// GraphQL's routingEvaluate is the same decision.
	for _, tc := range []struct {
		payment, connector string
		rule               any
	}{
		{`{amount: 100, currency: "USD", paymentMethod: "card", billingCountry: "Netherlands"}`, "adyen", "dutch or german"},
		{`{amount: 100, currency: "USD", paymentMethod: "card", cardBin: "555555"}`, "adyen", "mastercard"},
		{`{amount: 100, currency: "USD", paymentMethod: "card", metadata: {tier: "gold"}}`, "adyen", "gold"},
		{`{amount: 100, currency: "USD", paymentMethod: "card", billingCountry: "FR"}`, "stripe_test", nil},
	} {
		g := c.do("POST", "/graphql", m.key, map[string]any{"query": `{ routingEvaluate(profileID: "` + m.profileID + `", payment: ` +
			tc.payment + `) { routingApproach routingAlgorithmID routingKind routingRule candidates { id connectorName } } }`}).must(t, 200)
		ev, _ := g.obj()["data"].(map[string]any)["routingEvaluate"].(map[string]any)
		cands, _ := ev["candidates"].([]any)
		if len(cands) != 2 || cands[0].(map[string]any)["id"] != ids[tc.connector] || ev["routingRule"] != tc.rule ||
			ev["routingKind"] != "advanced" || ev["routingAlgorithmID"] != algoID {
			t.Errorf("routingEvaluate %s: %s, want %s by %v", tc.payment, g.Raw, tc.connector, tc.rule)
		}
	}
	g := c.do("POST", "/graphql", m.key, map[string]any{"query": `{ routingEvaluate(payment: {amount: 1, currency: "USD", billingCountry: "Atlantis"}) { routingApproach } }`})
	if !strings.Contains(string(g.Raw), "payment.billingCountry") {
		t.Errorf("routingEvaluate with a country that is not one: %s", g.Raw)
	}
	// Another merchant's profile is not found.
	other := newRoutedMerchant(t, c, "merchant_eval_other")
	if r := c.do("POST", "/routing/evaluate", m.key, map[string]any{"merchantId": other.profileID,
		"paymentInfo": map[string]any{"amount": 1, "currency": "USD"}}); r.Status != 404 {
		t.Errorf("another merchant's profile: %d %s", r.Status, r.Raw)
	}
}
