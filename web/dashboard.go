// Package web serves the merchant dashboard: the single-page app built from
// this folder's TypeScript sources (npm run build) into dist/, which is
// committed and embedded, so the binary serves it with no Node installed.
// CI rebuilds dist/ and fails when it differs from the committed one.
//
// Under Path, the hashed files of dist/assets/ are served long-cached
// (their names change with their content), gzipped for clients that accept
// it; every other path is the app's index.html (its own router reads the
// path: /dashboard/payments, /dashboard/invite/<token>), never cached, with
// a Content-Security-Policy that admits scripts, styles and requests from
// this origin only.
package web

import (
	"embed"
	"io/fs"
	"net/http"
	"strings"

	"switchyard/internal/webfiles"
)

// Path is where the dashboard is served; the app's Vite base is Path + "/".
const Path = "/dashboard"

//go:embed all:dist
var dist embed.FS

// ContentSecurityPolicy admits this origin's scripts, style sheets and
// GraphQL requests and nothing else: no inline script or style, no other
// host (the app works offline), no framing, no form posting anywhere (the
// app's forms are handled by its script; without it they go nowhere).
const ContentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the dashboard under Path: route it both Path and Path + "/".
func Handler() http.Handler {
	h := &handler{assets: map[string]*webfiles.File{}}
	index, err := dist.ReadFile("dist/index.html")
	if err != nil {
		panic("web: dist/index.html is not embedded: run npm run build in web/ (" + err.Error() + ")")
	}
	h.index = webfiles.New("index.html", index)
	err = fs.WalkDir(dist, "dist/assets", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := dist.ReadFile(name)
		if err != nil {
			return err
		}
		h.assets[strings.TrimPrefix(name, "dist/assets/")] = webfiles.New(name, data)
		return nil
	})
	if err != nil {
		panic("web: reading the embedded assets: " + err.Error())
	}
	return h
}

type handler struct {
	index  *webfiles.File
	assets map[string]*webfiles.File
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	hd := w.Header()
	if name, ok := strings.CutPrefix(r.URL.Path, Path+"/assets/"); ok {
		f := h.assets[name]
		if f == nil {
			// A missing asset is a 404, not the app: a stale page asking
			// for an old build's file must not get HTML as its script.
			http.NotFound(w, r)
			return
		}
		// The file's name carries its content hash: a new build links new names.
		hd.Set("Cache-Control", "public, max-age=31536000, immutable")
		f.Serve(w, r)
		return
	}
	if r.URL.Path != Path && !strings.HasPrefix(r.URL.Path, Path+"/") {
		http.NotFound(w, r)
		return
	}
	// Every other path is a route of the app: index.html, checked again on
	// each load so that a new build's asset names are seen at once.
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Content-Security-Policy", ContentSecurityPolicy)
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Frame-Options", "DENY")
	h.index.Serve(w, r)
}
