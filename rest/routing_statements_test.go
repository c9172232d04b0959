package rest_test

import (
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// TestRoutingStatements: routing a payment by an active configuration costs
// no SQL statement over routing it by the profile's first account.
func TestRoutingStatements(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	c := &client{t: t, srv: srv}
	m := newRoutedMerchant(t, c, "merchant_counted")
	pay := func() int {
		t.Helper()
		reqID := "count-" + ids.Base62(12)
		r := c.doWith("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card("4242424242424242")}), map[string]string{"X-Request-Id": reqID}).must(t, 200)
		if r.str("status") != "succeeded" {
			t.Fatalf("payment: %s", r.Raw)
		}
		return len(counter.Statements(reqID))
	}
	pay() // the key is cached from here on
	unrouted := pay()
	id := m.configure(t, c, "split", map[string]any{"type": "volume_split", "data": []map[string]any{
		{"connector": map[string]any{"connector": "stripe_test"}, "split": 50},
		{"connector": map[string]any{"connector": "adyen"}, "split": 50}}})
	c.do("POST", "/routing/"+id+"/activate", m.key, nil).must(t, 200)
	pay() // the first payment after a change reads the profile's routing
	routed := pay()
	if routed > unrouted {
		t.Fatalf("a routed payment took %d statements, an unrouted one %d", routed, unrouted)
	}
	adv := m.configure(t, c, "rules", program(priorityOf("stripe_test"),
		ruleOf("euros", priorityOf("adyen"), when(cond("currency", "equal", "enum_variant", "EUR"))),
		ruleOf("visa", priorityOf("adyen", "stripe_test"), when(cond("card_network", "equal", "enum_variant", "Visa")))))
	c.do("POST", "/routing/"+adv+"/activate", m.key, nil).must(t, 200)
	pay()
	advanced := pay()
	if advanced > unrouted {
		t.Fatalf("a payment routed by rules took %d statements, an unrouted one %d", advanced, unrouted)
	}
	// Success-rate and elimination routing read and record outcomes in
	// Redis only.
	base := "/account/merchant_counted/business_profile/" + m.profileID + "/dynamic_routing/"
	c.do("POST", base+"success_based/toggle?enable=dynamic_connector_selection", m.key, nil).must(t, 200)
	c.do("POST", base+"elimination/toggle?enable=dynamic_connector_selection", m.key, nil).must(t, 200)
	pay()
	dynamic := pay()
	if dynamic > unrouted {
		t.Fatalf("a payment under dynamic routing took %d statements, an unrouted one %d", dynamic, unrouted)
	}
	t.Logf("create+confirm: %d statements unrouted, %d routed by a volume split, %d by rules, %d with dynamic routing over them", unrouted, routed, advanced, dynamic)
}
