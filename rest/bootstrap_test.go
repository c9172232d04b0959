package rest_test

import "testing"

// TestMerchantBootstrapOverREST starts from nothing but the admin key, as a
// Hyperswitch client does: account → API key → connector → list → update →
// delete, then the merchant itself, after which its key no longer works.
func TestMerchantBootstrapOverREST(t *testing.T) {
	c := newClient(t)
	acct := c.do("POST", "/accounts", c.admin(), map[string]any{
		"merchant_id": "merchant_fresh", "merchant_name": "Fresh Ltd",
		"return_url": "https://fresh.example/return",
		"webhook_details": map[string]any{"webhook_url": "https://fresh.example/hooks",
			"payment_statuses_enabled": []string{"succeeded"}, "refund_statuses_enabled": []string{"succeeded"}},
	}).must(t, 200)
	if acct.str("publishable_key") == "" || acct.str("default_profile") == "" {
		t.Fatalf("account: %s", acct.Raw)
	}
	key := c.do("POST", "/api_keys/merchant_fresh", c.admin(), map[string]any{"name": "server", "expiration": "never"}).must(t, 200).str("api_key")

	mca := c.do("POST", "/account/merchant_fresh/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "BodyKey", "api_key": "adyen_test_key_123", "key1": "merchant_acct_1"},
	}).must(t, 200)
	if mca.str("profile_id") != acct.str("default_profile") || mca.str("connector_label") != "default_adyen" || mca.str("status") != "active" {
		t.Fatalf("connector defaults: %s", mca.Raw)
	}
	if got := mca.str("connector_account_details", "api_key"); got != "ad**************23" {
		t.Fatalf("credentials not masked: %q", got)
	}
	id := mca.str("merchant_connector_id")

	list := c.do("GET", "/account/merchant_fresh/connectors", key, nil).must(t, 200)
	if n := len(list.Body.([]any)); n != 1 {
		t.Fatalf("list has %d connectors", n)
	}
	upd := c.do("POST", "/account/merchant_fresh/connectors/"+id, key, map[string]any{
		"connector_type": "payment_processor", "disabled": true,
	}).must(t, 200)
	if upd.obj()["disabled"] != true {
		t.Fatalf("update: %s", upd.Raw)
	}
	del := c.do("DELETE", "/account/merchant_fresh/connectors/"+id, c.admin(), nil).must(t, 200)
	if del.obj()["deleted"] != true {
		t.Fatalf("delete: %s", del.Raw)
	}
	if r := c.do("GET", "/account/merchant_fresh/connectors/"+id, key, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("deleted connector: %d %s", r.Status, r.Raw)
	}

	c.do("DELETE", "/accounts/merchant_fresh", c.admin(), nil).must(t, 200)
	if r := c.do("GET", "/account/merchant_fresh/connectors", key, nil); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("key of a deleted merchant: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/accounts/merchant_fresh", c.admin(), nil); r.Status != 404 {
		t.Fatalf("deleted merchant: %d %s", r.Status, r.Raw)
	}
}
