package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// dashTab is a signed-in dashboard tab in headless Chromium, with the
// checks the payments and home tests share.
type dashTab struct {
	t     *testing.T
	srv   *testenv.Server
	ctx   context.Context
	watch *testenv.PageWatch
	key   string // the merchant's secret API key
	token string // the signed-up user's session
}

// newDashTab starts a server and Chromium, signs a new merchant up over
// GraphQL and opens the dashboard with its session, as the sign-in form
// leaves it (the token in sessionStorage).
func newDashTab(t *testing.T) *dashTab {
	t.Helper()
	exe := testenv.Chromium(t)
	srv := testenv.NewServer(t, testenv.Database(t))
	ctx := testenv.Browser(t, exe, 90*time.Second)
	watch, err := testenv.WatchPage(ctx)
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	up := call(t, srv.URL, "/graphql", map[string]any{
		"query": `mutation { signUp(email: "pay@dash.example", password: "a long dashboard passphrase", merchantName: "Filter Shop") { session { token } apiKey } }`,
	})["data"].(map[string]any)["signUp"].(map[string]any)
	token := up["session"].(map[string]any)["token"].(string)
	d := &dashTab{t: t, srv: srv, ctx: ctx, watch: watch, key: up["apiKey"].(string), token: token}
	// A headless tab is not the focused window, so focusing an element
	// would fire no focus event; the charts show their numbers on one.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		d.fail("focus emulation: %v", err)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/dashboard/signin"),
		chromedp.WaitVisible(chromedp.CSS(`#auth-title`)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("switchyard.session", %q)`, token)),
	); err != nil {
		d.fail("open the dashboard: %v", err)
	}
	return d
}

func (d *dashTab) fail(format string, args ...any) {
	d.t.Helper()
	page, _ := chromedp.Run(d.ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ""`))
	d.t.Fatalf(format+"\n%s\npage:\n%s", append(args, d.watch, page)...)
}

// open loads a dashboard path and waits for the element sel.
func (d *dashTab) open(path, sel string) {
	d.t.Helper()
	if err := chromedp.Do(d.ctx, chromedp.Navigate(d.srv.URL+"/dashboard"+path), chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
		d.fail("open %s: %v", path, err)
	}
}

// poll waits until the JavaScript expression js is true.
func (d *dashTab) poll(what, js string) {
	d.t.Helper()
	if _, err := chromedp.Run(d.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		d.fail("%s never happened: %v", what, err)
	}
}

// pay makes a confirmed card payment over REST with the merchant's key.
func (d *dashTab) pay(card string, amount int, currency string, extra map[string]any) string {
	d.t.Helper()
	body := map[string]any{
		"amount": amount, "currency": currency, "confirm": true, "payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{
			"card_number": card, "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3), "card_cvc": "123",
		}},
	}
	for k, v := range extra {
		body[k] = v
	}
	p := call(d.t, d.srv.URL, "/payments", body, "api-key", d.key)
	id, _ := p["payment_id"].(string)
	if id == "" {
		d.t.Fatalf("payment: %v", p)
	}
	return id
}

// listedIDs is the payment ids the list shows, top to bottom.
const listedIDs = `[...document.querySelectorAll('[data-testid="payments"] tbody tr td:first-child a')].map(a => a.textContent)`

// waitList waits until the list, done loading, shows exactly want, in that order.
func (d *dashTab) waitList(want []string) {
	d.t.Helper()
	raw, _ := json.Marshal(want)
	js := fmt.Sprintf(`(() => { const t = document.querySelector('[data-testid="payments"]');
		return !!t && t.getAttribute("aria-busy") !== "true" && JSON.stringify(%s) === %q; })()`, listedIDs, raw)
	if _, err := chromedp.Run(d.ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(d.ctx, chromedp.Evaluate[[]string](listedIDs))
		d.fail("the list shows %q, want %q: %v", got, want, err)
	}
}

