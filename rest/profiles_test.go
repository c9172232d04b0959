package rest_test

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"testing"

	"switchyard/ent/merchantconnectoraccount"
	"switchyard/internal/tenancy"
)

// TestProfileShapes pins the JSON of profile create, retrieve, list and
// delete, and the defaults a minimal create gets.
func TestProfileShapes(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey

	created := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{
		"profile_name":                        "shoes",
		"return_url":                          "https://shop.example.com/done",
		"enable_payment_response_hash":        false,
		"redirect_to_merchant_with_http_post": true,
		"webhook_details": map[string]any{
			"webhook_url":              "https://hooks.example.com/shoes",
			"payment_statuses_enabled": []string{"succeeded", "requires_capture"},
			"refund_statuses_enabled":  []string{"failed"},
			"payout_statuses_enabled":  []string{"success"},
		},
		"metadata":                                      map[string]any{"line": "shoes"},
		"session_expiry":                                1800,
		"is_auto_retries_enabled":                       true,
		"max_auto_retries_enabled":                      3,
		"force_3ds_challenge":                           true,
		"is_connector_agnostic_mit_enabled":             true,
		"collect_billing_details_from_wallet_connector": true,
		// Hyperswitch members Switchyard does not implement: accepted, ignored.
		"routing_algorithm":       map[string]any{"type": "single", "data": "stripe"},
		"intent_fulfillment_time": 900,
		"payout_link_config":      nil,
	}).must(t, 200)
	golden(t, "profile_create", created.Raw)
	pid := created.str("profile_id")
	if !strings.HasPrefix(pid, "pro_") || len(created.str("payment_response_hash_key")) != 64 {
		t.Fatalf("create: %s", created.Raw)
	}

	got := c.do("GET", "/account/"+m+"/business_profile/"+pid, key, nil).must(t, 200)
	golden(t, "profile_retrieve", got.Raw)
	if string(got.Raw) != string(created.Raw) {
		t.Fatalf("retrieve differs from create:\n%s\n%s", got.Raw, created.Raw)
	}

	list := c.do("GET", "/account/"+m+"/business_profile", key, nil).must(t, 200)
	golden(t, "profile_list", list.Raw)
	items := list.Body.([]any)
	if len(items) != 2 || items[0].(map[string]any)["profile_id"] != c.srv.Demo.ProfileID {
		t.Fatalf("list (default first): %s", list.Raw)
	}

	minimal := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{}).must(t, 200)
	mo := minimal.obj()
	if minimal.str("profile_name") != "profile_3" || mo["session_expiry"] != float64(900) ||
		mo["enable_payment_response_hash"] != true || mo["use_billing_as_payment_method_billing"] != true ||
		mo["webhook_details"] != nil || mo["return_url"] != nil {
		t.Fatalf("minimal profile defaults: %s", minimal.Raw)
	}
	// The generated name skips names in use.
	c.do("POST", "/account/"+m+"/business_profile/"+minimal.str("profile_id"), key, map[string]any{"profile_name": "profile_5"}).must(t, 200)
	next := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{}).must(t, 200)
	if next.str("profile_name") != "profile_4" {
		t.Fatalf("next generated name %q", next.str("profile_name"))
	}
	if again := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{}).must(t, 200); again.str("profile_name") != "profile_6" {
		t.Fatalf("generated name after a taken one %q", again.str("profile_name"))
	}

	del := c.do("DELETE", "/account/"+m+"/business_profile/"+pid, c.admin(), nil).must(t, 200)
	golden(t, "profile_delete", del.Raw)
	if string(del.Raw) != "true\n" {
		t.Fatalf("delete body %q", del.Raw)
	}
}

