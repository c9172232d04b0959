package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCheckoutSDKAsksForRequiredBillingFields: a sandbox connector account
// that needs billing details for cards (Cybersource, whose Hyperswitch
// configuration asks for the card holder's name, the billing email and the
// billing address) makes Hyperswitch's own checkout show those fields under
// the card form; the shopper fills them and pays, and the payment on the
// server carries what was asked, from the name to the country the form
// chose.
func TestCheckoutSDKAsksForRequiredBillingFields(t *testing.T) {
	rig := startCheckout(t, 4*time.Minute)
	srv, ctx := rig.srv, rig.ctx
	m, key := srv.Demo.MerchantID, srv.Demo.SecretKey
	prof := call(t, srv.URL, http.MethodPost, "/account/"+m+"/business_profile", key, map[string]any{"profile_name": "cybersource shop"})
	networks := []string{"Visa", "Mastercard"}
	call(t, srv.URL, http.MethodPost, "/account/"+m+"/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "cybersource", "profile_id": prof["profile_id"],
		"connector_account_details": map[string]any{"auth_type": "SignatureKey", "api_key": "cyb_key", "key1": "cyb_merchant", "api_secret": "cyb_secret"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit", "card_networks": networks},
			map[string]any{"payment_method_type": "debit", "card_networks": networks}}}},
	})
	pay := call(t, srv.URL, http.MethodPost, "/payments", key, map[string]any{"amount": 6540, "currency": "USD", "profile_id": prof["profile_id"]})
	id, secret := pay["payment_id"].(string), pay["client_secret"].(string)

	in := rig.mount(t, secret)
	// The billing fields show beside the card form: the card holder's name
	// (one input the checkout splits), the email and the address lines.
	shown, cancel := context.WithTimeout(ctx, 45*time.Second)
	err := chromedp.Do(shown, chromedp.WaitVisible(chromedp.CSS(`input[name=line1]`), in))
	cancel()
	if err != nil {
		t.Fatalf("the checkout shows no billing address: %v\ncalls:\n%s", err, rig.callLog())
	}
	rig.fillCard(t, in, "4242424242424242")
	for _, f := range []struct{ name, text string }{
		{"first_name", "Sam Shopper"}, {"email", "sam@shop.example"}, {"line1", "9 Elm Street"}, {"city", "Springfield"}, {"zip", "62704"},
	} {
		if err == nil {
			err = typeInto(ctx, chromedp.CSS(`input[name=`+f.name+`]`), f.text, in)
		}
	}
	if err != nil {
		t.Fatalf("filling the billing fields: %v\ncalls:\n%s", err, rig.callLog())
	}
	rig.pay(t)
	if result := rig.result(t); !strings.Contains(result, `"status":"succeeded"`) {
		t.Fatalf("the SDK answered %q, want the payment succeeded\ncalls:\n%s", result, rig.callLog())
	}

	got := call(t, srv.URL, http.MethodGet, "/payments/"+id, key, nil)
	pmd, _ := got["payment_method_data"].(map[string]any)
	billing, _ := pmd["billing"].(map[string]any)
	address, _ := billing["address"].(map[string]any)
	if got["status"] != "succeeded" || billing["email"] != "sam@shop.example" {
		t.Fatalf("payment %s server-side: %v, billing %v", id, got["status"], billing)
	}
	for k, want := range map[string]string{"first_name": "Sam", "last_name": "Shopper", "line1": "9 Elm Street", "city": "Springfield", "zip": "62704"} {
		if address[k] != want {
			t.Fatalf("the payment's billing address.%s is %v, want %s: %v", k, address[k], want, billing)
		}
	}
	for _, k := range []string{"country", "state"} {
		if v, _ := address[k].(string); v == "" {
			t.Fatalf("the payment's billing has no %s, which the checkout's drop-down chose: %v", k, billing)
		}
	}

	rig.checkCalls(t)
}
