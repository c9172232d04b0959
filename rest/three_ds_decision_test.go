package rest_test

import "testing"

// TestThreeDSDecisionExecute: a rule the merchant has answers the default
// decision, no_three_ds (no Switchyard rule yields a 3DS decision); an
// unknown routing id is 404 and a missing member IR_04.
func TestThreeDSDecisionExecute(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	mca := c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors", key, minimalConnector()).must(t, 200)
	rule := c.do("POST", "/routing", key, map[string]any{"name": "3ds", "profile_id": c.srv.Demo.ProfileID,
		"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": mca.str("connector_name"),
			"merchant_connector_id": mca.str("merchant_connector_id")}}}).must(t, 200)
	facts := map[string]any{"payment": map[string]any{"amount": 1000, "currency": "USD"},
		"payment_method": map[string]any{"card_network": "Visa", "card_discovery": "manual"},
		"issuer":         map[string]any{"name": "SBI", "country": "India"}, "acquirer": map[string]any{"country": "India", "fraud_rate": 0.1},
		"customer_device": map[string]any{"platform": "web", "device_type": "desktop", "display_size": "size1920x1080"}}
	facts["routing_id"] = rule.str("id")
	if r := c.do("POST", "/three_ds_decision/execute", key, facts).must(t, 200); r.str("decision") != "no_three_ds" {
		t.Fatalf("execute: %s", r.Raw)
	}
	facts["routing_id"] = "routing_unknown"
	if r := c.do("POST", "/three_ds_decision/execute", key, facts); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("unknown routing id: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/three_ds_decision/execute", key, map[string]any{"routing_id": "x"}); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("no payment: %d %s", r.Status, r.Raw)
	}
}
