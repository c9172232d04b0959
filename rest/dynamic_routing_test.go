package rest_test

import (
	"net/url"
	"strings"
	"testing"
	"time"
)

// dynamicPath is a dynamic routing route of the merchant's profile.
func (m routedMerchant) dynamicPath(merchantID, rest string) string {
	return "/account/" + merchantID + "/business_profile/" + m.profileID + "/dynamic_routing/" + rest
}

// setFailureRate makes the sandbox decline that share of the account's payments.
func (m routedMerchant) setFailureRate(t *testing.T, c *client, merchantID, mcaID string, rate float64) {
	t.Helper()
	c.do("POST", "/account/"+merchantID+"/connectors/"+mcaID, m.key, map[string]any{"connector_type": "payment_processor",
		"metadata": map[string]any{"sandbox": map[string]any{"failure_rate": rate}}}).must(t, 200)
}

// payTo pays with a good card and answers the connector that took it
// (whatever the outcome).
func (m routedMerchant) payTo(t *testing.T, c *client) (connector, approach string) {
	t.Helper()
	r := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200)
	return r.str("connector"), r.str("status")
}

// share pays n times and answers how many went to connector.
func (m routedMerchant) share(t *testing.T, c *client, n int, connector string) int {
	t.Helper()
	got := 0
	for range n {
		if to, _ := m.payTo(t, c); to == connector {
			got++
		}
	}
	return got
}

