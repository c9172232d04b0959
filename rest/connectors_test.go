package rest_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"switchyard/internal/tenancy"
	"switchyard/payments/merchant"
)

// Secrets the connector tests send; none may reach the database in clear.
const (
	secretAPIKey     = "sk_test_51HsecretAPIkeyValue"
	secretKey1       = "acct_1PsecretKey1Value"
	secretWebhook    = "whsec_secretMerchantWebhook"
	secretAdditional = "whsec_secretAdditionalValue"
	secretWallet     = "merchant.com.secret.applepay.identifier"
	secretWalletCert = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tsecretcert"
)

func minimalConnector() map[string]any {
	return map[string]any{
		"connector_type": "payment_processor",
		"connector_name": "stripe",
		"connector_account_details": map[string]any{
			"auth_type": "HeaderKey",
			"api_key":   secretAPIKey,
		},
	}
}

// fullConnector sets every member of MerchantConnectorCreate, with every
// nested object.
func fullConnector(profileID string) map[string]any {
	return map[string]any{
		"connector_type":  "payment_processor",
		"connector_name":  "adyen",
		"connector_label": "eu_adyen",
		"profile_id":      profileID,
		"connector_account_details": map[string]any{
			"auth_type": "BodyKey",
			"api_key":   secretAPIKey,
			"key1":      secretKey1,
		},
		"payment_methods_enabled": []any{
			map[string]any{
				"payment_method": "card",
				"payment_method_types": []any{
					map[string]any{
						"payment_method_type":         "credit",
						"payment_experience":          "redirect_to_url",
						"card_networks":               []any{"Visa", "Mastercard"},
						"accepted_currencies":         map[string]any{"type": "enable_only", "list": []any{"USD", "EUR"}},
						"accepted_countries":          map[string]any{"type": "disable_only", "list": []any{"KP", "IR"}},
						"minimum_amount":              1,
						"maximum_amount":              68607706,
						"recurring_enabled":           true,
						"installment_payment_enabled": false,
					},
					map[string]any{
						"payment_method_type": "debit",
						"accepted_currencies": map[string]any{"type": "all_accepted"},
						"accepted_countries":  map[string]any{"type": "all_accepted"},
					},
				},
			},
			map[string]any{
				"payment_method": "wallet",
				"payment_method_types": []any{
					map[string]any{"payment_method_type": "apple_pay", "payment_experience": "invoke_sdk_client"},
				},
			},
			map[string]any{"payment_method": "bank_debit"},
		},
		"connector_webhook_details": map[string]any{
			"merchant_secret":   secretWebhook,
			"additional_secret": secretAdditional,
		},
		"metadata":  map[string]any{"city": "NY", "unit": "245"},
		"test_mode": true,
		"disabled":  false,
		"frm_configs": []any{
			map[string]any{
				"gateway": "payment_processor",
				"payment_methods": []any{
					map[string]any{
						"payment_method": "card",
						"flow":           "pre",
						"payment_method_types": []any{
							map[string]any{
								"payment_method_type": "credit",
								"card_networks":       "Visa",
								"flow":                "pre",
								"action":              "cancel_txn",
							},
						},
					},
				},
			},
		},
		"business_country":      "US",
		"business_label":        "food",
		"business_sub_label":    "chicken",
		"merchant_connector_id": "mca_ignored",
		"pm_auth_config":        map[string]any{"enabled_payment_methods": []any{}},
		"status":                "active",
		"additional_merchant_data": map[string]any{
			"open_banking_recipient_data": map[string]any{
				"account_data": map[string]any{
					"bacs": map[string]any{
						"account_number":         "12345678",
						"sort_code":              "123456",
						"name":                   "Jane Merchant",
						"connector_recipient_id": "recipient_1",
					},
				},
			},
		},
		"connector_wallets_details": map[string]any{
			"apple_pay_combined": map[string]any{
				"manual": map[string]any{
					"session_token_data": map[string]any{
						"merchant_identifier": secretWallet,
						"certificate":         secretWalletCert,
						"display_name":        "Merchant",
					},
				},
			},
			"google_pay": map[string]any{"merchant_id": "BCR2DN4T0000000"},
		},
	}
}

// assertMasked checks got is plain masked: same length, the first 2 and the
// last 2 characters kept, stars between (all stars under 8 characters).
func assertMasked(t *testing.T, field, got, plain string) {
	t.Helper()
	r, g := []rune(plain), []rune(got)
	if len(g) != len(r) || got == plain {
		t.Fatalf("%s: %q is not a mask of %q", field, got, plain)
	}
	visible := 2
	if len(r) < 8 {
		visible = 0
	}
	for i := range g {
		edge := i < visible || i >= len(r)-visible
		if edge && g[i] != r[i] || !edge && g[i] != '*' {
			t.Fatalf("%s: %q is not a mask of %q (first 2 and last 2 kept)", field, got, plain)
		}
	}
}

