package rest_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"switchyard/ent/apikey"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/ent/profile"
	"switchyard/internal/tenancy"
)

// merchantBody is a full MerchantAccountCreate, including members of
// Hyperswitch's that Switchyard accepts and ignores.
func merchantBody(id string) map[string]any {
	return map[string]any{
		"merchant_id":   id,
		"merchant_name": "NewAge Retailer",
		"merchant_details": map[string]any{
			"primary_contact_person": "Ada",
			"primary_email":          "ada@example.com",
			"website":                "https://example.com",
			"address":                map[string]any{"city": "Lisbon", "country": "PT", "line1": "Rua 1"},
		},
		"return_url": "https://example.com/success",
		"webhook_details": map[string]any{
			"webhook_url":              "https://hooks.example.com/switchyard",
			"webhook_version":          "1.0.2",
			"payment_created_enabled":  true,
			"payment_statuses_enabled": []string{"succeeded", "failed"},
			"refund_statuses_enabled":  []string{"succeeded"},
		},
		"payment_response_hash_key":           "hk_0123456789abcdef0123456789abcdef",
		"redirect_to_merchant_with_http_post": true,
		"metadata":                            map[string]any{"tier": "gold", "n": 3},
		"primary_business_details":            []any{map[string]any{"country": "US", "business": "food"}},
		"locker_id":                           "locker_abc123",
		"merchant_account_type":               "standard",
		// Hyperswitch members Switchyard does not implement: accepted, ignored.
		"sub_merchants_enabled": false,
		"parent_merchant_id":    nil,
		"frm_routing_algorithm": map[string]any{"type": "single"},
		"product_type":          "orchestration",
	}
}