// TestDynamicRoutingConfig: the toggle, create and config routes answer a
// routing record of kind dynamic; bad configurations are 400s naming the
// member; another merchant's account or another profile is not found.
func TestDynamicRoutingConfig(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_cfg"
	m := newRoutedMerchant(t, c, id)

	r := c.do("POST", m.dynamicPath(id, "success_based/toggle?enable=metrics"), m.key, nil).must(t, 200)
	if r.str("kind") != "dynamic" || r.str("profile_id") != m.profileID || r.str("id") == "" {
		t.Fatalf("toggle: %s", r.Raw)
	}
	srID := r.str("id")
	if again := c.do("POST", m.dynamicPath(id, "success_based/toggle?enable=dynamic_connector_selection"), m.key, nil).must(t, 200); again.str("id") != srID {
		t.Fatalf("toggling again keeps the configuration: %s", again.Raw)
	}
	got := c.do("GET", "/routing/"+srID, m.key, nil).must(t, 200)
	if cfg, _ := got.obj()["algorithm"].(map[string]any)["config"].(map[string]any); cfg["max_aggregates_size"] != float64(8) {
		t.Fatalf("stored defaults: %s", got.Raw)
	}
	patched := c.do("PATCH", m.dynamicPath(id, "success_based/config/"+srID), m.key, map[string]any{
		"config": map[string]any{"min_aggregates_size": 1, "max_aggregates_size": 3, "exploration_percent": 5}}).must(t, 200)
	if patched.str("id") == srID || patched.str("kind") != "dynamic" {
		t.Fatalf("patch: %s", patched.Raw)
	}
	got = c.do("GET", "/routing/"+patched.str("id"), m.key, nil).must(t, 200)
	if cfg, _ := got.obj()["algorithm"].(map[string]any)["config"].(map[string]any); cfg["max_aggregates_size"] != float64(3) ||
		cfg["default_success_rate"] != float64(100) {
		t.Fatalf("patched config keeps the rest: %s", got.Raw)
	}
	c.do("POST", m.dynamicPath(id, "success_based/toggle?enable=none"), m.key, nil).must(t, 200)
	if r := c.do("POST", m.dynamicPath(id, "success_based/toggle?enable=none"), m.key, nil); r.Status != 400 {
		t.Fatalf("disabling twice: %d %s", r.Status, r.Raw)
	}
	el := c.do("POST", m.dynamicPath(id, "elimination/create?enable=metrics"), m.key, map[string]any{
		"elimination_analyser_config": map[string]any{"bucket_size": 3, "bucket_leak_interval_in_secs": 2},
		"decision_engine_configs":     map[string]any{"threshold": 0.3}}).must(t, 200)
	if el.str("kind") != "dynamic" {
		t.Fatalf("elimination: %s", el.Raw)
	}
	if r := c.do("POST", "/routing/"+el.str("id")+"/activate", m.key, nil); r.Status != 400 {
		t.Fatalf("activating a dynamic configuration as a static one: %d %s", r.Status, r.Raw)
	}

	for _, tc := range []struct {
		name, path string
		body       any
		member     string
	}{
		{"no enable", "success_based/toggle", nil, "enable"},
		{"bad enable", "success_based/toggle?enable=always", nil, "enable"},
		{"min above max", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"min_aggregates_size": 9, "max_aggregates_size": 3}}, "config.min_aggregates_size"},
		{"no window", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"min_aggregates_size": 0, "max_aggregates_size": 0}}, "config.max_aggregates_size"},
		{"rate above 100", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"default_success_rate": 101}}, "config.default_success_rate"},
		{"negative exploration", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"exploration_percent": -1}}, "config.exploration_percent"},
		{"negative duration", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"current_block_threshold": map[string]any{"duration_in_mins": -1}}}, "config.current_block_threshold.duration_in_mins"},
		{"empty block", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"current_block_threshold": map[string]any{"max_total_count": 0}}}, "config.current_block_threshold.max_total_count"},
		{"huge window", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"max_aggregates_size": 1000, "current_block_threshold": map[string]any{"max_total_count": 1000}}}, "config.max_aggregates_size"},
		{"bad specificity", "success_based/create?enable=metrics", map[string]any{"config": map[string]any{"specificity_level": "planet"}}, "config.specificity_level"},
		{"bad param", "success_based/create?enable=metrics", map[string]any{"params": []string{"Weather"}}, "params[0]"},
		{"empty bucket", "elimination/create?enable=metrics", map[string]any{"elimination_analyser_config": map[string]any{"bucket_size": 0}}, "elimination_analyser_config.bucket_size"},
		{"threshold above 1", "elimination/create?enable=metrics", map[string]any{"decision_engine_configs": map[string]any{"threshold": 2}}, "decision_engine_configs.threshold"},
		{"patch min above max", "success_based/config/" + patched.str("id"), map[string]any{"config": map[string]any{"min_aggregates_size": 4}}, "config.min_aggregates_size"},
	} {
		method := "POST"
		if tc.name == "patch min above max" {
			method = "PATCH"
		}
		r := c.do(method, m.dynamicPath(id, tc.path), m.key, tc.body)
		if r.Status != 400 || !strings.Contains(r.str("error", "message"), tc.member) {
			t.Errorf("%s: %d %s, want a 400 naming %s", tc.name, r.Status, r.Raw, tc.member)
		}
	}
	if r := c.do("PATCH", m.dynamicPath(id, "success_based/config/"+el.str("id")), m.key, map[string]any{}); r.Status != 404 {
		t.Fatalf("patching an elimination configuration as success-based: %d %s", r.Status, r.Raw)
	}

	other := newRoutedMerchant(t, c, "merchant_dynamic_other")
	if r := c.do("POST", m.dynamicPath("merchant_dynamic_other", "success_based/toggle?enable=metrics"), m.key, nil); r.Status != 404 {
		t.Fatalf("another merchant's account: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", other.dynamicPath(id, "success_based/toggle?enable=metrics"), m.key, nil); r.Status != 404 {
		t.Fatalf("another merchant's profile: %d %s", r.Status, r.Raw)
	}
	if r := c.do("PATCH", m.dynamicPath(id, "success_based/config/"+url.PathEscape("routing_nope")), m.key, map[string]any{}); r.Status != 404 {
		t.Fatalf("unknown configuration: %d %s", r.Status, r.Raw)
	}
}

