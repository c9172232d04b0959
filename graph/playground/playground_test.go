package playground_test

import (
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"switchyard/graph/playground"
)

func get(t *testing.T, h http.Handler, url string, header map[string]string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, url, nil)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var (
	attr    = regexp.MustCompile(`data-([a-z]+)="([^"]*)"`)
	linkRef = regexp.MustCompile(`(?:src|href)="(/graphql/assets/[^"]+)"`)
)

// TestPage: the page mounts GraphiQL on the endpoint with the prefilled
// headers and the default query, under a policy with no inline script and
// no eval, and is never cached.
func TestPage(t *testing.T) {
	h := playground.Handler(playground.Options{Title: "T", Endpoint: "/graphql",
		Headers: map[string]string{"api-key": "snd_demo<&>"}})
	resp := get(t, h, "/graphql", map[string]string{"Accept": "text/html"})
	page := body(t, resp)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("%d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q: the page holds an API key", cc)
	}
	data := map[string]string{}
	for _, m := range attr.FindAllStringSubmatch(page, -1) {
		data[m[1]] = html.UnescapeString(m[2])
	}
	if data["endpoint"] != "/graphql" || !strings.Contains(data["headers"], `"api-key": "snd_demo<&>"`) ||
		data["query"] != playground.DefaultQuery {
		t.Errorf("data attributes %q", data)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "'nonce-"+data["nonce"]+"'") ||
		strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q (nonce %q)", csp, data["nonce"])
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Error("the page has an inline script or an outside URL")
	}
	again := get(t, h, "/graphql", nil)
	if strings.Contains(again.Header.Get("Content-Security-Policy"), data["nonce"]) {
		t.Error("the nonce is the same on two requests")
	}

	empty := body(t, get(t, playground.Handler(playground.Options{}), "/graphql", nil))
	if !strings.Contains(empty, `data-headers=""`) {
		t.Error("without headers the header editor should be empty")
	}
}

// TestAssets: every file the page links is served with its content type,
// a year's immutable caching under its hashed URL, gzip when accepted, and
// an ETag; the vendored files are the ones SHA256SUMS lists.
func TestAssets(t *testing.T) {
	h := playground.Handler(playground.Options{})
	page := body(t, get(t, h, "/graphql", nil))
	links := linkRef.FindAllStringSubmatch(page, -1)
	if len(links) != 6 {
		t.Fatalf("links %q", links)
	}
	for _, l := range links {
		url := html.UnescapeString(l[1])
		resp := get(t, h, url, nil)
		plain := body(t, resp)
		want := "text/javascript; charset=utf-8"
		if strings.Contains(url, ".css") {
			want = "text/css; charset=utf-8"
		}
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != want || len(plain) < 100 {
			t.Fatalf("%s: %d %q %d bytes", url, resp.StatusCode, resp.Header.Get("Content-Type"), len(plain))
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", url, cc)
		}

		gz := get(t, h, url, map[string]string{"Accept-Encoding": "br, gzip"})
		if gz.Header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("%s: not gzipped", url)
		}
		zr, err := gzip.NewReader(gz.Body)
		if err != nil {
			t.Fatal(err)
		}
		unzipped, _ := io.ReadAll(zr)
		if string(unzipped) != plain {
			t.Errorf("%s: gzip body differs", url)
		}

		etag := resp.Header.Get("ETag")
		if r := get(t, h, url, map[string]string{"If-None-Match": etag}); etag == "" || r.StatusCode != http.StatusNotModified {
			t.Errorf("%s: ETag %q, revalidation %d", url, etag, r.StatusCode)
		}
	}

	if r := get(t, h, "/graphql/assets/graphiql.min.js", nil); r.Header.Get("Cache-Control") == "public, max-age=31536000, immutable" {
		t.Error("an unversioned URL is cached for a year")
	}
	for _, name := range []string{"nope.js", "README.md", "SHA256SUMS", "../playground.go"} {
		if r := get(t, h, "/graphql/assets/"+name, nil); r.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", name, r.StatusCode)
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/graphql/assets/graphiql.min.js", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}

	sums, err := os.Open("assets/SHA256SUMS")
	if err != nil {
		t.Fatal(err)
	}
	defer sums.Close()
	sc := bufio.NewScanner(sums)
	n := 0
	for sc.Scan() {
		sum, name, _ := strings.Cut(sc.Text(), "  ")
		served := body(t, get(t, h, "/graphql/assets/"+name, nil))
		got := sha256.Sum256([]byte(served))
		if hex.EncodeToString(got[:]) != sum {
			t.Errorf("%s differs from the vendored release (SHA256SUMS): run update.sh", name)
		}
		n++
	}
	if n != 4 {
		t.Errorf("SHA256SUMS lists %d files, want 4", n)
	}
}
