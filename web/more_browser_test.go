package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// rest calls the REST API with the merchant's key and decodes any answer
// (the connector list is an array), failing on anything but 200.
func (d *dashTab) rest(method, path string, body any) any {
	d.t.Helper()
	status, raw, err := testenv.Call(d.srv.URL, method, path, d.key, body)
	if err != nil || status != 200 {
		d.t.Fatalf("%s %s: %d %s %v", method, path, status, raw, err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		d.t.Fatalf("%s %s: %v: %s", method, path, err, raw)
	}
	return out
}

// TestDashboardPaymentTimelineDisputesCustomers: a merchant with automatic
// retries and a second connector (adyen) pays while its first (the sandbox
// stripe_test) is down; the payment's page shows both attempts in order,
// the first's error and the retry onto adyen, and the payment's webhook
// event with its refused delivery attempt (the receiver's answer), which a
// retry from the page delivers. A payment with the dispute card appears in
// Disputes, links to its payment and is accepted there (the server has it
// accepted, the button goes); its refund appears in Refunds. A customer
// with a saved card is listed in Customers, and their page shows the card
// masked (network, last four, expiry; no other digit of the number), the
// mandate their payment set up, and that payment. axe-core finds no serious or critical violation on any
// of these pages.
func TestDashboardPaymentTimelineDisputesCustomers(t *testing.T) {
	d := newDashTab(t)
	me := call(t, d.srv.URL, "/graphql", map[string]any{"query": `{ me { merchantID } merchantAccount { defaultProfileID } }`},
		"Authorization", "Bearer "+d.token)["data"].(map[string]any)
	merchantID := me["me"].(map[string]any)["merchantID"].(string)
	profileID := me["merchantAccount"].(map[string]any)["defaultProfileID"].(string)

	recv := &firstRefusedThenOK{}
	hooks := httptest.NewServer(recv)
	t.Cleanup(hooks.Close)
	d.rest("POST", "/account/"+merchantID+"/business_profile/"+profileID, map[string]any{
		"is_auto_retries_enabled": true, "max_auto_retries_enabled": 1,
		"webhook_details": map[string]any{"webhook_url": hooks.URL + "/hooks"},
	})
	var stripeID string
	for _, a := range d.rest("GET", "/account/"+merchantID+"/connectors", nil).([]any) {
		if m := a.(map[string]any); m["connector_name"] == "stripe_test" {
			stripeID = m["merchant_connector_id"].(string)
		}
	}
	if stripeID == "" {
		t.Fatal("the new merchant has no stripe_test account")
	}
	d.rest("POST", "/account/"+merchantID+"/connectors", map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_dash_adyen"},
	})
	d.rest("POST", "/account/"+merchantID+"/connectors/"+stripeID, map[string]any{
		"connector_type": "payment_processor", "metadata": map[string]any{"sandbox": map[string]any{"outage": true}}})

	retried := d.pay("4242424242424242", 2500, "USD", nil)
	if _, err := d.srv.Webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}

	// The payment's page: two attempts, in order, and why the second.
	d.open("/payments/"+retried, `[data-testid="attempts"]`)
	d.poll("both attempts", `document.querySelectorAll('[data-testid="attempt"]').length === 2`)
	connectors := d.eval(`[...document.querySelectorAll('[data-testid="attempt"]')].map(a => a.dataset.connector).join(",")`)
	if connectors != "stripe_test,adyen" {
		d.fail("the attempts' connectors are %q, want stripe_test then adyen", connectors)
	}
	first := d.text(`[data-testid="attempt"]:nth-child(1)`)
	for _, want := range []string{"failure", "service_unavailable", "Retried on adyen after service_unavailable", "Routing"} {
		if !strings.Contains(first, want) {
			d.fail("the first attempt lacks %q:\n%s", want, first)
		}
	}
	if second := d.text(`[data-testid="attempt"]:nth-child(2)`); !strings.Contains(second, "charged") || strings.Contains(second, "Retried") {
		d.fail("the second attempt:\n%s", second)
	}

	// Its event, refused once by the receiver, then retried from the page.
	d.poll("the payment's event", `(document.querySelector('[data-testid="payment-events"]')?.innerText ?? "").includes("payment_succeeded")`)
	events := d.text(`[data-testid="payment-events"]`)
	for _, want := range []string{"HTTP 500", "next attempt", "pending"} {
		if !strings.Contains(events, want) {
			d.fail("the payment's events lack %q:\n%s", want, events)
		}
	}
	if body := d.eval(`document.querySelector('[data-testid="payment-events"] [data-testid="delivery-attempt"] pre').textContent`); body != "receiver busy" {
		d.fail("the refused attempt's answer is %q", body)
	}
	d.checkAxe("a retried payment's page")
	d.click(`//button[text()="Retry delivery"]`)
	d.poll("the manual retry delivered", `(document.querySelector('[data-testid="payment-events"]')?.innerText ?? "").includes("HTTP 200")`)
	d.poll("delivered", `document.querySelector('[data-testid="payment-events"] [data-testid="delivery-state"]').innerText === "delivered"`)

	// A disputed payment, refunded in part too: the lists show both.
	d.rest("POST", "/account/"+merchantID+"/connectors/"+stripeID, map[string]any{
		"connector_type": "payment_processor", "metadata": map[string]any{"sandbox": map[string]any{"outage": false}}})
	disputed := d.pay("4000000000000259", 4200, "USD", nil)
	refund := d.rest("POST", "/refunds", map[string]any{"payment_id": retried, "amount": 500}).(map[string]any)["refund_id"].(string)
	disputes := d.rest("GET", "/disputes/list", nil).([]any)
	if len(disputes) != 1 || disputes[0].(map[string]any)["payment_id"] != disputed {
		t.Fatalf("the dispute card made %v", disputes)
	}
	disputeID := disputes[0].(map[string]any)["dispute_id"].(string)

	d.click(`//nav//a[text()="Refunds"]`)
	d.poll("the refund listed", fmt.Sprintf(`(document.querySelector('[data-testid="refund-list"] tbody')?.innerText ?? "").includes(%q)`, refund))
	if row := d.text(`[data-testid="refund-list"] tbody tr`); !strings.Contains(row, retried) || !strings.Contains(row, "5.00 USD") {
		d.fail("the refund's row: %s", row)
	}
	d.checkAxe("Refunds")

	d.click(`//nav//a[text()="Disputes"]`)
	row := fmt.Sprintf(`[data-testid="dispute-list"] tr[data-dispute-id=%q]`, disputeID)
	d.poll("the dispute listed", fmt.Sprintf(`!!document.querySelector(%q)`, row))
	if text := d.text(row); !strings.Contains(text, disputed) || !strings.Contains(text, "dispute opened") || !strings.Contains(text, "42.00 USD") {
		d.fail("the dispute's row: %s", text)
	}
	// The row links to the dispute's own page and to its payment.
	hrefs := d.eval(fmt.Sprintf(`Array.from(document.querySelectorAll('%s a')).map(a => a.getAttribute("href")).join(" ")`, row))
	if !strings.Contains(hrefs, "/dashboard/disputes/"+disputeID) || !strings.Contains(hrefs, "/dashboard/payments/"+disputed) {
		d.fail("the dispute's row links to %q", hrefs)
	}
	d.checkAxe("Disputes")
	d.clickTwice(`//tr[@data-dispute-id="` + disputeID + `"]//button[text()="Accept dispute"]`)
	d.poll("accepted", fmt.Sprintf(`(document.querySelector(%q)?.innerText ?? "").includes("dispute accepted")`, row))
	if n := d.count(row + ` button`); n != 0 {
		d.fail("an accepted dispute still offers %d buttons", n)
	}
	got := d.rest("GET", "/disputes/"+disputeID, nil).(map[string]any)
	if got["dispute_status"] != "dispute_accepted" {
		t.Fatalf("after Accept the server has %v", got)
	}
	// The disputed payment's page shows it too, accepted, with no button.
	d.open("/payments/"+disputed, `[data-testid="disputes"]`)
	d.poll("the payment's dispute", `document.querySelector('[data-testid="disputes"] tbody').innerText.includes("dispute accepted")`)
	if n := d.count(`[data-testid="disputes"] button`); n != 0 {
		d.fail("an accepted dispute offers %d buttons on its payment", n)
	}

	// A customer with a saved card, and a payment of theirs.
	customer := d.rest("POST", "/customers", map[string]any{"name": "Ada Lovelace", "email": "ada@dash.example"}).(map[string]any)["customer_id"].(string)
	year := fmt.Sprint(time.Now().Year() + 4)
	d.rest("POST", "/payment_methods", map[string]any{"payment_method": "card", "payment_method_type": "credit",
		"card":        map[string]any{"card_number": "4111111111111111", "card_exp_month": "7", "card_exp_year": year, "card_holder_name": "Ada Lovelace"},
		"customer_id": customer})
	// Their payment sets a mandate up (and saves its card too).
	theirs := d.pay("4242424242424242", 1300, "USD", map[string]any{"customer_id": customer, "setup_future_usage": "off_session",
		"mandate_data": map[string]any{"customer_acceptance": map[string]any{"acceptance_type": "online", "accepted_at": "2026-01-02T03:04:05Z",
			"online": map[string]any{"ip_address": "203.0.113.7", "user_agent": "Mozilla/5.0"}}}})
	mandate, _ := d.rest("GET", "/payments/"+theirs, nil).(map[string]any)["mandate_id"].(string)
	if !strings.HasPrefix(mandate, "man_") {
		t.Fatalf("the setup payment made no mandate (%q)", mandate)
	}

	d.click(`//nav//a[text()="Customers"]`)
	d.poll("the customer listed", fmt.Sprintf(`(document.querySelector('[data-testid="customer-list"] tbody')?.innerText ?? "").includes(%q)`, customer))
	d.checkAxe("Customers")
	d.click(fmt.Sprintf(`//a[text()=%q]`, customer))
	d.poll("the saved card", `!!document.querySelector('[data-testid="payment-method-details"]')`)
	d.poll("both saved cards", `document.querySelectorAll('[data-testid="payment-method-details"]').length === 2`)
	cards := d.text(`[data-testid="payment-methods"] tbody`)
	if !strings.Contains(cards, "Visa •••• 1111, expires 07/"+year) || !strings.Contains(cards, "•••• 4242") {
		d.fail("the saved cards show as:\n%s", cards)
	}
	if mandates := d.text(`[data-testid="mandates"] tbody`); !strings.Contains(mandates, mandate) || !strings.Contains(mandates, theirs) {
		d.fail("the mandates show as:\n%s", mandates)
	}
	d.checkAxe("a customer's page")
	if page := d.eval(`document.body.innerText`); strings.Contains(page, "411111") {
		d.fail("the customer's page shows more of the number than the last four:\n%s", page)
	}
	d.poll("the customer's payment", fmt.Sprintf(`(document.querySelector('[data-testid="customer-payments"]')?.innerText ?? "").includes(%q)`, theirs))
	if other := d.text(`[data-testid="customer-payments"] tbody`); strings.Contains(other, retried) {
		d.fail("another payment is listed as the customer's:\n%s", other)
	}

	if problems := d.watch.Problems(); len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
}

// eval is a JavaScript string expression's value now.
func (d *dashTab) eval(js string) string {
	d.t.Helper()
	v, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](js))
	if err != nil {
		d.fail("%s: %v", js, err)
	}
	return v
}

// click clicks the element the XPath finds, once it is visible.
func (d *dashTab) click(xpath string) {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(xpath))); err != nil {
		d.fail("click %s: %v", xpath, err)
	}
}

// clickTwice clicks the element the XPath finds twice in one go, as a
// double click does: its action must happen once.
func (d *dashTab) clickTwice(xpath string) {
	d.t.Helper()
	js := fmt.Sprintf(`(() => { const b = document.evaluate(%q, document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue; if (!b) return false; b.click(); b.click(); return true; })()`, xpath)
	if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](js)); err != nil || !ok {
		d.fail("no %s to click (%v)", xpath, err)
	}
}

// count is how many elements the selector finds now.
func (d *dashTab) count(sel string) int {
	d.t.Helper()
	n, err := chromedp.Run(d.ctx, chromedp.Evaluate[int](fmt.Sprintf(`document.querySelectorAll(%q).length`, sel)))
	if err != nil {
		d.fail("count %s: %v", sel, err)
	}
	return n
}