// TestProfileUpdate: only the members given change; the hash key can be
// replaced; a rename to a name in use is HE_01.
func TestProfileUpdate(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	p := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{
		"profile_name": "a", "return_url": "https://a.example.com", "metadata": map[string]any{"k": "v"},
	}).must(t, 200)
	pid := p.str("profile_id")
	upd := c.do("POST", "/account/"+m+"/business_profile/"+pid, key, map[string]any{
		"payment_response_hash_key": "my-own-key",
		"webhook_details":           map[string]any{"webhook_url": "http://hooks.example.com/a"},
		"is_click_to_pay_enabled":   true,
	}).must(t, 200)
	if upd.str("payment_response_hash_key") != "my-own-key" || upd.str("return_url") != "https://a.example.com" ||
		upd.str("metadata", "k") != "v" || upd.str("profile_name") != "a" || upd.obj()["is_click_to_pay_enabled"] != true ||
		upd.str("webhook_details", "webhook_url") != "http://hooks.example.com/a" {
		t.Fatalf("update: %s", upd.Raw)
	}
	if r := c.do("POST", "/account/"+m+"/business_profile/"+pid, key, map[string]any{"profile_name": "default"}); r.Status != 400 || r.errCode() != "HE_01" {
		t.Fatalf("rename onto default: %d %s", r.Status, r.Raw)
	}
	// Renaming to its own name is not a clash.
	c.do("POST", "/account/"+m+"/business_profile/"+pid, key, map[string]any{"profile_name": "a"}).must(t, 200)
}

// TestProfileDeleteCascades: deleting a profile deletes its connector
// accounts, and only its own.
func TestProfileDeleteCascades(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	pid := c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{"profile_name": "gone"}).must(t, 200).str("profile_id")
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), m)
	db := c.srv.Store.Client
	db.MerchantConnectorAccount.Create().SetProfileID(pid).
		SetConnectorType(merchantconnectoraccount.ConnectorTypePaymentProcessor).
		SetConnectorName("stripe").SetConnectorLabel("gone_stripe").SaveX(ctx)
	before := db.MerchantConnectorAccount.Query().CountX(ctx)

	c.do("DELETE", "/account/"+m+"/business_profile/"+pid, c.admin(), nil).must(t, 200)
	if n := db.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.ProfileID(pid)).CountX(ctx); n != 0 {
		t.Fatalf("%d connector accounts of the deleted profile left", n)
	}
	if n := db.MerchantConnectorAccount.Query().CountX(ctx); n != before-1 {
		t.Fatalf("connector accounts %d, want %d", n, before-1)
	}
}

