package rest_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"entgo.io/ent/dialect"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// gqlData runs a GraphQL document with key and answers its data, failing
// the test on any error.
func (c *client) gqlData(t *testing.T, key, query string, vars map[string]any) map[string]any {
	t.Helper()
	r := c.do("POST", "/graphql", key, map[string]any{"query": query, "variables": vars}).must(t, 200)
	if errs, ok := r.obj()["errors"]; ok {
		t.Fatalf("graphql errors: %v\n%s", errs, r.Raw)
	}
	return r.obj()["data"].(map[string]any)
}

// gqlErrorCode runs a document that must fail and answers its first
// error's Hyperswitch code.
func (c *client) gqlErrorCode(t *testing.T, key, query string, vars map[string]any) string {
	t.Helper()
	r := c.do("POST", "/graphql", key, map[string]any{"query": query, "variables": vars})
	errs, _ := r.obj()["errors"].([]any)
	if len(errs) == 0 {
		t.Fatalf("want an error: %s", r.Raw)
	}
	code, _ := errs[0].(map[string]any)["extensions"].(map[string]any)["code"].(string)
	return code
}

const routingConfigFields = `id name kind profileID active algorithm`

// TestRoutingConfigurationsInGraphQL: the dashboard lists a profile's
// routing configurations as a connection, and creates, activates and
// deactivates them through the same domain calls as REST, with the same
// refusals; payments follow.
func TestRoutingConfigurationsInGraphQL(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_routing_gql")
	other := newRoutedMerchant(t, c, "merchant_routing_gql_other")

	create := `mutation($in: CreateRoutingAlgorithmInput!, $key: String) {
		createRoutingAlgorithm(input: $in, idempotencyKey: $key) { replayed routingAlgorithm { ` + routingConfigFields + ` } } }`
	input := map[string]any{"name": "adyen first", "profileID": m.profileID, "algorithm": map[string]any{
		"type": "priority", "data": []map[string]any{{"connector": "adyen", "merchant_connector_id": m.adyenID}, {"connector": "stripe_test"}}}}
	// Merchant ids repeat between runs on one Redis; the key must not.
	key := "create-" + ids.Base62(12)
	created := c.gqlData(t, m.key, create, map[string]any{"in": input, "key": key})["createRoutingAlgorithm"].(map[string]any)
	cfg := created["routingAlgorithm"].(map[string]any)
	if cfg["kind"] != "priority" || cfg["profileID"] != m.profileID || cfg["active"] != false || created["replayed"] != false {
		t.Fatalf("created: %v", created)
	}
	if data := cfg["algorithm"].(map[string]any)["data"].([]any); len(data) != 2 {
		t.Fatalf("algorithm as stored: %v", cfg["algorithm"])
	}
	id := cfg["id"].(string)
	replay := c.gqlData(t, m.key, create, map[string]any{"in": input, "key": key})["createRoutingAlgorithm"].(map[string]any)
	if replay["replayed"] != true || replay["routingAlgorithm"].(map[string]any)["id"] != id {
		t.Fatalf("replay: %v", replay)
	}
	// REST sees what GraphQL created, and the other way round.
	if r := c.do("GET", "/routing/"+id, m.key, nil).must(t, 200); r.str("name") != "adyen first" {
		t.Fatalf("REST get: %s", r.Raw)
	}
	restID := m.configure(t, c, "stripe only", map[string]any{"type": "single", "data": map[string]any{"connector": "stripe_test"}})

	list := `{ routingAlgorithms(first: 10, where: {profileID: "` + m.profileID + `"}) {
		totalCount edges { node { ` + routingConfigFields + ` } } } }`
	conn := c.gqlData(t, m.key, list, nil)["routingAlgorithms"].(map[string]any)
	edges := conn["edges"].([]any)
	if conn["totalCount"] != float64(2) || len(edges) != 2 || edges[0].(map[string]any)["node"].(map[string]any)["id"] != restID {
		t.Fatalf("connection, newest first: %v", conn)
	}

	activate := `mutation($id: ID!) { activateRoutingAlgorithm(id: $id) { routingAlgorithm { id active } } }`
	act := c.gqlData(t, m.key, activate, map[string]any{"id": id})["activateRoutingAlgorithm"].(map[string]any)
	if act["routingAlgorithm"].(map[string]any)["active"] != true {
		t.Fatalf("activated: %v", act)
	}
	if got := m.connectorOf(t, c); got != "adyen" {
		t.Fatalf("a payment after activating in GraphQL: %s", got)
	}
	if code := c.gqlErrorCode(t, m.key, activate, map[string]any{"id": id}); code != "IR_16" {
		t.Fatalf("activating the active one: %s", code)
	}
	deactivate := `mutation($p: ID) { deactivateRouting(profileID: $p) { routingAlgorithm { id active } } }`
	de := c.gqlData(t, m.key, deactivate, map[string]any{"p": m.profileID})["deactivateRouting"].(map[string]any)
	if r := de["routingAlgorithm"].(map[string]any); r["id"] != id || r["active"] != false {
		t.Fatalf("deactivated: %v", de)
	}
	if got := m.connectorOf(t, c); got != "stripe_test" {
		t.Fatalf("after deactivating, the first account: %s", got)
	}

	// Refusals are REST's: another merchant's account, an unknown kind, a
	// foreign or unknown configuration.
	foreign := map[string]any{"name": "foreign", "algorithm": map[string]any{"type": "single",
		"data": map[string]any{"connector": "adyen", "merchant_connector_id": other.adyenID}}}
	if code := c.gqlErrorCode(t, m.key, create, map[string]any{"in": foreign}); code != "IR_07" {
		t.Fatalf("another merchant's account: %s", code)
	}
	bad := map[string]any{"name": "bad", "algorithm": map[string]any{"type": "fastest", "data": []any{}}}
	if code := c.gqlErrorCode(t, m.key, create, map[string]any{"in": bad}); code != "IR_07" {
		t.Fatalf("an unknown kind: %s", code)
	}
	if code := c.gqlErrorCode(t, other.key, activate, map[string]any{"id": id}); code != "HE_02" {
		t.Fatalf("another merchant's configuration: %s", code)
	}
	if conn := c.gqlData(t, other.key, list, nil)["routingAlgorithms"].(map[string]any); conn["totalCount"] != float64(0) {
		t.Fatalf("another merchant sees: %v", conn)
	}
}

