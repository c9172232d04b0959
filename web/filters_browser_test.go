package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// waitColumn waits until the table testID, done loading, shows want in its
// first column, top to bottom; nil waits for its "No … match" row.
func (d *dashTab) waitColumn(testID string, want []string) {
	d.t.Helper()
	sel := fmt.Sprintf(`[data-testid=%q]`, testID)
	if want == nil {
		d.poll("no match in "+testID, fmt.Sprintf(`(() => { const t = document.querySelector(%q);
			return !!t && t.getAttribute("aria-busy") !== "true" && / match these filters/.test(t.tBodies[0].innerText); })()`, sel))
		return
	}
	raw, _ := json.Marshal(want)
	col := fmt.Sprintf(`[...document.querySelectorAll('%s tbody tr td:first-child')].map(td => td.textContent)`, sel)
	js := fmt.Sprintf(`(() => { const t = document.querySelector(%q);
		return !!t && t.getAttribute("aria-busy") !== "true" && JSON.stringify(%s) === %q; })()`, sel, col, raw)
	if _, err := chromedp.Run(d.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(d.ctx, chromedp.Evaluate[[]string](col))
		d.fail("%s shows %q, want %q: %v", testID, got, want, err)
	}
}

// applyFilters ticks the checkboxes named name with these values in the
// form labelled form, and presses Apply.
func (d *dashTab) applyFilters(form, name string, values ...string) {
	d.t.Helper()
	for _, v := range values {
		d.click(fmt.Sprintf(`//form[@aria-label=%q]//input[@name=%q][@value=%q]`, form, name, v))
	}
	d.click(fmt.Sprintf(`//form[@aria-label=%q]//button[text()="Apply filters"]`, form))
}

// location waits until the tab's URL ends with suffix.
func (d *dashTab) location(suffix string) {
	d.t.Helper()
	d.poll("the URL "+suffix, fmt.Sprintf(`location.href.endsWith(%q)`, suffix))
}

