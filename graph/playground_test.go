package graph_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"switchyard/graph"
	"switchyard/graph/playground"
	"switchyard/internal/testenv"
)

// TestPlaygroundRoutes: the app serves GraphiQL's files under
// /graphql/assets/, a browser's GET of /graphql gets the page (with no key
// outside the embedded default), any other GET is still GraphQL, and the
// playground's default query is valid against the schema.
func TestPlaygroundRoutes(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	fetch := func(path string, header map[string]string) (*http.Response, string) {
		t.Helper()
		return getWith(t, srv.URL+path, header)
	}

	resp, page := fetch("/graphql", map[string]string{"Accept": "text/html"})
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
		t.Fatalf("page: %d %q", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
	if strings.Contains(page, srv.Demo.SecretKey) || !strings.Contains(page, `data-headers=""`) {
		t.Error("the page prefills a key outside the embedded default")
	}

	resp, js := fetch("/graphql/assets/react.production.min.js", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || !strings.Contains(js, "18.3.1") {
		t.Fatalf("asset: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}

	resp, out := fetch("/graphql?query="+url.QueryEscape("{ paymentIntents(first: 1) { totalCount } }"),
		map[string]string{"Accept": "application/json", "api-key": srv.Demo.SecretKey})
	if resp.StatusCode != 200 || !strings.Contains(out, `"totalCount":0`) {
		t.Fatalf("GET query: %d %s", resp.StatusCode, out)
	}

	_, res := post(t, srv.URL, srv.Demo.SecretKey, playground.DefaultQuery)
	if msg := firstError(res); msg != "" {
		t.Fatalf("the playground's default query fails: %s", msg)
	}
	if _, err := json.Marshal(res["data"]); err != nil || res["data"] == nil {
		t.Fatalf("default query: %v", res)
	}
}

// TestPlaygroundKeyOnlyForThisMachine: where the page is set to prefill
// the demo key (the embedded default), only a browser on this machine that
// opened this server's page itself gets it: not another host, nor one
// whose request a proxy forwarded, nor another site's script, link or
// frame, nor a page whose own name was pointed at 127.0.0.1.
func TestPlaygroundKeyOnlyForThisMachine(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	opts := graph.DefaultOptions()
	opts.PlaygroundHeaders = map[string]string{"api-key": srv.Demo.SecretKey}
	h := graph.NewHandler(graph.Deps{Client: srv.Store.Client, Auth: srv.Auth}, opts)
	for _, tc := range []struct {
		name, remote, host string
		header             map[string]string
		gets               bool
	}{
		{"loopback v4", "127.0.0.1:50000", "127.0.0.1:8080", nil, true},
		{"loopback v6", "[::1]:50000", "[::1]:8080", nil, true},
		{"localhost, typed in", "127.0.0.1:50000", "localhost:8080", map[string]string{"Sec-Fetch-Site": "none"}, true},
		{"a reload from the page", "127.0.0.1:50000", "localhost:8080",
			map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://localhost:8080"}, true},
		{"another host", "192.0.2.7:50000", "switchyard.example", nil, false},
		{"forwarded by a proxy here", "127.0.0.1:50000", "127.0.0.1:8080", map[string]string{"X-Forwarded-For": "198.51.100.2"}, false},
		{"another site's script", "127.0.0.1:50000", "127.0.0.1:8080",
			map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}, false},
		{"another site's script, an old browser", "127.0.0.1:50000", "127.0.0.1:8080",
			map[string]string{"Origin": "https://evil.example"}, false},
		{"another site's link or frame", "127.0.0.1:50000", "127.0.0.1:8080", map[string]string{"Sec-Fetch-Site": "cross-site"}, false},
		{"a name rebound to loopback", "127.0.0.1:50000", "evil.example:8080", map[string]string{"Sec-Fetch-Site": "same-origin"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/graphql", nil)
			req.Header.Set("Accept", "text/html")
			req.RemoteAddr, req.Host = tc.remote, tc.host
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != 200 {
				t.Fatalf("status %d", rec.Code)
			}
			if got := strings.Contains(rec.Body.String(), srv.Demo.SecretKey); got != tc.gets {
				t.Fatalf("page holds the demo key: %v, want %v", got, tc.gets)
			}
		})
	}
}

// TestPlaygroundIsNotCrossOrigin: on the embedded default, whose page
// carries the demo key, a script of another origin asking for the page gets
// neither the key nor CORS headers (the browser would not let it read the
// page anyway), while the API keeps its CORS policy.
func TestPlaygroundIsNotCrossOrigin(t *testing.T) {
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.Database.Embedded = true // as in the zero-config default, which prefills the demo key
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	get := func(path string, header map[string]string) (*http.Response, string) {
		t.Helper()
		return getWith(t, srv.URL+path, header)
	}
	evil := map[string]string{"Accept": "text/html", "Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
	resp, body := get("/graphql", evil)
	if resp.StatusCode != 200 || strings.Contains(body, srv.Demo.SecretKey) || resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("another origin's request for the page: %d, CORS %q, key in page %v",
			resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"), strings.Contains(body, srv.Demo.SecretKey))
	}
	resp, _ = get(playground.AssetsPath(graph.Endpoint)+"graphiql.min.js", evil)
	if resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("the playground's files carry CORS headers: %v", resp.Header)
	}
	// The developer's own browser, opening the page itself, still gets it.
	if resp, body := get("/graphql", map[string]string{"Accept": "text/html", "Sec-Fetch-Site": "none"}); resp.StatusCode != 200 ||
		!strings.Contains(body, srv.Demo.SecretKey) {
		t.Fatalf("the developer's own page: %d, key in page %v", resp.StatusCode, strings.Contains(body, srv.Demo.SecretKey))
	}
	// The API answers other origins as configured (the sandbox's *).
	resp, _ = get("/graphql?query=%7B__typename%7D", map[string]string{"Origin": "https://shop.example", "api-key": srv.Demo.SecretKey})
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Fatalf("the API's CORS: %d %v", resp.StatusCode, resp.Header)
	}
}

// getWith GETs url with the headers given and reads the whole answer.
func getWith(t *testing.T, url string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}
