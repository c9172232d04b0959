package rest_test

import (
	"math"
	"testing"
)

// routedMerchant is a merchant whose default profile has two connector
// accounts, stripe_test then adyen.
type routedMerchant struct {
	key, profileID, stripeID, adyenID string
}

func newRoutedMerchant(t *testing.T, c *client, id string) routedMerchant {
	t.Helper()
	acct := c.do("POST", "/accounts", c.admin(), map[string]any{"merchant_id": id, "merchant_name": id}).must(t, 200)
	key := c.do("POST", "/api_keys/"+id, c.admin(), map[string]any{"name": "k", "expiration": "never"}).must(t, 200).str("api_key")
	mca := func(name string) string {
		return c.do("POST", "/account/"+id+"/connectors", key, map[string]any{
			"connector_type": "payment_processor", "connector_name": name,
			"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_" + id + "_" + name},
		}).must(t, 200).str("merchant_connector_id")
	}
	return routedMerchant{key: key, profileID: acct.str("default_profile"), stripeID: mca("stripe_test"), adyenID: mca("adyen")}
}

// connectorOf pays with a card and answers the connector that took it.
func (m routedMerchant) connectorOf(t *testing.T, c *client) string {
	t.Helper()
	r := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200)
	if r.str("status") != "succeeded" {
		t.Fatalf("payment: %s", r.Raw)
	}
	return r.str("connector")
}

func (m routedMerchant) configure(t *testing.T, c *client, name string, algorithm map[string]any) string {
	t.Helper()
	r := c.do("POST", "/routing", m.key, map[string]any{"name": name, "description": "test", "algorithm": algorithm,
		"profile_id": m.profileID}).must(t, 200)
	if r.str("kind") != algorithm["type"] || r.str("profile_id") != m.profileID || r.str("algorithm_for") != "payment" {
		t.Fatalf("created: %s", r.Raw)
	}
	return r.str("id")
}

