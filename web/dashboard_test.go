package web_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"switchyard/web"
)

func get(t *testing.T, h http.Handler, path string, header ...string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	r := io.Reader(resp.Body)
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEveryAppRouteIsTheIndexNeverCached: the app's routes (a reload of
// /dashboard/payments, an invitation link) get index.html, revalidated on
// every load, under a policy that admits this origin only.
func TestEveryAppRouteIsTheIndexNeverCached(t *testing.T) {
	h := web.Handler()
	index, err := os.ReadFile("dist/index.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/dashboard", "/dashboard/", "/dashboard/payments", "/dashboard/payments/pay_1?x=1", "/dashboard/invite/abc"} {
		resp := get(t, h, path)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", path, resp.StatusCode)
		}
		if got := body(t, resp); got != string(index) {
			t.Errorf("%s: not index.html: %.80q", path, got)
		}
		hd := resp.Header
		if hd.Get("Cache-Control") != "no-cache" || hd.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: Cache-Control %q, Content-Type %q", path, hd.Get("Cache-Control"), hd.Get("Content-Type"))
		}
		csp := hd.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'self';", "style-src 'self';", "connect-src 'self';", "frame-ancestors 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe") || strings.Contains(csp, "http") {
			t.Errorf("%s: CSP %q admits inline code or another host", path, csp)
		}
	}
}

// TestIndexHasNoInlineScriptOrOtherHost: what the policy would refuse is not
// in the page: every script and style sheet is a file of this origin.
func TestIndexHasNoInlineScriptOrOtherHost(t *testing.T) {
	index := body(t, get(t, web.Handler(), "/dashboard/"))
	if regexp.MustCompile(`<script(?:\s[^>]*)?>\s*[^<\s]`).MatchString(index) || strings.Contains(index, "<style") {
		t.Errorf("index.html has inline script or style:\n%s", index)
	}
	if strings.Contains(index, "//") && regexp.MustCompile(`(src|href)="(https?:)?//`).MatchString(index) {
		t.Errorf("index.html loads from another host:\n%s", index)
	}
	if !regexp.MustCompile(`<script type="module" crossorigin src="/dashboard/assets/[^"]+\.js"></script>`).MatchString(index) {
		t.Errorf("index.html loads no script from /dashboard/assets/:\n%s", index)
	}
}

// TestAssetsAreImmutableAndGzipped: the hashed files are cached for a year,
// gzipped for a client that accepts it, and a missing one is a 404, not
// the app's HTML.
func TestAssetsAreImmutableAndGzipped(t *testing.T) {
	h := web.Handler()
	index := body(t, get(t, h, "/dashboard/"))
	script := regexp.MustCompile(`/dashboard/assets/[^"]+\.js`).FindString(index)
	style := regexp.MustCompile(`/dashboard/assets/[^"]+\.css`).FindString(index)
	if script == "" || style == "" {
		t.Fatalf("index.html names no script or style sheet:\n%s", index)
	}
	onDisk, err := os.ReadFile("dist" + strings.TrimPrefix(script, "/dashboard"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, ctype string }{{script, "text/javascript; charset=utf-8"}, {style, "text/css; charset=utf-8"}} {
		plain := get(t, h, c.path)
		zipped := get(t, h, c.path, "Accept-Encoding", "gzip, br")
		for _, resp := range []*http.Response{plain, zipped} {
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
				resp.Header.Get("Content-Type") != c.ctype || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
				t.Errorf("%s: %d %v", c.path, resp.StatusCode, resp.Header)
			}
		}
		if plain.Header.Get("Content-Encoding") != "" || zipped.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: encodings %q and %q", c.path, plain.Header.Get("Content-Encoding"), zipped.Header.Get("Content-Encoding"))
		}
		if zipped.ContentLength >= plain.ContentLength {
			t.Errorf("%s: gzipped %d bytes, plain %d", c.path, zipped.ContentLength, plain.ContentLength)
		}
		p, z := body(t, plain), body(t, zipped)
		if p != z {
			t.Errorf("%s: gzipped body differs from the plain one", c.path)
		}
		if c.path == script && p != string(onDisk) {
			t.Errorf("%s: not the built file", c.path)
		}
	}
	for _, path := range []string{"/dashboard/assets/index-old.js", "/dashboard/assets/"} {
		if resp := get(t, h, path); resp.StatusCode != http.StatusNotFound || strings.Contains(body(t, resp), "<html") {
			t.Errorf("%s: %d, want a plain 404", path, resp.StatusCode)
		}
	}
	// A revalidation of the same file is answered 304 by its ETag.
	etag := get(t, h, script).Header.Get("ETag")
	if resp := get(t, h, script, "If-None-Match", etag); resp.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match %s: %d", etag, resp.StatusCode)
	}
}

func TestOnlyGetAndHead(t *testing.T) {
	req := httptest.NewRequest(http.MethodPost, "/dashboard/payments", bytes.NewReader(nil))
	rec := httptest.NewRecorder()
	web.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: %d %v", rec.Code, rec.Header())
	}
}
