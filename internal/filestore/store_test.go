package filestore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/payments/files"
)

// TestS3SignatureMatchesAWSExamples signs the requests of AWS's published
// Signature Version 4 examples for S3 (GET ?lifecycle and GET
// ?max-keys=2&prefix=J on examplebucket) and expects their signatures.
func TestS3SignatureMatchesAWSExamples(t *testing.T) {
	store := &S3Store{Region: "us-east-1", AccessKeyID: "AKIAIOSFODNN7EXAMPLE",
		SecretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}
	at := time.Date(2013, 5, 24, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ url, signature string }{
		{"https://examplebucket.s3.amazonaws.com/?lifecycle", "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"},
		{"https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J", "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"},
	} {
		req, err := http.NewRequest(http.MethodGet, tt.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		store.sign(req, nil, at)
		want := "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, " +
			"SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + tt.signature
		if got := req.Header.Get("Authorization"); got != want {
			t.Errorf("%s:\n got %s\nwant %s", tt.url, got, want)
		}
	}
}

// fakeS3 is an S3-compatible bucket in memory that refuses any request
// whose signature (recomputed with the shared secret) or payload hash is
// wrong, as a real store does.
type fakeS3 struct {
	t       *testing.T
	signer  *S3Store
	mu      sync.Mutex
	objects map[string][]byte
	seen    []string
}

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	auth := r.Header.Get("Authorization")
	at, err := time.Parse("20060102T150405Z", r.Header.Get("X-Amz-Date"))
	if err != nil || auth == "" {
		http.Error(w, "<Error><Code>AccessDenied</Code></Error>", http.StatusForbidden)
		return
	}
	if r.Header.Get("X-Amz-Content-Sha256") != sha256Hex(body) {
		http.Error(w, "<Error><Code>XAmzContentSHA256Mismatch</Code></Error>", http.StatusBadRequest)
		return
	}
	check, _ := http.NewRequest(r.Method, "http://"+r.Host+r.URL.RequestURI(), nil)
	if ct := r.Header.Get("Content-Type"); ct != "" {
		check.Header.Set("Content-Type", ct)
	}
	f.signer.sign(check, body, at)
	if check.Header.Get("Authorization") != auth {
		http.Error(w, "<Error><Code>SignatureDoesNotMatch</Code></Error>", http.StatusForbidden)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen = append(f.seen, r.Method+" "+r.URL.Path)
	switch r.Method {
	case http.MethodPut:
		f.objects[r.URL.Path] = body
	case http.MethodGet:
		b, ok := f.objects[r.URL.Path]
		if !ok {
			http.Error(w, "<Error><Code>NoSuchKey</Code></Error>", http.StatusNotFound)
			return
		}
		_, _ = w.Write(b)
	case http.MethodDelete:
		delete(f.objects, r.URL.Path)
		w.WriteHeader(http.StatusNoContent)
	}
}

func TestS3StoreRoundTripAgainstFake(t *testing.T) {
	fake := &fakeS3{t: t, objects: map[string][]byte{},
		signer: &S3Store{Region: "eu-west-1", AccessKeyID: "AKID", SecretAccessKey: "secret"}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	store := &S3Store{Endpoint: srv.URL, Bucket: "evidence", Region: "eu-west-1", AccessKeyID: "AKID", SecretAccessKey: "secret"}
	exerciseStore(t, store)
	want := []string{"PUT /evidence/merchant_1/file_a", "GET /evidence/merchant_1/file_a",
		"DELETE /evidence/merchant_1/file_a"}
	if got := strings.Join(fake.seen[:3], ","); got != strings.Join(want, ",") {
		t.Errorf("requests %v, want %v first", fake.seen, want)
	}

	wrong := *store
	wrong.SecretAccessKey = "not-the-secret"
	err := wrong.Put(context.Background(), "merchant_1/file_b", []byte("x"), "text/plain")
	if err == nil || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Errorf("Put with a wrong secret: %v, want SignatureDoesNotMatch", err)
	}
}

func TestDirStoreRoundTrip(t *testing.T) {
	exerciseStore(t, DirStore{Dir: t.TempDir()})
}

// exerciseStore puts, reads back, deletes and misses a key, and refuses
// keys that would leave the store's root.
func exerciseStore(t *testing.T, s files.Store) {
	t.Helper()
	ctx := context.Background()
	data := []byte("%PDF-1.4 evidence\x00\xff")
	if err := s.Put(ctx, "merchant_1/file_a", data, "application/pdf"); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "merchant_1/file_a")
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, %v; want %q", got, err, data)
	}
	if err := s.Delete(ctx, "merchant_1/file_a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "merchant_1/file_a"); !errors.Is(err, files.ErrNoObject) {
		t.Errorf("Get after Delete: %v, want files.ErrNoObject", err)
	}
	if err := s.Delete(ctx, "merchant_1/file_a"); err != nil {
		t.Errorf("Delete of a missing key: %v", err)
	}
	for _, key := range []string{"", "/etc/passwd", "../x", "a/../../b"} {
		if err := s.Put(ctx, key, data, ""); err == nil {
			t.Errorf("Put(%q) succeeded", key)
		}
	}
}
