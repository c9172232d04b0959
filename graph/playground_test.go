package graph_test

import (
	"encoding/json"
	"io"
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
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
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
// the demo key (the embedded default), only a browser on this machine gets
// it: not another host, nor one whose request a proxy forwarded.
func TestPlaygroundKeyOnlyForThisMachine(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	opts := graph.DefaultOptions()
	opts.PlaygroundHeaders = map[string]string{"api-key": srv.Demo.SecretKey}
	h := graph.NewHandler(graph.Deps{Client: srv.Store.Client, Auth: srv.Auth}, opts)
	for _, tc := range []struct {
		name, remote, forwarded string
		gets                    bool
	}{
		{"loopback v4", "127.0.0.1:50000", "", true},
		{"loopback v6", "[::1]:50000", "", true},
		{"another host", "192.0.2.7:50000", "", false},
		{"forwarded by a proxy here", "127.0.0.1:50000", "198.51.100.2", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "/graphql", nil)
			req.Header.Set("Accept", "text/html")
			req.RemoteAddr = tc.remote
			if tc.forwarded != "" {
				req.Header.Set("X-Forwarded-For", tc.forwarded)
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