// TestProfileValidation: every rule, with status, code and the field the
// message names.
func TestProfileValidation(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	base := "/account/" + m + "/business_profile"
	pid := c.srv.Demo.ProfileID
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name   string
		method string
		path   string
		body   any
		status int
		code   string
		field  string
	}{
		{"no key", "", base, map[string]any{}, 401, "IR_01", ""},
		{"empty profile_name", "POST", base, map[string]any{"profile_name": ""}, 400, "IR_07", "profile_name"},
		{"profile_name too long", "POST", base, map[string]any{"profile_name": long(65)}, 400, "IR_07", "profile_name"},
		{"profile_name taken", "POST", base, map[string]any{"profile_name": "default"}, 400, "HE_01", "profile_name"},
		{"profile_name wrong type", "POST", base, map[string]any{"profile_name": 5}, 400, "IR_06", "profile_name"},
		{"relative return_url", "POST", base, map[string]any{"return_url": "done.html"}, 400, "IR_07", "return_url"},
		{"return_url too long", "POST", base, map[string]any{"return_url": "https://x.example/" + long(250)}, 400, "IR_07", "return_url"},
		{"empty hash key", "POST", base, map[string]any{"payment_response_hash_key": ""}, 400, "IR_07", "payment_response_hash_key"},
		{"negative session_expiry", "POST", base, map[string]any{"session_expiry": -1}, 400, "IR_07", "session_expiry"},
		{"huge session_expiry", "POST", base, map[string]any{"session_expiry": 1 << 40}, 400, "IR_07", "session_expiry"},
		{"fractional session_expiry", "POST", base, map[string]any{"session_expiry": 1.5}, 400, "IR_06", "session_expiry"},
		{"string session_expiry", "POST", base, map[string]any{"session_expiry": "900"}, 400, "IR_06", "session_expiry"},
		{"negative max_auto_retries_enabled", "POST", base, map[string]any{"max_auto_retries_enabled": -1}, 400, "IR_07", "max_auto_retries_enabled"},
		{"max_auto_retries_enabled too big", "POST", base, map[string]any{"max_auto_retries_enabled": 256}, 400, "IR_07", "max_auto_retries_enabled"},
		{"flag wrong type", "POST", base, map[string]any{"force_3ds_challenge": "yes"}, 400, "IR_06", "force_3ds_challenge"},
		{"webhook_url", "POST", base, map[string]any{"webhook_details": map[string]any{"webhook_url": "mailto:a@b.c"}}, 400, "IR_07", "webhook_details.webhook_url"},
		{"webhook status", "POST", base, map[string]any{"webhook_details": map[string]any{"payment_statuses_enabled": []string{"review"}}}, 400, "IR_07", "webhook_details.payment_statuses_enabled[0]"},
		{"webhook internal field", "POST", base, map[string]any{"webhook_details": map[string]any{"delivery_disabled": true}}, 400, "IR_06", "delivery_disabled"},
		{"metadata wrong type", "POST", base, map[string]any{"metadata": []int{1}}, 400, "IR_06", "metadata"},
		{"unknown field", "POST", base, map[string]any{"profile_label": "x"}, 400, "IR_06", "profile_label"},
		{"malformed json", "POST", base, `{"profile_name":`, 400, "IR_06", ""},
		{"update unknown profile", "POST", base + "/pro_nope", map[string]any{}, 404, "HE_02", "pro_nope"},
		{"update bad value", "POST", base + "/" + pid, map[string]any{"session_expiry": -5}, 400, "IR_07", "session_expiry"},
		{"retrieve unknown profile", "GET", base + "/pro_nope", nil, 404, "HE_02", "pro_nope"},
		{"delete unknown profile", "DELETE", base + "/pro_nope", nil, 404, "HE_02", "pro_nope"},
		{"delete default profile", "DELETE", base + "/" + pid, nil, 400, "IR_16", "default profile"},
		{"unknown merchant", "POST", "/account/merchant_nope/business_profile", map[string]any{}, 404, "HE_02", "Merchant account"},
		{"list unknown merchant", "GET", "/account/merchant_nope/business_profile", nil, 404, "HE_02", "Merchant account"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, method := key, tc.method
			if method == "" {
				k, method = "", "POST"
			}
			if method == "DELETE" || strings.Contains(tc.path, "merchant_nope") {
				k = c.admin()
			}
			r := c.do(method, tc.path, k, tc.body)
			msg := r.str("error", "message")
			if r.Status != tc.status || r.errCode() != tc.code || msg == "" {
				t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
			if !strings.Contains(msg, tc.field) {
				t.Fatalf("message %q does not name %s", msg, tc.field)
			}
		})
	}
	// Only the demo's default profile exists: every refused create changed nothing.
	if ps := c.do("GET", base, key, nil).must(t, 200); len(ps.Body.([]any)) != 1 {
		t.Fatalf("refused requests created profiles: %s", ps.Raw)
	}
}

