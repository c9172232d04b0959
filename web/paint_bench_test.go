package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// BenchmarkDashboardFirstPaint measures the home page's first contentful
// paint on loopback in headless Chromium (issue 30's budget: 1 s), signed
// in and with the assets in the browser's cache as a returning user has
// them, against the floor of the same browser on the same machine: a page
// of one line of text served by a plain net/http server. It reports the
// medians, and their ratio.
//
//	go test ./web -run '^$' -bench DashboardFirstPaint -benchtime 20x
func BenchmarkDashboardFirstPaint(b *testing.B) {
	exe := testenv.Chromium(b)
	srv := testenv.NewServer(b, testenv.Database(b))
	floor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<!doctype html><html><head><meta charset="utf-8"><title>floor</title></head><body><p>Payments</p></body></html>`)
	}))
	b.Cleanup(floor.Close)
	status, body, err := testenv.Call(srv.URL, "POST", "/graphql", "", map[string]any{
		"query": `mutation { signUp(email: "paint@dash.example", password: "a long dashboard passphrase", merchantName: "Paint Shop") { session { token } } }`})
	if err != nil || status != 200 {
		b.Fatalf("sign up: %d %s %v", status, body, err)
	}
	_, rest, _ := strings.Cut(string(body), `"token":"`)
	token, _, _ := strings.Cut(rest, `"`)
	ctx := testenv.Browser(b, exe, 10*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/dashboard/signin"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("switchyard.session", %q)`, token))); err != nil {
		b.Fatal(err)
	}
	fcp := func(url string) time.Duration {
		err := chromedp.Do(ctx, chromedp.Navigate(url))
		var ms float64
		if err == nil {
			ms, err = chromedp.Run(ctx, chromedp.Poll[float64](`(() => { const e = performance.getEntriesByName("first-contentful-paint")[0]; return e ? e.startTime : false; })()`,
				chromedp.WithPollingTimeout(30*time.Second)))
		}
		if err != nil {
			b.Fatalf("%s: %v", url, err)
		}
		return time.Duration(ms * float64(time.Millisecond))
	}
	fcp(srv.URL + "/dashboard/home") // the assets into the cache
	fcp(floor.URL)
	var home, base []time.Duration
	b.ResetTimer()
	for range b.N {
		home = append(home, fcp(srv.URL+"/dashboard/home"))
		base = append(base, fcp(floor.URL))
	}
	b.StopTimer()
	h, f := median(home), median(base)
	b.ReportMetric(float64(h)/float64(time.Millisecond), "home-fcp-ms")
	b.ReportMetric(float64(f)/float64(time.Millisecond), "floor-fcp-ms")
	b.ReportMetric(float64(h)/float64(f), "x-floor")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkDashboardLiveLongTasks measures how responsive the payments
// page stays while payments arrive live (issue 30's budget: no long task
// over 200 ms at 20 payments/s): the list open on a merchant with 50
// payments, its longest main-thread task over 10 s of 20 payments/s made
// over REST, against the same page's longest task over 5 quiet seconds
// (the baseline). Long tasks are the browser's own (PerformanceObserver,
// "longtask": 50 ms and over); none at all reports 0.
//
//	go test ./web -run '^$' -bench DashboardLiveLongTasks -benchtime 1x -count 3
func BenchmarkDashboardLiveLongTasks(b *testing.B) {
	exe := testenv.Chromium(b)
	srv := testenv.NewServer(b, testenv.Database(b))
	status, body, err := testenv.Call(srv.URL, "POST", "/graphql", "", map[string]any{
		"query": `mutation { signUp(email: "live@dash.example", password: "a long dashboard passphrase", merchantName: "Live Shop") { session { token } apiKey } }`})
	if err != nil || status != 200 {
		b.Fatalf("sign up: %d %s %v", status, body, err)
	}
	_, rest, _ := strings.Cut(string(body), `"token":"`)
	token, _, _ := strings.Cut(rest, `"`)
	_, rest, _ = strings.Cut(string(body), `"apiKey":"`)
	key, _, _ := strings.Cut(rest, `"`)
	pay := func(i int) {
		st, out, err := testenv.Call(srv.URL, "POST", "/payments", key, map[string]any{"amount": 100 + i, "currency": "USD", "confirm": true,
			"payment_method": "card", "payment_method_data": map[string]any{"card": map[string]any{"card_number": "4242424242424242",
				"card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123"}}})
		if err != nil || st != 200 {
			b.Errorf("payment: %d %s %v", st, out, err)
		}
	}
	for i := range 50 {
		pay(i)
	}
	ctx := testenv.Browser(b, exe, 10*time.Minute)
	const observe = `window.__long = []; new PerformanceObserver(l => { for (const e of l.getEntries()) window.__long.push(e.duration); })
		.observe({ type: "longtask", buffered: false });`
	longest := func() float64 {
		ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`(() => { const l = window.__long; window.__long = []; return l.length ? Math.max(...l) : 0; })()`))
		if err != nil {
			b.Fatal(err)
		}
		return ms
	}
	var idle, live, rate []float64
	for range b.N {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/dashboard/signin"),
			chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`sessionStorage.setItem("switchyard.session", %q)`, token)),
			chromedp.Navigate(srv.URL+"/dashboard/payments"),
			chromedp.WaitVisible(chromedp.CSS(`[data-testid="payments"] tbody tr`)),
			chromedp.Evaluate[chromedp.Void](observe)); err != nil {
			b.Fatal(err)
		}
		// The observer sees a task the page is made to run (120 ms), or
		// its zeros would mean nothing.
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`setTimeout(() => { const t = performance.now(); while (performance.now() - t < 120) {} }, 0)`)); err != nil {
			b.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		if ms := longest(); ms < 100 {
			b.Fatalf("the long-task observer saw %v ms of a 120 ms task", ms)
		}
		time.Sleep(5 * time.Second)
		idle = append(idle, longest())
		start := time.Now()
		tick := time.NewTicker(50 * time.Millisecond) // 20 a second
		var wg sync.WaitGroup
		n := 0
		for time.Since(start) < 10*time.Second {
			<-tick.C
			n++
			wg.Add(1)
			go func(i int) { defer wg.Done(); pay(i) }(n)
		}
		tick.Stop()
		wg.Wait()
		rate = append(rate, float64(n)/time.Since(start).Seconds())
		time.Sleep(2 * time.Second) // the last refetch
		live = append(live, longest())
		// The list kept up: its count is every payment made.
		want := fmt.Sprint(50 + n)
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.querySelector('[data-testid="payments-count"]').textContent.startsWith("`+want+` ")`,
			chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('[data-testid="payments-count"]').textContent`))
			b.Fatalf("the live list counts %q, want %s payments", got, want)
		}
	}
	b.ReportMetric(slices.Max(live), "live-longest-task-ms")
	b.ReportMetric(slices.Max(idle), "idle-longest-task-ms")
	b.ReportMetric(slices.Min(rate), "payments/s")
}