// TestMerchantLifecycle: create a merchant → retrieve → update → list →
// create an API key → use it on profiles → delete a profile → delete the
// merchant, whose key is then refused at once.
func TestMerchantLifecycle(t *testing.T) {
	c := newClient(t)
	admin := c.admin()

	org := c.do("POST", "/organization", admin, map[string]any{"organization_name": "Life"}).must(t, 200).str("organization_id")
	first := merchantBody("merchant_life")
	first["organization_id"] = org
	created := c.do("POST", "/accounts", admin, first).must(t, 200)
	golden(t, "merchant_account_create", created.Raw)
	m := created.obj()
	if !strings.HasPrefix(created.str("publishable_key"), "pk_snd_") ||
		!strings.HasPrefix(created.str("default_profile"), "pro_") ||
		created.str("payment_response_hash_key") != "hk_0123456789abcdef0123456789abcdef" ||
		created.str("recon_status") != "not_requested" {
		t.Fatalf("create: %s", created.Raw)
	}
	if pbd, ok := m["primary_business_details"].([]any); !ok || len(pbd) != 1 {
		t.Fatalf("primary_business_details: %s", created.Raw)
	}
	defaultProfile := created.str("default_profile")

	got := c.do("GET", "/accounts/merchant_life", admin, nil).must(t, 200)
	golden(t, "merchant_account_retrieve", got.Raw)

	// The default profile inherited the merchant's settings.
	dp := c.do("GET", "/account/merchant_life/business_profile/"+defaultProfile, admin, nil).must(t, 200)
	if dp.str("profile_name") != "default" || dp.str("return_url") != "https://example.com/success" ||
		dp.str("payment_response_hash_key") != "hk_0123456789abcdef0123456789abcdef" ||
		dp.str("webhook_details", "webhook_url") != "https://hooks.example.com/switchyard" ||
		dp.obj()["redirect_to_merchant_with_http_post"] != true {
		t.Fatalf("default profile: %s", dp.Raw)
	}

	upd := c.do("POST", "/accounts/merchant_life", admin, map[string]any{
		"merchant_id":               "merchant_life",
		"merchant_name":             "Renamed",
		"return_url":                "https://example.com/back",
		"payment_response_hash_key": "hk_rotated",
		"metadata":                  map[string]any{"tier": "silver"},
		"sub_merchants_enabled":     false,
	}).must(t, 200)
	if upd.str("merchant_name") != "Renamed" || upd.str("return_url") != "https://example.com/back" ||
		upd.str("payment_response_hash_key") != "hk_rotated" || upd.str("metadata", "tier") != "silver" ||
		upd.str("merchant_details", "primary_contact_person") != "Ada" {
		t.Fatalf("update: %s", upd.Raw)
	}
	// Hyperswitch cascades these members to the merchant's profiles.
	dp = c.do("GET", "/account/merchant_life/business_profile/"+defaultProfile, admin, nil).must(t, 200)
	if dp.str("return_url") != "https://example.com/back" || dp.str("payment_response_hash_key") != "hk_rotated" {
		t.Fatalf("cascade: %s", dp.Raw)
	}

	second := merchantBody("merchant_life_2")
	second["organization_id"] = org
	c.do("POST", "/accounts", admin, second).must(t, 200)
	list := c.do("GET", "/accounts/list?organization_id="+org, admin, nil).must(t, 200)
	golden(t, "merchant_account_list", list.Raw)
	items := list.Body.([]any)
	if len(items) != 2 || items[0].(map[string]any)["merchant_id"] != "merchant_life_2" {
		t.Fatalf("list is not newest first: %s", list.Raw)
	}
	if all := c.do("GET", "/accounts/list", admin, nil).must(t, 200); len(all.Body.([]any)) != 3 { // + the demo merchant
		t.Fatalf("list all: %s", all.Raw)
	}
	if one := c.do("GET", "/accounts/list?limit=1", admin, nil).must(t, 200); len(one.Body.([]any)) != 1 {
		t.Fatalf("limit=1: %s", one.Raw)
	}

	key := c.do("POST", "/api_keys/merchant_life", admin, map[string]any{"name": "backend", "expiration": "never"}).
		must(t, 200).str("api_key")

	prof := c.do("POST", "/account/merchant_life/business_profile", key, map[string]any{"profile_name": "online"}).must(t, 200)
	if prof.str("merchant_id") != "merchant_life" || len(prof.str("payment_response_hash_key")) != 64 {
		t.Fatalf("profile create: %s", prof.Raw)
	}
	pid := prof.str("profile_id")
	profiles := c.do("GET", "/account/merchant_life/business_profile", key, nil).must(t, 200)
	if n := len(profiles.Body.([]any)); n != 2 {
		t.Fatalf("profiles: %s", profiles.Raw)
	}
	renamed := c.do("POST", "/account/merchant_life/business_profile/"+pid, key,
		map[string]any{"profile_name": "web", "session_expiry": 60}).must(t, 200)
	if renamed.str("profile_name") != "web" || renamed.obj()["session_expiry"] != float64(60) {
		t.Fatalf("profile update: %s", renamed.Raw)
	}
	// Profile delete takes the admin key.
	if r := c.do("DELETE", "/account/merchant_life/business_profile/"+pid, key, nil); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("merchant key deleting a profile: %d %s", r.Status, r.Raw)
	}
	c.do("DELETE", "/account/merchant_life/business_profile/"+pid, admin, nil).must(t, 200)
	if r := c.do("GET", "/account/merchant_life/business_profile/"+pid, key, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("deleted profile: %d %s", r.Status, r.Raw)
	}

	del := c.do("DELETE", "/accounts/merchant_life", admin, nil).must(t, 200)
	golden(t, "merchant_account_delete", del.Raw)
	if r := c.do("GET", "/account/merchant_life/business_profile", key, nil); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("key of a deleted merchant: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/accounts/merchant_life", admin, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("deleted merchant: %d %s", r.Status, r.Raw)
	}
	if r := c.do("DELETE", "/accounts/merchant_life", admin, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("delete twice: %d %s", r.Status, r.Raw)
	}
	// The id is free again, and the new merchant inherits nothing.
	again := c.do("POST", "/accounts", admin, map[string]any{"merchant_id": "merchant_life"}).must(t, 200)
	if again.str("default_profile") == defaultProfile {
		t.Fatal("re-created merchant kept the old default profile")
	}
	if ps := c.do("GET", "/account/merchant_life/business_profile", admin, nil).must(t, 200); len(ps.Body.([]any)) != 1 {
		t.Fatalf("re-created merchant sees old profiles: %s", ps.Raw)
	}
}

