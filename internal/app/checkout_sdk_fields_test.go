package app_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
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
	// The country drop-down starts at the SDK's guess of the shopper's
	// country, or at the list's first (Andorra, whose postal codes are
	// three digits) when it has none: choose the United States, typing its
	// name into the focused select as a shopper would.
	if err := chooseOption(ctx, chromedp.CSS(`select[aria-label^="Country"]`), "United States", in); err != nil {
		t.Fatalf("choosing the country: %v\ncalls:\n%s", err, rig.callLog())
	}
	for _, f := range []struct{ name, text string }{
		{"first_name", "Sam Shopper"}, {"email", "sam@shop.example"}, {"line1", "9 Elm Street"}, {"city", "Springfield"}, {"zip", "62704"},
	} {
		if err == nil {
			err = typeInto(ctx, chromedp.CSS(`input[name=`+f.name+`]`), f.text, in)
		}
	}
	// Leave the last field before paying, as a shopper does: paying straight
	// after typing once sent the postal code without its last digit (the
	// SDK had not yet taken the last keystroke in).
	if err == nil {
		err = chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS(`input[name=zip]`), kb.Tab, in), chromedp.Sleep(300*time.Millisecond))
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
	if address["country"] != "US" {
		t.Fatalf("the payment's billing country is %v, want US, which the shopper chose: %v", address["country"], billing)
	}
	for _, k := range []string{"country", "state"} {
		if v, _ := address[k].(string); v == "" {
			t.Fatalf("the payment's billing has no %s, which the checkout's drop-down chose: %v", k, billing)
		}
	}

	rig.checkCalls(t)
}

// chooseOption picks the option named want in a select as a shopper does
// by keyboard: type-ahead to the first option that starts so, then the
// arrow keys to the one that is exactly it, each a real change event.
func chooseOption(ctx context.Context, sel chromedp.CSS, want string, in chromedp.QueryOption) error {
	if err := chromedp.Do(ctx, chromedp.Focus(sel, in), chromedp.SendKeys(sel, want, in)); err != nil {
		return err
	}
	for _, key := range []string{"", kb.ArrowDown, kb.ArrowDown, kb.ArrowUp, kb.ArrowUp, kb.ArrowUp, kb.ArrowUp} {
		if key != "" {
			if err := chromedp.Do(ctx, chromedp.SendKeys(sel, key, in)); err != nil {
				return err
			}
		}
		got, err := chromedp.Run(ctx, chromedp.Value(sel, in))
		if err != nil {
			return err
		}
		if got == want {
			return nil
		}
	}
	return fmt.Errorf("%s: no option %q near where typing it led", sel, want)
}
