package rest_test

import (
	"strings"
	"testing"
)

// TestContractRouting: with contracts on, the account still below its
// target this period takes the payments until it meets it; then the
// static order (the fallback's oldest first) stands again.
func TestContractRouting(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_contract"
	m := newRoutedMerchant(t, c, id)
	if to := m.connectorOf(t, c); to != "stripe_test" {
		t.Fatalf("static order: %s", to)
	}
	r := c.do("POST", m.dynamicPath(id, "contracts/toggle?enable=dynamic_connector_selection"), m.key, map[string]any{
		"config":     map[string]any{"time_scale": "day", "constants": []float64{0.7, 0.35}},
		"label_info": []any{map[string]any{"label": "adyen", "target_count": 3, "target_time": 86400, "mca_id": m.adyenID}},
	}).must(t, 200)
	if r.str("kind") != "dynamic" || r.str("profile_id") != m.profileID {
		t.Fatalf("toggle: %s", r.Raw)
	}
	for i := range 3 {
		p := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card("4242424242424242")})).must(t, 200)
		if p.str("connector") != "adyen" || p.str("status") != "succeeded" {
			t.Fatalf("payment %d while adyen is below its contract: %s %s", i, p.str("connector"), p.str("status"))
		}
	}
	if to := m.connectorOf(t, c); to != "stripe_test" {
		t.Fatalf("after the contract is met: %s", to)
	}

	// Raising the target sends traffic back to adyen.
	patched := c.do("PATCH", m.dynamicPath(id, "contracts/config/"+r.str("id")), m.key, map[string]any{
		"label_info": []any{map[string]any{"label": "adyen", "target_count": 5, "target_time": 0, "mca_id": m.adyenID}},
	}).must(t, 200)
	if patched.str("id") == r.str("id") {
		t.Fatalf("a changed configuration is a new one: %s", patched.Raw)
	}
	if to := m.connectorOf(t, c); to != "adyen" {
		t.Fatalf("after raising the target: %s", to)
	}
	got := c.do("GET", "/routing/"+patched.str("id"), m.key, nil).must(t, 200)
	if !strings.Contains(string(got.Raw), `"target_count":5`) || !strings.Contains(string(got.Raw), `"time_scale":"day"`) {
		t.Fatalf("stored configuration: %s", got.Raw)
	}

	// Disabled, the static order stands.
	c.do("POST", m.dynamicPath(id, "contracts/toggle?enable=none"), m.key, map[string]any{}).must(t, 200)
	if to := m.connectorOf(t, c); to != "stripe_test" {
		t.Fatalf("disabled: %s", to)
	}
	if r := c.do("POST", m.dynamicPath(id, "contracts/toggle?enable=none"), m.key, map[string]any{}); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("disabling twice: %s", r.Raw)
	}
}

// TestContractRoutingRefusals: bad configurations are 400s naming the
// member; another kind's id or another profile is not found.
func TestContractRoutingRefusals(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_contract_bad"
	m := newRoutedMerchant(t, c, id)
	label := func(count int) map[string]any {
		return map[string]any{"label_info": []any{map[string]any{"label": "a", "target_count": count, "target_time": 0, "mca_id": m.adyenID}}}
	}
	sr := c.do("POST", m.dynamicPath(id, "success_based/toggle?enable=metrics"), m.key, nil).must(t, 200)
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		mention            string
	}{
		{"no enable", "POST", "contracts/toggle", label(1), 400, "enable"},
		{"bad enable", "POST", "contracts/toggle?enable=always", label(1), 400, "enable"},
		{"negative target", "POST", "contracts/toggle?enable=metrics", label(-1), 400, "label_info[0].target_count"},
		{"huge target", "POST", "contracts/toggle?enable=metrics", label(10001), 400, "label_info[0].target_count"},
		{"bad time scale", "POST", "contracts/toggle?enable=metrics", map[string]any{"config": map[string]any{"time_scale": "year"}}, 400, "time_scale"},
		{"success-rate id", "PATCH", "contracts/config/" + sr.str("id"), label(1), 404, "Routing algorithm"},
		{"unknown id", "PATCH", "contracts/config/routing_nope", label(1), 404, "Routing algorithm"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, m.dynamicPath(id, tc.path), m.key, tc.body)
			if r.Status != tc.status || !strings.Contains(string(r.Raw), tc.mention) {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
}

// TestRoutingFeedback: outcomes fed back through POST /routing/feedback
// count as attempts' own: two failures on stripe_test eliminate it.
func TestRoutingFeedback(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_feedback"
	m := newRoutedMerchant(t, c, id)
	c.do("POST", m.dynamicPath(id, "elimination/create?enable=dynamic_connector_selection"), m.key, map[string]any{
		"elimination_analyser_config": map[string]any{"bucket_size": 2, "bucket_leak_interval_in_secs": 3600},
		"decision_engine_configs":     map[string]any{"threshold": 0.5}}).must(t, 200)
	pay := c.do("POST", "/payments", m.key, payment(nil)).must(t, 200).str("payment_id")
	feedback := func(gateway, status string) response {
		return c.do("POST", "/routing/feedback", m.key, map[string]any{"merchantId": m.profileID, "gateway": gateway,
			"status": status, "paymentId": pay})
	}
	// A status that is no verdict records nothing.
	for range 3 {
		if r := feedback("stripe_test:"+m.stripeID, "PENDING").must(t, 200); r.str("message") != "Gateway score updated successfully" {
			t.Fatalf("feedback: %s", r.Raw)
		}
	}
	if to := m.connectorOf(t, c); to != "stripe_test" {
		t.Fatalf("after pending feedback: %s", to)
	}
	feedback("stripe_test:"+m.stripeID, "FAILURE").must(t, 200)
	feedback(m.stripeID, "DECLINED").must(t, 200) // the account id alone
	if to := m.connectorOf(t, c); to != "adyen" {
		t.Fatalf("after two failures fed back: %s", to)
	}

	other := newRoutedMerchant(t, c, "merchant_dynamic_feedback_other")
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"bad status", map[string]any{"merchantId": m.profileID, "gateway": m.stripeID, "status": "MAYBE", "paymentId": pay}, 400, "IR_07"},
		{"other merchant's profile", map[string]any{"merchantId": other.profileID, "gateway": other.stripeID, "status": "FAILURE", "paymentId": pay}, 404, "HE_02"},
		{"other merchant's account", map[string]any{"merchantId": m.profileID, "gateway": "stripe_test:" + other.stripeID, "status": "FAILURE", "paymentId": pay}, 404, "HE_02"},
		{"unknown payment", map[string]any{"merchantId": m.profileID, "gateway": m.stripeID, "status": "FAILURE", "paymentId": "pay_nope"}, 404, "HE_02"},
		{"missing gateway", map[string]any{"merchantId": m.profileID, "status": "FAILURE", "paymentId": pay}, 400, "IR_04"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", "/routing/feedback", m.key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("%d %s", r.Status, r.Raw)
			}
		})
	}
}
