package app_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// checkoutFrame is the document of the checkout's frame, for the script
// that clicks what chromedp's mouse cannot reach there.
const checkoutFrame = `document.getElementById("orca-payment-element-iframeRef-unified-checkout").contentDocument`

// TestCheckoutSDKSavesCardAndReturns drives Hyperswitch's checkout, unchanged,
// through what a returning shopper does: "Save card details" ticked on a
// payment for a customer keeps the card; the customer's next checkout
// lists it (****4242) and pays with it once the shopper enters its CVC;
// and after a 3-D Secure challenge the browser is back on the shop's
// return_url with Hyperswitch's query members beside the shop's own,
// signed, or posts them as a form to a shop whose profile asks for one.
func TestCheckoutSDKSavesCardAndReturns(t *testing.T) {
	rig := startCheckout(t, 4*time.Minute)
	srv, ctx := rig.srv, rig.ctx
	const customer = "cus_browser_saver"
	newPayment := func(amount int, customerID string) (id, secret string) {
		body := map[string]any{"amount": amount, "currency": "USD"}
		if customerID != "" {
			body["customer_id"] = customerID
		}
		pay := call(t, srv.URL, http.MethodPost, "/payments", srv.Demo.SecretKey, body)
		return pay["payment_id"].(string), pay["client_secret"].(string)
	}
	savedCards := func() []any {
		got := call(t, srv.URL, http.MethodGet, "/customers/"+customer+"/payment_methods", srv.Demo.SecretKey, nil)
		return got["customer_payment_methods"].([]any)
	}
	wantSucceeded := func(t *testing.T, id string) map[string]any {
		t.Helper()
		if result := rig.result(t); !strings.Contains(result, `"status":"succeeded"`) {
			t.Fatalf("the SDK answered %s\ncalls:\n%s", result, rig.callLog())
		}
		got := call(t, srv.URL, http.MethodGet, "/payments/"+id, srv.Demo.SecretKey, nil)
		if got["status"] != "succeeded" {
			t.Fatalf("payment %s is %v server-side\ncalls:\n%s", id, got["status"], rig.callLog())
		}
		return got
	}

	var saved map[string]any
	t.Run("save card", func(t *testing.T) {
		id, secret := newPayment(6540, customer)
		in := rig.mount(t, secret)
		rig.fillCard(t, in, "4242424242424242")
		// The shopper ticks the box (a click on its label, as the SDK's
		// checkbox takes it), and it shows ticked.
		err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](checkoutFrame+
			`.querySelector('[role=checkbox][aria-label="Select to save card details"] label').click()`))
		if err == nil {
			_, err = chromedp.Run(ctx, chromedp.Poll[bool](`[...`+checkoutFrame+`.querySelectorAll('[role=checkbox][aria-checked="true"]')]`+
				`.some(b => b.textContent.includes("Save card details"))`, chromedp.WithPollingTimeout(5*time.Second)))
		}
		if err == nil { // the form asks for the card's nickname once the box is ticked
			err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`input[name=userCardNickName]`), in))
		}
		if err != nil {
			t.Fatalf("ticking save card: %v\ncalls:\n%s", err, rig.callLog())
		}
		rig.pay(t)
		wantSucceeded(t, id)
		cards := savedCards()
		if len(cards) != 1 {
			t.Fatalf("the customer has %d saved cards, want 1: %v", len(cards), cards)
		}
		saved = cards[0].(map[string]any)
		if saved["card"].(map[string]any)["last4_digits"] != "4242" {
			t.Fatalf("the saved card: %v", saved)
		}
	})

	t.Run("pay with the saved card", func(t *testing.T) {
		if saved == nil {
			t.Skip("no card was saved")
		}
		id, secret := newPayment(1000, customer)
		in := rig.mount(t, secret)
		card := chromedp.CSS(`[role=group][aria-label="Card , ending in 4242"]`)
		shown, err := chromedp.Run(ctx, chromedp.Text(card, in))
		if err != nil || !strings.Contains(strings.Join(strings.Fields(shown), ""), "****4242") {
			t.Fatalf("the checkout shows the saved card as %q (%v)\ncalls:\n%s", shown, err, rig.callLog())
		}
		// The shopper picks the card, then enters its CVC.
		err = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](checkoutFrame+
			`.querySelector('[role=group][aria-label="Card , ending in 4242"]').closest("button").click()`))
		if err == nil {
			err = typeInto(ctx, chromedp.CSS(`[data-testid=cvvInput]`), "123", in)
		}
		if err != nil {
			t.Fatalf("entering the saved card's CVC: %v\ncalls:\n%s", err, rig.callLog())
		}
		rig.pay(t)
		got := wantSucceeded(t, id)
		if got["payment_method_id"] != saved["payment_method_id"] {
			t.Fatalf("paid with %v, want the saved card %v", got["payment_method_id"], saved["payment_method_id"])
		}
		if n := len(savedCards()); n != 1 {
			t.Fatalf("paying with the saved card left %d saved cards", n)
		}
	})

	t.Run("3-D Secure returns with Hyperswitch's query", func(t *testing.T) {
		id, secret := newPayment(6540, "")
		rig.fillCard(t, rig.mount(t, secret), "4000000000003220")
		rig.pay(t)
		rig.approveChallenge(t)
		wantSucceeded(t, id)
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(loc)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		want := map[string]string{"pk": srv.Demo.PublishableKey, "secret": secret, "status": "succeeded", "payment_id": id,
			"payment_intent_client_secret": secret, "amount": "6540", "manual_retry_allowed": "false",
			"signature_algorithm": "HMAC-SHA512"} // the signature's value: rest's TestRedirectReturnSignedOrPosted
		for k, v := range want {
			if got := q[k]; len(got) != 1 || got[0] != v {
				t.Errorf("the return page's %s is %v, want %s", k, got, v)
			}
		}
		if len(q.Get("signature")) != 128 {
			t.Errorf("the return page's signature is %q", q.Get("signature"))
		}
		if u.Path != "/shop/return" || t.Failed() {
			t.Fatalf("the browser came back to %s", loc)
		}
	})

	t.Run("3-D Secure returns as a form to a shop that asks for one", func(t *testing.T) {
		id, secret := newPayment(6540, "")
		setRedirectByPost(t, srv, true)
		defer setRedirectByPost(t, srv, false)
		rig.fillCard(t, rig.mount(t, secret), "4000000000003220")
		rig.pay(t)
		rig.approveChallenge(t)
		result := rig.result(t)
		var posted url.Values
		if !strings.HasPrefix(result, "posted:") || json.Unmarshal([]byte(strings.TrimPrefix(result, "posted:")), &posted) != nil {
			t.Fatalf("the shop got %q, want the payment's members as a POST form\ncalls:\n%s", result, rig.callLog())
		}
		for k, v := range map[string]string{"payment_id": id, "payment_intent_client_secret": secret, "status": "succeeded",
			"pk": srv.Demo.PublishableKey, "signature_algorithm": "HMAC-SHA512"} {
			if posted.Get(k) != v {
				t.Errorf("the posted %s is %q, want %s", k, posted.Get(k), v)
			}
		}
		loc, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil || !strings.HasSuffix(loc, "/shop/return") {
			t.Fatalf("the form was posted to %s (%v), want the return_url without its query", loc, err)
		}
	})
	rig.checkCalls(t)
}

// setRedirectByPost sets the demo merchant's default profile's
// redirect_to_merchant_with_http_post.
func setRedirectByPost(t *testing.T, srv *testenv.Server, post bool) {
	t.Helper()
	call(t, srv.URL, http.MethodPost, "/account/"+srv.Demo.MerchantID+"/business_profile/"+srv.Demo.ProfileID, srv.Demo.SecretKey,
		map[string]any{"redirect_to_merchant_with_http_post": post})
}
