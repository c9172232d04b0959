package rest_test

import "testing"

// TestProfileAcquirers: an acquirer configuration is created on the
// merchant's profile and updated; another merchant's profile, or an
// unknown acquirer, is 404; a missing member is IR_04. The profile shows
// its acquirers as acquirer_configs.
func TestProfileAcquirers(t *testing.T) {
	c := newClient(t)
	key, profile := c.merchantKey(), c.srv.Demo.ProfileID
	other, otherKey, otherProfile := otherMerchant(t, c, "merchant_acquirer_other")
	body := map[string]any{"acquirer_assigned_merchant_id": "M123456789", "merchant_name": "NewAge Retailer",
		"network": "VISA", "acquirer_bin": "456789", "acquirer_ica": "401288", "acquirer_fraud_rate": 0.01,
		"acquirer_country_code": "US", "profile_id": profile, "is_default": true}
	r := c.do("POST", "/profile_acquirers", key, body).must(t, 200)
	id := r.str("profile_acquirer_id")
	if id == "" || r.str("profile_id") != profile || r.str("network") != "VISA" || r.obj()["is_default"] != true {
		t.Fatalf("create: %s", r.Raw)
	}
	upd := c.do("POST", "/profile_acquirers/"+profile+"/"+id, key, map[string]any{"network": "MASTERCARD",
		"acquirer_bin": "987654"}).must(t, 200)
	if upd.str("network") != "MASTERCARD" || upd.str("acquirer_bin") != "987654" || upd.str("merchant_name") != "NewAge Retailer" {
		t.Fatalf("update: %s", upd.Raw)
	}
	// A second default takes the place of the first.
	second := c.do("POST", "/profile_acquirers", key, body).must(t, 200)
	if second.obj()["is_default"] != true {
		t.Fatalf("second: %s", second.Raw)
	}
	if again := c.do("POST", "/profile_acquirers/"+profile+"/"+id, key, map[string]any{}).must(t, 200); again.obj()["is_default"] != false {
		t.Fatalf("the first is still the default: %s", again.Raw)
	}
	if r := c.do("POST", "/profile_acquirers", otherKey, body); r.Status != 404 {
		t.Fatalf("another merchant's profile: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/profile_acquirers/"+profile+"/"+id, otherKey, map[string]any{"network": "X"}); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("another merchant's acquirer: %d %s", r.Status, r.Raw)
	}
	missing := map[string]any{"merchant_name": "x", "network": "VISA", "acquirer_bin": "1", "profile_id": profile}
	if r := c.do("POST", "/profile_acquirers", key, missing); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("missing acquirer_assigned_merchant_id: %d %s", r.Status, r.Raw)
	}

	// The profile shows its acquirers (acquirer_configs, oldest first) when
	// it is read, listed and updated; a profile without any shows null.
	base := "/account/" + c.srv.Demo.MerchantID + "/business_profile"
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"retrieve", "GET", base + "/" + profile, nil},
		{"list", "GET", base, nil},
		{"update", "POST", base + "/" + profile, map[string]any{"metadata": map[string]any{"line": "acquired"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, key, tc.body).must(t, 200)
			prof := r.obj()
			if items, ok := r.Body.([]any); ok && len(items) > 0 {
				prof, _ = items[0].(map[string]any)
			}
			configs, _ := prof["acquirer_configs"].([]any)
			if len(configs) != 2 {
				t.Fatalf("acquirer_configs: %s", r.Raw)
			}
			first, _ := configs[0].(map[string]any)
			if first["profile_acquirer_id"] != id || first["network"] != "MASTERCARD" || first["is_default"] != false ||
				configs[1].(map[string]any)["profile_acquirer_id"] != second.str("profile_acquirer_id") {
				t.Fatalf("acquirer_configs: %v", configs)
			}
		})
	}
	none := c.do("GET", "/account/"+other+"/business_profile/"+otherProfile, otherKey, nil).must(t, 200)
	if v, ok := none.obj()["acquirer_configs"]; !ok || v != nil {
		t.Fatalf("a profile without acquirers: %s", none.Raw)
	}
}