// TestDashboardPaymentFiltersAndExport filters the payments list with the
// form (status, currency, amount in major units) and by links (customer,
// the merchant's days, connector, payment id, a value the URL cannot mean), checks
// that the filters live in the URL (a reload keeps them, the pages'
// cursors carry them), then presses Export CSV and reads the file Chromium
// downloads: its payment_id column is the rows the list shows.
func TestDashboardPaymentFiltersAndExport(t *testing.T) {
	d := newDashTab(t)
	ok := "4242424242424242"
	usd10 := d.pay(ok, 1000, "USD", nil)
	usd2550 := d.pay(ok, 2550, "USD", map[string]any{"customer_id": "cus_filter"})
	usdDeclined := d.pay("4000000000000002", 9999, "USD", nil)
	jpy := d.pay(ok, 1200, "JPY", nil)
	kwd := d.pay(ok, 1250, "KWD", nil)
	all := []string{kwd, jpy, usdDeclined, usd2550, usd10} // newest first

	d.open("/payments", `[data-testid="payments"]`)
	d.waitList(all)

	// The form: succeeded USD payments of 20.00 USD or more.
	if err := chromedp.Do(d.ctx,
		chromedp.Click(chromedp.CSS(`input[name="status"][value="succeeded"]`)),
		chromedp.SetValue(chromedp.CSS(`#filter-currency`), "USD"),
		// SetValue does not fire React's change event; a select is told the
		// way a person's choice tells it.
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#filter-currency").dispatchEvent(new Event("change", {bubbles: true}))`),
		chromedp.WaitEnabled(chromedp.CSS(`#filter-min`)),
		chromedp.SendKeys(chromedp.CSS(`#filter-min`), "20"),
		chromedp.Click(chromedp.CSS(`form[aria-label="Filter payments"] button[type="submit"]`)),
	); err != nil {
		d.fail("filter form: %v", err)
	}
	d.waitList([]string{usd2550})
	loc, err := chromedp.Run(d.ctx, chromedp.Location())
	if err != nil || !strings.HasSuffix(loc, "/dashboard/payments?status=succeeded&currency=USD&min=20") {
		d.fail("the filters are not in the URL: %s (%v)", loc, err)
	}
	if err := chromedp.Do(d.ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid="payments"]`))); err != nil {
		d.fail("reload: %v", err)
	}
	d.waitList([]string{usd2550})
	if checked, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](`document.querySelector('input[value="succeeded"]').checked && document.querySelector("#filter-min").value === "20"`)); err != nil || !checked {
		d.fail("after a reload the form does not show the filters (%v)", err)
	}

	// Export CSV with these filters: the downloaded file holds what the list shows.
	d.checkExport([]string{usd2550})

	// Filters by link: amounts per currency exponent, a customer, the
	// merchant's days (UTC: it signed up without a zone), a connector, a
	// payment id; a value the URL cannot mean is ignored.
	today, err := chromedp.Run(d.ctx, chromedp.Evaluate[string](`new Date().toLocaleDateString("en-CA", {timeZone: "UTC"})`))
	if err != nil {
		d.fail("today: %v", err)
	}
	tomorrow, _ := chromedp.Run(d.ctx, chromedp.Evaluate[string](`new Date(Date.now() + 864e5).toLocaleDateString("en-CA", {timeZone: "UTC"})`))
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"currency=JPY&min=1200&max=1200", []string{jpy}},
		{"currency=KWD&max=1.25", []string{kwd}},
		{"currency=KWD&max=1.249", nil},
		{"status=failed,succeeded&currency=USD&max=10", []string{usd10}},
		{"customer=cus_filter", []string{usd2550}},
		{"from=" + today + "&to=" + today, all},
		{"from=" + tomorrow, nil},
		{"connector=stripe_test&status=failed", []string{usdDeclined}},
		{"connector=adyen", nil},
		{"payment=" + jpy, []string{jpy}},
		{"status=bogus&currency=XYZ&from=2026-02-30", all},
	} {
		d.open("/payments?"+c.query, `[data-testid="payments"]`)
		if c.want == nil {
			d.poll("no match for "+c.query, `document.querySelector('[data-testid="payments"] tbody').innerText.includes("No payments match")`)
			continue
		}
		d.waitList(c.want)
	}

	// A second export, of three payments, in the list's order.
	d.open("/payments?currency=USD", `[data-testid="payments"]`)
	d.waitList([]string{usdDeclined, usd2550, usd10})
	d.checkExport([]string{usdDeclined, usd2550, usd10})
	if problems := d.watch.Problems(); len(problems) > 0 {
		d.fail("the page reported errors: %q", problems)
	}
	for _, u := range d.watch.Requests() {
		if !strings.HasPrefix(u, d.srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			d.fail("the page fetched %s: everything must come from the server", u)
		}
	}
}

// checkExport presses Export CSV, lets Chromium download the file the
// one-time link gives and checks its payment_id column against want and
// against the rows the list shows.
func (d *dashTab) checkExport(want []string) {
	d.t.Helper()
	dir := d.t.TempDir()
	done := make(chan string, 1)
	ctx, cancel := context.WithCancel(d.ctx)
	defer cancel()
	chromedp.ListenBrowser(ctx, func(ev any) {
		if ev, ok := ev.(*browser.EventDownloadProgress); ok && ev.State == browser.DownloadProgressStateCompleted {
			select {
			case done <- ev.GUID:
			default:
			}
		}
	})
	events := true
	if _, err := chromedp.CallBrowser(d.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: &events,
	}); err != nil {
		d.fail("allow downloads: %v", err)
	}
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//button[text()="Export CSV"]`))); err != nil {
		d.fail("export: %v", err)
	}
	var guid string
	select {
	case guid = <-done:
	case <-time.After(20 * time.Second):
		d.fail("no CSV was downloaded")
	}
	raw, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		d.fail("read the download: %v", err)
	}
	records, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	if err != nil || len(records) == 0 {
		d.fail("the export is not CSV (%v):\n%s", err, raw)
	}
	col := slices.Index(records[0], "payment_id")
	if col < 0 {
		d.fail("the export has no payment_id column: %q", records[0])
	}
	var ids []string
	for _, r := range records[1:] {
		ids = append(ids, r[col])
	}
	listed, err := chromedp.Run(d.ctx, chromedp.Evaluate[[]string](listedIDs))
	if err != nil || !slices.Equal(ids, want) || !slices.Equal(ids, listed) {
		d.fail("the export's payment ids %q, the list's %q, want %q (%v)", ids, listed, want, err)
	}
}