// TestSuccessRateRouting: with dynamic connector selection, a connector
// that declines most payments loses the traffic to the other; once it
// recovers, exploration brings traffic back to it.
func TestSuccessRateRouting(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_sr"
	m := newRoutedMerchant(t, c, id)
	// A window of the last 4 outcomes, rated from 2, no exploration yet.
	sr := c.do("POST", m.dynamicPath(id, "success_based/create?enable=dynamic_connector_selection"), m.key, map[string]any{
		"config": map[string]any{"min_aggregates_size": 2, "max_aggregates_size": 4, "default_success_rate": 100,
			"exploration_percent": 0, "current_block_threshold": map[string]any{"max_total_count": 1}}}).must(t, 200)
	m.setFailureRate(t, c, id, m.stripeID, 0.9)
	m.share(t, c, 6, "stripe_test") // warm-up
	if got := m.share(t, c, 20, "adyen"); got < 14 {
		t.Fatalf("a failing connector keeps the traffic: %d of 20 to adyen", got)
	}

	m.setFailureRate(t, c, id, m.stripeID, 0)
	c.do("PATCH", m.dynamicPath(id, "success_based/config/"+sr.str("id")), m.key, map[string]any{
		"config": map[string]any{"exploration_percent": 50}}).must(t, 200)
	if got := m.share(t, c, 40, "stripe_test"); got < 8 {
		t.Fatalf("a recovered connector gets no traffic back: %d of 40", got)
	}
}

// TestEliminationRouting: a connector whose bucket fills with failures is
// taken out; after the cool-down it is tried again.
func TestEliminationRouting(t *testing.T) {
	c := newClient(t)
	const id = "merchant_dynamic_el"
	m := newRoutedMerchant(t, c, id)
	c.do("POST", m.dynamicPath(id, "elimination/create?enable=dynamic_connector_selection"), m.key, map[string]any{
		"elimination_analyser_config": map[string]any{"bucket_size": 2, "bucket_leak_interval_in_secs": 1},
		"decision_engine_configs":     map[string]any{"threshold": 0.5}}).must(t, 200)
	m.setFailureRate(t, c, id, m.stripeID, 1)
	for i := range 2 {
		if to, status := m.payTo(t, c); to != "stripe_test" || status != "failed" {
			t.Fatalf("payment %d before elimination: %s %s", i, to, status)
		}
	}
	if got := m.share(t, c, 5, "adyen"); got != 5 {
		t.Fatalf("after two failures: %d of 5 to adyen", got)
	}
	m.setFailureRate(t, c, id, m.stripeID, 0)
	c.srv.Clock.Advance(1100 * time.Millisecond) // past the cool-down: 1 s
	if to, status := m.payTo(t, c); to != "stripe_test" || status != "succeeded" {
		t.Fatalf("after the cool-down: %s %s, want stripe_test back", to, status)
	}
}

// TestDynamicRoutingSharedOutcomes: two processes on one database and one
// Redis see the same outcomes: failures recorded through one eliminate the
// connector for the other.
func TestDynamicRoutingSharedOutcomes(t *testing.T) {
	one, two := twoProcesses(t)
	const id = "merchant_dynamic_shared"
	newRoutedMerchant(t, one, id).eliminatedAcross(t, one, two, id)
}

// eliminatedAcross: with elimination routing on, two failures of
// stripe_test through one process take it out for the other, whose next
// three payments go to adyen.
func (m routedMerchant) eliminatedAcross(t *testing.T, one, two *client, merchantID string) {
	t.Helper()
	one.do("POST", m.dynamicPath(merchantID, "elimination/create?enable=dynamic_connector_selection"), m.key, map[string]any{
		"elimination_analyser_config": map[string]any{"bucket_size": 2, "bucket_leak_interval_in_secs": 3600},
		"decision_engine_configs":     map[string]any{"threshold": 0.5}}).must(t, 200)
	if to, _ := m.payTo(t, two); to != "stripe_test" {
		t.Fatalf("before: %s", to)
	}
	m.setFailureRate(t, one, merchantID, m.stripeID, 1)
	for range 2 {
		if to, status := m.payTo(t, one); to != "stripe_test" || status != "failed" {
			t.Fatalf("through one: %s %s", to, status)
		}
	}
	if got := m.share(t, two, 3, "adyen"); got != 3 {
		t.Fatalf("the other process: %d of 3 to adyen", got)
	}
}