// TestProfileCrossTenant: a merchant's key on another merchant's account_id
// or profile_id is 404 HE_02 and shows nothing, on every route.
func TestProfileCrossTenant(t *testing.T) {
	c := newClient(t)
	admin := c.admin()
	a, aKey, aProfile := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey, c.srv.Demo.ProfileID
	b := c.do("POST", "/accounts", admin, map[string]any{"merchant_id": "merchant_b"}).must(t, 200)
	bProfile := b.str("default_profile")
	bKey := c.do("POST", "/api_keys/merchant_b", admin, map[string]any{"name": "b", "expiration": "never"}).must(t, 200).str("api_key")
	bExtra := c.do("POST", "/account/merchant_b/business_profile", bKey, map[string]any{"profile_name": "extra"}).must(t, 200).str("profile_id")

	type attempt struct {
		key, method, path string
		body              any
	}
	var attempts []attempt
	for _, side := range []struct{ key, own, other, otherProfile string }{
		{aKey, a, "merchant_b", bProfile},
		{bKey, "merchant_b", a, aProfile},
	} {
		attempts = append(attempts,
			// The other merchant's account id, with its own and the other's profile ids.
			attempt{side.key, "POST", "/account/" + side.other + "/business_profile", map[string]any{"profile_name": "intruder"}},
			attempt{side.key, "GET", "/account/" + side.other + "/business_profile", nil},
			attempt{side.key, "GET", "/account/" + side.other + "/business_profile/" + side.otherProfile, nil},
			attempt{side.key, "POST", "/account/" + side.other + "/business_profile/" + side.otherProfile, map[string]any{"profile_name": "hijacked"}},
			// Its own account id with the other merchant's profile id.
			attempt{side.key, "GET", "/account/" + side.own + "/business_profile/" + side.otherProfile, nil},
			attempt{side.key, "POST", "/account/" + side.own + "/business_profile/" + side.otherProfile, map[string]any{"profile_name": "hijacked"}},
		)
	}
	// The admin key on one merchant's route with the other's profile id.
	attempts = append(attempts,
		attempt{admin, "GET", "/account/" + a + "/business_profile/" + bExtra, nil},
		attempt{admin, "POST", "/account/" + a + "/business_profile/" + bExtra, map[string]any{"profile_name": "hijacked"}},
		attempt{admin, "DELETE", "/account/" + a + "/business_profile/" + bExtra, nil},
	)
	for _, at := range attempts {
		r := c.do(at.method, at.path, at.key, at.body)
		if r.Status != 404 || r.errCode() != "HE_02" {
			t.Errorf("%s %s: %d %s", at.method, at.path, r.Status, r.Raw)
		}
		for _, leak := range []string{"hash_key", bProfile, aProfile} {
			if strings.Contains(string(r.Raw), leak) && !strings.Contains(at.path, leak) {
				t.Errorf("%s %s leaks %s: %s", at.method, at.path, leak, r.Raw)
			}
		}
	}
	// Nothing changed on either side.
	for _, side := range []struct{ m, key string }{{a, aKey}, {"merchant_b", bKey}} {
		ps := c.do("GET", "/account/"+side.m+"/business_profile", side.key, nil).must(t, 200)
		for _, p := range ps.Body.([]any) {
			if name := p.(map[string]any)["profile_name"]; name == "intruder" || name == "hijacked" {
				t.Errorf("%s has a profile named %v", side.m, name)
			}
		}
	}
	if ps := c.do("GET", "/account/merchant_b/business_profile", bKey, nil).must(t, 200); len(ps.Body.([]any)) != 2 {
		t.Errorf("merchant_b profiles: %s", ps.Raw)
	}
}

// TestConcurrentCreates: racing creates of one profile name, or of one
// merchant id, make exactly one; the others get HE_01, never a 500.
func TestConcurrentCreates(t *testing.T) {
	c := newClient(t)
	m, key := c.srv.Demo.MerchantID, c.srv.Demo.SecretKey
	const n = 8
	race := func(do func() response) map[string]int {
		results := make(chan response, n)
		for range n {
			go func() { results <- do() }()
		}
		got := map[string]int{}
		for range n {
			r := <-results
			got[fmt.Sprintf("%d %s", r.Status, r.errCode())]++
		}
		return got
	}
	want := map[string]int{"200 ": 1, "400 HE_01": n - 1}
	profiles := race(func() response {
		return c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{"profile_name": "racy"})
	})
	if !maps.Equal(profiles, want) {
		t.Errorf("profile races: %v", profiles)
	}
	merchants := race(func() response {
		return c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": "merchant_racy"})
	})
	if !maps.Equal(merchants, want) {
		t.Errorf("merchant races: %v", merchants)
	}
	// Unnamed creates all succeed with distinct generated names.
	unnamed := race(func() response {
		return c.do("POST", "/account/"+m+"/business_profile", key, map[string]any{})
	})
	if unnamed["200 "] != n {
		t.Errorf("unnamed creates: %v", unnamed)
	}
	names := map[string]bool{}
	for _, p := range c.do("GET", "/account/"+m+"/business_profile", key, nil).must(t, 200).Body.([]any) {
		name := p.(map[string]any)["profile_name"].(string)
		if names[name] {
			t.Errorf("two profiles named %s", name)
		}
		names[name] = true
	}
}
