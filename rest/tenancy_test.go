package rest_test

import (
	"slices"
	"strings"
	"testing"
)

// merchantFixture is one merchant made through the API: its key, a second
// profile, an extra API key and a connector account.
type merchantFixture struct {
	id, key, profileID, keyID, mcaID string
}

func makeMerchant(t *testing.T, c *client, id string) merchantFixture {
	t.Helper()
	c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": id, "merchant_name": id}).must(t, 200)
	key := c.do("POST", "/api_keys/"+id, c.admin(), map[string]any{"name": "k", "expiration": "never"}).must(t, 200)
	prof := c.do("POST", "/account/"+id+"/business_profile", key.str("api_key"), map[string]any{"profile_name": "second"}).must(t, 200)
	mca := c.do("POST", "/account/"+id+"/connectors", key.str("api_key"), map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe_test",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_" + id + "_credential"},
	}).must(t, 200)
	return merchantFixture{id: id, key: key.str("api_key"), profileID: prof.str("profile_id"),
		keyID: key.str("key_id"), mcaID: mca.str("merchant_connector_id")}
}

// TestCrossTenantMatrix: merchant A's key against every route with merchant
// B's ids gets 404 (never B's data), and A's key on admin-only routes gets 401;
// a list route answers A's own records, none of B's.
func TestCrossTenantMatrix(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_a")
	b := makeMerchant(t, c, "merchant_b")
	_, bDispute := disputedPayment(t, c, b.key, disputeFraudCard)
	bMandate := setUpMandate(t, c, b.key, "cus_b_only", nil)

	routes := []struct {
		method, path string
		body         any
		adminOnly    bool
	}{
		{"GET", "/accounts/{m}", nil, true},
		{"POST", "/accounts/{m}", map[string]any{"merchant_id": "{m}", "merchant_name": "x"}, true},
		{"DELETE", "/accounts/{m}", nil, true},
		{"POST", "/api_keys/{m}", map[string]any{"name": "x", "expiration": "never"}, true},
		{"GET", "/api_keys/{m}/list", nil, true},
		{"GET", "/api_keys/{m}/{key}", nil, true},
		{"POST", "/api_keys/{m}/{key}", map[string]any{"name": "x"}, true},
		{"DELETE", "/api_keys/{m}/{key}", nil, true},
		{"POST", "/account/{m}/business_profile", map[string]any{"profile_name": "x"}, false},
		{"GET", "/account/{m}/business_profile", nil, false},
		{"GET", "/account/{m}/business_profile/{pro}", nil, false},
		{"POST", "/account/{m}/business_profile/{pro}", map[string]any{"profile_name": "y"}, false},
		{"DELETE", "/account/{m}/business_profile/{pro}", nil, true},
		{"POST", "/account/{m}/connectors", map[string]any{"connector_type": "payment_processor", "connector_name": "adyen"}, false},
		{"GET", "/account/{m}/connectors", nil, false},
		{"GET", "/account/{m}/connectors/{mca}", nil, false},
		{"POST", "/account/{m}/connectors/{mca}", map[string]any{"connector_type": "payment_processor", "disabled": true}, false},
		{"DELETE", "/account/{m}/connectors/{mca}", nil, true},
		{"GET", "/disputes/{dp}", nil, false},
		{"GET", "/disputes/list", nil, false},
		{"GET", "/mandates/{man}", nil, false},
		{"POST", "/mandates/revoke/{man}", nil, false},
		{"GET", "/customers/{cus}/mandates", nil, false},
		{"GET", "/customers/{cus}", nil, false},
		{"POST", "/customers/{cus}", map[string]any{"name": "x"}, false},
		{"DELETE", "/customers/{cus}", nil, false},
		{"GET", "/customers/list", nil, false},
	}
	fill := func(s string, f merchantFixture) string {
		return strings.NewReplacer("{m}", f.id, "{key}", f.keyID, "{pro}", f.profileID, "{mca}", f.mcaID, "{dp}", bDispute,
			"{man}", bMandate, "{cus}", "cus_b_only").Replace(s)
	}
	fillBody := func(body any, f merchantFixture) any {
		m, ok := body.(map[string]any)
		if !ok {
			return body
		}
		out := map[string]any{}
		for k, v := range m {
			if s, ok := v.(string); ok {
				v = fill(s, f)
			}
			out[k] = v
		}
		return out
	}
	for _, rt := range routes {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			// A's key, B's ids in the path.
			r := c.do(rt.method, fill(rt.path, b), a.key, fillBody(rt.body, b))
			want := 404
			switch {
			case rt.adminOnly:
				want = 401
			case !strings.Contains(rt.path, "{"):
				want = 200 // it names none of B's ids: A's own records
			}
			if r.Status != want {
				t.Fatalf("A on B's %s: %d %s, want %d", rt.path, r.Status, r.Raw, want)
			}
			if (strings.Contains(string(r.Raw), b.id) || strings.Contains(string(r.Raw), bDispute) ||
				strings.Contains(string(r.Raw), bMandate)) && r.Status == 200 {
				t.Fatalf("B's data leaked: %s", r.Raw)
			}
			// A's key, A's merchant, B's sub-ids: 404 on merchant routes.
			if !rt.adminOnly && (strings.Contains(rt.path, "{pro}") || strings.Contains(rt.path, "{mca}")) {
				mixed := strings.NewReplacer("{m}", a.id, "{pro}", b.profileID, "{mca}", b.mcaID).Replace(rt.path)
				if r := c.do(rt.method, mixed, a.key, fillBody(rt.body, a)); r.Status != 404 || r.errCode() != "HE_02" {
					t.Fatalf("A on its account with B's id %s: %d %s", mixed, r.Status, r.Raw)
				}
			}
		})
	}
	// B is untouched, and its dispute (hidden from A above) is there.
	if r := c.do("GET", "/disputes/list", b.key, nil); r.Status != 200 || !strings.Contains(string(r.Raw), bDispute) {
		t.Fatalf("B's disputes: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/mandates/"+bMandate, b.key, nil); r.Status != 200 || r.str("status") != "active" {
		t.Fatalf("B's mandate changed: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/account/"+b.id+"/connectors/"+b.mcaID, b.key, nil); r.Status != 200 || r.obj()["disabled"] == true {
		t.Fatalf("B's connector changed: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/account/"+b.id+"/business_profile/"+b.profileID, b.key, nil); r.Status != 200 || r.str("profile_name") != "second" {
		t.Fatalf("B's profile changed: %d %s", r.Status, r.Raw)
	}
}

// TestDatabaseHoldsNoSecretsInClear makes API keys, connector accounts (one
// with every member, then its credentials rotated) and profiles through the
// API, then reads every column of every table as text: no API key,
// credential, webhook secret, wallet detail or hash key appears.
func TestDatabaseHoldsNoSecretsInClear(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_dump")
	secrets := []string{a.key, c.srv.Demo.SecretKey, "sk_test_merchant_dump_credential"}
	r := c.do("POST", "/account/"+a.id+"/connectors", a.key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "SignatureKey", "api_key": "adyen_live_api_key_value", "key1": "adyen_merchant_key1", "api_secret": "adyen_api_secret_value"},
		"connector_webhook_details": map[string]any{"merchant_secret": "whsec_merchant_secret_value", "additional_secret": "whsec_additional_value"},
	}).must(t, 200)
	secrets = append(secrets, "adyen_live_api_key_value", "adyen_merchant_key1", "adyen_api_secret_value",
		"whsec_merchant_secret_value", "whsec_additional_value")
	for _, s := range secrets[3:] {
		if strings.Contains(string(r.Raw), s) {
			t.Fatalf("response shows %q in clear: %s", s, r.Raw)
		}
	}
	// A connector account with every member (wallet details too), whose
	// credentials are then replaced; the demo's sandbox connector is there too.
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	mca := c.do("POST", "/account/"+m+"/connectors", key, fullConnector(c.srv.Demo.ProfileID)).must(t, 200).str("merchant_connector_id")
	c.do("POST", "/account/"+m+"/connectors/"+mca, key, map[string]any{
		"connector_type":            "payment_processor",
		"connector_account_details": map[string]any{"api_key": "sk_live_rotatedSecretKey99"},
	}).must(t, 200)
	secrets = append(secrets, secretAPIKey, secretKey1, secretWebhook, secretAdditional, secretWallet,
		secretWalletCert, "sk_live_rotatedSecretKey99", "sandbox_simulator")
	// The profile's webhook signing key is sealed too.
	prof := c.do("GET", "/account/"+a.id+"/business_profile/"+a.profileID, a.key, nil).must(t, 200)
	if hk := prof.str("payment_response_hash_key"); len(hk) < 32 {
		t.Fatalf("profile hash key %q", hk)
	} else {
		secrets = append(secrets, hk)
	}

	dump := dumpDatabase(t, c)
	// The dump is real: the connector row and its clear members are in it.
	for _, s := range []string{mca, "eu_adyen", "Jane Merchant"} {
		if !slices.ContainsFunc(dump, func(v storedValue) bool { return strings.Contains(string(v.value), s) }) {
			t.Fatalf("the dump lacks %q: it does not read the connector table", s)
		}
	}
	for _, v := range dump {
		for _, s := range secrets {
			if strings.Contains(string(v.value), s) {
				t.Errorf("%s.%s holds %q in clear", v.table, v.column, s)
			}
		}
	}
}
