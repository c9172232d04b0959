package rest_test

import (
	"database/sql"
	"fmt"
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
// B's ids gets 404 (never B's data), and A's key on admin-only routes gets 401.
func TestCrossTenantMatrix(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_a")
	b := makeMerchant(t, c, "merchant_b")

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
	}
	fill := func(s string, f merchantFixture) string {
		return strings.NewReplacer("{m}", f.id, "{key}", f.keyID, "{pro}", f.profileID, "{mca}", f.mcaID).Replace(s)
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
			if rt.adminOnly {
				want = 401
			}
			if r.Status != want {
				t.Fatalf("A on B's %s: %d %s, want %d", rt.path, r.Status, r.Raw, want)
			}
			if strings.Contains(string(r.Raw), b.id) && r.Status == 200 {
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
	// B is untouched.
	if r := c.do("GET", "/account/"+b.id+"/connectors/"+b.mcaID, b.key, nil); r.Status != 200 || r.obj()["disabled"] == true {
		t.Fatalf("B's connector changed: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/account/"+b.id+"/business_profile/"+b.profileID, b.key, nil); r.Status != 200 || r.str("profile_name") != "second" {
		t.Fatalf("B's profile changed: %d %s", r.Status, r.Raw)
	}
}

// TestDatabaseHoldsNoSecretsInClear makes keys and connector credentials
// through the API, then reads every column of every table as text: no API
// key, credential or webhook secret appears.
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
	// The profile's webhook signing key is sealed too.
	prof := c.do("GET", "/account/"+a.id+"/business_profile/"+a.profileID, a.key, nil).must(t, 200)
	if hk := prof.str("payment_response_hash_key"); len(hk) < 32 {
		t.Fatalf("profile hash key %q", hk)
	} else {
		secrets = append(secrets, hk)
	}

	db := c.srv.Store.DB
	tables := tableNames(t, db, c.srv.Store.Dialect)
	if len(tables) < 10 {
		t.Fatalf("only %d tables found", len(tables))
	}
	var dumped int
	for _, table := range tables {
		rows, err := db.Query("SELECT * FROM " + table)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]sql.RawBytes, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				dumped += len(v)
				for _, s := range secrets {
					if strings.Contains(string(v), s) {
						t.Errorf("%s.%s holds %q in clear", table, cols[i], s)
					}
				}
			}
		}
		rows.Close()
	}
	if dumped == 0 {
		t.Fatal("dumped nothing")
	}
}

func tableNames(t *testing.T, db *sql.DB, dialect string) []string {
	t.Helper()
	q := "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
	if dialect != "mysql" {
		q = "SELECT name FROM sqlite_master WHERE type = 'table'"
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("`%s`", n))
	}
	return out
}
