package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPaymentLinkInChromium opens a payment link, the page Switchyard
// hosts, in headless Chromium: the page mounts Hyperswitch's checkout SDK
// with the payment's client secret, the shopper pays with a card, and the
// page lands on its status page while the server has the payment
// succeeded; a declined card lands on the failed page. Opened again, the paid link shows its receipt; a link past
// its expiry shows the expired page, with nothing to pay.
//
// The link's page is Switchyard's (127.0.0.1:8081) and the checkout's
// frames the SDK's (localhost:9050): two sites, which Chromium runs in
// separate processes that the test's tab cannot reach into. Site isolation
// is turned off for this browser so the test can type into the frames as
// it does on the shop's page (the SDK works alike either way; a shopper's
// browser keeps it on).
func TestPaymentLinkInChromium(t *testing.T) {
	rig := startCheckout(t, 4*time.Minute, chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	srv := rig.srv
	pay := call(t, srv.URL, http.MethodPost, "/payments", srv.Demo.SecretKey, map[string]any{"amount": 6540, "currency": "USD",
		"payment_link": true, "description": "A concert ticket",
		"payment_link_config": map[string]any{"seller_name": "Ticket shop", "theme": "#4E6ADD",
			"transaction_details": []any{map[string]any{"key": "Seat", "value": "A12"}}}})
	id := pay["payment_id"].(string)
	link := pay["payment_link"].(map[string]any)["link"].(string)

	in := rig.mountPage(t, link)
	summary, err := chromedp.Run(rig.ctx, chromedp.Text(chromedp.CSS(".summary")))
	if err != nil || !strings.Contains(summary, "Ticket shop") || !strings.Contains(summary, "65.40 USD") ||
		!strings.Contains(summary, "A12") {
		t.Fatalf("the link's summary shows %q (%v)", summary, err)
	}
	rig.fillCard(t, in, "4242424242424242")
	rig.pay(t)
	if got := pageShown(t, rig, "paid"); !strings.Contains(got, "Payment successful") {
		t.Fatalf("the status page shows %q", got)
	}
	if got := call(t, srv.URL, http.MethodGet, "/payments/"+id, srv.Demo.SecretKey, nil); got["status"] != "succeeded" {
		t.Fatalf("payment %s is %v server-side, want succeeded\ncalls:\n%s", id, got["status"], rig.callLog())
	}
	rig.checkCalls(t, "POST /payments/"+id+"/confirm")

	declined := call(t, srv.URL, http.MethodPost, "/payments", srv.Demo.SecretKey, map[string]any{"amount": 1000,
		"currency": "USD", "payment_link": true})
	rig.fillCard(t, rig.mountPage(t, declined["payment_link"].(map[string]any)["link"].(string)), "4000000000000002")
	rig.pay(t)
	if got := pageShown(t, rig, "failed"); !strings.Contains(got, "Payment failed") {
		t.Fatalf("the declined link's status page shows %q", got)
	}

	expiring := call(t, srv.URL, http.MethodPost, "/payments", srv.Demo.SecretKey, map[string]any{"amount": 1000,
		"currency": "USD", "payment_link": true, "session_expiry": 60})
	srv.Clock.Advance(61 * time.Second)
	if err := chromedp.Do(rig.ctx, chromedp.Navigate(expiring["payment_link"].(map[string]any)["link"].(string))); err != nil {
		t.Fatal(err)
	}
	if got := pageShown(t, rig, "expired"); !strings.Contains(got, "expired") {
		t.Fatalf("the expired link shows %q", got)
	}
	if n, err := chromedp.Run(rig.ctx, chromedp.Evaluate[int](`document.querySelectorAll("iframe, #pay").length`)); err != nil || n != 0 {
		t.Fatalf("the expired link offers a checkout (%d elements, %v)", n, err)
	}

	if err := chromedp.Do(rig.ctx, chromedp.Navigate(link)); err != nil {
		t.Fatal(err)
	}
	if got := pageShown(t, rig, "paid"); !strings.Contains(got, id) || !strings.Contains(got, "65.40 USD") {
		t.Fatalf("the paid link's receipt shows %q", got)
	}
}

// pageShown waits for the link's page of kind and returns its text.
func pageShown(t *testing.T, rig *checkoutRig, kind string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(rig.ctx, 45*time.Second)
	defer cancel()
	sel := `main[data-page="` + kind + `"]`
	var text string
	var err error
	for try := 0; try < 5; try++ {
		if err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err == nil {
			text, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		}
		if err == nil || !(strings.Contains(err.Error(), "navigated or closed") || strings.Contains(err.Error(), "Cannot find context")) {
			break
		}
	}
	if err != nil {
		shown, _ := chromedp.Run(rig.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
		t.Fatalf("the %s page did not show: %v; the page shows %q\ncalls:\n%s", kind, err, shown, rig.callLog())
	}
	return text
}
