// Package playground serves GraphiQL for the GraphQL endpoint without any
// network access beyond this server: the GraphiQL browser bundle and the
// React UMD builds it runs on are vendored in assets/ (see assets/README.md
// for where they come from and update.sh for refreshing them), embedded in
// the binary and served under the endpoint's /assets/ path with long-lived
// cache headers. The page sets a Content-Security-Policy that lets scripts
// and style sheets come from this origin only.
package playground

import (
	"bytes"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"io/fs"
	"net/http"
	"strings"

	"switchyard/internal/webfiles"
)

// DefaultQuery is the query the playground opens with: the latest payments
// with their attempts and refunds.
const DefaultQuery = `# Switchyard GraphQL playground.
#
# Headers (below) authenticate the requests: the demo
# merchant's api-key in the embedded default, or your
# dashboard session (Authorization: Bearer …) once you
# sign in with the form above. Run with the play button
# or Ctrl-Enter; the Docs pane (top left) browses the schema.

query LatestPayments {
  paymentIntents(first: 10) {
    totalCount
    edges {
      node {
        id
        paymentID
        status
        amount
        currency
        createdAt
        attempts {
          id
          status
          connector
        }
        refunds(first: 10) {
          edges {
            node {
              id
              refundID
              status
              amount
            }
          }
        }
      }
    }
  }
}
`

// Options configure the playground page.
type Options struct {
	// Title is the page title.
	Title string
	// Endpoint is the GraphQL endpoint the page sends its requests to, and
	// the prefix of the assets' path (Endpoint + "/assets/"). Default "/graphql".
	Endpoint string
	// Headers prefill the header editor (the demo merchant's api-key in
	// the embedded default); empty means an empty editor.
	Headers map[string]string
	// Query is the query in the editor of a first visit; default DefaultQuery.
	Query string
}

// AssetsPath is the path under which Handler serves the vendored files for
// an endpoint.
func AssetsPath(endpoint string) string {
	return strings.TrimRight(endpoint, "/") + "/assets/"
}

//go:embed assets/*.js assets/*.css
var assetFS embed.FS

//go:embed page.html
var pageHTML string

var page = template.Must(template.New("playground").Parse(pageHTML))

var assets = loadAssets()

func loadAssets() map[string]*webfiles.File {
	out := map[string]*webfiles.File{}
	entries, err := fs.ReadDir(assetFS, "assets")
	if err != nil {
		panic(err)
	}
	for _, e := range entries {
		data, err := assetFS.ReadFile("assets/" + e.Name())
		if err != nil {
			panic(err)
		}
		out[e.Name()] = webfiles.New(e.Name(), data)
	}
	return out
}

// Handler serves the playground page, and the vendored assets for requests
// under AssetsPath(opts.Endpoint). The caller decides which requests reach
// it (a browser's GET of the endpoint, and the assets path).
func Handler(opts Options) http.Handler {
	if opts.Endpoint == "" {
		opts.Endpoint = "/graphql"
	}
	if opts.Title == "" {
		opts.Title = "GraphiQL"
	}
	if opts.Query == "" {
		opts.Query = DefaultQuery
	}
	headers := ""
	if len(opts.Headers) > 0 {
		// The template escapes for the attribute; the editor shows the JSON as is.
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(opts.Headers); err != nil {
			panic(err)
		}
		headers = strings.TrimSpace(b.String())
	}
	prefix := AssetsPath(opts.Endpoint)
	urls := map[string]string{}
	for name, a := range assets {
		urls[strings.NewReplacer(".", "_", "-", "_").Replace(name)] = prefix + name + "?v=" + a.Hash
	}
	return &handler{opts: opts, headers: headers, prefix: prefix, urls: urls}
}

type handler struct {
	opts    Options
	headers string
	prefix  string
	urls    map[string]string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if name, ok := strings.CutPrefix(r.URL.Path, h.prefix); ok {
		serveAsset(w, r, name)
		return
	}
	h.servePage(w, r)
}

func (h *handler) servePage(w http.ResponseWriter, r *http.Request) {
	var raw [18]byte
	_, _ = rand.Read(raw[:])
	nonce := base64.StdEncoding.EncodeToString(raw[:])
	var buf bytes.Buffer
	err := page.Execute(&buf, map[string]any{
		"Title":    h.opts.Title,
		"Endpoint": h.opts.Endpoint,
		"Headers":  h.headers,
		"Query":    h.opts.Query,
		"Nonce":    nonce,
		"Assets":   h.urls,
	})
	if err != nil {
		http.Error(w, "rendering the playground failed", http.StatusInternalServerError)
		return
	}
	hd := w.Header()
	hd.Set("Content-Type", "text/html; charset=utf-8")
	// The page may carry an API key: never store it.
	hd.Set("Cache-Control", "no-store")
	hd.Set("Content-Security-Policy", ContentSecurityPolicy(nonce))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	_, _ = w.Write(buf.Bytes())
}

// ContentSecurityPolicy is the page's policy: scripts and style sheets from
// this origin only, requests to this origin only. The one exception is
// <style> elements that GraphiQL's dialogs inject at run time: they carry
// the page's nonce (GraphiQL reads it from __webpack_nonce__). Neither
// 'unsafe-eval' nor 'unsafe-inline' is needed.
func ContentSecurityPolicy(nonce string) string {
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'self' 'nonce-" + nonce + "'",
		"font-src 'self' data:",
		"img-src 'self' data:",
		"connect-src 'self'",
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors 'none'",
	}, "; ")
}

func serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := assets[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if r.URL.Query().Get("v") == a.Hash {
		// The page links every asset with its content hash: a new build
		// with new content links a new URL.
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "public, max-age=300")
	}
	a.Serve(w, r)
}
