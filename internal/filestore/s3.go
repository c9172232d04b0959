package filestore

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"switchyard/payments/files"
)

// S3Store keeps files in a bucket of an S3-compatible object store (AWS
// S3, MinIO, Ceph, R2, …), addressed path-style (Endpoint/Bucket/key) so
// that any endpoint works without DNS per bucket. Requests are signed with
// AWS Signature Version 4 on the whole payload.
type S3Store struct {
	Endpoint        string // e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:9000
	Bucket          string
	Region          string
	AccessKeyID     string
	SecretAccessKey string
	// Client sends the requests; nil is a client with a 30 s timeout.
	Client *http.Client
	// Now is the signing clock; nil is time.Now.
	Now func() time.Time
}

const maxS3ErrorBody = 4 << 10

func (s *S3Store) Put(ctx context.Context, key string, data []byte, contentType string) error {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	resp, err := s.do(ctx, http.MethodPut, key, data, h)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return s3Status(resp, http.StatusOK)
}

func (s *S3Store) Get(ctx context.Context, key string) ([]byte, error) {
	resp, err := s.do(ctx, http.MethodGet, key, nil, nil)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, files.ErrNoObject
	}
	if err := s3Status(resp, http.StatusOK); err != nil {
		return nil, err
	}
	return io.ReadAll(resp.Body)
}

func (s *S3Store) Delete(ctx context.Context, key string) error {
	resp, err := s.do(ctx, http.MethodDelete, key, nil, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	return s3Status(resp, http.StatusNoContent, http.StatusOK)
}

// s3Status turns an unexpected answer into an error carrying the start of
// the store's error document.
func s3Status(resp *http.Response, ok ...int) error {
	for _, code := range ok {
		if resp.StatusCode == code {
			return nil
		}
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxS3ErrorBody))
	return fmt.Errorf("files: s3 %s %s: %s: %s", resp.Request.Method, resp.Request.URL.Path, resp.Status, bytes.TrimSpace(body))
}

func (s *S3Store) do(ctx context.Context, method, key string, body []byte, h http.Header) (*http.Response, error) {
	if err := validKey(key); err != nil {
		return nil, err
	}
	u, err := url.Parse(strings.TrimRight(s.Endpoint, "/") + "/" + s.Bucket + "/" + key)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if body == nil {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	s.sign(req, body, now().UTC())
	client := s.Client
	if client == nil {
		client = &http.Client{Timeout: 30 * time.Second}
	}
	return client.Do(req)
}

// sign adds SigV4's x-amz-date, x-amz-content-sha256 and Authorization
// headers, signing host and every x-amz-* and content-type header.
func (s *S3Store) sign(req *http.Request, body []byte, at time.Time) {
	payload := sha256Hex(body)
	amzDate := at.Format("20060102T150405Z")
	day := at.Format("20060102")
	req.Header.Set("X-Amz-Date", amzDate)
	req.Header.Set("X-Amz-Content-Sha256", payload)

	signed := map[string]string{"host": req.URL.Host}
	for k, v := range req.Header {
		lk := strings.ToLower(k)
		if strings.HasPrefix(lk, "x-amz-") || lk == "content-type" {
			signed[lk] = strings.TrimSpace(strings.Join(v, ","))
		}
	}
	names := make([]string, 0, len(signed))
	for k := range signed {
		names = append(names, k)
	}
	sort.Strings(names)
	var canonHeaders strings.Builder
	for _, k := range names {
		canonHeaders.WriteString(k + ":" + signed[k] + "\n")
	}
	signedHeaders := strings.Join(names, ";")
	canonical := strings.Join([]string{
		req.Method,
		s3EscapePath(req.URL.Path),
		canonicalQuery(req.URL.Query()),
		canonHeaders.String(),
		signedHeaders,
		payload,
	}, "\n")
	scope := day + "/" + s.Region + "/s3/aws4_request"
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + sha256Hex([]byte(canonical))
	key := hmacSHA256([]byte("AWS4"+s.SecretAccessKey), day)
	for _, part := range []string{s.Region, "s3", "aws4_request"} {
		key = hmacSHA256(key, part)
	}
	signature := hex.EncodeToString(hmacSHA256(key, toSign))
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential="+s.AccessKeyID+"/"+scope+
		", SignedHeaders="+signedHeaders+", Signature="+signature)
}

// s3EscapePath is the URI encoding SigV4 asks for: every byte but the
// unreserved ones and "/" percent-encoded.
func s3EscapePath(p string) string { return s3Escape(p, true) }

// s3Escape percent-encodes all but the unreserved bytes (and "/" when
// keepSlash).
func s3Escape(p string, keepSlash bool) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~", c) >= 0 || keepSlash && c == '/' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func hmacSHA256(key []byte, msg string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(msg))
	return m.Sum(nil)
}

// canonicalQuery is the query sorted by name then value, each part
// encoded as the path is ("a=" for a name with no value).
func canonicalQuery(q url.Values) string {
	parts := make([]string, 0, len(q))
	for k, vs := range q {
		for _, v := range vs {
			parts = append(parts, s3Escape(k, false)+"="+s3Escape(v, false))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "&")
}
