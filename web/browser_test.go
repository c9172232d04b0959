package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
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

// watch collects what the page reports as an error (exceptions,
// console.error, Content-Security-Policy violations, failed loads) and every
// URL it requests.
func watch(ctx context.Context) (func() (problems, requests []string), error) {
	var (
		mu sync.Mutex
		ps []string
		rs []string
	)
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			ps = append(ps, "exception: "+text)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				ps = append(ps, "console.error: "+strings.Join(parts, " "))
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				ps = append(ps, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			rs = append(rs, ev.Request.URL)
		}
	})
	return func() ([]string, []string) {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), ps...), append([]string(nil), rs...)
	}, err
}

// TestDashboardSignUpAndPayments drives the embedded dashboard in headless
// Chromium: a merchant signs up with the form, finds a payment made over
// REST with its key in the payments list (amount written with the
// currency's decimals), opens it and sees its status and attempt, opens a
// declined one and sees the connector's error, and refunds part of the
// first with the form. Nothing is loaded from anywhere but the server, and
// the page reports no error (a Content-Security-Policy violation would be
// one).
func TestDashboardSignUpAndPayments(t *testing.T) {
	exe := testenv.Chromium(t)
	srv := testenv.NewServer(t, testenv.Database(t))
	ctx := testenv.Browser(t, exe, 60*time.Second)
	report, err := watch(ctx)
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		problems, requests := report()
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body.innerText`))
		t.Fatalf(format+"\nproblems: %q\nrequests: %q\npage:\n%s", append(args, problems, requests, page)...)
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

	// The session is in sessionStorage; with it the test makes the new
	// merchant a secret key, and pays with that key over REST.
	token, err := chromedp.Run(ctx, chromedp.Evaluate[string](`sessionStorage.getItem("switchyard.session")`))
	location, err2 := chromedp.Run(ctx, chromedp.Location())
	if err != nil || err2 != nil || !strings.HasPrefix(token, "sys_") || location != srv.URL+"/dashboard/payments" {
		fail("after sign-up: token %q at %s (%v, %v)", token, location, err, err2)
	}
	bearer := []string{"Authorization", "Bearer " + token}
	created := call(t, srv.URL, "/graphql", map[string]any{
		"query": `mutation { createApiKey(input: {name: "browser test", expiration: "never"}) { key } }`,
	}, bearer...)
	key := created["data"].(map[string]any)["createApiKey"].(map[string]any)["key"].(string)
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

	problems, requests := report()
	if len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, srv.URL+"/") {
			t.Errorf("the page fetched %s: everything must come from the server", u)
		}
	}
}