// TestRoutingAlgorithms: with no configuration a payment goes to the
// profile's first account, or the first of its fallback order; an active
// single or priority configuration sends it where it says; deactivating
// returns to the fallback.
func TestRoutingAlgorithms(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_routing")
	if got := m.connectorOf(t, c); got != "stripe_test" {
		t.Fatalf("no routing: %s, want the first account", got)
	}
	fb := c.do("POST", "/routing/default", m.key, []map[string]any{{"connector": "adyen", "merchant_connector_id": m.adyenID},
		{"connector": "stripe_test"}}).must(t, 200)
	if list := fb.Body.([]any); len(list) != 2 || list[0].(map[string]any)["connector"] != "adyen" {
		t.Fatalf("fallback: %s", fb.Raw)
	}
	if got := m.connectorOf(t, c); got != "adyen" {
		t.Fatalf("fallback order: %s, want adyen", got)
	}
	if r := c.do("GET", "/routing/default/profile", m.key, nil).must(t, 200); r.str("profile_id") != m.profileID {
		t.Fatalf("profile fallback: %s", r.Raw)
	}

	single := m.configure(t, c, "stripe only", map[string]any{"type": "single", "data": map[string]any{"connector": "stripe_test"}})
	if got := m.connectorOf(t, c); got != "adyen" {
		t.Fatalf("a configuration routes only once active: %s", got)
	}
	c.do("POST", "/routing/"+single+"/activate", m.key, nil).must(t, 200)
	if got := m.connectorOf(t, c); got != "stripe_test" {
		t.Fatalf("single: %s", got)
	}
	if r := c.do("POST", "/routing/"+single+"/activate", m.key, nil); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("activating the active one: %d %s", r.Status, r.Raw)
	}
	priority := m.configure(t, c, "adyen first", map[string]any{"type": "priority", "data": []map[string]any{
		{"connector": "adyen", "merchant_connector_id": m.adyenID}, {"connector": "stripe_test"}}})
	c.do("POST", "/routing/"+priority+"/activate", m.key, nil).must(t, 200)
	if got := m.connectorOf(t, c); got != "adyen" {
		t.Fatalf("priority: %s", got)
	}
	// The attempt records what chose its connector, and GraphQL shows it.
	routed := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242")})).must(t, 200)
	g := c.do("POST", "/graphql", m.key, map[string]any{"query": `{ payment(id: "` + routed.str("payment_id") +
		`") { attempts { connector merchantConnectorID routingApproach routingAlgorithmID } } }`}).must(t, 200)
	att := g.obj()["data"].(map[string]any)["payment"].(map[string]any)["attempts"].([]any)[0].(map[string]any)
	if att["routingApproach"] != "rule_based_routing" || att["routingAlgorithmID"] != priority || att["merchantConnectorID"] != m.adyenID {
		t.Fatalf("the attempt's routing decision: %s", g.Raw)
	}
	active := c.do("GET", "/routing/active", m.key, nil).must(t, 200)
	if list := active.Body.([]any); len(list) != 1 || list[0].(map[string]any)["id"] != priority {
		t.Fatalf("active: %s", active.Raw)
	}
	if r := c.do("GET", "/routing/"+priority, m.key, nil).must(t, 200); r.str("algorithm", "type") != "priority" {
		t.Fatalf("get: %s", r.Raw)
	}
	if list := c.do("GET", "/routing?limit=10", m.key, nil).must(t, 200).Body.([]any); len(list) != 2 {
		t.Fatalf("list: %v", list)
	}
	if r := c.do("POST", "/routing/deactivate", m.key, map[string]any{"profile_id": m.profileID}).must(t, 200); r.str("id") != priority {
		t.Fatalf("deactivate: %s", r.Raw)
	}
	if got := m.connectorOf(t, c); got != "adyen" {
		t.Fatalf("after deactivating, the fallback order: %s", got)
	}
	if r := c.do("POST", "/routing/deactivate", m.key, map[string]any{}); r.Status != 400 || r.errCode() != "IR_16" {
		t.Fatalf("deactivating with none active: %d %s", r.Status, r.Raw)
	}
	// A payment naming its connector is not routed.
	r := c.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card("4242424242424242"), "connector": []string{"stripe_test"}})).must(t, 200)
	if r.str("connector") != "stripe_test" {
		t.Fatalf("a named connector: %s", r.Raw)
	}
	g = c.do("POST", "/graphql", m.key, map[string]any{"query": `{ payment(id: "` + r.str("payment_id") +
		`") { attempts { routingApproach routingAlgorithmID } } }`}).must(t, 200)
	att = g.obj()["data"].(map[string]any)["payment"].(map[string]any)["attempts"].([]any)[0].(map[string]any)
	if att["routingApproach"] != "straight_through_routing" || att["routingAlgorithmID"] != nil {
		t.Fatalf("a named connector's routing decision: %s", g.Raw)
	}
}

// TestRoutingVolumeSplit: a 70/30 volume split sends each connector its
// share of 2,000 payments within five points.
func TestRoutingVolumeSplit(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_split")
	id := m.configure(t, c, "70/30", map[string]any{"type": "volume_split", "data": []map[string]any{
		{"connector": map[string]any{"connector": "stripe_test"}, "split": 70},
		{"connector": map[string]any{"connector": "adyen"}, "split": 30}}})
	c.do("POST", "/routing/"+id+"/activate", m.key, nil).must(t, 200)
	const n = 2000
	count := map[string]int{}
	for range n {
		count[m.connectorOf(t, c)]++
	}
	if share := float64(count["stripe_test"]) * 100 / n; math.Abs(share-70) > 5 || count["stripe_test"]+count["adyen"] != n {
		t.Fatalf("70/30 over %d payments: %v", n, count)
	}
}

