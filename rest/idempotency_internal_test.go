package rest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"switchyard/internal/idempotency"
	"switchyard/internal/redisconn"
	"switchyard/internal/secrets"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// TestIdempotentReleasesOnFailure: an answer of 500 or more, or a panic,
// gives the key back, so a retry runs afresh; an answer below 500 is kept.
func TestIdempotentReleasesOnFailure(t *testing.T) {
	conn, err := redisconn.Open(context.Background(), "", redisconn.Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	box, _ := secrets.NewBox(make([]byte, secrets.KeySize))
	a := &api{idem: idempotency.New(conn.Client, box)}
	p := tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: "merchant_internal"}
	calls := 0
	call := func(key string, fn handlerFunc) *httptest.ResponseRecorder {
		t.Helper()
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, "/things", strings.NewReader(`{"a":1}`))
		a.idempotent(w, r, p, key, func(r *http.Request) (any, error) {
			calls++
			return fn(r)
		})
		return w
	}
	failing := func(*http.Request) (any, error) { return nil, errors.New("boom") }
	bad := func(*http.Request) (any, error) { return nil, errs.MissingField("x") }
	ok := func(r *http.Request) (any, error) {
		var body struct {
			A int `json:"a"`
		}
		if err := decode(r, &body); err != nil { // the body is handed on
			return nil, err
		}
		return body, nil
	}

	if w := call("k500", failing); w.Code != 500 {
		t.Fatalf("failing handler: %d", w.Code)
	}
	if w := call("k500", ok); w.Code != 200 || w.Header().Get(HeaderIdempotentReplayed) != "" || w.Body.String() != "{\"a\":1}\n" {
		t.Fatalf("after a 500 the key must run afresh: %d %q", w.Code, w.Body)
	}

	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("the panic was swallowed")
			}
		}()
		call("kpanic", func(*http.Request) (any, error) { panic("handler bug") })
	}()
	if w := call("kpanic", ok); w.Code != 200 || w.Header().Get(HeaderIdempotentReplayed) != "" {
		t.Fatalf("after a panic the key must run afresh: %d %s", w.Code, w.Body)
	}

	before := calls
	first := call("k400", bad)
	second := call("k400", ok)
	if first.Code != 400 || second.Code != 400 || second.Header().Get(HeaderIdempotentReplayed) != "true" ||
		second.Body.String() != first.Body.String() || calls != before+1 {
		t.Fatalf("a 400 must be kept and replayed: %d %d %s (calls %d)", first.Code, second.Code, second.Body, calls-before)
	}

	// Without a store, a request with a key is refused before it runs.
	none := &api{}
	w := httptest.NewRecorder()
	none.idempotent(w, httptest.NewRequest(http.MethodPost, "/things", nil), p, "k", func(*http.Request) (any, error) {
		t.Fatal("ran without a key store")
		return nil, nil
	})
	if w.Code != 503 {
		t.Fatalf("no store: %d", w.Code)
	}
}
