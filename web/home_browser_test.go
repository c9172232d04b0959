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

	// The payments chart: this hour's bar, focused, says its numbers; the
	// arrow keys move to the hour before. The table under it has them too.
	hour := `[data-testid="chart-payments"] rect.hit[aria-label*="succeeded 3"]`
	label, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](fmt.Sprintf(`(() => { const r = document.querySelector(%q); r.focus(); return r.getAttribute("aria-label"); })()`, hour)))
	if err != nil || !strings.Contains(label, "failed 1") {
		d.fail("no bar of this hour with its counts: %q (%v)", label, err)
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
	if table := d.text(`[data-testid="chart-payments"] table`); !strings.Contains(table, "1\t3") {
		d.fail("the payments table lacks this hour's failed 1, succeeded 3:\n%s", table)
	}
	rates, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="chart-rates"] rect.hit[aria-label*="stripe_test 75%"]')?.getAttribute("aria-label") ?? ""`))
	if err != nil || rates == "" {
		d.fail("no bucket with stripe_test at 75%% (%v)", err)
	}
	d.poll("the refunds chart", `!!document.querySelector('[data-testid="chart-refunds"] rect.hit[aria-label*="succeeded 1"]')`)
	refunds := d.text(`[data-testid="refund-volumes"]`)
	if !strings.Contains(refunds, "succeeded\t1\t3.00 USD") {
		d.fail("the refund table lacks the 3.00 USD refund:\n%s", refunds)
	}

	// Seven days, by day: the same four payments, today the last bucket.
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//nav[@aria-label="Range"]/a[text()="7 days"]`))); err != nil {
		d.fail("7 days: %v", err)
	}
	d.poll("seven buckets", `document.querySelectorAll('[data-testid="chart-payments"] rect.hit').length === 7`)
	last, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`[...document.querySelectorAll('[data-testid="chart-payments"] rect.hit')].at(-1).getAttribute("aria-label")`))
	if err != nil || !strings.Contains(last, "failed 1, succeeded 3") {
		d.fail("today's bucket of 7 days says %q (%v)", last, err)
	}
	loc, _ := chromedp.Run(d.ctx, chromedp.Location())
	if !strings.HasSuffix(loc, "/dashboard/home?range=7d") {
		d.fail("the range is not in the URL: %s", loc)
	}
	if problems := d.watch.Problems(); len(problems) > 0 {
		d.fail("the page reported errors: %q", problems)
	}
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
