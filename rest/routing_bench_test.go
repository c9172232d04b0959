package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"testing"
)

// BenchmarkRoutingCost is what routing costs a payment: create+confirm
// (benchCreateConfirm: 16 clients, an Idempotency-Key each) on a profile
// with two connector accounts, first with no routing configuration (the
// fallback order), then under each kind of configuration, on the same
// server and database; each routed run reports its ratio to the unrouted
// one. Routing adds no SQL statement (TestRoutingStatements), so what is
// left is the Redis version check and the decision's CPU.
//
//	SWITCHYARD_TEST_MYSQL_DSN='root@tcp(127.0.0.1:3306)/' \
//	SWITCHYARD_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \
//	go test ./rest -run '^$' -bench RoutingCost -benchtime 3000x -count 3
func BenchmarkRoutingCost(b *testing.B) {
	env := newBenchEnv(b)
	demo := env.srv.Demo
	call := func(method, path string, body any) map[string]any {
		b.Helper()
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, env.srv.URL+path, bytes.NewReader(raw))
		req.Header.Set("api-key", demo.SecretKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			b.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, out)
		}
		var m map[string]any
		_ = json.Unmarshal(out, &m)
		return m
	}
	second := call("POST", "/account/"+demo.MerchantID+"/connectors", map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen", "profile_id": demo.ProfileID,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_bench_adyen"},
	})["merchant_connector_id"].(string)
	configs := []struct {
		name      string
		algorithm map[string]any
	}{
		{"volume_split", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "stripe_test"}, "split": 50},
			{"connector": map[string]any{"connector": "adyen", "merchant_connector_id": second}, "split": 50}}}},
		{"priority", map[string]any{"type": "priority", "data": []map[string]any{
			{"connector": "adyen", "merchant_connector_id": second}, {"connector": "stripe_test"}}}},
		{"advanced", advancedBenchProgram(20)},
	}
	var unrouted benchResult
	b.Run("unrouted", func(b *testing.B) { unrouted = benchCreateConfirm(b, env) })
	for _, cfg := range configs {
		id := call("POST", "/routing", map[string]any{"name": cfg.name, "algorithm": cfg.algorithm})["id"].(string)
		call("POST", "/routing/"+id+"/activate", nil)
		var routed benchResult
		b.Run(cfg.name, func(b *testing.B) { routed = benchCreateConfirm(b, env) })
		if unrouted.n > 0 && routed.n > 0 {
			b.Logf("%s: %.0f payments/s against %.0f unrouted: %.3f× the time per payment",
				cfg.name, 1e9/routed.nsPerOp(), 1e9/unrouted.nsPerOp(), routed.nsPerOp()/unrouted.nsPerOp())
		}
	}
	// Success-rate and elimination routing over the last configuration:
	// the candidates' outcomes read in one pipeline per decision, and one
	// script call per settled attempt.
	base := "/account/" + demo.MerchantID + "/business_profile/" + demo.ProfileID + "/dynamic_routing/"
	call("POST", base+"success_based/toggle?enable=dynamic_connector_selection", nil)
	call("POST", base+"elimination/toggle?enable=dynamic_connector_selection", nil)
	var dynamic benchResult
	b.Run("dynamic", func(b *testing.B) { dynamic = benchCreateConfirm(b, env) })
	if unrouted.n > 0 && dynamic.n > 0 {
		b.Logf("dynamic: %.0f payments/s against %.0f unrouted: %.3f× the time per payment",
			1e9/dynamic.nsPerOp(), 1e9/unrouted.nsPerOp(), dynamic.nsPerOp()/unrouted.nsPerOp())
	}
	// Unrouted again, to bracket the run's drift (the database grows).
	call("POST", base+"success_based/toggle?enable=none", nil)
	call("POST", base+"elimination/toggle?enable=none", nil)
	call("POST", "/routing/deactivate", map[string]any{})
	var again benchResult
	b.Run("unrouted_again", func(b *testing.B) { again = benchCreateConfirm(b, env) })
	if unrouted.n > 0 && again.n > 0 {
		b.Logf("unrouted at the end: %.0f payments/s against %.0f at the start", 1e9/again.nsPerOp(), 1e9/unrouted.nsPerOp())
	}
}

// advancedBenchProgram is an advanced configuration of n rules, none of
// which holds for the benchmark's payments (USD 10.00, no metadata): each
// decision walks every condition before its default selection.
func advancedBenchProgram(n int) map[string]any {
	var rules []map[string]any
	for i := range n {
		rules = append(rules, ruleOf(fmt.Sprint("rule ", i), priorityOf("adyen"),
			when(cond("amount", "greater_than", "number", 1), cond("currency", "equal", "enum_variant_array", []string{"EUR", "GBP"})),
			when(cond("metadata", "equal", "metadata_variant", map[string]any{"key": "tier", "value": fmt.Sprint("t", i)}))))
	}
	return program(priorityOf("stripe_test"), rules...)
}
