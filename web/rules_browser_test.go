package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// keyTo presses Tab until the focused element's text or aria-label is
// name (at most 400 presses), then presses Enter on it: an action reached
// and run by keyboard alone.
func (d *dashTab) keyTo(name string) {
	d.t.Helper()
	is := fmt.Sprintf(`(() => { const e = document.activeElement; return !!e && (e.textContent.trim() === %q || e.getAttribute("aria-label") === %q); })()`, name, name)
	for range 400 {
		if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](is)); err == nil && ok {
			if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.Enter)); err != nil {
				d.fail("Enter on %q: %v", name, err)
			}
			return
		}
		if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			d.fail("Tab: %v", err)
		}
	}
	d.fail("Tab never reached %q", name)
}

// unreachable tabs through the whole page, round to where it started, and
// answers the enabled, shown controls inside scope that Tab never focused
// (a radio group counts as reached when one of its radios is).
func (d *dashTab) unreachable(scope string) []string {
	d.t.Helper()
	mark := fmt.Sprintf(`(() => {
		window.__controls = [...document.querySelectorAll(%q)].flatMap(s => [...s.querySelectorAll('a[href], button, input, select, textarea, summary')])
			.filter(e => !e.disabled && e.checkVisibility());
		window.__seen = new Set();
		window.__first = null;
		return window.__controls.length; })()`, scope)
	n, err := chromedp.Run(d.ctx, chromedp.Evaluate[int](mark))
	if err != nil || n == 0 {
		d.fail("no controls in %s (%v)", scope, err)
	}
	// True once focus comes back to the first element the walk focused.
	record := `(() => { const e = document.activeElement; if (!e || e === document.body) return false;
		if (window.__first === e && window.__seen.size > 1) return true;
		window.__first ??= e; window.__seen.add(e); return false; })()`
	for range 800 {
		if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			d.fail("Tab: %v", err)
		}
		if round, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](record)); err == nil && round {
			break
		}
	}
	missed, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`JSON.stringify(window.__controls.filter(e => !window.__seen.has(e) &&
		!(e.type === "radio" && [...window.__seen].some(s => s.type === "radio" && s.name === e.name)))
		.map(e => e.id || e.getAttribute("aria-label") || e.textContent.trim() || e.outerHTML.slice(0, 80)))`))
	if err != nil {
		d.fail("the walk's result: %v", err)
	}
	var out []string
	_ = json.Unmarshal([]byte(missed), &out)
	d.t.Logf("Tab: %d controls in %s, %d never focused", n, scope, len(out))
	return out
}

