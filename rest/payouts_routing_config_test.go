package rest_test

import (
	"testing"
)

// payoutConfig creates a payout routing configuration of the demo
// profile and answers its id.
func payoutConfig(t *testing.T, c *client, name string, algorithm map[string]any) string {
	t.Helper()
	r := c.do("POST", "/routing", c.merchantKey(), map[string]any{"name": name, "algorithm": algorithm,
		"profile_id": c.srv.Demo.ProfileID, "transaction_type": "payout"}).must(t, 200)
	if r.str("algorithm_for") != "payout" || r.str("kind") != algorithm["type"] {
		t.Fatalf("created: %s", r.Raw)
	}
	return r.str("id")
}

// payoutConnector is the processor a confirmed, auto-fulfilled payout of
// members went to.
func payoutConnector(t *testing.T, c *client, members map[string]any) string {
	t.Helper()
	members["confirm"], members["auto_fulfill"] = true, true
	r := createPayout(t, c, members)
	if r.str("status") != "success" {
		t.Fatalf("payout: %s", r.Raw)
	}
	return r.str("connector")
}

// routingIDs are the ids GET path lists.
func routingIDs(t *testing.T, c *client, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, rec := range c.do("GET", path, c.merchantKey(), nil).must(t, 200).Body.([]any) {
		r := rec.(map[string]any)
		out[r["id"].(string)] = r["algorithm_for"].(string)
	}
	return out
}

// TestPayoutRoutingConfigurations: a configuration with transaction_type
// payout chooses among the profile's payout processors, is listed with its
// algorithm_for (and by it), and once activated orders payouts (priority,
// volume split, advanced rules on the payout's facts) without touching
// the payment configuration; deactivated, payouts go to their fallback
// (the oldest processor) again.
func TestPayoutRoutingConfigurations(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	wise := payoutProcessor(t, c, "wise")
	if got := payoutConnector(t, c, map[string]any{}); got != "adyen" {
		t.Fatalf("no payout routing: %s, want the oldest processor", got)
	}
	pay := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200)
	paymentConfig := c.do("POST", "/routing", c.merchantKey(), map[string]any{"name": "payments", "profile_id": c.srv.Demo.ProfileID,
		"algorithm": priorityOf(pay.str("connector"))}).must(t, 200).str("id")
	c.do("POST", "/routing/"+paymentConfig+"/activate", c.merchantKey(), nil).must(t, 200)

	if r := c.do("POST", "/routing", c.merchantKey(), map[string]any{"name": "x", "transaction_type": "payout",
		"algorithm": priorityOf(pay.str("connector"))}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("a payment processor in a payout configuration: %d %s", r.Status, r.Raw)
	}
	priority := payoutConfig(t, c, "wise first", map[string]any{"type": "priority",
		"data": []any{map[string]any{"connector": "wise", "merchant_connector_id": wise}, map[string]any{"connector": "adyen"}}})
	all, payouts, payments := routingIDs(t, c, "/routing"), routingIDs(t, c, "/routing?transaction_type=payout"),
		routingIDs(t, c, "/routing?transaction_type=payment")
	if all[priority] != "payout" || all[paymentConfig] != "payment" || len(payouts) != 1 || payouts[priority] != "payout" ||
		payments[priority] != "" || payments[paymentConfig] != "payment" {
		t.Fatalf("lists: all %v, payout %v, payment %v", all, payouts, payments)
	}
	if got := payoutConnector(t, c, map[string]any{}); got != "adyen" {
		t.Fatalf("created, not active: %s", got)
	}
	c.do("POST", "/routing/"+priority+"/activate", c.merchantKey(), nil).must(t, 200)
	if got := payoutConnector(t, c, map[string]any{}); got != "wise" {
		t.Fatalf("active priority: %s", got)
	}
	if r := c.do("POST", "/routing/"+priority+"/activate", c.merchantKey(), nil); r.Status != 400 {
		t.Fatalf("activated twice: %d %s", r.Status, r.Raw)
	}
	if active := routingIDs(t, c, "/routing/active"); len(active) != 2 || active[priority] != "payout" || active[paymentConfig] != "payment" {
		t.Fatalf("active: %v", active)
	}
	if got := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200); got.str("connector") != pay.str("connector") ||
		got.str("status") != "succeeded" {
		t.Fatalf("payment routing with a payout configuration active: %s", got.Raw)
	}

	split := payoutConfig(t, c, "all to wise", map[string]any{"type": "volume_split",
		"data": []any{map[string]any{"split": 100, "connector": map[string]any{"connector": "wise"}}}})
	c.do("POST", "/routing/"+split+"/activate", c.merchantKey(), nil).must(t, 200)
	if got := payoutConnector(t, c, map[string]any{}); got != "wise" {
		t.Fatalf("active volume split: %s", got)
	}

	advanced := payoutConfig(t, c, "by facts", program(priorityOf("wise"),
		ruleOf("euro bank payouts", priorityOf("adyen"), when(cond("currency", "equal", "enum_variant", "EUR"),
			cond("payment_method", "equal", "enum_variant", "bank_transfer"))),
		ruleOf("big", priorityOf("adyen"), when(cond("amount", "greater_than", "number", 5000)))))
	c.do("POST", "/routing/"+advanced+"/activate", c.merchantKey(), nil).must(t, 200)
	sepa := map[string]any{"bank": map[string]any{"iban": "NL46TEST0136169112", "bic": "ABNANL2A", "bank_name": "Test Bank"}}
	for _, tc := range []struct {
		name    string
		members map[string]any
		want    string
	}{
		{"the default selection", map[string]any{}, "wise"},
		{"a euro bank payout", map[string]any{"currency": "EUR", "payout_type": "bank", "payout_method_data": sepa}, "adyen"},
		{"a euro card payout", map[string]any{"currency": "EUR"}, "wise"},
		{"a big payout", map[string]any{"amount": 6000}, "adyen"},
	} {
		if got := payoutConnector(t, c, tc.members); got != tc.want {
			t.Errorf("advanced, %s: %s, want %s", tc.name, got, tc.want)
		}
	}

	if r := c.do("POST", "/routing/deactivate", c.merchantKey(), map[string]any{"transaction_type": "payout"}).must(t, 200); r.str("id") != advanced {
		t.Fatalf("deactivated: %s", r.Raw)
	}
	if got := payoutConnector(t, c, map[string]any{}); got != "adyen" {
		t.Fatalf("deactivated: %s, want the oldest processor", got)
	}
	if active := routingIDs(t, c, "/routing/active"); len(active) != 1 || active[paymentConfig] != "payment" {
		t.Fatalf("active after the payout one's deactivation: %v", active)
	}
	// The dashboard's deactivateRouting names the transaction type too.
	c.do("POST", "/routing/"+advanced+"/activate", c.merchantKey(), nil).must(t, 200)
	deactivate := `mutation($t: String) { deactivateRouting(transactionType: $t) { routingAlgorithm { id active } } }`
	de := c.gqlData(t, c.merchantKey(), deactivate, map[string]any{"t": "payout"})["deactivateRouting"].(map[string]any)
	if r := de["routingAlgorithm"].(map[string]any); r["id"] != advanced || r["active"] != false {
		t.Fatalf("deactivated in GraphQL: %v", de)
	}
	if active := routingIDs(t, c, "/routing/active"); len(active) != 1 || active[paymentConfig] != "payment" {
		t.Fatalf("active after GraphQL's payout deactivation: %v", active)
	}
}

