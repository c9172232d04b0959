package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardInvitedOperatorRefunds: the admin invites an OPERATOR; in
// the same browser, signed out, the invitation link opens its page, the
// new member chooses a password and lands on the merchant's payments, opens
// a payment and refunds part of it with the form, as an OPERATOR may; the
// refund is on the server. The member's page shows no Team section.
func TestDashboardInvitedOperatorRefunds(t *testing.T) {
	d := newDashTab(t)
	paid := d.pay("4242424242424242", 8000, "USD", nil)
	out := call(t, d.srv.URL, "/graphql", map[string]any{
		"query": `mutation { inviteUser(email: "ops@refund.example", role: OPERATOR) { link } }`,
	}, "Authorization", "Bearer "+d.token)
	link := out["data"].(map[string]any)["inviteUser"].(map[string]any)["link"].(string)

	if err := chromedp.Do(d.ctx,
		chromedp.Evaluate[chromedp.Void](`sessionStorage.clear()`),
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#field-password`)),
	); err != nil {
		d.fail("open the invitation: %v", err)
	}
	d.poll("the invitation's words", `document.querySelector("form").innerText.includes("ops@refund.example is invited as an operator")`)
	if err := chromedp.Do(d.ctx,
		chromedp.SendKeys(chromedp.CSS(`#field-password`), "an operator's own passphrase"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	); err != nil {
		d.fail("accept the invitation: %v", err)
	}
	d.poll("the operator's role", `document.querySelector(".topbar").innerText.includes("operator")`)
	d.poll("no Team section", `!document.querySelector('nav a[href="/dashboard/team"]')`)
	if err := chromedp.Do(d.ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/dashboard/payments/%s"]`, paid))),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-status"]`)),
		chromedp.Click(chromedp.Search(`//button[text()="Refund"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#action-amount`)),
		chromedp.SendKeys(chromedp.CSS(`#action-amount`), "12.5"),
		chromedp.Click(chromedp.CSS(`form[aria-label="Refund"] button[type="submit"]`)),
	); err != nil {
		d.fail("the operator's refund: %v", err)
	}
	d.poll("the refund on the page", `(document.querySelector('[data-testid="refunds"]') || {innerText: ""}).innerText.includes("12.50 USD")`)
	refunds := call(t, d.srv.URL, "/refunds/list", map[string]any{"payment_id": paid}, "api-key", d.key)
	if raw, _ := json.Marshal(refunds); !strings.Contains(string(raw), `"amount":1250`) {
		d.fail("REST has no 1250 refund of %s: %s", paid, raw)
	}
}
