package playground_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// restCall sends a JSON request with the key and decodes a 200 answer.
func restCall(t *testing.T, method, url, key string, body any) map[string]any {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, data)
	}
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return out
}

// TestPlaygroundInChromium loads GraphiQL from the server in headless
// Chromium, with nothing from the network but the server itself, runs the
// default query with the prefilled demo key and finds the payment and its
// refund in the rendered result.
func TestPlaygroundInChromium(t *testing.T) {
	exe := testenv.Chromium(t)

	cfg := testenv.Config(t, testenv.Database(t))
	// As in the zero-config default, which prefills the demo merchant's key.
	cfg.Database.Embedded = true
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))

	year := time.Now().Year() + 3
	pay := restCall(t, http.MethodPost, srv.URL+"/payments", srv.Demo.SecretKey, map[string]any{
		"amount": 4200, "currency": "USD", "confirm": true, "payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": fmt.Sprint(year),
			"card_holder_name": "Jane Doe", "card_cvc": "123",
		}},
	})
	payID, _ := pay["payment_id"].(string)
	if pay["status"] != "succeeded" {
		t.Fatalf("payment: %v", pay)
	}
	refund := restCall(t, http.MethodPost, srv.URL+"/refunds", srv.Demo.SecretKey,
		map[string]any{"payment_id": payID, "amount": 1000})
	refundID, _ := refund["refund_id"].(string)

	ctx := testenv.Browser(t, exe, 90*time.Second)

	// Everything the page logs as an error, throws, or fetches.
	page, err := testenv.WatchPage(ctx)
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	report := page.String

	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-execute-button")),
	); err != nil {
		t.Fatalf("GraphiQL did not come up: %v\n%s", err, report())
	}

	// The header editor holds the demo key.
	headers, err := chromedp.Run(ctx, chromedp.Poll[string](
		`(() => { const n = document.querySelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
		          const v = n && n.CodeMirror ? n.CodeMirror.getValue() : '';
		          return v.includes('api-key') ? v : false; })()`,
		chromedp.WithPollingTimeout(20*time.Second)))
	if err != nil || !strings.Contains(headers, srv.Demo.SecretKey) {
		t.Fatalf("header editor %q (%v), want the demo key\n%s", headers, err, report())
	}

	// The query editor opens with the default query; run it.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
		t.Fatalf("click execute: %v\n%s", err, report())
	}
	result, err := chromedp.Run(ctx, chromedp.Poll[string](
		`(() => { const n = document.querySelector('.graphiql-response .result-window');
		          const v = n ? n.innerText : '';
		          return v.includes('"data"') || v.includes('"errors"') ? v : false; })()`,
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("no result rendered: %v\n%s", err, report())
	}
	for _, want := range []string{payID, refundID, `"totalCount": 1`} {
		if !strings.Contains(result, want) {
			t.Fatalf("rendered result lacks %q:\n%s\n%s", want, result, report())
		}
	}
	if strings.Contains(result, `"errors"`) {
		t.Fatalf("the default query failed:\n%s", result)
	}

	// The schema came through introspection (the Docs pane lists the root
	// types), and a dialog opens: its injected <style> passes the policy.
	err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[aria-label="Show Documentation Explorer"]`)))
	if err == nil {
		_, err = chromedp.Run(ctx, chromedp.Poll[bool](
			`(document.querySelector('.graphiql-doc-explorer') || {innerText: ''}).innerText.includes('Query')`,
			chromedp.WithPollingTimeout(10*time.Second)))
	}
	if err == nil {
		err = chromedp.Do(ctx,
			chromedp.Click(chromedp.CSS(`button[aria-label="Open settings dialog"]`)),
			chromedp.WaitVisible(chromedp.CSS(".graphiql-dialog")))
	}
	if err != nil {
		t.Fatalf("docs pane or settings dialog: %v\n%s", err, report())
	}

	if problems := page.Problems(); len(problems) > 0 {
		t.Fatalf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
	for _, u := range page.Requests() {
		if !strings.HasPrefix(u, srv.URL+"/") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page fetched %s: everything must come from the server", u)
		}
	}
}

// TestPlaygroundSignIn: a dashboard user signs in with the page's form
// (no key prefilled, as on any server but the embedded default); the
// session lands in the header editor and the default query runs with it.
func TestPlaygroundSignIn(t *testing.T) {
	exe := testenv.Chromium(t)
	srv := testenv.NewServer(t, testenv.Database(t))
	raw, _ := json.Marshal(map[string]any{
		"query":     `mutation { signUp(email: "dash@ground.example", password: "playground secret 42", merchantName: "Playground") { apiKey } }`,
		"variables": map[string]any{}})
	resp, err := http.Post(srv.URL+"/graphql", "application/json", bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || strings.Contains(string(body), `"errors"`) {
		t.Fatalf("sign-up: %d %s", resp.StatusCode, body)
	}

	ctx := testenv.Browser(t, exe, 90*time.Second)
	editorText := func(contains string) (string, error) {
		return chromedp.Run(ctx, chromedp.Poll[string](fmt.Sprintf(
			`(() => { const n = document.querySelector('.graphiql-editor-tool .graphiql-editor:not(.hidden) .CodeMirror');
			          const v = n && n.CodeMirror ? n.CodeMirror.getValue() : '';
			          return v.includes(%q) ? v : false; })()`, contains),
			chromedp.WithPollingTimeout(20*time.Second)))
	}
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-execute-button")),
		chromedp.SendKeys(chromedp.CSS("#signin-email"), "dash@ground.example"),
		chromedp.SendKeys(chromedp.CSS("#signin-password"), "playground secret 42"),
		chromedp.Click(chromedp.CSS("#signin-submit")),
	); err != nil {
		t.Fatalf("sign in on the page: %v", err)
	}
	headers, err := editorText("Bearer sys_")
	if err != nil {
		status, _ := chromedp.Run(ctx, chromedp.Poll[string](`document.querySelector('#signin-status').innerText || false`))
		t.Fatalf("no session in the header editor (%v); the form says %q", err, status)
	}
	if strings.Contains(headers, "playground secret") {
		t.Fatalf("the password reached the header editor: %s", headers)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
		t.Fatalf("click execute: %v", err)
	}
	result, err := chromedp.Run(ctx, chromedp.Poll[string](
		`(() => { const n = document.querySelector('.graphiql-response .result-window');
		          const v = n ? n.innerText : '';
		          return v.includes('"data"') || v.includes('"errors"') ? v : false; })()`,
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil || strings.Contains(result, `"errors"`) || !strings.Contains(result, `"totalCount": 0`) {
		t.Fatalf("the default query with the session: %v\n%s", err, result)
	}
}

// TestPlaygroundSubscription: GraphiQL runs a subscription over the
// websocket with the key of its header editor, and shows a payment made
// over REST while it is open.
func TestPlaygroundSubscription(t *testing.T) {
	exe := testenv.Chromium(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.Database.Embedded = true // the demo key is prefilled
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	ctx := testenv.Browser(t, exe, 90*time.Second)

	const subscription = `subscription { paymentUpdated { paymentID status amount } }`
	if err := chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/graphql"),
		chromedp.WaitVisible(chromedp.CSS(".graphiql-execute-button")),
	); err != nil {
		t.Fatalf("GraphiQL did not come up: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(
		`(() => { const n = document.querySelector('.graphiql-query-editor .CodeMirror');
		          if (!n || !n.CodeMirror) return false;
		          n.CodeMirror.setValue(%q); return true; })()`, subscription),
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("set the query: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
		t.Fatalf("click execute: %v", err)
	}
	// The subscription is in place once Redis has confirmed it. GraphiQL
	// learns the new document's operation name a moment after the editor
	// changes: a click before sends the default query's name with it, which
	// the server refuses ("operation LatestPayments not found"); click again.
	deadline := time.Now().Add(30 * time.Second)
	for srv.Live.Followers(srv.Demo.MerchantID) < 1 {
		shown, _ := chromedp.Run(ctx, chromedp.Evaluate[string](
			`(document.querySelector('.graphiql-response .result-window') || {innerText: ''}).innerText`))
		if time.Now().After(deadline) {
			t.Fatalf("the playground's subscription never reached the server; GraphiQL shows: %s", shown)
		}
		if strings.Contains(shown, "not found") {
			if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(".graphiql-execute-button"))); err != nil {
				t.Fatalf("click execute: %v", err)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	pay := restCall(t, http.MethodPost, srv.URL+"/payments", srv.Demo.SecretKey, map[string]any{"amount": 3100, "currency": "EUR"})
	payID, _ := pay["payment_id"].(string)
	result, err := chromedp.Run(ctx, chromedp.Poll[string](fmt.Sprintf(
		`(() => { const n = document.querySelector('.graphiql-response .result-window');
		          const v = n ? n.innerText : '';
		          return v.includes(%q) || v.includes('"errors"') ? v : false; })()`, payID),
		chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil || !strings.Contains(result, payID) || !strings.Contains(result, `"requires_payment_method"`) {
		t.Fatalf("the subscription's result: %v\n%s", err, result)
	}
}