// TestRoutingConfigRefusals: a configuration that cannot route is refused
// with the member it is about, and another merchant's configuration is
// not found.
func TestRoutingConfigRefusals(t *testing.T) {
	c := newClient(t)
	m := newRoutedMerchant(t, c, "merchant_rules")
	other := newRoutedMerchant(t, c, "merchant_rules_other")
	for _, tc := range []struct {
		name string
		body map[string]any
		code string
	}{
		{"no name", map[string]any{"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}}}, "IR_04"},
		{"no algorithm", map[string]any{"name": "x"}, "IR_04"},
		{"an unknown kind", map[string]any{"name": "x", "algorithm": map[string]any{"type": "lottery", "data": []any{}}}, "IR_07"},
		{"a connector the profile lacks", map[string]any{"name": "x", "algorithm": map[string]any{"type": "single",
			"data": map[string]any{"connector": "checkout"}}}, "IR_07"},
		{"another merchant's account", map[string]any{"name": "x", "algorithm": map[string]any{"type": "single",
			"data": map[string]any{"connector": "adyen", "merchant_connector_id": other.adyenID}}}, "IR_07"},
		{"splits not adding up to 100", map[string]any{"name": "x", "algorithm": map[string]any{"type": "volume_split",
			"data": []map[string]any{{"connector": map[string]any{"connector": "adyen"}, "split": 60},
				{"connector": map[string]any{"connector": "stripe_test"}, "split": 30}}}}, "IR_07"},
		{"a negative split", map[string]any{"name": "x", "algorithm": map[string]any{"type": "volume_split",
			"data": []map[string]any{{"connector": map[string]any{"connector": "adyen"}, "split": 110},
				{"connector": map[string]any{"connector": "stripe_test"}, "split": -10}}}}, "IR_07"},
		{"an empty priority list", map[string]any{"name": "x", "algorithm": map[string]any{"type": "priority", "data": []any{}}}, "IR_07"},
		{"a payout configuration", map[string]any{"name": "x", "transaction_type": "payout",
			"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}}}, "IR_07"},
	} {
		if r := c.do("POST", "/routing", m.key, tc.body); r.Status != 400 || r.errCode() != tc.code {
			t.Fatalf("%s: %d %s, want 400 %s", tc.name, r.Status, r.Raw, tc.code)
		}
	}
	if r := c.do("POST", "/routing", m.key, map[string]any{"name": "x", "profile_id": other.profileID,
		"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}}}); r.Status != 404 {
		t.Fatalf("another merchant's profile: %d %s", r.Status, r.Raw)
	}
	if r := c.do("POST", "/routing/default", m.key, []map[string]any{{"connector": "adyen", "merchant_connector_id": other.adyenID}}); r.Status != 400 {
		t.Fatalf("a fallback with another merchant's account: %d %s", r.Status, r.Raw)
	}
	// An account of another profile of the same merchant is not the
	// profile's to route to.
	second := c.do("POST", "/account/merchant_rules/business_profile", m.key, map[string]any{"profile_name": "second"}).must(t, 200).str("profile_id")
	secondMCA := c.do("POST", "/account/merchant_rules/connectors", m.key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "checkout", "profile_id": second,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_second"},
	}).must(t, 200).str("merchant_connector_id")
	if r := c.do("POST", "/routing", m.key, map[string]any{"name": "x", "profile_id": m.profileID, "algorithm": map[string]any{
		"type": "single", "data": map[string]any{"connector": "checkout", "merchant_connector_id": secondMCA}}}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("another profile's account: %d %s", r.Status, r.Raw)
	}
	theirs := other.configure(t, c, "theirs", map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}})
	for _, path := range []string{"/routing/" + theirs, "/routing/" + theirs + "/activate"} {
		method := "GET"
		if path != "/routing/"+theirs {
			method = "POST"
		}
		if r := c.do(method, path, m.key, nil); r.Status != 404 {
			t.Fatalf("%s %s of another merchant: %d %s", method, path, r.Status, r.Raw)
		}
	}
}