// TestPayoutFulfilmentRetries: a fulfilment the first processor declines
// (its payout balance is spent) fails the payout without a GSM rule for
// payout_flow; with one that says retry, the payout is created and
// fulfilled at the next processor, and the first is not asked again.
func TestPayoutFulfilmentRetries(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	payoutProcessor(t, c, "adyen")
	payoutProcessor(t, c, "wise")
	c.do("POST", "/account/"+d.MerchantID+"/business_profile/"+d.ProfileID, c.admin(),
		map[string]any{"is_auto_retries_enabled": true}).must(t, 200)
	drain := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "amount": 10_000_000, "connector": []string{"adyen"}})
	if drain.str("status") != "success" {
		t.Fatalf("spending adyen's balance: %s", drain.Raw)
	}
	failed := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	if failed.str("status") != "failed" || failed.str("error_code") != "insufficient_balance" || failed.str("connector") != "adyen" {
		t.Fatalf("without a rule: %s", failed.Raw)
	}
	got := c.do("GET", "/payouts/"+failed.str("payout_id"), c.merchantKey(), nil).must(t, 200)
	if atts := got.list("attempts"); len(atts) != 1 {
		t.Fatalf("without a rule, attempts: %s", got.Raw)
	}
	c.do("POST", "/gsm", c.merchantKey(), map[string]any{"connector": "adyen", "flow": "payout_flow", "sub_flow": "sub_flow",
		"code": "insufficient_balance", "message": failed.str("error_message"), "status": "failure", "decision": "retry",
		"step_up_possible": false, "clear_pan_possible": false}).must(t, 200)
	ok := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	if ok.str("status") != "success" || ok.str("connector") != "wise" {
		t.Fatalf("with a rule: %s", ok.Raw)
	}
	got = c.do("GET", "/payouts/"+ok.str("payout_id"), c.merchantKey(), nil).must(t, 200)
	atts := got.list("attempts")
	if len(atts) != 2 || atts[0]["connector"] != "adyen" || atts[0]["status"] != "failed" ||
		atts[0]["error_code"] != "insufficient_balance" || atts[1]["connector"] != "wise" || atts[1]["status"] != "success" {
		t.Fatalf("with a rule, attempts: %s", got.Raw)
	}
	manual := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": false})
	if manual.str("status") != "requires_fulfillment" || manual.str("connector") != "adyen" {
		t.Fatalf("created for a later fulfil: %s", manual.Raw)
	}
	fulfilled := c.do("POST", "/payouts/"+manual.str("payout_id")+"/fulfill", c.merchantKey(), map[string]any{}).must(t, 200)
	if fulfilled.str("status") != "failed" || fulfilled.str("connector") != "adyen" {
		t.Fatalf("a fulfil after its confirm stays where it was created: %s", fulfilled.Raw)
	}
}
