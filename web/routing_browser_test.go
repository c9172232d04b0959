package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// setField sets an input's or a select's value past React's own setter and
// fires the events a person's typing or choice does (SetValue alone leaves
// React's state as it was).
func (d *dashTab) setField(sel, value string) {
	d.t.Helper()
	js := fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el) return false;
		const proto = el instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
		Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, %q);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		el.dispatchEvent(new Event('change', {bubbles: true}));
		return el.value === %q;
	})()`, sel, value, value)
	if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](js)); err != nil || !ok {
		d.fail("set %s to %q (%v)", sel, value, err)
	}
}

// gql runs a query with the tab's session and answers its data.
func (d *dashTab) gql(query string, variables map[string]any) map[string]any {
	d.t.Helper()
	return call(d.t, d.srv.URL, "/graphql", map[string]any{"query": query, "variables": variables},
		"Authorization", "Bearer "+d.token)["data"].(map[string]any)
}

// TestDashboardConnectorsAndRouting drives the Connectors and Routing pages
// in headless Chromium. A new merchant adds a second sandbox connector
// account with the form (its credential shown masked afterwards, never as
// typed), switches its sandbox outage on and off with the form, sets a 70/30 volume split between the two accounts with the
// routing form and activates it (a double click makes and activates one
// configuration), sees the picture say 70% and 30%, asks the "what would
// route where" box and gets one of the two accounts, then makes 40
// payments over REST: each account takes some (at least 5; the draw is
// random, so no exact ratio is asserted).
func TestDashboardConnectorsAndRouting(t *testing.T) {
	d := newDashTab(t)
	const secret = "sk_test_dashboard_secret_987654"

	d.open("/connectors", "#connectors-title")
	d.poll("the sign-up's account", `document.querySelectorAll('article[data-testid^="connector-"]').length === 1`)
	d.setField("#connector-name", "adyen")
	d.setField("#connector-label", "adyen_second")
	d.setField("#cred-value-0", secret)
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//button[text()="Add connector account"]`))); err != nil {
		d.fail("add the account: %v", err)
	}
	d.poll("the new account", `document.querySelectorAll('article[data-testid^="connector-"]').length === 2`)
	d.poll("the form emptied", `document.querySelector('#cred-value-0').value === ""`)
	page := d.text("main")
	if strings.Contains(page, secret) || !strings.Contains(page, "adyen_second") {
		d.fail("after adding, the page shows the credential as typed, or not the account")
	}
	// The server has the account with card payments enabled and the
	// credential masked (its first and last two characters).
	accounts := d.gql(`{ connectorAccounts(first: 10, orderBy: {field: CREATED_AT, direction: ASC}) { edges { node {
		merchantConnectorID connectorName connectorLabel connectorAccountDetails paymentMethodsEnabled } } } }`, nil)["connectorAccounts"].(map[string]any)["edges"].([]any)
	if len(accounts) != 2 {
		d.fail("the server has %d accounts, want 2", len(accounts))
	}
	first := accounts[0].(map[string]any)["node"].(map[string]any)
	second := accounts[1].(map[string]any)["node"].(map[string]any)
	if second["connectorName"] != "adyen" || second["connectorLabel"] != "adyen_second" {
		d.fail("the new account is %v", second)
	}
	masked := fmt.Sprint(second["connectorAccountDetails"].(map[string]any)["api_key"])
	if masked == secret || !strings.HasPrefix(masked, "sk") || !strings.HasSuffix(masked, "54") {
		d.fail("the credential reads %q", masked)
	}
	if !strings.Contains(d.text(`[data-testid="connector-`+second["merchantConnectorID"].(string)+`"]`), masked) {
		d.fail("the page does not show the masked credential %q", masked)
	}
	if !strings.Contains(fmt.Sprint(second["paymentMethodsEnabled"]), "credit") {
		d.fail("the new account takes %v", second["paymentMethodsEnabled"])
	}
	a, b := first["merchantConnectorID"].(string), second["merchantConnectorID"].(string)
	d.checkAxe("connectors")

	// The sandbox failure knobs: an outage switched on with the form is in
	// the account's metadata; turned off, the metadata has no sandbox object.
	card := `[data-testid="connector-` + b + `"]`
	clickIn := func(what, js string) {
		d.t.Helper()
		if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const c = document.querySelector(%q); `+js+` })()`, card))); err != nil || !ok {
			d.fail("%s (%v)", what, err)
		}
	}
	sandboxOf := func() any {
		node := d.gql(`query($id: ID!) { node(id: $id) { ... on MerchantConnectorAccount { metadata } } }`, map[string]any{"id": b})["node"].(map[string]any)
		md, _ := node["metadata"].(map[string]any)
		return md["sandbox"]
	}
	clickIn("tick Outage", `const i = [...c.querySelectorAll('label')].find(l => l.textContent.includes("Outage"))?.querySelector('input'); if (!i) return false; i.click(); return true;`)
	clickIn("save the knobs", `const b = [...c.querySelectorAll('button')].find(b => b.textContent === "Save sandbox failures"); if (!b) return false; b.click(); return true;`)
	d.poll("the knobs on", fmt.Sprintf(`document.querySelector(%q).innerText.includes("Sandbox failures (on)")`, card))
	if sb, _ := sandboxOf().(map[string]any); sb["outage"] != true {
		d.fail("after the form, metadata.sandbox is %v", sb)
	}
	clickIn("turn the failures off", `const b = [...c.querySelectorAll('button')].find(b => b.textContent === "Turn failures off"); if (!b) return false; b.click(); return true;`)
	d.poll("the knobs off", fmt.Sprintf(`document.querySelector(%q).innerText.includes("Sandbox failures (off)")`, card))
	if sb := sandboxOf(); sb != nil {
		d.fail("after turning failures off, metadata.sandbox is %v", sb)
	}

	// Routing: nothing active yet; a 70/30 split made with the form.
	d.open("/routing", "#routing-title")
	d.poll("the form", `!!document.querySelector('#routing-account-1')`)
	d.setField("#routing-account-0", a)
	d.setField("#routing-account-1", b)
	d.setField("#routing-share-0", "70")
	d.setField("#routing-share-1", "30")
	d.setField("#routing-name", "Seventy thirty")
	if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](`(() => {
		const b = [...document.querySelectorAll('button')].find(b => b.textContent === "Create and activate");
		if (!b) return false; b.click(); b.click(); return true; })()`)); err != nil || !ok {
		d.fail("no Create and activate button (%v)", err)
	}
	d.poll("the activation", `document.body.innerText.includes("Activated: the next payments route this way.")`)
	d.poll("the picture", `(() => { const f = document.querySelector('[data-testid="routing-picture"]');
		return !!f && f.querySelector('svg') && f.innerText.includes("70%") && f.innerText.includes("30%"); })()`)
	caption := d.text(`[data-testid="routing-picture"] figcaption`)
	if !strings.Contains(caption, "70% to ") || !strings.Contains(caption, "adyen_second") {
		d.fail("the picture's caption is %q", caption)
	}
	algos := d.gql(`{ routingAlgorithms(first: 10) { edges { node { name kind active } } } }`, nil)["routingAlgorithms"].(map[string]any)["edges"].([]any)
	if len(algos) != 1 {
		d.fail("a double click made %d configurations, want 1", len(algos))
	}
	if n := algos[0].(map[string]any)["node"].(map[string]any); n["name"] != "Seventy thirty" || n["kind"] != "volume_split" || n["active"] != true {
		d.fail("the configuration is %v", n)
	}

	// What would route where: one of the two accounts, by the split.
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//button[text()="Evaluate"]`))); err != nil {
		d.fail("evaluate: %v", err)
	}
	d.poll("the evaluation", fmt.Sprintf(`(() => { const t = document.querySelector('[data-testid="routing-answer"]').innerText;
		return (t.includes(%q) || t.includes(%q)) && t.includes("volume_based_routing"); })()`, a, b))
	d.checkAxe("routing with the picture and an answer")

	// Forty payments over REST: both accounts take some.
	took := map[string]int{}
	for range 40 {
		p := call(t, d.srv.URL, "/payments", map[string]any{
			"amount": 1000, "currency": "USD", "confirm": true, "payment_method": "card",
			"payment_method_data": map[string]any{"card": map[string]any{
				"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": "2040", "card_cvc": "123",
			}},
		}, "api-key", d.key)
		took[fmt.Sprint(p["merchant_connector_id"])]++
	}
	if took[a] < 5 || took[b] < 5 || took[a]+took[b] != 40 {
		d.fail("the 40 payments went %v; want at least 5 on each of %s and %s", took, a, b)
	}
}