// TestMerchantDefaults: a minimal create gets Hyperswitch's defaults, a
// generated organization id and a generated 64-character hash key; every
// required member is present and absent ones are null.
func TestMerchantDefaults(t *testing.T) {
	c := newClient(t)
	r := c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": "merchant_min"}).must(t, 200)
	golden(t, "merchant_account_create_minimal", r.Raw)
	m := r.obj()
	if org := r.str("organization_id"); !strings.HasPrefix(org, "org_") || len(org) < 20 {
		t.Fatalf("organization_id %q", org)
	}
	if len(r.str("payment_response_hash_key")) != 64 || m["enable_payment_response_hash"] != true ||
		m["redirect_to_merchant_with_http_post"] != false || m["merchant_account_type"] != "standard" {
		t.Fatalf("defaults: %s", r.Raw)
	}
	for _, k := range []string{"merchant_name", "return_url", "merchant_details", "webhook_details", "metadata", "locker_id"} {
		if v, ok := m[k]; !ok || v != nil {
			t.Errorf("%s = %v, present %v; want null", k, v, ok)
		}
	}
	if pbd, ok := m["primary_business_details"].([]any); !ok || len(pbd) != 0 {
		t.Errorf("primary_business_details = %v, want []", m["primary_business_details"])
	}
	// The organization id is stored: the list filters on it.
	list := c.do("GET", "/accounts/list?organization_id="+r.str("organization_id"), c.admin(), nil).must(t, 200)
	if items := list.Body.([]any); len(items) != 1 || items[0].(map[string]any)["merchant_id"] != "merchant_min" {
		t.Fatalf("list by generated org: %s", list.Raw)
	}
}

// TestAccountsListRoute: the literal /accounts/list is not captured by
// /accounts/{account_id}, and "list" cannot be a merchant id.
func TestAccountsListRoute(t *testing.T) {
	c := newClient(t)
	r := c.do("GET", "/accounts/list", c.admin(), nil).must(t, 200)
	if _, ok := r.Body.([]any); !ok {
		t.Fatalf("GET /accounts/list answered %s", r.Raw)
	}
	if r := c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": "list"}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("merchant id list: %d %s", r.Status, r.Raw)
	}
	// Other methods on /accounts/list reach the {account_id} routes.
	if r := c.do("DELETE", "/accounts/list", c.admin(), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("DELETE /accounts/list: %d %s", r.Status, r.Raw)
	}
}

// TestMerchantDeleteCascades: deleting the merchant deletes its profiles,
// API keys and connector accounts in the same transaction; its keys are
// refused at once.
func TestMerchantDeleteCascades(t *testing.T) {
	c := newClient(t)
	demo := c.srv.Demo
	if r := c.do("GET", "/account/"+demo.MerchantID+"/business_profile", demo.SecretKey, nil); r.Status != 200 {
		t.Fatalf("demo key: %d %s", r.Status, r.Raw)
	}
	c.do("DELETE", "/accounts/"+demo.MerchantID, c.admin(), nil).must(t, 200)
	if r := c.do("GET", "/account/"+demo.MerchantID+"/business_profile", demo.SecretKey, nil); r.Status != 401 || r.errCode() != "IR_01" {
		t.Fatalf("demo key after delete: %d %s", r.Status, r.Raw)
	}
	ctx := tenancy.System(context.Background())
	db := c.srv.Store.Client
	if n := db.Profile.Query().Where(profile.MerchantID(demo.MerchantID)).CountX(ctx); n != 0 {
		t.Errorf("%d profiles left", n)
	}
	if n := db.APIKey.Query().Where(apikey.MerchantID(demo.MerchantID)).CountX(ctx); n != 0 {
		t.Errorf("%d api keys left", n)
	}
	if n := db.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.MerchantID(demo.MerchantID)).CountX(ctx); n != 0 {
		t.Errorf("%d connector accounts left", n)
	}
}

