package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestDashboardHome opens the home page after payments (two succeeded in
// USD, one declined, one JPY) and a partial refund made over REST: its
// totals, the payments chart's numbers on focus and with the arrow keys,
// the volume table per status and currency, each connector's success rate
// and the refunds chart; the 7-day preset cuts the same payments into days
// and keeps the choice in the URL.
func TestDashboardHome(t *testing.T) {
	d := newDashTab(t)
	ok := "4242424242424242"
	first := d.pay(ok, 1000, "USD", nil)
	d.pay(ok, 2550, "USD", nil)
	d.pay("4000000000000002", 9999, "USD", nil)
	d.pay(ok, 1200, "JPY", nil)
	call(t, d.srv.URL, "/refunds", map[string]any{"payment_id": first, "amount": 300}, "api-key", d.key)

	d.open("/", `#home-title`)
	d.poll("the totals", `(document.querySelector('[data-testid="home-totals"]')?.innerText ?? "").includes("Payments\n4")`)
	totals := d.text(`[data-testid="home-totals"]`)
	for _, want := range []string{"Succeeded\n3", "Success rate\n75%", "1,200 JPY · 35.50 USD"} {
		if !strings.Contains(totals, want) {
			d.fail("the totals lack %q:\n%s", want, totals)
		}
	}
	volumes := d.text(`[data-testid="payment-volumes"]`)
	for _, want := range []string{"failed\t1\t99.99 USD", "succeeded\t1\t1,200 JPY", "succeeded\t2\t35.50 USD"} {
		if !strings.Contains(volumes, want) {
			d.fail("the volume table lacks %q:\n%s", want, volumes)
		}
	}

	// The payments chart: its buckets add up to the payments (the four may
	// straddle an hour); the latest bucket with any, focused, says its
	// numbers, and the arrow keys move to the hour before.
	d.poll("the chart's counts", chartSums("chart-payments", "succeeded", 3)+" && "+chartSums("chart-payments", "failed", 1))
	label, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`(() => {
		const r = [...document.querySelectorAll('[data-testid="chart-payments"] rect.hit')].findLast(r => /succeeded [1-9]/.test(r.getAttribute("aria-label")));
		r.focus(); return r.getAttribute("aria-label"); })()`))
	if err != nil || label == "" {
		d.fail("no bar with succeeded payments: %q (%v)", label, err)
	}
	d.poll("the readout on focus", fmt.Sprintf(`document.querySelector('[data-testid="chart-payments-readout"]').innerText === %q`, label))
	if !strings.HasPrefix(label, "00:00") {
		if err := chromedp.Do(d.ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
			d.fail("arrow key: %v", err)
		}
		d.poll("the readout after ArrowLeft", fmt.Sprintf(`(() => { const t = document.querySelector('[data-testid="chart-payments-readout"]').innerText;
			return t !== %q && document.activeElement.getAttribute("aria-label") === t; })()`, label))
	}
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.CSS(`[data-testid="chart-payments"] summary`))); err != nil {
		d.fail("open the numbers: %v", err)
	}
	if table := d.text(`[data-testid="chart-payments"] table`); !strings.Contains(table, "failed\tsucceeded") || !strings.Contains(table, "\t1\t") {
		d.fail("the payments table lacks its series or counts:\n%s", table)
	}
	// Three authorized of four decided: 75%, in the one hour they were made
	// in (a rate per hour when they straddle two).
	d.poll("stripe_test's success rate", `(() => {
		const busy = [...document.querySelectorAll('[data-testid="chart-payments"] rect.hit')].filter(r => /total [1-9]/.test(r.getAttribute("aria-label"))).length;
		const rates = [...document.querySelectorAll('[data-testid="chart-rates"] rect.hit')].map(r => r.getAttribute("aria-label"));
		return busy === 1 ? rates.some(l => l.includes("stripe_test 75%")) : rates.filter(l => /stripe_test \d+%/.test(l)).length === busy; })()`)
	d.poll("the refunds chart", chartSums("chart-refunds", "succeeded", 1))
	refunds := d.text(`[data-testid="refund-volumes"]`)
	if !strings.Contains(refunds, "succeeded\t1\t3.00 USD") {
		d.fail("the refund table lacks the 3.00 USD refund:\n%s", refunds)
	}

	// Seven days, by day: the same four payments, today the last bucket.
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//nav[@aria-label="Range"]/a[text()="7 days"]`))); err != nil {
		d.fail("7 days: %v", err)
	}
	d.poll("seven buckets", `document.querySelectorAll('[data-testid="chart-payments"] rect.hit').length === 7`)
	d.poll("the week's counts", chartSums("chart-payments", "succeeded", 3)+" && "+chartSums("chart-payments", "failed", 1))
	last, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('[data-testid="chart-payments"] rect.hit')].at(-1).getAttribute("aria-label")`))
	if err != nil || !strings.Contains(last, "succeeded") {
		d.fail("today, the last of 7 days, says %q (%v)", last, err)
	}
	loc, _ := chromedp.Run(d.ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "/dashboard/home?range=7d") {
		d.fail("the range is not in the URL: %s", loc)
	}
	if problems := d.watch.Problems(); len(problems) > 0 {
		d.fail("the page reported errors: %q", problems)
	}
}

// chartSums is a JavaScript test that the buckets of the chart testID add
// up to want for the series (their labels say "series n").
func chartSums(testID, series string, want int) string {
	return fmt.Sprintf(`([...document.querySelectorAll('[data-testid="%s"] rect.hit')]
		.map(r => Number((r.getAttribute("aria-label").match(/[:,] %s (\d+)/) ?? [0, 0])[1]))
		.reduce((a, b) => a + b, 0) === %d)`, testID, series, want)
}

// text is the visible text of the element sel.
func (d *dashTab) text(sel string) string {
	d.t.Helper()
	s, err := chromedp.Run(d.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		d.fail("%s: %v", sel, err)
	}
	return s
}
