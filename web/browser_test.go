package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// call sends a JSON request to the server and decodes its answer, failing
// the test unless it is a 200.
func call(t *testing.T, base, path string, body any, headers ...string) map[string]any {
	t.Helper()
	status, raw, err := testenv.Call(base, "POST", path, "", body, headers...)
	if err != nil || status != 200 {
		t.Fatalf("POST %s: %d %s %v", path, status, raw, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("POST %s: %v: %s", path, err, raw)
	}
	if errs, ok := out["errors"]; ok {
		t.Fatalf("POST %s: %v", path, errs)
	}
	return out
}

// TestDashboardSignUpAndPayments drives the embedded dashboard in headless
// Chromium: a merchant signs up with the form, finds the payments made over
// REST with its key in the list (amounts with their currency's decimals,
// newest first, 20 a page with older and newer pages by cursor), opens one
// and sees its status and attempt, refunds part of it with the form, opens
// a declined one and sees the connector's error. Invited by another
// merchant as a VIEWER, the same person accepts from the invitation link,
// sees that merchant's payments and no action, switches back to the first
// merchant; signed out elsewhere, the tab finds out and signs in again with
// the form, then signs out. Nothing is loaded from anywhere but the server,
// and the page reports no error (a Content-Security-Policy violation would
// be one).
func TestDashboardSignUpAndPayments(t *testing.T) {
	exe := testenv.Chromium(t)
	srv := testenv.NewServer(t, testenv.Database(t))
	ctx := testenv.Browser(t, exe, 60*time.Second)
	watch, err := testenv.WatchPage(ctx)
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf(format+"\n%s\npage:\n%s", append(args, watch, page)...)
	}
	text := func(sel string) string {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel))); err != nil {
			fail("%s: %v", sel, err)
		}
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		if err != nil {
			fail("%s: %v", sel, err)
		}
		return s
	}
	// waitText waits until the element's text contains want.
	waitText := func(sel, want string) {
		t.Helper()
		js := fmt.Sprintf(`(() => { const n = document.querySelector(%q); return !!n && n.innerText.includes(%q); })()`, sel, want)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(15*time.Second))); err != nil {
			fail("%s never showed %q: %v", sel, want, err)
		}
	}

	// Signed out, /dashboard/ is the sign-in form; its link leads to sign-up.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/dashboard/"),
		chromedp.WaitVisible(chromedp.CSS(`#auth-title`)),
	); err != nil {
		fail("the dashboard did not come up: %v", err)
	}
	if got := text("#auth-title"); got != "Sign in" {
		fail("signed out, /dashboard/ shows %q", got)
	}
	email := "owner@dash.example"
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[href="/dashboard/signup"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#field-merchantName`)),
		chromedp.SendKeys(chromedp.CSS(`#field-merchantName`), "Dash Shop"),
		chromedp.SendKeys(chromedp.CSS(`#field-email`), email),
		chromedp.SendKeys(chromedp.CSS(`#field-password`), "a long dashboard passphrase"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	); err != nil {
		fail("sign-up: %v", err)
	}
	waitText("tbody", "No payments yet")
	waitText(".topbar", email)
	waitText(".topbar", "Dash Shop")
	waitText(".topbar", "admin")

	// The session is in sessionStorage, never in a cookie; the secret key
	// sign-up made is shown this once, and the test pays with it over REST.
	token, err := chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("switchyard.session")`))
	location, err2 := chromedp.Run(ctx, chromedp.Location())
	if err != nil || err2 != nil || !strings.HasPrefix(token, "sys_") || location != srv.URL+"/dashboard/payments" {
		fail("after sign-up: token %q at %s (%v, %v)", token, location, err, err2)
	}
	cookies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`))
	if err != nil || cookies != "" {
		fail("the dashboard set cookies %q (%v)", cookies, err)
	}
	key := text(`[data-testid="secret-key"]`)
	if !strings.HasPrefix(key, "snd_") {
		fail("sign-up shows the secret key %q", key)
	}
	year := fmt.Sprint(time.Now().Year() + 3)
	pay := func(card string, amount int, currency string) string {
		t.Helper()
		p := call(t, srv.URL, "/payments", map[string]any{
			"amount": amount, "currency": currency, "confirm": true, "payment_method": "card",
			"payment_method_data": map[string]any{"card": map[string]any{
				"card_number": card, "card_exp_month": "12", "card_exp_year": year, "card_cvc": "123",
			}},
		}, "api-key", key)
		id, _ := p["payment_id"].(string)
		if id == "" {
			t.Fatalf("payment: %v", p)
		}
		return id
	}
	paid := pay("4242424242424242", 123450, "USD")
	declined := pay("4000000000000002", 1200, "JPY")

	// The list shows both, newest first, amounts with their currency's decimals.
	if err := chromedp.Do(ctx, chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`#payments-title`))); err != nil {
		fail("reload: %v", err)
	}
	waitText("tbody", paid)
	if shown, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!document.querySelector('[data-testid="secret-key"]')`)); err != nil || shown {
		fail("the secret key is shown again after a reload (%v)", err)
	}
	rows := text("tbody")
	for _, want := range []string{paid, "succeeded", "1,234.50", "USD", declined, "failed", "1,200", "JPY", "stripe_test"} {
		if !strings.Contains(rows, want) {
			fail("the list lacks %q:\n%s", want, rows)
		}
	}
	if strings.Index(rows, declined) > strings.Index(rows, paid) {
		fail("the list is not newest first:\n%s", rows)
	}

	// The paid one's page: its status, captured amount and attempt; an
	// admin may refund it.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/dashboard/payments/%s"]`, paid))),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-status"]`)),
	); err != nil {
		fail("open %s: %v", paid, err)
	}
	if got := text(`[data-testid="payment-status"]`); got != "succeeded" {
		fail("%s shows status %q", paid, got)
	}
	if got := text("#payment-title"); got != "1,234.50 USD" {
		fail("%s shows amount %q", paid, got)
	}
	waitText(`[data-testid="attempts"]`, "stripe_test")
	waitText(`[data-testid="attempts"]`, "charged")

	// A partial refund with the form.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.Search(`//button[text()="Refund"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#action-amount`)),
		chromedp.SendKeys(chromedp.CSS(`#action-amount`), "4.5"),
		chromedp.Click(chromedp.CSS(`form[aria-label="Refund"] button[type="submit"]`)),
	); err != nil {
		fail("refund form: %v", err)
	}
	waitText("main", "Refunds")
	waitText(`[data-testid="refunds"]`, "4.50 USD")
	refunds := call(t, srv.URL, "/refunds/list", map[string]any{"payment_id": paid}, "api-key", key)
	if raw, _ := json.Marshal(refunds); !strings.Contains(string(raw), `"amount":450`) {
		fail("REST has no 450 refund of %s: %s", paid, raw)
	}

	// The declined one's page names the connector's error.
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/dashboard/payments/"+declined),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-status"]`)),
	); err != nil {
		fail("open %s: %v", declined, err)
	}
	if got := text(`[data-testid="payment-status"]`); got != "failed" {
		fail("%s shows status %q", declined, got)
	}
	waitText(`[data-testid="attempts"]`, "card_declined")
	if got := text("#payment-title"); got != "1,200 JPY" {
		fail("%s shows amount %q", declined, got)
	}
	actions, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[aria-label="Actions"] button').length`))
	if err != nil || actions != 0 {
		fail("a failed payment offers %d actions (%v)", actions, err)
	}

	// Twenty more payments: the list pages by the connection's cursors,
	// 20 a page, the first payment alone on the second.
	for i := range 19 {
		pay("4242424242424242", 100+i, "EUR")
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`a[href="/dashboard/payments"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	); err != nil {
		fail("back to the list: %v", err)
	}
	waitText("tbody", declined)
	waitText(".heading", "21 in all")
	if rows := text("tbody"); strings.Contains(rows, paid) || strings.Count(rows, "EUR") != 19 {
		fail("the first page:\n%s", rows)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.Search(`//a[contains(text(), "Older")]`))); err != nil {
		fail("older: %v", err)
	}
	waitText("tbody", paid)
	if rows := text("tbody"); strings.Contains(rows, declined) || strings.Count(rows, "\n") > 0 {
		fail("the second page:\n%s", rows)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.Search(`//a[contains(text(), "Newer")]`))); err != nil {
		fail("newer: %v", err)
	}
	waitText("tbody", declined)

	// Another merchant invites the same person as a VIEWER; the link opens
	// in the dashboard, and accepting with the same password opens a
	// session there, where a viewer sees payments but no action.
	other := call(t, srv.URL, "/graphql", map[string]any{
		"query": `mutation { signUp(email: "boss@other.example", password: "another long passphrase", merchantName: "Other Shop") { session { token } apiKey } }`,
	})["data"].(map[string]any)["signUp"].(map[string]any)
	otherBearer := []string{"Authorization", "Bearer " + other["session"].(map[string]any)["token"].(string)}
	link := call(t, srv.URL, "/graphql", map[string]any{
		"query": `mutation { inviteUser(email: "owner@dash.example", role: VIEWER) { link } }`,
	}, otherBearer...)["data"].(map[string]any)["inviteUser"].(map[string]any)["link"].(string)
	key = other["apiKey"].(string)
	theirs := pay("4242424242424242", 990, "KWD")
	if !strings.HasPrefix(link, srv.URL+"/dashboard/invite#inv_tok_") {
		fail("the invitation link is %q", link)
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(link),
		chromedp.WaitVisible(chromedp.CSS(`#field-password`)),
	); err != nil {
		fail("open the invitation link: %v", err)
	}
	// The page says who is invited where, and asks an existing user for
	// their own password.
	waitText("#auth-title", "Join Other Shop")
	waitText("form", "owner@dash.example is invited as a viewer. Enter the password of your Switchyard account.")
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#field-password`), "a long dashboard passphrase"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	); err != nil {
		fail("accept the invitation: %v", err)
	}
	waitText("tbody", theirs)
	waitText("tbody", "0.990")
	waitText(".topbar", "viewer")
	if rows := text("tbody"); strings.Contains(rows, paid) {
		fail("the other merchant's list shows the first's payment:\n%s", rows)
	}
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/dashboard/payments/%s"]`, theirs))),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="payment-status"]`)),
	); err != nil {
		fail("open %s: %v", theirs, err)
	}
	if got := text("#payment-title"); got != "0.990 KWD" {
		fail("%s shows amount %q", theirs, got)
	}
	actions, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll('[aria-label="Actions"] button').length`))
	if err != nil || actions != 0 {
		fail("a viewer is offered %d actions on a succeeded payment (%v)", actions, err)
	}

	// The person belongs to two merchants now: the switcher moves back to
	// the first, as its admin.
	// As a person's choice does: the select's value set past React's own
	// setter (which would swallow the change), then its change event.
	switched, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => {
		const sel = document.querySelector('.merchant select');
		const opt = sel && [...sel.options].find(o => o.textContent === "Dash Shop");
		if (!opt) return false;
		Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(sel, opt.value);
		return sel.dispatchEvent(new Event('change', {bubbles: true}));
	})()`))
	if err != nil || !switched {
		fail("no merchant switcher with Dash Shop (%v)", err)
	}
	waitText(".topbar", "admin")
	waitText("tbody", declined)

	// Signed out elsewhere (the session ended on the server): the next
	// request the tab makes finds out, and the tab shows the sign-in form.
	token, err = chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("switchyard.session")`))
	if err != nil || !strings.HasPrefix(token, "sys_") {
		fail("after switching: token %q (%v)", token, err)
	}
	call(t, srv.URL, "/graphql", map[string]any{"query": `mutation { signOut }`}, "Authorization", "Bearer "+token)
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.Search(`//a[contains(text(), "Older")]`)),
		chromedp.WaitVisible(chromedp.CSS(`#auth-title`)),
	); err != nil {
		fail("a session ended elsewhere: %v", err)
	}
	// Signing in with the form opens a new session on the user's merchant.
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#field-email`), email),
		chromedp.SendKeys(chromedp.CSS(`#field-password`), "a long dashboard passphrase"),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#payments-title`)),
	); err != nil {
		fail("sign in: %v", err)
	}
	waitText("tbody", "EUR")
	if again, err := chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("switchyard.session")`)); err != nil || again == token || !strings.HasPrefix(again, "sys_") {
		fail("signed in again with token %q (%v), the old one %q", again, err, token)
	}

	// Signing out forgets the session and shows the sign-in form.
	if err := chromedp.Do(ctx,
		chromedp.Click(chromedp.Search(`//button[text()="Sign out"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#auth-title`)),
	); err != nil {
		fail("sign out: %v", err)
	}
	kept, err := chromedp.Run(ctx, chromedp.Evaluate[any](`sessionStorage.getItem("switchyard.session")`))
	if err != nil || kept != nil {
		fail("after signing out sessionStorage keeps %v (%v)", kept, err)
	}

	// The one error expected: the 401 that told the tab its session had
	// ended elsewhere (Chromium logs every 4xx answer).
	problems := slices.DeleteFunc(watch.Problems(), func(p string) bool {
		return strings.Contains(p, "status of 401 (Unauthorized) "+srv.URL+"/graphql")
	})
	if len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
	// A data: URL reaches no host: Chromium's date inputs (the payments
	// filters) draw their calendar icon from one.
	for _, u := range watch.Requests() {
		if !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page fetched %s: everything must come from the server", u)
		}
	}
}