// TestConnectorSuccessRatesInGraphQL: the success rate per connector
// account over a window, whole and by hour, equals what the test counts
// from the payments it made; another merchant's payments do not count.
func TestConnectorSuccessRatesInGraphQL(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_rates")
	other := newRoutedMerchant(t, c, "merchant_rates_other")
	from := time.Now().UTC().Add(-time.Hour)

	type tally struct{ attempts, succeeded, failed int }
	want := map[string]*tally{m.stripeID: {}, m.adyenID: {}}
	pay := func(key, mcaID, number string) {
		name := "stripe_test"
		if mcaID == m.adyenID {
			name = "adyen"
		}
		r := c.do("POST", "/payments", key, payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card(number), "connector": []string{name}}))
		if r.Status != 200 {
			t.Fatalf("payment: %s", r.Raw)
		}
		if key != m.key {
			return
		}
		w := want[mcaID]
		w.attempts++
		switch r.str("status") {
		case "succeeded":
			w.succeeded++
		case "failed":
			w.failed++
		default:
			t.Fatalf("payment: %s", r.Raw)
		}
	}
	for range 3 {
		pay(m.key, m.stripeID, "4242424242424242")
	}
	for range 2 {
		pay(m.key, m.stripeID, "4000000000000002")
	}
	pay(m.key, m.adyenID, "4000000000000002")
	pay(other.key, other.stripeID, "4000000000000002")

	query := `query($from: Time!, $to: Time!, $bucket: SuccessRateBucket, $profile: ID) {
		connectorSuccessRates(from: $from, to: $to, bucket: $bucket, profileID: $profile) {
			merchantConnectorID connector bucketStart attempts succeeded failed successRate } }`
	to := time.Now().UTC().Add(time.Hour)
	vars := map[string]any{"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339), "profile": m.profileID}
	check := func(rows []any, bucketed bool) {
		t.Helper()
		got := map[string]tally{}
		for _, row := range rows {
			r := row.(map[string]any)
			id := r["merchantConnectorID"].(string)
			g := got[id]
			g.attempts += int(r["attempts"].(float64))
			g.succeeded += int(r["succeeded"].(float64))
			g.failed += int(r["failed"].(float64))
			got[id] = g
			start, err := time.Parse(time.RFC3339, r["bucketStart"].(string))
			if err != nil || (bucketed && (!start.Equal(start.Truncate(time.Hour)) || start.Before(from.Add(-time.Hour)))) ||
				(!bucketed && !start.Equal(from.Truncate(time.Second))) {
				t.Fatalf("bucketStart %v: %v", r["bucketStart"], err)
			}
			done := r["succeeded"].(float64) + r["failed"].(float64)
			if rate := r["successRate"].(float64); rate != r["succeeded"].(float64)/done {
				t.Fatalf("successRate: %v", r)
			}
		}
		for id, w := range want {
			if got[id] != *w {
				b, _ := json.Marshal(rows)
				t.Fatalf("%s: got %+v, want %+v (%s)", id, got[id], *w, b)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("unexpected accounts: %v", got)
		}
	}
	whole := c.gqlData(t, m.key, query, vars)["connectorSuccessRates"].([]any)
	if len(whole) != 2 {
		t.Fatalf("one row per account over the window: %v", whole)
	}
	check(whole, false)
	vars["bucket"] = "HOUR"
	check(c.gqlData(t, m.key, query, vars)["connectorSuccessRates"].([]any), true)

	// A window before the payments counts none.
	early := map[string]any{"from": from.Add(-48 * time.Hour).Format(time.RFC3339), "to": from.Format(time.RFC3339), "bucket": "DAY"}
	if rows := c.gqlData(t, m.key, query, early)["connectorSuccessRates"].([]any); len(rows) != 0 {
		t.Fatalf("an earlier window: %v", rows)
	}
	for name, bad := range map[string]map[string]any{
		"to before from":  {"from": to.Format(time.RFC3339), "to": from.Format(time.RFC3339)},
		"too many hours":  {"from": from.Add(-24 * 365 * time.Hour).Format(time.RFC3339), "to": to.Format(time.RFC3339), "bucket": "HOUR"},
		"foreign profile": {"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339), "profile": other.profileID},
	} {
		want := "IR_07"
		if name == "foreign profile" {
			want = "HE_02"
		}
		if code := c.gqlErrorCode(t, m.key, query, bad); code != want {
			t.Errorf("%s: code %s, want %s", name, code, want)
		}
	}
}

// TestSuccessRatesAgree: the two success-rate queries give one rate for the
// same account and window (authorized ÷ decided), with an attempt still
// waiting for 3-D Secure counted as made but in neither verdict.
func TestSuccessRatesAgree(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_rates_agree")
	from, to := time.Now().UTC().Add(-time.Hour).Truncate(time.Second), time.Now().UTC().Add(time.Hour).Truncate(time.Second)
	for _, number := range []string{"4242424242424242", "4242424242424242", "4000000000000002", "4000000000003220"} {
		c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card(number), "connector": []string{"stripe_test"}})).must(t, 200)
	}
	window := map[string]any{"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}
	rates := c.gqlData(t, m.key, `query($from: Time!, $to: Time!) { connectorSuccessRates(from: $from, to: $to) {
		merchantConnectorID attempts successRate } }`, window)["connectorSuccessRates"].([]any)
	series := c.gqlData(t, m.key, `query($r: AnalyticsRange!) { connectorSuccessRateSeries(range: $r) {
		merchantConnectorID attempts successRate } }`, map[string]any{"r": window})["connectorSuccessRateSeries"].([]any)
	if len(rates) != 1 || len(series) != 1 {
		t.Fatalf("one row each: %v %v", rates, series)
	}
	a, b := rates[0].(map[string]any), series[0].(map[string]any)
	if a["merchantConnectorID"] != m.stripeID || a["attempts"] != 4.0 || b["attempts"] != 4.0 ||
		a["successRate"] != 2.0/3 || b["successRate"] != a["successRate"] {
		t.Fatalf("the rates disagree: connectorSuccessRates %v, connectorSuccessRateSeries %v", a, b)
	}
}