// TestDashboardAdvancedRoutingAndGSM drives the Routing page's rules editor
// and GSM section in headless Chromium. A merchant with two sandbox
// accounts builds an advanced configuration with the editor (USD payments
// over 50.00 to stripe_test, the rest to adyen), sees an amount with too
// many decimals refused at its field and the server's refusal of an
// account disabled meanwhile shown at that account's field, saves it and
// activates it by keyboard; the picture says the rule in words, and REST
// payments made afterwards go where the rule says (their connector). Opened
// again, the stored configuration loads into the editor. Then a GSM rule
// added with the form makes a payment that fails on stripe_test with that
// error retry on adyen; edited to do_default it stops retrying; deleted
// after a confirming keypress, it is gone. axe-core finds no serious or
// critical violation with the editor and the GSM form open, and Tab
// reaches every control of both.
func TestDashboardAdvancedRoutingAndGSM(t *testing.T) {
	d := newDashTab(t)
	me := d.gql(`{ me { merchantID } merchantAccount { defaultProfileID } }`, nil)
	merchantID := me["me"].(map[string]any)["merchantID"].(string)
	profileID := me["merchantAccount"].(map[string]any)["defaultProfileID"].(string)
	var stripeID string
	for _, a := range d.rest("GET", "/account/"+merchantID+"/connectors", nil).([]any) {
		if m := a.(map[string]any); m["connector_name"] == "stripe_test" {
			stripeID = m["merchant_connector_id"].(string)
		}
	}
	adyenID := d.rest("POST", "/account/"+merchantID+"/connectors", map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_test_rules_adyen"},
	}).(map[string]any)["merchant_connector_id"].(string)
	if stripeID == "" {
		t.Fatal("the new merchant has no stripe_test account")
	}
	setAccount := func(id string, body map[string]any) {
		body["connector_type"] = "payment_processor"
		d.rest("POST", "/account/"+merchantID+"/connectors/"+id, body)
	}
	pay := func(amount int, currency string) map[string]any {
		return d.rest("POST", "/payments", map[string]any{
			"amount": amount, "currency": currency, "confirm": true, "payment_method": "card",
			"payment_method_data": map[string]any{"card": map[string]any{
				"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": "2040", "card_cvc": "123"}},
		}).(map[string]any)
	}

	// The editor, opened on a new program, filled in with the form.
	d.open("/routing", "#routing-title")
	d.click(`//button[text()="New advanced configuration (rules)"]`)
	d.poll("the editor", `!!document.querySelector('#adv-r0-g0-c1-value')`)
	d.poll("the editor has the focus", `document.activeElement?.id === "adv-title"`)
	d.setField("#adv-name", "Dollars over 50")
	d.setField("#adv-r0-name", "Big dollars")
	d.setField("#adv-r0-g0-c0-fact", "currency")
	d.setField("#adv-r0-g0-c0-value", "USD")
	d.setField("#adv-r0-g0-c1-fact", "amount")
	d.setField("#adv-r0-g0-c1-op", "number:greater_than")
	d.setField("#adv-r0-g0-c1-value", "50.005")
	d.setField("#adv-r0-out-0", stripeID)
	d.setField("#adv-default-out-0", adyenID)
	d.poll("the rules in words", `document.querySelector('[data-testid="rules-in-words"]').innerText.includes("If currency is USD and amount > 50.005")`)

	// Three decimals are not an amount in USD: refused at the field, nothing sent.
	d.click(`//button[text()="Save configuration"]`)
	d.poll("the amount's problem at its field", `(() => { const e = document.querySelector('#adv-r0-g0-c1-value-error');
		return !!e && e.innerText.includes("not an amount in USD") && document.querySelector('#adv-r0-g0-c1-value').getAttribute("aria-invalid") === "true"; })()`)
	if n := len(d.gql(`{ routingAlgorithms(first: 5) { edges { node { id } } } }`, nil)["routingAlgorithms"].(map[string]any)["edges"].([]any)); n != 0 {
		d.fail("a refused form made %d configurations", n)
	}
	d.setField("#adv-r0-g0-c1-value", "50.00")

	// adyen disabled meanwhile: the server refuses it, at the default's account.
	setAccount(adyenID, map[string]any{"disabled": true})
	d.click(`//button[text()="Save configuration"]`)
	d.poll("the server's refusal at its field", `(() => { const e = document.querySelector('#adv-default-out-0-error');
		return !!e && e.innerText.includes("not an active connector account") && document.querySelector('#adv-default-out-0').getAttribute("aria-invalid") === "true"; })()`)
	setAccount(adyenID, map[string]any{"disabled": false})

	// Saved, then activated by keyboard.
	d.clickTwice(`//button[text()="Save configuration"]`)
	d.poll("saved", `document.body.innerText.includes("Saved “Dollars over 50”")`)
	algos := d.gql(`{ routingAlgorithms(first: 5) { edges { node { id name kind active algorithm } } } }`, nil)["routingAlgorithms"].(map[string]any)["edges"].([]any)
	if len(algos) != 1 {
		d.fail("a double click made %d configurations", len(algos))
	}
	stored := algos[0].(map[string]any)["node"].(map[string]any)
	program, _ := json.Marshal(stored["algorithm"])
	for _, want := range []string{`"type":"advanced"`, `"name":"Big dollars"`, `"lhs":"amount"`, `"comparison":"greater_than"`,
		`"value":{"type":"number","value":5000}`, `"value":{"type":"enum_variant","value":"USD"}`} {
		if !strings.Contains(string(program), want) {
			d.fail("the stored program lacks %s:\n%s", want, program)
		}
	}
	d.keyTo("Activate “Dollars over 50”")
	d.poll("activated", `document.body.innerText.includes("Activated “Dollars over 50”")`)
	d.poll("the picture in words", `(() => { const r = document.querySelector('[data-testid="routing-rules"]');
		return !!r && r.innerText.includes("Big dollars: If currency is USD and amount > 50.00 → ") && r.innerText.includes("(stripe_test)") &&
			r.innerText.includes("Otherwise → ") && r.innerText.includes("(adyen)"); })()`)
	d.checkAxe("routing with an advanced configuration")

	// REST payments go where the rule says.
	for _, tc := range []struct {
		amount    int
		currency  string
		connector string
	}{{6000, "USD", "stripe_test"}, {5000, "USD", "adyen"}, {6000, "EUR", "adyen"}, {900000, "USD", "stripe_test"}, {6000, "JPY", "adyen"}} {
		p := pay(tc.amount, tc.currency)
		if p["connector"] != tc.connector || p["status"] != "succeeded" {
			d.fail("%d %s went to %v (%v), want %s", tc.amount, tc.currency, p["connector"], p["status"], tc.connector)
		}
	}

	// Opened again, the stored configuration loads into the editor.
	d.click(`//button[text()="Close the editor"]`)
	d.click(`//button[normalize-space(.)="Open Dollars over 50 in the rules editor"]`)
	d.poll("the stored rule in the editor", `document.querySelector('#adv-r0-name')?.value === "Big dollars" &&
		document.querySelector('#adv-r0-g0-c1-value').value === "50.00" && document.querySelector('#adv-r0-g0-c1-op').value === "number:greater_than" &&
		document.querySelector('#adv-name').value === "Dollars over 50 (copy)"`)
	if v := d.eval(`document.querySelector('#adv-default-out-0').value`); v != adyenID {
		d.fail("the default loaded as %q", v)
	}

	// GSM: retries on; stripe_test fails every payment with a known error.
	d.rest("POST", "/account/"+merchantID+"/business_profile/"+profileID, map[string]any{
		"is_auto_retries_enabled": true, "max_auto_retries_enabled": 1})
	const message = "Issuer busy (dashboard test)"
	setAccount(stripeID, map[string]any{"metadata": map[string]any{"sandbox": map[string]any{
		"failure_rate": 1, "error_code": "processing_error", "error_message": message}}})
	attempts := func(p map[string]any) string {
		var out []string
		for _, a := range p["attempts"].([]any) {
			m := a.(map[string]any)
			out = append(out, fmt.Sprintf("%v:%v", m["connector"], m["status"]))
		}
		return strings.Join(out, ",")
	}
	if p := pay(7000, "USD"); p["status"] != "failed" || attempts(p) != "stripe_test:failure" {
		d.fail("without a rule: %v, %s", p["status"], attempts(p))
	}

	// The rule, added with the form; axe-core with the editor and the form open.
	d.click(`//button[text()="Add a GSM rule"]`)
	d.poll("the GSM form", `!!document.querySelector('#gsm-code')`)
	d.setField("#gsm-connector", "stripe_test")
	d.setField("#gsm-code", "processing_error")
	d.setField("#gsm-message", message)
	d.setField("#gsm-unified_code", "UE_9000")
	d.checkAxe("routing with the rules editor and the GSM form open")
	if missed := d.unreachable(".rules-editor, .gsm"); len(missed) > 0 {
		d.fail("Tab never reaches %v", missed)
	}
	d.click(`//button[text()="Add the rule"]`)
	d.poll("the rule listed", `(() => { const t = document.querySelector('[data-testid="gsm-rules"]').innerText;
		return t.includes("processing_error") && t.includes("Issuer busy (dashboard test)") && t.includes("retry") && t.includes("UE_9000"); })()`)
	rules := d.gql(`{ gsmRules(first: 5, where: {connector: "stripe_test"}) { edges { node { id code message decision flow subFlow } } } }`, nil)["gsmRules"].(map[string]any)["edges"].([]any)
	if len(rules) != 1 {
		d.fail("the server has %d rules", len(rules))
	}
	rule := rules[0].(map[string]any)["node"].(map[string]any)
	if rule["message"] != message || rule["decision"] != "retry" || rule["flow"] != "Authorize" || rule["subFlow"] != "sub_flow" {
		d.fail("the rule made: %v", rule)
	}
	if p := pay(7000, "USD"); p["status"] != "succeeded" || p["connector"] != "adyen" || attempts(p) != "stripe_test:failure,adyen:charged" {
		d.fail("with the retry rule: %v on %v, %s", p["status"], p["connector"], attempts(p))
	}

	// Edited to do_default: no retry.
	d.click(`//button[@aria-label="Edit the rule for stripe_test processing_error"]`)
	d.poll("the edit form", `!!document.querySelector('#gsm-status')`)
	d.click(`//label[contains(., "do_default")]/input`)
	d.click(`//button[text()="Save the rule"]`)
	d.poll("the rule saved", `document.querySelector('[data-testid="gsm-rules"]').innerText.includes("do_default")`)
	if p := pay(7000, "USD"); p["status"] != "failed" || attempts(p) != "stripe_test:failure" {
		d.fail("with do_default: %v, %s", p["status"], attempts(p))
	}

	// Deleted, after a confirming keypress.
	d.keyTo("Delete the rule for stripe_test processing_error")
	d.poll("the confirmation", `!!document.evaluate('//button[text()="Delete the rule"]', document, null, XPathResult.FIRST_ORDERED_NODE_TYPE, null).singleNodeValue`)
	if n := d.count(`[data-testid^="gsm-gsm_"]`); n != 1 {
		d.fail("asking to delete removed the rule already (%d rows)", n)
	}
	d.keyTo("Delete the rule")
	d.poll("the rule gone", `document.querySelector('[data-testid="gsm-rules"]').innerText.includes("No GSM rule yet.")`)
	if rules := d.gql(`{ gsmRules(first: 5) { totalCount } }`, nil)["gsmRules"].(map[string]any); rules["totalCount"] != float64(0) {
		d.fail("after the delete the server has %v", rules)
	}
}