// TestMerchantAccountValidation: every rule of create, update, and list,
// with its status, code and the field its message names.
func TestMerchantAccountValidation(t *testing.T) {
	c := newClient(t)
	admin, merchantKey := c.admin(), c.srv.Demo.SecretKey
	with := func(k string, v any) map[string]any {
		b := map[string]any{"merchant_id": "merchant_new"}
		if k != "" {
			b[k] = v
		}
		return b
	}
	wh := func(k string, v any) map[string]any {
		return with("webhook_details", map[string]any{k: v})
	}
	details := func(k string, v any) map[string]any {
		return with("merchant_details", map[string]any{k: v})
	}
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name   string
		key    string
		method string
		path   string
		body   any
		status int
		code   string
		field  string // the message names it
	}{
		{"no key", "", "POST", "/accounts", with("", nil), 401, "IR_01", ""},
		{"merchant key", merchantKey, "POST", "/accounts", with("", nil), 401, "IR_01", ""},
		{"missing merchant_id", admin, "POST", "/accounts", map[string]any{"merchant_name": "x"}, 400, "IR_04", "merchant_id"},
		{"empty merchant_id", admin, "POST", "/accounts", map[string]any{"merchant_id": ""}, 400, "IR_04", "merchant_id"},
		{"merchant_id too long", admin, "POST", "/accounts", map[string]any{"merchant_id": long(65)}, 400, "IR_07", "merchant_id"},
		{"merchant_id characters", admin, "POST", "/accounts", map[string]any{"merchant_id": "bad id!"}, 400, "IR_07", "merchant_id"},
		{"merchant_id wrong type", admin, "POST", "/accounts", map[string]any{"merchant_id": 7}, 400, "IR_06", "merchant_id"},
		{"duplicate merchant", admin, "POST", "/accounts", map[string]any{"merchant_id": c.srv.Demo.MerchantID}, 400, "HE_01", ""},
		{"empty merchant_name", admin, "POST", "/accounts", with("merchant_name", ""), 400, "IR_07", "merchant_name"},
		{"merchant_name too long", admin, "POST", "/accounts", with("merchant_name", long(256)), 400, "IR_07", "merchant_name"},
		{"relative return_url", admin, "POST", "/accounts", with("return_url", "/done"), 400, "IR_07", "return_url"},
		{"ftp return_url", admin, "POST", "/accounts", with("return_url", "ftp://example.com/x"), 400, "IR_07", "return_url"},
		{"return_url too long", admin, "POST", "/accounts", with("return_url", "https://example.com/"+long(240)), 400, "IR_07", "return_url"},
		{"relative webhook_url", admin, "POST", "/accounts", wh("webhook_url", "hooks/x"), 400, "IR_07", "webhook_details.webhook_url"},
		{"webhook_url scheme", admin, "POST", "/accounts", wh("webhook_url", "javascript:alert(1)"), 400, "IR_07", "webhook_details.webhook_url"},
		{"webhook_url too long", admin, "POST", "/accounts", wh("webhook_url", "https://example.com/"+long(2030)), 400, "IR_07", "webhook_details.webhook_url"},
		{"webhook_username too long", admin, "POST", "/accounts", wh("webhook_username", long(256)), 400, "IR_07", "webhook_details.webhook_username"},
		{"payment status", admin, "POST", "/accounts", wh("payment_statuses_enabled", []string{"succeeded", "paid"}), 400, "IR_07", "webhook_details.payment_statuses_enabled[1]"},
		{"refund status", admin, "POST", "/accounts", wh("refund_statuses_enabled", []string{"requires_capture"}), 400, "IR_07", "webhook_details.refund_statuses_enabled[0]"},
		{"payout status", admin, "POST", "/accounts", wh("payout_statuses_enabled", []string{"done"}), 400, "IR_07", "webhook_details.payout_statuses_enabled[0]"},
		{"statuses wrong type", admin, "POST", "/accounts", wh("payment_statuses_enabled", "succeeded"), 400, "IR_06", "webhook_details.payment_statuses_enabled"},
		{"webhook_details unknown field", admin, "POST", "/accounts", wh("secret", "x"), 400, "IR_06", "secret"},
		{"webhook_details internal field", admin, "POST", "/accounts", wh("allow_private_network_deliveries", true), 400, "IR_06", "allow_private_network_deliveries"},
		{"empty hash key", admin, "POST", "/accounts", with("payment_response_hash_key", ""), 400, "IR_07", "payment_response_hash_key"},
		{"hash key too long", admin, "POST", "/accounts", with("payment_response_hash_key", long(256)), 400, "IR_07", "payment_response_hash_key"},
		{"organization_id", admin, "POST", "/accounts", with("organization_id", "org 1"), 400, "IR_07", "organization_id"},
		{"locker_id", admin, "POST", "/accounts", with("locker_id", long(65)), 400, "IR_07", "locker_id"},
		{"merchant_details unknown field", admin, "POST", "/accounts", details("fax", "1"), 400, "IR_06", "fax"},
		{"merchant_details email", admin, "POST", "/accounts", details("primary_email", "not-an-email"), 400, "IR_07", "merchant_details.primary_email"},
		{"merchant_details website too long", admin, "POST", "/accounts", details("website", long(256)), 400, "IR_07", "merchant_details.website"},
		{"address country", admin, "POST", "/accounts", details("address", map[string]any{"country": "XX"}), 400, "IR_07", "merchant_details.address.country"},
		{"address city too long", admin, "POST", "/accounts", details("address", map[string]any{"city": long(51)}), 400, "IR_07", "merchant_details.address.city"},
		{"business country", admin, "POST", "/accounts", with("primary_business_details", []any{map[string]any{"country": "ZZ", "business": "x"}}), 400, "IR_07", "primary_business_details[0].country"},
		{"business missing", admin, "POST", "/accounts", with("primary_business_details", []any{map[string]any{"country": "US"}}), 400, "IR_04", "primary_business_details[0].business"},
		{"business repeated", admin, "POST", "/accounts", with("primary_business_details", []any{
			map[string]any{"country": "US", "business": "x"}, map[string]any{"country": "US", "business": "x"}}), 400, "IR_07", "primary_business_details[1]"},
		{"platform account", admin, "POST", "/accounts", with("merchant_account_type", "platform"), 400, "IR_07", "merchant_account_type"},
		{"account type", admin, "POST", "/accounts", with("merchant_account_type", "premium"), 400, "IR_07", "merchant_account_type"},
		{"metadata wrong type", admin, "POST", "/accounts", with("metadata", "x"), 400, "IR_06", "metadata"},
		{"unknown field", admin, "POST", "/accounts", with("merchant_label", "x"), 400, "IR_06", "merchant_label"},
		{"malformed json", admin, "POST", "/accounts", `{"merchant_id": "x",`, 400, "IR_06", ""},
		{"empty body", admin, "POST", "/accounts", "", 400, "IR_06", ""},
		{"body not an object", admin, "POST", "/accounts", `["merchant_id"]`, 400, "IR_06", ""},

		{"update missing merchant_id", admin, "POST", "/accounts/merchant_demo", map[string]any{"merchant_name": "x"}, 400, "IR_04", "merchant_id"},
		{"update other merchant_id", admin, "POST", "/accounts/merchant_demo", map[string]any{"merchant_id": "merchant_other"}, 400, "IR_07", "merchant_id"},
		{"update default_profile", admin, "POST", "/accounts/merchant_demo", map[string]any{"merchant_id": "merchant_demo", "default_profile": "pro_nope"}, 400, "IR_07", "default_profile"},
		{"update return_url", admin, "POST", "/accounts/merchant_demo", map[string]any{"merchant_id": "merchant_demo", "return_url": "nope"}, 400, "IR_07", "return_url"},
		{"update unknown field", admin, "POST", "/accounts/merchant_demo", map[string]any{"merchant_id": "merchant_demo", "organization_id": "org_x"}, 400, "IR_06", "organization_id"},
		{"update unknown merchant", admin, "POST", "/accounts/merchant_nope", map[string]any{"merchant_id": "merchant_nope"}, 404, "HE_02", ""},
		{"retrieve unknown merchant", admin, "GET", "/accounts/merchant_nope", nil, 404, "HE_02", ""},
		{"delete unknown merchant", admin, "DELETE", "/accounts/merchant_nope", nil, 404, "HE_02", ""},

		{"list limit 0", admin, "GET", "/accounts/list?limit=0", nil, 400, "IR_07", "limit"},
		{"list limit 101", admin, "GET", "/accounts/list?limit=101", nil, 400, "IR_07", "limit"},
		{"list limit text", admin, "GET", "/accounts/list?limit=ten", nil, 400, "IR_07", "limit"},
		{"list organization_id", admin, "GET", "/accounts/list?organization_id=a%20b", nil, 400, "IR_07", "organization_id"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.key, tc.body)
			msg := r.str("error", "message")
			if r.Status != tc.status || r.errCode() != tc.code || msg == "" {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if !strings.Contains(msg, tc.field) {
				t.Fatalf("message %q does not name %s", msg, tc.field)
			}
		})
	}
	// Nothing was created by the refused requests.
	if r := c.do("GET", "/accounts/merchant_new", admin, nil); r.Status != 404 {
		t.Fatalf("a refused create left a merchant: %s", r.Raw)
	}
}

