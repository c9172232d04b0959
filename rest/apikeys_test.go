package rest_test

import (
	"net/http"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// TestAPIKeyLifecycle: create (shown once), use, retrieve (prefix only),
// update, list, revoke (401 at once), and expiry.
func TestAPIKeyLifecycle(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	created := c.do("POST", "/api_keys/"+m, c.admin(), map[string]any{
		"name": "backend", "description": "server key", "expiration": "never",
	}).must(t, 200)
	golden(t, "api_key_create", created.Raw)
	key, keyID := created.str("api_key"), created.str("key_id")
	if len(key) < 36 || key[:4] != "snd_" {
		t.Fatalf("api_key %q", key)
	}

	// The new key works as the merchant.
	c.do("GET", "/account/"+m+"/business_profile", key, nil)
	got := c.do("GET", "/api_keys/"+m+"/"+keyID, c.admin(), nil).must(t, 200)
	golden(t, "api_key_retrieve", got.Raw)
	if got.str("prefix") != key[:8] || got.obj()["api_key"] != nil {
		t.Fatalf("retrieve shows %s", got.Raw)
	}

	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	upd := c.do("POST", "/api_keys/"+m+"/"+keyID, c.admin(), map[string]any{
		"name": "renamed", "expiration": future,
	}).must(t, 200)
	if upd.str("name") != "renamed" || upd.str("expiration") != future {
		t.Fatalf("update: %s", upd.Raw)
	}

	list := c.do("GET", "/api_keys/"+m+"/list", c.admin(), nil).must(t, 200)
	if n := len(list.Body.([]any)); n != 2 { // the demo key and this one
		t.Fatalf("list has %d keys: %s", n, list.Raw)
	}

	rev := c.do("DELETE", "/api_keys/"+m+"/"+keyID, c.admin(), nil).must(t, 200)
	golden(t, "api_key_revoke", rev.Raw)
	// Revoked: 401 IR_01 at once, on REST and GraphQL alike.
	if r := c.do("GET", "/api_keys/"+m+"/"+keyID, c.admin(), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("retrieve revoked: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/graphql", key, `{"query":"{ profiles(first: 1) { totalCount } }"}`); r.Status != http.StatusUnauthorized {
		t.Fatalf("revoked key on graphql: %d %s", r.Status, r.Raw)
	}
	if r := c.do("DELETE", "/api_keys/"+m+"/"+keyID, c.admin(), nil); r.Status != 404 {
		t.Fatalf("revoke twice: %d", r.Status)
	}
}

// TestKeyEndsOnlyWithRedis: keys are cached in Redis, so a key cannot be
// ended while Redis is down (a cached entry that cannot be deleted would
// outlive the revocation): revoking, re-dating it or deleting its merchant
// is 503 and changes nothing. Authentication itself falls back to the
// database, and once Redis is back the key is revoked and refused at once.
func TestKeyEndsOnlyWithRedis(t *testing.T) {
	redis := testenv.StartRedis(t)
	c := newClientOnRedis(t, redis)
	m := c.srv.Demo.MerchantID
	created := c.do("POST", "/api_keys/"+m, c.admin(), map[string]any{"name": "cached", "expiration": "never"}).must(t, 200)
	key, keyID := created.str("api_key"), created.str("key_id")
	c.do("GET", "/account/"+m+"/business_profile", key, nil).must(t, 200) // cached now

	redis.Stop()
	soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	for _, tc := range []struct {
		method, path, key string
		body              any
	}{
		{"DELETE", "/api_keys/" + m + "/" + keyID, c.admin(), nil},
		{"POST", "/api_keys/" + m + "/" + keyID, c.admin(), map[string]any{"expiration": soon}},
		{"DELETE", "/accounts/" + m, c.admin(), nil},
	} {
		if r := c.do(tc.method, tc.path, tc.key, tc.body); r.Status != http.StatusServiceUnavailable || r.errCode() != "HE_00" {
			t.Fatalf("%s %s with Redis down: %d %s", tc.method, tc.path, r.Status, r.Raw)
		}
	}
	// Nothing changed, and the key still works from the database.
	got := c.do("GET", "/api_keys/"+m+"/"+keyID, c.admin(), nil).must(t, 200)
	if got.obj()["expiration"] != "never" {
		t.Fatalf("the refused update changed the key: %s", got.Raw)
	}
	c.do("GET", "/account/"+m+"/business_profile", key, nil).must(t, 200)

	redis.Start()
	// The client's pool redials in the background after failed dials: the
	// revocation is retried until Redis is reachable again.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		c.do("GET", "/account/"+m+"/business_profile", key, nil).must(t, 200)
		r := c.do("DELETE", "/api_keys/"+m+"/"+keyID, c.admin(), nil)
		if r.Status == http.StatusOK {
			break
		}
		if r.Status != http.StatusServiceUnavailable || time.Now().After(deadline) {
			t.Fatalf("revoke once Redis is back: %d %s", r.Status, r.Raw)
		}
	}
	if r := c.do("GET", "/account/"+m+"/business_profile", key, nil); r.Status != http.StatusUnauthorized || r.errCode() != "IR_01" {
		t.Fatalf("revoked key: %d %s", r.Status, r.Raw)
	}
}

func TestExpiredKeyIsRefused(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	soon := c.srv.Clock.Now().Add(time.Minute).Format(time.RFC3339Nano)
	created := c.do("POST", "/api_keys/"+m, c.admin(), map[string]any{"name": "short", "expiration": soon}).must(t, 200)
	key := created.str("api_key")
	query := `{"query":"{ profiles(first: 1) { totalCount } }"}`
	if r := c.do("POST", "/graphql", key, query); r.Status != 200 { // and now in the key cache
		t.Fatalf("fresh key: %d %s", r.Status, r.Raw)
	}
	c.srv.Clock.Advance(time.Minute + time.Second)
	if r := c.do("POST", "/graphql", key, query); r.Status != http.StatusUnauthorized {
		t.Fatalf("expired key: %d %s", r.Status, r.Raw)
	}
}

func TestAPIKeyValidation(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	cases := []struct {
		name   string
		key    string
		path   string
		body   any
		status int
		code   string
	}{
		{"no key", "", "/api_keys/" + m, map[string]any{"name": "x", "expiration": "never"}, 401, "IR_01"},
		{"merchant key on admin route", c.srv.Demo.SecretKey, "/api_keys/" + m, map[string]any{"name": "x", "expiration": "never"}, 401, "IR_01"},
		{"missing name", c.admin(), "/api_keys/" + m, map[string]any{"expiration": "never"}, 400, "IR_04"},
		{"missing expiration", c.admin(), "/api_keys/" + m, map[string]any{"name": "x"}, 400, "IR_04"},
		{"bad expiration", c.admin(), "/api_keys/" + m, map[string]any{"name": "x", "expiration": "tomorrow"}, 400, "IR_07"},
		{"past expiration", c.admin(), "/api_keys/" + m, map[string]any{"name": "x", "expiration": "2001-01-01T00:00:00Z"}, 400, "IR_07"},
		{"name too long", c.admin(), "/api_keys/" + m, map[string]any{"name": string(make([]byte, 65)), "expiration": "never"}, 400, "IR_07"},
		{"unknown field", c.admin(), "/api_keys/" + m, map[string]any{"name": "x", "expiration": "never", "scope": "all"}, 400, "IR_06"},
		{"wrong type", c.admin(), "/api_keys/" + m, map[string]any{"name": 7, "expiration": "never"}, 400, "IR_06"},
		{"malformed json", c.admin(), "/api_keys/" + m, `{"name": "x",`, 400, "IR_06"},
		{"unknown merchant", c.admin(), "/api_keys/merchant_nope", map[string]any{"name": "x", "expiration": "never"}, 404, "HE_02"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", tc.path, tc.key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || r.str("error", "message") == "" {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
		})
	}
}
