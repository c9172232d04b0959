package rest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"switchyard/internal/ids"
)

// BenchmarkRoutingCost is what routing costs a payment: create+confirm
// (16 clients, an Idempotency-Key each, automatic capture) on a profile with
// two connector accounts, with no routing configuration (the fallback
// order) and under each kind of configuration, on one server and database.
// A shared 2-core machine drifts by more than the cost being measured, so
// each kind runs as rounds that alternate an unrouted batch and a routed
// one; a round's ratio is routed ÷ unrouted time, and the kind reports the
// median of its rounds (ratio; 1.05 is 5% slower) with the payments/s of
// both sides. Routing adds no SQL statement (TestRoutingStatements), so
// what it can cost is a Redis read (the version; the outcome window for
// dynamic routing) and the decision's CPU.
//
//	SWITCHYARD_TEST_MYSQL_DSN='root@tcp(127.0.0.1:3306)/' \
//	SWITCHYARD_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \
//	go test ./rest -run '^$' -bench RoutingCost -benchtime 1x
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
	dynamic := "/account/" + demo.MerchantID + "/business_profile/" + demo.ProfileID + "/dynamic_routing/"
	kinds := []struct {
		name      string
		algorithm map[string]any
		dynamic   bool
	}{
		{"volume_split", map[string]any{"type": "volume_split", "data": []map[string]any{
			{"connector": map[string]any{"connector": "stripe_test"}, "split": 50},
			{"connector": map[string]any{"connector": "adyen", "merchant_connector_id": second}, "split": 50}}}, false},
		{"priority", map[string]any{"type": "priority", "data": []map[string]any{
			{"connector": "adyen", "merchant_connector_id": second}, {"connector": "stripe_test"}}}, false},
		{"advanced", advancedBenchProgram(20), false},
		// Success-rate and elimination routing over a priority list: the
		// candidates' outcomes read in one pipeline per decision, one
		// script call per settled attempt.
		{"dynamic", map[string]any{"type": "priority", "data": []map[string]any{
			{"connector": "adyen", "merchant_connector_id": second}, {"connector": "stripe_test"}}}, true},
	}
	deactivate := func(dynamicToo bool) {
		call("POST", "/routing/deactivate", map[string]any{})
		if dynamicToo {
			call("POST", dynamic+"success_based/toggle?enable=none", nil)
			call("POST", dynamic+"elimination/toggle?enable=none", nil)
		}
	}
	const rounds, batch = 7, 300
	pay := newPaymentBatch(b, env)
	pay(batch) // warm the pools and caches
	for _, k := range kinds {
		id := call("POST", "/routing", map[string]any{"name": k.name, "algorithm": k.algorithm})["id"].(string)
		b.Run(k.name, func(b *testing.B) {
			var ratios []float64
			var plain, routed time.Duration
			for r := range rounds {
				if r > 0 {
					deactivate(k.dynamic)
				}
				off := pay(batch)
				call("POST", "/routing/"+id+"/activate", nil)
				if k.dynamic {
					call("POST", dynamic+"success_based/toggle?enable=dynamic_connector_selection", nil)
					call("POST", dynamic+"elimination/toggle?enable=dynamic_connector_selection", nil)
				}
				on := pay(batch)
				ratios = append(ratios, float64(on)/float64(off))
				plain, routed = plain+off, routed+on
			}
			deactivate(k.dynamic) // as found: -count runs this again
			slices.Sort(ratios)
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(ratios[len(ratios)/2], "ratio")
			b.ReportMetric(ratios[0], "min-ratio")
			b.ReportMetric(ratios[len(ratios)-1], "max-ratio")
			b.ReportMetric(float64(rounds*batch)/routed.Seconds(), "routed-payments/s")
			b.ReportMetric(float64(rounds*batch)/plain.Seconds(), "unrouted-payments/s")
		})
	}
}

// newPaymentBatch returns a function that makes n create+confirm calls
// (card 4242…, an Idempotency-Key each) from 16 clients and answers how
// long they took; any failure fails b.
func newPaymentBatch(b *testing.B, env *benchEnv) func(n int) time.Duration {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	hc := &http.Client{Transport: tr}
	b.Cleanup(tr.CloseIdleConnections)
	body, _ := json.Marshal(map[string]any{"amount": 1000, "currency": "USD", "confirm": true,
		"capture_method": "automatic", "payment_method_data": card("4242424242424242")})
	url, key := env.srv.URL+"/payments", env.srv.Demo.SecretKey
	return func(n int) time.Duration {
		const clients = 16
		jobs := make(chan struct{}, n)
		for range n {
			jobs <- struct{}{}
		}
		close(jobs)
		var wg sync.WaitGroup
		var failed sync.Once
		start := time.Now()
		for range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range jobs {
					req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
					req.Header.Set("api-key", key)
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Idempotency-Key", "bench-"+ids.Base62(20))
					resp, err := hc.Do(req)
					if err != nil {
						failed.Do(func() { b.Error(err) })
						return
					}
					raw, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"status":"succeeded"`)) {
						failed.Do(func() { b.Errorf("create+confirm: %d %s", resp.StatusCode, raw) })
						return
					}
				}
			}()
		}
		wg.Wait()
		return time.Since(start)
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