// TestMerchantKeyOnAdminRoutes: a merchant's own key cannot use the admin
// routes, even on its own account: 401 IR_01.
func TestMerchantKeyOnAdminRoutes(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	routes := []struct{ method, path string }{
		{"POST", "/accounts"},
		{"GET", "/accounts/list"},
		{"GET", "/accounts/" + m},
		{"POST", "/accounts/" + m},
		{"DELETE", "/accounts/" + m},
		{"DELETE", "/account/" + m + "/business_profile/" + c.srv.Demo.ProfileID},
	}
	for _, rt := range routes {
		var body any
		if rt.method == "POST" {
			body = map[string]any{"merchant_id": m}
		}
		r := c.do(rt.method, rt.path, key, body)
		if r.Status != http.StatusUnauthorized || r.errCode() != "IR_01" {
			t.Errorf("%s %s: %d %s", rt.method, rt.path, r.Status, r.Raw)
		}
	}
	// And nothing changed.
	c.do("GET", "/accounts/"+m, c.admin(), nil).must(t, 200)
}

// TestMerchantDefaultProfileSwitch: default_profile moves the default, and
// the old default can then be deleted while the new one cannot.
func TestMerchantDefaultProfileSwitch(t *testing.T) {
	c := newClient(t)
	admin, m := c.admin(), c.srv.Demo.MerchantID
	old := c.srv.Demo.ProfileID
	pid := c.do("POST", "/account/"+m+"/business_profile", admin, map[string]any{}).must(t, 200).str("profile_id")
	upd := c.do("POST", "/accounts/"+m, admin, map[string]any{"merchant_id": m, "default_profile": pid}).must(t, 200)
	if upd.str("default_profile") != pid {
		t.Fatalf("default_profile: %s", upd.Raw)
	}
	if r := c.do("DELETE", "/account/"+m+"/business_profile/"+pid, admin, nil); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("delete new default: %d %s", r.Status, r.Raw)
	}
	c.do("DELETE", "/account/"+m+"/business_profile/"+old, admin, nil).must(t, 200)
}
