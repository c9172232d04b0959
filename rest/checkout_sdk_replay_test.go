package rest_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// sdkOrigin is where a merchant's checkout page (and the SDK's iframe) runs.
const sdkOrigin = "http://localhost:9050"

// sdkHeaders are the headers Hyperswitch's web SDK sends with every call.
var sdkHeaders = map[string]string{
	"Origin": sdkOrigin, "X-Client-Version": "0.130.0", "X-Client-Platform": "web",
	"X-Payment-Confirm-Source": "sdk", "X-Browser-Name": "Chrome", "X-Browser-Version": "140.0.0.0",
}

// sdkCallStep is one call of the SDK, and the response members it reads:
// dotted paths, "[]" stepping into every element of an array, a trailing
// "[]" asking for an array (possibly empty) and "[]string" for an array of
// strings.
type sdkCallStep struct {
	method, path string
	body         map[string]any
	reads        []string
}

// TestCheckoutSDKCallsReplayed replays, in order and with its headers, the
// calls Hyperswitch's web SDK makes to mount the unified checkout and pay
// with a card (the browser test records them for real): each preceded by
// the CORS preflight the browser sends, each answered 2xx, and every member
// the SDK reads present in the answer.
func TestCheckoutSDKCallsReplayed(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	c.pay("POST", "/payments", savingPayment("cus_replay", "4242424242424242", "on_session")).must(t, 200)
	id, secret := checkoutPayment(t, c, "cus_replay", nil)
	q := "?client_secret=" + secret

	steps := []sdkCallStep{
		{method: "POST", path: "/payments/session_tokens",
			body:  map[string]any{"payment_id": id, "wallets": []any{}, "delayed_session_token": false, "client_secret": secret},
			reads: []string{"session_token[]", "session_token[].wallet_name", "session_token[].connector"}},
		{method: "GET", path: "/v1/sdk/configs/web/sdk_config.json" + q, reads: []string{
			"payment_methods[].payment_method", "payment_methods[].payment_method_types[].payment_method_type",
			"payment_methods[].payment_method_types[].payment_method_criteria",
			"payment_methods[].payment_method_types[].criteria_rules[].criteria_value",
			"payment_methods[].payment_method_types[].criteria_rules[].eligible_connectors[]string",
			"account_config.profile.vaulting_action",
			"account_config.profile.collect_billing_details_from_wallet_connector",
			"account_config.profile.collect_shipping_details_from_wallet_connector",
			"account_config.profile.always_collect_billing_details_from_wallet_connector",
			"account_config.profile.always_collect_shipping_details_from_wallet_connector",
			"context_used.profile_id", "context_used.processor_merchant_id", "raw_configs"}},
		{method: "GET", path: "/payments/" + id + "/client" + q, reads: []string{
			"payment_methods_enabled[].payment_method", "payment_methods_enabled[].payment_method_type",
			"payment_methods_enabled[].card_networks[]string", "payment_methods_enabled[].payment_experience[]string",
			"customer_payment_methods[].payment_token", "customer_payment_methods[].payment_method",
			"customer_payment_methods[].payment_method_type", "customer_payment_methods[].requires_cvv",
			"customer_payment_methods[].default_payment_method_set", "customer_payment_methods[].recurring_enabled",
			"customer_payment_methods[].payment_method_data.card.last4_digits",
			"customer_payment_methods[].payment_method_data.card.expiry_month",
			"customer_payment_methods[].payment_method_data.card.expiry_year",
			"customer_payment_methods[].payment_method_data.card.scheme",
			"intent_data.currency", "intent_data.payment_type", "intent_data.merchant_name", "intent_data.customer_id",
			"intent_data.is_guest_customer", "intent_data.is_tax_calculation_enabled",
			"sdk_next_action.next_action", "sdk_next_action.should_block_confirm"}},
		{method: "POST", path: "/payments/" + id + "/confirm", body: sdkCardConfirm(secret, "4242424242424242", nil),
			reads: []string{"status", "payment_id", "client_secret"}},
		{method: "GET", path: "/payments/" + id + "?force_sync=true&client_secret=" + secret, reads: []string{"status", "payment_id"}},
	}
	for _, s := range steps {
		name := s.method + " " + s.path
		pre := c.doWith("OPTIONS", s.path, "", nil, map[string]string{"Origin": sdkOrigin,
			"Access-Control-Request-Method":  s.method,
			"Access-Control-Request-Headers": "api-key,content-type,x-browser-name,x-browser-version,x-client-platform,x-client-version,x-payment-confirm-source"})
		if pre.Status != http.StatusNoContent || pre.Header.Get("Access-Control-Allow-Origin") == "" {
			t.Fatalf("preflight of %s: %d %v", name, pre.Status, pre.Header)
		}
		var body any
		if s.body != nil {
			body = s.body
		}
		r := c.doWith(s.method, s.path, pk, body, sdkHeaders)
		if r.Status/100 != 2 || r.Header.Get("Access-Control-Allow-Origin") == "" {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
		for _, path := range s.reads {
			if err := hasMember(r.Body, path); err != nil {
				t.Errorf("%s: the SDK reads %s: %v\n%s", name, path, err, r.Raw)
			}
		}
	}
	if got := c.pay("GET", "/payments/"+id, nil); got.str("status") != "succeeded" {
		t.Fatalf("the replayed checkout did not pay: %s", got.Raw)
	}
}

// hasMember checks that the path (see sdkCallStep) is in v; an array on
// the way must hold at least one element, so every member is checked on
// real data.
func hasMember(v any, path string) error {
	if path == "" {
		return nil
	}
	head, rest, _ := strings.Cut(path, ".")
	name, index, isArray := strings.Cut(head, "[]")
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%v is not an object", v)
	}
	member, present := obj[name]
	if !present || member == nil {
		return fmt.Errorf("%q is missing or null", name)
	}
	if !isArray {
		return hasMember(member, rest)
	}
	arr, ok := member.([]any)
	if !ok {
		return fmt.Errorf("%q is not an array", name)
	}
	if index == "string" {
		for _, e := range arr {
			if _, ok := e.(string); !ok {
				return fmt.Errorf("%q holds %v, not a string", name, e)
			}
		}
		return nil
	}
	if rest == "" {
		return nil
	}
	if len(arr) == 0 {
		return fmt.Errorf("%q is empty", name)
	}
	for _, e := range arr {
		if err := hasMember(e, rest); err != nil {
			return err
		}
	}
	return nil
}