// assertResponseMasked checks every secret member of a connector response.
func assertResponseMasked(t *testing.T, r response, details map[string]string, webhook bool) {
	t.Helper()
	got, _ := r.obj()["connector_account_details"].(map[string]any)
	if len(got) != len(details) {
		t.Fatalf("connector_account_details: %v, want the keys of %v", got, details)
	}
	for k, plain := range details {
		s, _ := got[k].(string)
		assertMasked(t, "connector_account_details."+k, s, plain)
	}
	if webhook {
		assertMasked(t, "merchant_secret", r.str("connector_webhook_details", "merchant_secret"), secretWebhook)
		assertMasked(t, "additional_secret", r.str("connector_webhook_details", "additional_secret"), secretAdditional)
	}
	for _, s := range []string{secretAPIKey, secretKey1, secretWebhook, secretAdditional, secretWallet, secretWalletCert} {
		if bytes.Contains(r.Raw, []byte(s)) {
			t.Fatalf("response shows %q in clear: %s", s, r.Raw)
		}
	}
}

// responseMembers is MerchantConnectorResponse's closed member set.
var responseMembers = []string{
	"additional_merchant_data", "applepay_verified_domains", "business_country", "business_label",
	"business_sub_label", "connector_account_details", "connector_label", "connector_name", "connector_type",
	"connector_wallets_details", "connector_webhook_details", "disabled", "frm_configs", "merchant_connector_id",
	"metadata", "payment_methods_enabled", "pm_auth_config", "profile_id", "status", "test_mode",
	"webhook_setup_capabilities",
}

// assertResponseMembers checks the response has exactly the spec's members
// (absent ones as null).
func assertResponseMembers(t *testing.T, r response) {
	t.Helper()
	got := slices.Sorted(maps.Keys(r.obj()))
	if !slices.Equal(got, responseMembers) {
		t.Fatalf("members %v, want %v", got, responseMembers)
	}
}