// TestDashboardMerchantTimeZoneAndListFilters: in a browser whose own zone
// is Los Angeles's, an admin sets the merchant's time zone to Kolkata in
// Team's business settings (the server has it), and the home page says
// so; the payments list shows its times and reads its day filters in
// Kolkata's calendar, and filters by a customer's e-mail typed in another
// case; the refunds and disputes lists filter by status with their forms
// and by links, the customers list by e-mail; each filter lives in the URL,
// and axe-core finds no serious or critical violation on any filtered list.
func TestDashboardMerchantTimeZoneAndListFilters(t *testing.T) {
	d := newDashTab(t)
	if _, err := chromedp.Call(d.ctx, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: "America/Los_Angeles"}); err != nil {
		d.fail("the browser's zone: %v", err)
	}
	ok := "4242424242424242"
	d.rest("POST", "/customers", map[string]any{"customer_id": "cus_ada", "email": "Ada.Lovelace@Example.com", "name": "Ada Lovelace"})
	d.rest("POST", "/customers", map[string]any{"customer_id": "cus_grace", "email": "grace@example.com", "name": "Grace Hopper"})
	adas := d.pay(ok, 1500, "USD", map[string]any{"customer_id": "cus_ada"})
	graces := d.pay(ok, 2500, "USD", map[string]any{"customer_id": "cus_grace"})
	refunded := d.rest("POST", "/refunds", map[string]any{"payment_id": adas, "amount": 500}).(map[string]any)["refund_id"].(string)
	// A refund the connector refuses: its sandbox is down for it.
	acct := d.gql(`{ merchantAccount { merchantID connectorAccounts(first: 5) { edges { node { merchantConnectorID connectorName } } } } }`, nil)["merchantAccount"].(map[string]any)
	merchantID := acct["merchantID"].(string)
	mca := acct["connectorAccounts"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)["merchantConnectorID"].(string)
	outage := func(on bool) {
		d.rest("POST", "/account/"+merchantID+"/connectors/"+mca, map[string]any{
			"connector_type": "payment_processor", "metadata": map[string]any{"sandbox": map[string]any{"outage": on}}})
	}
	outage(true)
	refused := d.rest("POST", "/refunds", map[string]any{"payment_id": graces, "amount": 700}).(map[string]any)
	if refused["status"] != "failed" {
		t.Fatalf("a refund during an outage: %v", refused)
	}
	outage(false)
	// Two disputes: the older accepted, the newer open.
	disputed := map[string]string{d.pay("4000000000000259", 4200, "USD", nil): "accepted", d.pay("4000000000002685", 4300, "USD", nil): "open"}
	var accepted, open string
	for _, x := range d.rest("GET", "/disputes/list", nil).([]any) {
		dp := x.(map[string]any)
		switch disputed[dp["payment_id"].(string)] {
		case "accepted":
			accepted = dp["dispute_id"].(string)
		case "open":
			open = dp["dispute_id"].(string)
		}
	}
	if accepted == "" || open == "" {
		t.Fatalf("the dispute cards made no disputes")
	}
	d.rest("POST", "/disputes/accept/"+accepted, nil)

	// Business settings: the admin moves the merchant to Kolkata.
	d.open("/team", `#business-settings`)
	if zone := d.eval(`Intl.DateTimeFormat().resolvedOptions().timeZone`); zone != "America/Los_Angeles" {
		d.fail("the browser is in %q", zone)
	}
	if zone := d.eval(`document.querySelector("#merchant-time-zone").value`); zone != "UTC" {
		d.fail("a merchant signed up without a zone shows %q", zone)
	}
	d.setField("#merchant-time-zone", "Asia/Kolkata")
	d.click(`//button[text()="Save time zone"]`)
	d.poll("saved", `(document.querySelector('#business-settings + form [role="status"]')?.innerText ?? "").includes("Saved: Asia/Kolkata")`)
	if zone := d.gql(`{ me { merchantTimeZone } }`, nil)["me"].(map[string]any)["merchantTimeZone"]; zone != "Asia/Kolkata" {
		d.fail("the server has the merchant in %v", zone)
	}
	d.checkAxe("business settings")

	// Home says which zone its days are, and its buckets are Kolkata's days.
	d.open("/home?range=7d", `#home-title`)
	d.poll("the zone on Home", `document.querySelector('[data-testid="home-zone"]').innerText.startsWith("Times in Asia/Kolkata")`)
	d.poll("seven buckets", `document.querySelectorAll('[data-testid="chart-payments"] rect.hit').length === 7`)
	todayLabel := d.eval(`new Date().toLocaleDateString(undefined, {month: "short", day: "numeric", timeZone: "Asia/Kolkata"})`)
	if last := d.eval(`[...document.querySelectorAll('[data-testid="chart-payments"] rect.hit')].at(-1).getAttribute("aria-label")`); !strings.HasPrefix(last, todayLabel) {
		d.fail("the 7 days end with %q, not Kolkata's today %q", last, todayLabel)
	}

	// Payments: times written in Kolkata, day filters read in Kolkata.
	d.open("/payments", `[data-testid="payments"]`)
	d.poll("four payments", `document.querySelectorAll('[data-testid="payments"] tbody tr').length === 4`)
	if head := d.text(`[data-testid="payments"] thead`); !strings.Contains(head, "Created (Asia/Kolkata)") {
		d.fail("the list's head does not say the zone: %s", head)
	}
	if same := d.eval(`String([...document.querySelectorAll('[data-testid="payments"] tbody time')].every(t =>
		t.textContent === new Date(t.dateTime).toLocaleString(undefined, {dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata"})))`); same != "true" {
		d.fail("the payments' times are not written in Kolkata's")
	}
	day := func(offset int) string {
		return d.eval(fmt.Sprintf(`new Intl.DateTimeFormat("en-CA", {timeZone: "Asia/Kolkata"}).format(new Date(Date.now() + %d * 864e5))`, offset))
	}
	today := day(0)
	d.open("/payments?from="+today+"&to="+today, `[data-testid="payments"]`)
	d.poll("today's four payments", `document.querySelectorAll('[data-testid="payments"] tbody tr a').length === 4`)
	for _, q := range []string{"to=" + day(-1), "from=" + day(1)} {
		d.open("/payments?"+q, `[data-testid="payments"]`)
		d.poll("none for "+q, `document.querySelector('[data-testid="payments"] tbody').innerText.includes("No payments match")`)
	}
	if hint := d.text(`#filter-hint`); !strings.Contains(hint, "Asia/Kolkata") {
		d.fail("the form's hint does not say the zone: %s", hint)
	}

	// By a customer's e-mail, typed in another case, with the form.
	d.open("/payments", `[data-testid="payments"]`)
	d.setField("#filter-customer", "ada.lovelace@EXAMPLE.com")
	d.click(`//form[@aria-label="Filter payments"]//button[text()="Apply filters"]`)
	d.waitList([]string{adas})
	d.location("/dashboard/payments?customer=ada.lovelace%40EXAMPLE.com")
	d.checkAxe("payments filtered by e-mail")
	d.open("/payments?customer=grace%40example.com", `[data-testid="payments"]`)
	d.waitList([]string{graces})

	// Refunds by status: the form, then a link.
	d.open("/refunds", `[data-testid="refund-list"]`)
	d.waitColumn("refund-list", []string{refused["refund_id"].(string), refunded})
	d.applyFilters("Filter refunds", "status", "failed")
	d.waitColumn("refund-list", []string{refused["refund_id"].(string)})
	d.location("/dashboard/refunds?status=failed")
	d.checkAxe("refunds filtered by status")
	d.open("/refunds?status=succeeded&payment="+adas, `[data-testid="refund-list"]`)
	d.waitColumn("refund-list", []string{refunded})
	d.open("/refunds?status=pending", `[data-testid="refund-list"]`)
	d.waitColumn("refund-list", nil)

	// Disputes by status: the form, then a link.
	d.open("/disputes", `[data-testid="dispute-list"]`)
	d.waitColumn("dispute-list", []string{open, accepted})
	d.applyFilters("Filter disputes", "status", "dispute_accepted")
	d.waitColumn("dispute-list", []string{accepted})
	d.location("/dashboard/disputes?status=dispute_accepted")
	d.checkAxe("disputes filtered by status")
	d.open("/disputes?status=dispute_opened&stage=dispute", `[data-testid="dispute-list"]`)
	d.waitColumn("dispute-list", []string{open})
	d.open("/disputes?stage=arbitration", `[data-testid="dispute-list"]`)
	d.waitColumn("dispute-list", nil)

	// Customers by e-mail (any case) and by a part of the name.
	d.open("/customers?customer=ADA.LOVELACE%40example.com", `[data-testid="customer-list"]`)
	d.waitColumn("customer-list", []string{"cus_ada"})
	d.checkAxe("customers filtered by e-mail")
	d.open("/customers?name=hop", `[data-testid="customer-list"]`)
	d.waitColumn("customer-list", []string{"cus_grace"})

	if problems := d.watch.Problems(); len(problems) > 0 {
		d.fail("the page reported errors: %q", problems)
	}
}
