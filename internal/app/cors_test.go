package app_test

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// preflight sends the OPTIONS request a browser sends before the checkout
// SDK's POST with its custom headers.
func preflight(t *testing.T, url, origin string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodOptions, url+"/payments/session_tokens", nil)
	req.Header.Set("Origin", origin)
	req.Header.Set("Access-Control-Request-Method", http.MethodPost)
	req.Header.Set("Access-Control-Request-Headers", "api-key,content-type,x-client-platform,x-merchant-domain")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// TestBrowserAccess checks the CORS policy the checkout SDK depends on: by
// default any page may call the API (every route authenticates by header,
// never by cookie); with SWITCHYARD_CORS_ORIGINS set only those pages may.
func TestBrowserAccess(t *testing.T) {
	t.Run("default allows any origin", func(t *testing.T) {
		srv := testenv.NewServer(t, testenv.SQLiteDatabase(t))
		resp := preflight(t, srv.URL, "http://localhost:9050")
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("preflight: %d", resp.StatusCode)
		}
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Fatalf("Allow-Origin = %q, want *", got)
		}
		if got := resp.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, http.MethodPost) {
			t.Fatalf("Allow-Methods = %q", got)
		}
		if got := strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "api-key") || !strings.Contains(got, "x-merchant-domain") {
			t.Fatalf("Allow-Headers = %q", got)
		}
		if resp.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Fatal("credentials must never be allowed: keys travel in headers")
		}

		// The real request carries the same header, and exposes the replay marker.
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/health", nil)
		req.Header.Set("Origin", "http://localhost:9050")
		got, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, got.Body)
		got.Body.Close()
		if got.StatusCode != 200 || got.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Fatalf("GET: %d Allow-Origin %q", got.StatusCode, got.Header.Get("Access-Control-Allow-Origin"))
		}
		if exp := strings.ToLower(got.Header.Get("Access-Control-Expose-Headers")); !strings.Contains(exp, "idempotent-replayed") {
			t.Fatalf("Expose-Headers = %q", exp)
		}
	})

	t.Run("configured origins only", func(t *testing.T) {
		cfg := testenv.Config(t, testenv.SQLiteDatabase(t))
		cfg.CORSOrigins = []string{"https://shop.example"}
		srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))

		resp := preflight(t, srv.URL, "https://shop.example")
		if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "https://shop.example" {
			t.Fatalf("listed origin: %d Allow-Origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
		}
		resp = preflight(t, srv.URL, "https://evil.example")
		if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("unlisted origin allowed: %q", got)
		}
	})
}