// TestConnectorLifecycle: create minimal and full, retrieve, list, update,
// duplicate label, delete, then 404, with the JSON of each pinned.
func TestConnectorLifecycle(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	base := "/account/" + m + "/connectors"

	minimal := c.do("POST", base, key, minimalConnector()).must(t, 200)
	golden(t, "connector_create_minimal", minimal.Raw)
	if minimal.str("profile_id") != c.srv.Demo.ProfileID || minimal.str("connector_label") != "default_stripe" ||
		minimal.str("status") != "active" || minimal.obj()["test_mode"] != false || minimal.obj()["disabled"] != false ||
		!strings.HasPrefix(minimal.str("merchant_connector_id"), "mca_") {
		t.Fatalf("minimal create defaults: %s", minimal.Raw)
	}
	assertResponseMasked(t, minimal, map[string]string{"auth_type": "HeaderKey", "api_key": secretAPIKey}, false)
	assertResponseMembers(t, minimal)

	full := c.do("POST", base, c.admin(), fullConnector(c.srv.Demo.ProfileID)).must(t, 200)
	golden(t, "connector_create_full", full.Raw)
	assertResponseMembers(t, full)
	fullDetails := map[string]string{"auth_type": "BodyKey", "api_key": secretAPIKey, "key1": secretKey1}
	assertResponseMasked(t, full, fullDetails, true)
	mca := full.str("merchant_connector_id")
	if mca == "mca_ignored" || full.str("connector_label") != "eu_adyen" {
		t.Fatalf("full create: %s", full.Raw)
	}
	wallet := full.obj()["connector_wallets_details"].(map[string]any)["apple_pay_combined"].(map[string]any)
	token := wallet["manual"].(map[string]any)["session_token_data"].(map[string]any)
	assertMasked(t, "merchant_identifier", token["merchant_identifier"].(string), secretWallet)

	got := c.do("GET", base+"/"+mca, key, nil).must(t, 200)
	golden(t, "connector_retrieve", got.Raw)
	assertResponseMasked(t, got, fullDetails, true)
	if !bytes.Equal(got.Raw, full.Raw) {
		t.Fatalf("retrieve differs from create:\n%s\n%s", got.Raw, full.Raw)
	}

	list := c.do("GET", base, key, nil).must(t, 200)
	golden(t, "connector_list", list.Raw)
	items := list.Body.([]any)
	if len(items) != 3 { // the bootstrapped demo connector, minimal, full
		t.Fatalf("list has %d items: %s", len(items), list.Raw)
	}
	if items[0].(map[string]any)["merchant_connector_id"] != mca ||
		items[1].(map[string]any)["merchant_connector_id"] != minimal.str("merchant_connector_id") {
		t.Fatalf("list is not newest first: %s", list.Raw)
	}

	upd := c.do("POST", base+"/"+mca, key, map[string]any{
		"connector_type":            "payment_processor",
		"connector_label":           "eu_adyen_v2",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_live_rotatedKey42"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "pay_later", "payment_method_types": []any{
			map[string]any{"payment_method_type": "klarna", "payment_experience": "redirect_to_url"},
		}}},
		"status":   "inactive",
		"disabled": true,
		"metadata": map[string]any{"rotated": true},
	}).must(t, 200)
	golden(t, "connector_update", upd.Raw)
	assertResponseMasked(t, upd, map[string]string{"auth_type": "HeaderKey", "api_key": "sk_live_rotatedKey42"}, true)
	if upd.str("connector_label") != "eu_adyen_v2" || upd.str("status") != "inactive" || upd.obj()["disabled"] != true ||
		upd.str("business_label") != "food" || upd.obj()["frm_configs"] == nil || upd.obj()["test_mode"] != true {
		t.Fatalf("update did not apply only the given members: %s", upd.Raw)
	}

	// The label is unique per profile, on create and on update.
	dup := fullConnector(c.srv.Demo.ProfileID)
	dup["connector_label"] = "eu_adyen_v2"
	r := c.do("POST", base, key, dup)
	wantMsg := fmt.Sprintf("The merchant connector account with the specified profile_id '%s' and connector_label 'eu_adyen_v2' already exists in our records", c.srv.Demo.ProfileID)
	if r.Status != 400 || r.errCode() != "HE_01" || r.str("error", "message") != wantMsg {
		t.Fatalf("duplicate label on create: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", base, key, minimalConnector()); r.Status != 400 || r.errCode() != "HE_01" ||
		!strings.Contains(r.str("error", "message"), "'default_stripe'") {
		t.Fatalf("duplicate default label: %d %s", r.Status, r.Raw)
	}
	r = c.do("POST", base+"/"+mca, key, map[string]any{"connector_type": "payment_processor", "connector_label": "default_stripe"})
	if r.Status != 400 || r.errCode() != "HE_01" {
		t.Fatalf("duplicate label on update: %d %s", r.Status, r.Raw)
	}
	// Keeping its own label is no clash.
	c.do("POST", base+"/"+mca, key, map[string]any{"connector_type": "payment_processor", "connector_label": "eu_adyen_v2"}).must(t, 200)

	// Delete takes the admin key.
	if r := c.do("DELETE", base+"/"+mca, key, nil); r.Status != 401 {
		t.Fatalf("merchant key on delete: %d %s", r.Status, r.Raw)
	}
	del := c.do("DELETE", base+"/"+mca, c.admin(), nil).must(t, 200)
	golden(t, "connector_delete", del.Raw)
	if del.str("merchant_id") != m || del.str("merchant_connector_id") != mca || del.obj()["deleted"] != true {
		t.Fatalf("delete: %s", del.Raw)
	}
	for _, r := range []response{
		c.do("GET", base+"/"+mca, key, nil),
		c.do("POST", base+"/"+mca, key, map[string]any{"connector_type": "payment_processor"}),
		c.do("DELETE", base+"/"+mca, c.admin(), nil),
	} {
		if r.Status != 404 || r.errCode() != "HE_02" ||
			r.str("error", "message") != "Merchant connector account does not exist in our records" {
			t.Fatalf("after delete: %d %s", r.Status, r.Raw)
		}
	}
	// The label is free again.
	again := fullConnector(c.srv.Demo.ProfileID)
	again["connector_label"] = "eu_adyen_v2"
	c.do("POST", base, key, again).must(t, 200)
}

