package rest_test

import (
	"testing"
)

// TestConfigurationChangesReachEveryProcess: a payment reads its profile
// and connector accounts from each process's memory, and a change made
// through one process is seen by the next payment on another: disabling
// an account, changing the profile's return_url, the account coming back,
// and the profile's routing.
func TestConfigurationChangesReachEveryProcess(t *testing.T) {
	one, two := twoProcesses(t)
	const id = "merchant_config_cache"
	m := newRoutedMerchant(t, one, id)
	pay := func() response {
		t.Helper()
		return two.do("POST", "/payments", m.key, payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card("4242424242424242")})).must(t, 200)
	}
	if got := pay().str("connector"); got != "stripe_test" {
		t.Fatalf("first payment through %s, want stripe_test (the oldest account)", got)
	}
	pay() // cached from here on

	one.do("POST", "/account/"+id+"/connectors/"+m.stripeID, m.key, map[string]any{
		"connector_type": "payment_processor", "disabled": true}).must(t, 200)
	if got := pay().str("connector"); got != "adyen" {
		t.Fatalf("after stripe_test was disabled on the other process: through %s, want adyen", got)
	}
	one.do("POST", "/account/"+id+"/business_profile/"+m.profileID, m.key, map[string]any{
		"return_url": "https://shop.example/changed"}).must(t, 200)
	if got := pay().str("return_url"); got != "https://shop.example/changed" {
		t.Fatalf("after the profile's return_url changed on the other process: return_url %q", got)
	}
	one.do("POST", "/account/"+id+"/connectors/"+m.stripeID, m.key, map[string]any{
		"connector_type": "payment_processor", "disabled": false}).must(t, 200)
	if got := pay().str("connector"); got != "stripe_test" {
		t.Fatalf("after stripe_test was enabled again: through %s", got)
	}

	// Routing is cached on the same version: a new fallback order, an
	// activated configuration and its deactivation, each made through the
	// other process, route the next payment.
	one.do("POST", "/routing/default", m.key, []map[string]any{{"connector": "adyen", "merchant_connector_id": m.adyenID},
		{"connector": "stripe_test"}}).must(t, 200)
	if got := pay().str("connector"); got != "adyen" {
		t.Fatalf("after the fallback order put adyen first on the other process: through %s", got)
	}
	single := m.configure(t, one, "stripe only", map[string]any{"type": "single", "data": map[string]any{"connector": "stripe_test"}})
	one.do("POST", "/routing/"+single+"/activate", m.key, nil).must(t, 200)
	if got := pay().str("connector"); got != "stripe_test" {
		t.Fatalf("after a single configuration was activated on the other process: through %s", got)
	}
	one.do("POST", "/routing/deactivate", m.key, map[string]any{"profile_id": m.profileID}).must(t, 200)
	if got := pay().str("connector"); got != "adyen" {
		t.Fatalf("after it was deactivated on the other process: through %s, want the fallback's adyen", got)
	}
}
