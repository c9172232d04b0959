package rest_test

import "testing"

// TestPayoutRetriesOnTheNextProcessor: a creation the first payout
// processor fails without being reached (a sandbox outage) is tried on the
// profile's next one when the profile retries automatically; without
// retries it fails. The request's routing (single, priority) or connector
// list orders the processors.
func TestPayoutRetriesOnTheNextProcessor(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	payoutProcessorWith(t, c, "adyen", map[string]any{"sandbox": map[string]any{"outage": true}})
	wise := payoutProcessor(t, c, "wise")

	failed := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	if failed.str("status") != "failed" || failed.str("error_code") != "service_unavailable" || failed.str("connector") != "adyen" {
		t.Fatalf("without retries: %s", failed.Raw)
	}
	c.do("POST", "/account/"+d.MerchantID+"/business_profile/"+d.ProfileID, c.admin(),
		map[string]any{"is_auto_retries_enabled": true}).must(t, 200)
	ok := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	if ok.str("status") != "success" || ok.str("connector") != "wise" {
		t.Fatalf("with retries: %s", ok.Raw)
	}
	got := c.do("GET", "/payouts/"+ok.str("payout_id"), c.merchantKey(), nil).must(t, 200)
	atts := got.list("attempts")
	if len(atts) != 2 || atts[0]["connector"] != "adyen" || atts[0]["status"] != "failed" ||
		atts[0]["error_code"] != "service_unavailable" || atts[1]["connector"] != "wise" || atts[1]["status"] != "success" {
		t.Fatalf("attempts: %s", got.Raw)
	}
	named := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "connector": []string{"wise"}})
	if named.str("status") != "success" || named.str("connector") != "wise" {
		t.Fatalf("the named processor: %s", named.Raw)
	}
	routed := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true,
		"routing": map[string]any{"type": "priority", "data": []any{map[string]any{"connector": "wise", "merchant_connector_id": wise},
			map[string]any{"connector": "adyen"}}}})
	if routed.str("status") != "success" || routed.str("merchant_connector_id") != wise {
		t.Fatalf("the payout's own routing: %s", routed.Raw)
	}
	if r := c.do("POST", "/payouts/create", c.merchantKey(), payoutRequestOf(map[string]any{"confirm": true,
		"connector": []string{"stripe"}})).must(t, 400); r.errCode() != "IR_39" {
		t.Fatalf("a processor the profile lacks: %s", r.Raw)
	}
}
