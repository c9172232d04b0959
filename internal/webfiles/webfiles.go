// Package webfiles serves files a browser loads (scripts, style sheets,
// pages) from memory: each with its content hash as ETag, its content type
// fixed by extension (not the machine's mime.types), and gzipped, once and
// the same bytes every run, for clients that accept it. The GraphQL
// playground's vendored assets and the dashboard's build use it.
package webfiles

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// File is one file held in memory.
type File struct {
	Data        []byte
	ContentType string
	// Hash is the first 8 bytes of the content's SHA-256, in hex: the ETag,
	// and a cache-busting version for links.
	Hash    string
	gzipped func() []byte
}

var contentTypes = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".woff2": "font/woff2",
}

// New holds data as the file name (whose extension gives its type).
func New(name string, data []byte) *File {
	sum := sha256.Sum256(data)
	ct := contentTypes[path.Ext(name)]
	if ct == "" {
		ct = "application/octet-stream"
	}
	return &File{Data: data, ContentType: ct, Hash: hex.EncodeToString(sum[:8]), gzipped: sync.OnceValue(func() []byte {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(data)
		_ = zw.Close()
		return buf.Bytes()
	})}
}

// Serve answers r with the file (gzipped when the client accepts it), with
// its type, ETag and Vary; the caller sets the caching headers.
func (f *File) Serve(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Type", f.ContentType)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Add("Vary", "Accept-Encoding")
	data, etag := f.Data, `"`+f.Hash+`"`
	if AcceptsGzip(r.Header.Get("Accept-Encoding")) {
		data, etag = f.gzipped(), `"`+f.Hash+`-gz"`
		hd.Set("Content-Encoding", "gzip")
	}
	hd.Set("ETag", etag)
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
}

// AcceptsGzip reports whether an Accept-Encoding header admits gzip.
func AcceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(coding), "gzip") {
			continue
		}
		q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}
