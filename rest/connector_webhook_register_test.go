package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestConnectorWebhookRegister: registering a connector account's webhooks
// marks its metadata (metadata.sandbox.webhooks, other metadata kept),
// answers Success with the URL the sandbox sends to, leaves payments
// through the account working, and refuses a bad event type; an unknown or
// another merchant's account or connector account is 404 HE_02.
func TestConnectorWebhookRegister(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	key := d.SecretKey
	mcaPath := "/account/" + d.MerchantID + "/connectors/" + d.ConnectorAccount
	c.do("POST", mcaPath, key, map[string]any{"connector_type": "payment_processor",
		"metadata": map[string]any{"note": "kept", "sandbox": map[string]any{"outage": false}}}).must(t, 200)
	path := "/account/" + d.MerchantID + "/webhooks/" + d.ConnectorAccount

	for _, tc := range []struct {
		name      string
		body      map[string]any
		eventType string
	}{
		{"standard", map[string]any{"event_type": "all_events"}, `"all_events"`},
		{"no event type", map[string]any{}, `"all_events"`},
		{"specific event", map[string]any{"event_type": map[string]any{"specific_event": "payment_succeeded"}}, `{"specific_event":"payment_succeeded"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", path, key, tc.body).must(t, 200)
			if r.str("webhook_registration_status") != "Success" || r.obj()["error_code"] != nil {
				t.Fatalf("%s", r.Raw)
			}
			if want := "/webhooks/" + d.MerchantID + "/" + d.ConnectorAccount; !strings.HasSuffix(r.str("connector_webhook_id"), want) ||
				!strings.HasPrefix(r.str("connector_webhook_id"), "http") {
				t.Errorf("connector_webhook_id = %q, want a URL ending in %s", r.str("connector_webhook_id"), want)
			}
			if got, _ := json.Marshal(r.obj()["event_type"]); string(got) != tc.eventType {
				t.Errorf("event_type = %s, want %s", got, tc.eventType)
			}
		})
	}
	md := c.do("GET", mcaPath, key, nil).must(t, 200).obj()["metadata"].(map[string]any)
	if sb := md["sandbox"].(map[string]any); sb["webhooks"] != true || sb["outage"] != false || md["note"] != "kept" {
		t.Fatalf("metadata after registering: %v", md)
	}
	paidPayment(t, c, d.MerchantID, nil, 1000, "USD", "4242424242424242")

	for _, tc := range []struct {
		name string
		body any
	}{
		{"unknown event_type", map[string]any{"event_type": "standard"}},
		{"unknown specific_event", map[string]any{"event_type": map[string]any{"specific_event": "payment_teleported"}}},
		{"unknown member", map[string]any{"events": "all_events"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if r := c.do("POST", path, key, tc.body); r.Status != 400 {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}

	b, bKey, _ := otherMerchant(t, c, "merchant_webhook_register_b")
	bMCA := c.do("POST", "/account/"+b+"/connectors", bKey, minimalConnector()).must(t, 200).str("merchant_connector_id")
	for _, tc := range []struct{ name, path, key, message string }{
		{"unknown connector account", "/account/" + d.MerchantID + "/webhooks/mca_unknown", key, "Merchant connector account does not exist in our records"},
		{"another merchant's connector account", "/account/" + d.MerchantID + "/webhooks/" + bMCA, key, "Merchant connector account does not exist in our records"},
		{"another merchant's account", "/account/" + b + "/webhooks/" + bMCA, key, "Merchant account does not exist in our records"},
		{"unknown account, admin", "/account/merchant_unknown/webhooks/" + d.ConnectorAccount, c.admin(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.key, map[string]any{"event_type": "all_events"})
			if r.Status != 404 || r.errCode() != "HE_02" || (tc.message != "" && r.str("error", "message") != tc.message) {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
	if md := c.do("GET", "/account/"+b+"/connectors/"+bMCA, bKey, nil).must(t, 200).obj()["metadata"]; md != nil {
		if sb, _ := md.(map[string]any)["sandbox"].(map[string]any); sb != nil && sb["webhooks"] != nil {
			t.Fatalf("another merchant's account was registered: %v", md)
		}
	}
}
