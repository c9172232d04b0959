package web_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// tabTo presses Tab until the element with this id has the focus, as a
// keyboard user reaches it (at most 80 presses).
func (d *dashTab) tabTo(id string) {
	d.t.Helper()
	for range 80 {
		if d.eval(`document.activeElement ? document.activeElement.id : ""`) == id {
			return
		}
		if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.Tab)); err != nil {
			d.fail("Tab: %v", err)
		}
	}
	d.fail("Tab never reached #%s", id)
}

// TestDashboardProfiles: an admin with one profile sees no picker; they
// make a second profile with the Developers form, by keyboard, and the
// page shows it (its id in the URL, the picker listing both, the default
// marked); its webhook URL set with the form is that profile's only; of a
// payment on each profile, only the second's events reach the receiver and
// the second's event log; the picker, by keyboard, goes back to the default
// profile's log, and Back to the second; an unknown ?profile= shows the
// default; Routing shows the second profile's accounts only. axe-core
// finds no serious or critical violation on either page with the picker.
func TestDashboardProfiles(t *testing.T) {
	d := newDashTab(t)
	merchantID := d.gql(`{ me { merchantID } }`, nil)["me"].(map[string]any)["merchantID"].(string)
	defaultID := d.gql(`{ merchantAccount { defaultProfileID } }`, nil)["merchantAccount"].(map[string]any)["defaultProfileID"].(string)

	d.open("/developers", "#developers-title")
	d.poll("the new profile form", `!!document.querySelector('#new-profile-name')`)
	if n := d.count(`#profile-picker`); n != 0 {
		d.fail("a merchant with one profile is shown a picker")
	}

	// A second profile made with the form, by keyboard only.
	d.tabTo("new-profile-name")
	if err := chromedp.Do(d.ctx, chromedp.KeyEvent("EU shop"), chromedp.KeyEvent(kb.Enter)); err != nil {
		d.fail("type the profile's name: %v", err)
	}
	d.poll("the profile made", `(document.querySelector('[data-testid="profile-created"]')?.innerText ?? "").startsWith("Created profile EU shop")`)
	var second string
	for _, e := range d.gql(`{ merchantAccount { profiles(first: 10) { edges { node { profileID profileName } } } } }`, nil)["merchantAccount"].(map[string]any)["profiles"].(map[string]any)["edges"].([]any) {
		if n := e.(map[string]any)["node"].(map[string]any); n["profileName"] == "EU shop" {
			if second != "" {
				d.fail("the form made two profiles named EU shop")
			}
			second = n["profileID"].(string)
		}
	}
	if second == "" {
		d.fail("the server has no profile EU shop")
	}
	d.poll("the picker on the new profile", fmt.Sprintf(`(() => { const s = document.querySelector('#profile-picker');
		return !!s && s.value === %q && s.options.length === 2 && location.search === "?profile=" + %q; })()`, second, second))
	if labels := d.eval(`[...document.querySelector('#profile-picker').options].map(o => o.textContent).join("|")`); labels != "default ("+defaultID+"), the default profile|EU shop ("+second+")" {
		d.fail("the picker lists %q", labels)
	}
	d.poll("the new profile's webhooks", fmt.Sprintf(`document.querySelector('main').innerText.includes("Events of profile EU shop (%s)")`, second))
	d.checkAxe("developers with the profile picker")

	// A connector account on the second profile, over REST, so it can pay.
	d.rest("POST", "/account/"+merchantID+"/connectors", map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe_test", "connector_label": "eu_stripe", "profile_id": second,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
	})

	// The second profile's webhook URL, set with the form.
	var mu sync.Mutex
	var bodies []string
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
	}))
	t.Cleanup(hooks.Close)
	d.setField("#webhook-url", hooks.URL+"/eu")
	d.click(`//button[text()="Save webhook settings"]`)
	d.poll("saved", `!!document.querySelector('[data-testid="webhooks-saved"]')`)
	urls := map[string]any{}
	for _, e := range d.gql(`{ merchantAccount { profiles(first: 10) { edges { node { profileID webhookSettings { webhookURL } } } } } }`, nil)["merchantAccount"].(map[string]any)["profiles"].(map[string]any)["edges"].([]any) {
		n := e.(map[string]any)["node"].(map[string]any)
		urls[n["profileID"].(string)] = n["webhookSettings"].(map[string]any)["webhookURL"]
	}
	if urls[second] != hooks.URL+"/eu" || urls[defaultID] != nil {
		d.fail("the webhook URLs are %v: want %s on %s only", urls, hooks.URL+"/eu", second)
	}

	// A payment on each profile: only the second's events are sent, and
	// only they are in its log.
	onDefault := d.pay("4242424242424242", 1100, "USD", nil)
	onSecond := d.pay("4242424242424242", 2200, "USD", map[string]any{"profile_id": second})
	if _, err := d.srv.Webhooks.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	sent := strings.Join(bodies, "\n")
	mu.Unlock()
	if !strings.Contains(sent, onSecond) || strings.Contains(sent, onDefault) {
		d.fail("the receiver got:\n%s\nwant %s's events only", sent, onSecond)
	}
	d.click(`//button[text()="Refresh"]`)
	eventLog := `document.querySelector('[data-testid="event-log"]').innerText`
	d.poll("the second profile's events", fmt.Sprintf(`%s.includes(%q) && %s.includes("delivered")`, eventLog, onSecond, eventLog))
	if log := d.eval(eventLog); strings.Contains(log, onDefault) {
		d.fail("the second profile's log shows the default profile's payment:\n%s", log)
	}

	// The picker by keyboard: the default profile, whose log has the other payment.
	d.tabTo("profile-picker")
	if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.ArrowUp)); err != nil {
		d.fail("ArrowUp on the picker: %v", err)
	}
	d.poll("the default profile chosen", fmt.Sprintf(`document.querySelector('#profile-picker').value === %q && location.search === ""`, defaultID))
	d.poll("the default profile's events", fmt.Sprintf(`%s.includes(%q)`, eventLog, onDefault))
	if log := d.eval(eventLog); strings.Contains(log, onSecond) {
		d.fail("the default profile's log shows the second profile's payment:\n%s", log)
	}
	if v := d.eval(`document.querySelector('#webhook-url').value`); v != "" {
		d.fail("the default profile's webhook URL field reads %q", v)
	}
	// Back: the second profile again, from the URL.
	if err := chromedp.Do(d.ctx, chromedp.NavigateBack()); err != nil {
		d.fail("back: %v", err)
	}
	d.poll("back on the second profile", fmt.Sprintf(`document.querySelector('#profile-picker').value === %q && %s.includes(%q)`, second, eventLog, onSecond))

	// A profile the merchant does not have: the default one, said so.
	d.open("/developers?profile=pro_nosuchprofile", "#profile-picker")
	d.poll("the default profile", fmt.Sprintf(`document.querySelector('#profile-picker').value === %q`, defaultID))
	if page := d.text("main"); !strings.Contains(page, "This merchant has no profile pro_nosuchprofile: showing the default profile.") {
		d.fail("an unknown profile is not said:\n%s", page)
	}

	// Routing: the second profile's accounts, and not the default's.
	d.open("/routing?profile="+second, "#routing-title")
	d.poll("the second profile's fallback", `(document.querySelector('[data-testid="routing-picture"]')?.innerText ?? "").includes("eu_stripe")`)
	if n := d.count(`#routing-account-0 option`); n != 1 || d.eval(`document.querySelector('#routing-account-0 option').textContent`) != "eu_stripe (stripe_test)" {
		d.fail("the routing form offers %d accounts: %s", n, d.text(`#routing-account-0`))
	}
	d.checkAxe("routing with the profile picker")
	d.tabTo("profile-picker")
	if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.ArrowUp)); err != nil {
		d.fail("ArrowUp on the picker: %v", err)
	}
	d.poll("the default profile's routing", `location.search === "" && !document.querySelector('[data-testid="routing-picture"]').innerText.includes("eu_stripe")`)

	if problems := d.watch.Problems(); len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
}
