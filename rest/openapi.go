package rest

import (
	"embed"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// Hyperswitch's two OpenAPI documents, as published: the contract the
// REST tests hold every answer to, and the source of GET /openapi.json.
//
//go:embed openapi/openapi_spec_v1.json openapi/openapi_spec_v2.json
var openAPIFiles embed.FS

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// servedOpenAPI builds the OpenAPI document of what Switchyard serves:
// Hyperswitch's v1 document with only the operations this mux routes (a
// path parameter stands for any value), plus the v2 operations it routes,
// with every component of both.
func servedOpenAPI(mux *http.ServeMux, alsoServed func(method, path string) bool) ([]byte, error) {
	var out map[string]any
	paths := map[string]any{}
	for i, name := range []string{"openapi/openapi_spec_v1.json", "openapi/openapi_spec_v2.json"} {
		raw, err := openAPIFiles.ReadFile(name)
		if err != nil {
			return nil, err
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return nil, err
		}
		if i == 0 {
			out = doc
		} else if comps, ok := doc["components"].(map[string]any); ok {
			dst, _ := out["components"].(map[string]any)
			for kind, v := range comps {
				m, _ := v.(map[string]any)
				d, _ := dst[kind].(map[string]any)
				if d == nil {
					d = map[string]any{}
					dst[kind] = d
				}
				for k, x := range m {
					if _, taken := d[k]; !taken {
						d[k] = x
					}
				}
			}
		}
		docPaths, _ := doc["paths"].(map[string]any)
		for path, v := range docPaths {
			ops, _ := v.(map[string]any)
			kept := map[string]any{}
			for method, op := range ops {
				concrete := pathParam.ReplaceAllString(path, "x")
				probe := &http.Request{Method: strings.ToUpper(method), URL: &url.URL{Path: concrete}, Host: "switchyard"}
				if _, pattern := mux.Handler(probe); (servesPath(pattern, path) && !isNotSupported(pattern)) || alsoServed(probe.Method, concrete) {
					kept[method] = op
				}
			}
			if len(kept) > 0 {
				paths[path] = kept
			}
		}
	}
	out["paths"] = paths
	info, _ := out["info"].(map[string]any)
	if info != nil {
		info["title"] = "Switchyard: the Hyperswitch API operations it serves"
	}
	out["servers"] = []any{map[string]any{"url": "/"}}
	return json.Marshal(out)
}

// servesPath reports whether the mux pattern that answers a request to the
// documented path (its parameters filled in) was registered for that path:
// the same segments, a wildcard for each parameter and the same literal
// elsewhere. A wildcard that swallows a literal segment ("GET
// /disputes/{dispute_id}" answering "/disputes/filter") serves another
// operation, however it answers.
func servesPath(pattern, path string) bool {
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = pattern[i+1:]
	}
	if pattern == "" || pattern == "/" {
		return false
	}
	got, want := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(got) != len(want) {
		return false
	}
	for i, seg := range want {
		wild := strings.HasPrefix(got[i], "{") && strings.HasSuffix(got[i], "}")
		if pathParam.MatchString(seg) != wild || !wild && got[i] != seg {
			return false
		}
	}
	return true
}

// openAPIHandler serves servedOpenAPI, built once on first use.
func openAPIHandler(mux *http.ServeMux, alsoServed func(method, path string) bool) http.HandlerFunc {
	var (
		once sync.Once
		doc  []byte
		err  error
	)
	return func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { doc, err = servedOpenAPI(mux, alsoServed) })
		if err != nil {
			WriteError(w, r, err)
			return
		}
		writeBody(w, http.StatusOK, doc)
	}
}