// otherMerchant creates a second merchant with its own key and returns
// (merchant id, secret key, default profile id).
func otherMerchant(t *testing.T, c *client, id string) (string, string, string) {
	t.Helper()
	svc := c.srv.Merchants
	admin := tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin})
	created, err := svc.CreateMerchantAccount(admin, merchant.MerchantAccountInput{MerchantID: id})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := svc.CreateAPIKey(tenancy.ForMerchant(admin, id), merchant.APIKeyInput{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	return id, key, created.DefaultProfile.ID
}

// TestConnectorTenancy: every connector route, each merchant's key against
// the other's account and connector ids, is 404 and shows nothing.
func TestConnectorTenancy(t *testing.T) {
	c := newClient(t)
	a, aKey := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	b, bKey, bProfile := otherMerchant(t, c, "merchant_other")
	aMCA := c.do("POST", "/account/"+a+"/connectors", aKey, minimalConnector()).must(t, 200).str("merchant_connector_id")
	bMCA := c.do("POST", "/account/"+b+"/connectors", bKey, minimalConnector()).must(t, 200).str("merchant_connector_id")
	upd := map[string]any{"connector_type": "payment_processor", "status": "inactive"}

	type call struct {
		method, path, key string
		body              any
	}
	for _, tc := range []call{
		// A merchant key on the other merchant's account_id.
		{"POST", "/account/" + b + "/connectors", aKey, minimalConnector()},
		{"GET", "/account/" + b + "/connectors", aKey, nil},
		{"GET", "/account/" + b + "/connectors/" + bMCA, aKey, nil},
		{"POST", "/account/" + b + "/connectors/" + bMCA, aKey, upd},
		{"POST", "/account/" + a + "/connectors", bKey, minimalConnector()},
		{"GET", "/account/" + a + "/connectors/" + aMCA, bKey, nil},
		// The other merchant's mca id under one's own account.
		{"GET", "/account/" + a + "/connectors/" + bMCA, aKey, nil},
		{"POST", "/account/" + a + "/connectors/" + bMCA, aKey, upd},
		{"GET", "/account/" + b + "/connectors/" + aMCA, bKey, nil},
		{"POST", "/account/" + b + "/connectors/" + aMCA, bKey, upd},
		// The admin key under the wrong merchant, or an unknown one.
		{"GET", "/account/" + a + "/connectors/" + bMCA, c.admin(), nil},
		{"DELETE", "/account/" + a + "/connectors/" + bMCA, c.admin(), nil},
		{"GET", "/account/merchant_nope/connectors", c.admin(), nil},
		{"POST", "/account/merchant_nope/connectors", c.admin(), minimalConnector()},
		// Another merchant's profile as profile_id.
		{"POST", "/account/" + a + "/connectors", aKey, withMembers(minimalConnector(), map[string]any{"profile_id": bProfile})},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.key, tc.body)
			if r.Status != 404 || r.errCode() != "HE_02" {
				t.Fatalf("got %d %s, want 404 HE_02", r.Status, r.Raw)
			}
			if bytes.Contains(r.Raw, []byte("mca_")) && !strings.Contains(r.str("error", "message"), "profile") {
				t.Fatalf("404 shows an id: %s", r.Raw)
			}
		})
	}
	// Nothing changed: each sees only its own, still active.
	for _, side := range []struct{ m, key, mca string }{{a, aKey, aMCA}, {b, bKey, bMCA}} {
		list := c.do("GET", "/account/"+side.m+"/connectors", side.key, nil).must(t, 200)
		for _, it := range list.Body.([]any) {
			o := it.(map[string]any)
			if id := o["merchant_connector_id"]; id == aMCA && side.m == b || id == bMCA && side.m == a {
				t.Fatalf("%s sees %s: %s", side.m, id, list.Raw)
			}
		}
		got := c.do("GET", "/account/"+side.m+"/connectors/"+side.mca, side.key, nil).must(t, 200)
		if got.str("status") != "active" {
			t.Fatalf("%s changed by the other merchant: %s", side.mca, got.Raw)
		}
	}
	// The X-Profile-Id of another merchant's profile is refused too.
	r := c.doWith("GET", "/account/"+a+"/connectors", aKey, nil, map[string]string{"X-Profile-Id": bProfile})
	if r.Status != 404 {
		t.Fatalf("foreign X-Profile-Id: %d %s", r.Status, r.Raw)
	}
}

// TestConnectorCurrencyAuthKey: Hyperswitch's CurrencyAuthKey keeps an
// object per currency in connector_account_details.auth_key_map; it is
// accepted, sealed and shown masked at every depth.
func TestConnectorCurrencyAuthKey(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	body := minimalConnector()
	body["connector_name"] = "adyen"
	body["connector_account_details"] = map[string]any{"auth_type": "CurrencyAuthKey", "auth_key_map": map[string]any{
		"USD": map[string]any{"api_key": secretAPIKey, "merchant_account": 123456789},
		"EUR": map[string]any{"api_key": secretKey1}}}
	r := c.do("POST", "/account/"+m+"/connectors", key, body).must(t, 200)
	for _, plain := range []string{secretAPIKey, secretKey1, "123456789"} {
		if bytes.Contains(r.Raw, []byte(plain)) {
			t.Fatalf("response shows %q in clear: %s", plain, r.Raw)
		}
	}
	assertMasked(t, "auth_key_map.USD.api_key", r.str("connector_account_details", "auth_key_map", "USD", "api_key"), secretAPIKey)
	assertMasked(t, "auth_key_map.EUR.api_key", r.str("connector_account_details", "auth_key_map", "EUR", "api_key"), secretKey1)
	assertMasked(t, "auth_key_map.USD.merchant_account", r.str("connector_account_details", "auth_key_map", "USD", "merchant_account"), "123456789")
}
