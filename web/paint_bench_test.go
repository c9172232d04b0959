package web_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
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