// TestConnectorSuccessRatesPlan: on MariaDB the success-rate query is
// answered by its index alone (EXPLAIN: that key, "Using index"), so it
// never reads the attempts' rows.
func TestConnectorSuccessRatesPlan(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	if srv.Store.Dialect != dialect.MySQL {
		testenv.Skip(t, "no "+testenv.EnvMySQLDSN, "the plan checked is MariaDB's")
	}
	c := &client{t: t, srv: srv}
	m := newRoutedMerchant(t, c, "merchant_rates_plan")
	for range 20 {
		m.connectorOf(t, c)
	}
	reqID := "plan-" + ids.Base62(12)
	from, to := time.Now().UTC().Add(-time.Hour), time.Now().UTC().Add(time.Hour)
	body := map[string]any{"query": `query($from: Time!, $to: Time!) { connectorSuccessRates(from: $from, to: $to, bucket: HOUR) {
		merchantConnectorID attempts } }`, "variables": map[string]any{"from": from.Format(time.RFC3339), "to": to.Format(time.RFC3339)}}
	c.doWith("POST", "/graphql", m.key, body, map[string]string{"X-Request-Id": reqID}).must(t, 200)
	statements, args := counter.Statements(reqID), counter.Args(reqID)
	for i, q := range statements {
		if !strings.Contains(q, "GROUP BY") {
			continue
		}
		for _, plan := range explain(t, srv, q, args[i]) {
			if !strings.Contains(plan["key"], "merchant_id_crea_e648") || !strings.Contains(plan["Extra"], "Using index") {
				t.Fatalf("the success-rate query reads rows: %v\n%s", plan, q)
			}
		}
		return
	}
	t.Fatalf("no grouped statement among %v", statements)
}
