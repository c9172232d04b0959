package rest_test

import "testing"

// TestSavedPayoutMethod: a payout for a customer saves its recipient
// (payout_method_id, no number kept); a later payout with that
// payout_token pays the same recipient through the processor that issued
// the token; another customer's or an unknown token is IR_16.
func TestSavedPayoutMethod(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	key := c.merchantKey()
	c.do("POST", "/customers", key, map[string]any{"customer_id": "cus_payee_saved"}).must(t, 200)
	c.do("POST", "/customers", key, map[string]any{"customer_id": "cus_other"}).must(t, 200)
	first := createPayout(t, c, map[string]any{"customer_id": "cus_payee_saved", "confirm": true, "auto_fulfill": true,
		"payout_method_data": payoutCard("4000000000000259")})
	saved := first.str("payout_method_id")
	if first.str("status") != "pending" || saved == "" {
		t.Fatalf("first payout: %s", first.Raw)
	}
	again := createPayout(t, c, map[string]any{"customer_id": "cus_payee_saved", "confirm": true, "auto_fulfill": true,
		"payout_method_data": nil, "payout_type": nil, "payout_token": saved})
	if again.str("status") != "pending" || again.str("payout_method_data", "card", "last4") != "0259" ||
		again.str("payout_method_id") != saved || again.str("merchant_connector_id") != first.str("merchant_connector_id") {
		t.Fatalf("paid to the saved method: %s", again.Raw)
	}
	byID := createPayout(t, c, map[string]any{"customer_id": "cus_payee_saved", "payout_method_data": nil, "payout_type": nil,
		"payout_method_id": saved})
	if byID.str("status") != "requires_confirmation" {
		t.Fatalf("payout_method_id: %s", byID.Raw)
	}
	for _, tt := range []struct{ customer, token string }{{"cus_other", saved}, {"cus_payee_saved", "pm_nope"}} {
		r := c.do("POST", "/payouts/create", key, payoutRequestOf(map[string]any{"customer_id": tt.customer,
			"payout_method_data": nil, "payout_type": nil, "payout_token": tt.token})).must(t, 400)
		if r.errCode() != "IR_16" {
			t.Fatalf("token %s of %s: %s", tt.token, tt.customer, r.Raw)
		}
	}
	for _, v := range dumpDatabase(t, c) {
		if containsPAN(string(v.value), "4000000000000259") {
			t.Fatalf("%s.%s holds the card number", v.table, v.column)
		}
	}
}
