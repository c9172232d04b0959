package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// axePath is axe-core's script as `npm ci` installs it (web/package.json
// pins it as a development dependency): the tests inject it, the app never
// ships it.
const axePath = "node_modules/axe-core/axe.min.js"

// checkAxe runs axe-core on the page the tab shows and fails the test on
// any serious or critical violation of WCAG 2.1 A/AA or axe's best
// practices. Without web/node_modules it logs and checks nothing, except
// in CI, where .ci/run's web step has run npm ci before go test.
func (d *dashTab) checkAxe(page string) {
	d.t.Helper()
	src, err := os.ReadFile(axePath)
	if err != nil {
		if testenv.InCI() {
			d.t.Fatalf("axe-core is not installed (%v): run npm ci in web/", err)
		}
		d.t.Logf("%s: no axe-core check (%v; run npm ci in web/)", page, err)
		return
	}
	// Evaluated over the DevTools protocol, which the page's
	// Content-Security-Policy does not govern; once a page load, and void:
	// on a second check after an in-app navigation the axe object itself
	// cannot come back over the protocol.
	if _, err := chromedp.Run(d.ctx, chromedp.Evaluate[chromedp.Void](`void (window.axe || (() => {`+string(src)+`})())`)); err != nil {
		d.fail("%s: load axe-core: %v", page, err)
	}
	raw, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`axe.run(document, {
		runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
	}).then(r => JSON.stringify(r.violations.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(" ") + ": " + n.failureSummary)}))))`,
		chromedp.EvalAwaitPromise))
	if err != nil {
		d.fail("%s: axe.run: %v", page, err)
	}
	var violations []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(raw), &violations); err != nil {
		d.fail("%s: axe's answer: %v: %s", page, err, raw)
	}
	if len(violations) > 0 {
		var b strings.Builder
		for _, v := range violations {
			fmt.Fprintf(&b, "%s (%s): %s\n  %s\n", v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n  "))
		}
		d.fail("%s: axe-core finds %d serious or critical violations:\n%s", page, len(violations), b.String())
	}
}

// TestDashboardAccessibility runs axe-core on the sign-in and sign-up
// forms, the payments list (with its filters and a page of payments), a
// payment's page with the refund form open, and the home page with a
// chart's numbers open: none has a serious or critical violation.
func TestDashboardAccessibility(t *testing.T) {
	d := newDashTab(t)
	if _, err := os.Stat(axePath); err != nil {
		testenv.Skip(t, "no web/node_modules", fmt.Sprintf("no %s: run npm ci in web/ (CI does)", axePath))
	}
	if err := chromedp.Do(d.ctx, chromedp.Evaluate[chromedp.Void](`sessionStorage.clear()`)); err != nil {
		d.fail("sign out: %v", err)
	}
	d.open("/signin", `#auth-title`)
	d.checkAxe("sign-in")
	d.open("/signup", `#field-merchantName`)
	d.checkAxe("sign-up")

	paid := d.pay("4242424242424242", 4200, "USD", nil)
	d.pay("4000000000000002", 1200, "JPY", nil)
	if err := chromedp.Do(d.ctx, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("switchyard.session", %q)`, d.token))); err != nil {
		d.fail("sign in: %v", err)
	}
	d.open("/payments?currency=USD&min=1", `[data-testid="payments"]`)
	d.waitList([]string{paid})
	d.checkAxe("payments list")

	d.open("/payments/"+paid, `[data-testid="payment-status"]`)
	if err := chromedp.Do(d.ctx,
		chromedp.Click(chromedp.Search(`//button[text()="Refund"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#action-amount`)),
	); err != nil {
		d.fail("refund form: %v", err)
	}
	d.checkAxe("payment page")

	d.open("/home", `#home-title`)
	d.poll("the charts", `!!document.querySelector('[data-testid="chart-payments"] rect.hit')`)
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.CSS(`[data-testid="chart-payments"] summary`))); err != nil {
		d.fail("open the numbers: %v", err)
	}
	d.checkAxe("home page")
}

// TestDashboardTeamAndDevelopersAccessibility: the admin's Team and
// Developers pages, every control shown, have no serious or critical axe
// violation either.
func TestDashboardTeamAndDevelopersAccessibility(t *testing.T) {
	d := newDashTab(t)
	d.pay("4242424242424242", 1000, "USD", nil) // an event in the log
	d.open("/team", `#team-title`)
	d.poll("the members", `!!document.querySelector("main table tbody tr")`)
	d.checkAxe("team")
	d.open("/developers", `#developers-title`)
	d.poll("the keys", `!!document.querySelector("main table tbody tr")`)
	d.checkAxe("developers")
}
