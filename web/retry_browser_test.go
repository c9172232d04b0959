package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardRetryEveryFailedDelivery: with a receiver that refuses,
// a payment's event fails its first delivery; "Retry every failed
// delivery" on Developers makes it due now (the page says one is), and the
// workers' next pass sends it again.
func TestDashboardRetryEveryFailedDelivery(t *testing.T) {
	d := newDashTab(t)
	var got atomic.Int32
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		got.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(recv.Close)
	profiles := call(t, d.srv.URL, "/graphql", map[string]any{"query": `{ merchantAccount { profiles(first: 1) { edges { node { id } } } } }`},
		"Authorization", "Bearer "+d.token)
	profile := profiles["data"].(map[string]any)["merchantAccount"].(map[string]any)["profiles"].(map[string]any)["edges"].([]any)[0].(map[string]any)["node"].(map[string]any)["id"].(string)
	call(t, d.srv.URL, "/graphql", map[string]any{"query": `mutation($p: ID!, $u: String!) { updateProfileWebhookSettings(profileID: $p, input: {webhookURL: $u}) { profile { id } } }`,
		"variables": map[string]any{"p": profile, "u": recv.URL + "/hooks"}}, "Authorization", "Bearer "+d.token)
	d.pay("4242424242424242", 1000, "USD", nil)
	if _, err := d.srv.Webhooks.RunOnce(context.Background()); err != nil || got.Load() != 1 {
		d.fail("the first delivery: %d attempts, %v", got.Load(), err)
	}

	d.open("/developers", `#developers-title`)
	if err := chromedp.Do(d.ctx, chromedp.Click(chromedp.Search(`//button[text()="Retry every failed delivery"]`))); err != nil {
		d.fail("retry every failed delivery: %v", err)
	}
	d.poll("the answer", `(document.querySelector('[data-testid="retry-all-result"]') || {textContent: ""}).textContent.startsWith("1 failed delivery is due now")`)
	if _, err := d.srv.Webhooks.RunOnce(context.Background()); err != nil || got.Load() != 2 {
		d.fail("after the retry: %d attempts, %v", got.Load(), err)
	}
}
