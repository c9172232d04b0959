package app

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// heldServer serves a handler behind an admission of limit slots: a request
// reports its path on entered, then (but for /health) waits for release.
func heldServer(t *testing.T, limit int, maxWait time.Duration) (adm *admission, url string, entered chan string, release chan struct{}) {
	t.Helper()
	adm = newAdmission(limit, maxWait, prometheus.NewRegistry())
	entered, release = make(chan string, 16), make(chan struct{})
	srv := httptest.NewServer(adm.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- r.URL.Path
		if r.URL.Path != "/health" {
			<-release
		}
		w.WriteHeader(http.StatusOK)
	})))
	t.Cleanup(srv.Close)
	return adm, srv.URL, entered, release
}

func get(t *testing.T, url string) (int, http.Header, []byte) {
	resp, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return 0, nil, nil
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, body
}

// eventually waits (bounded) until cond holds: the test waits for a state,
// it does not time one.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// TestAdmissionHoldsRequestsPastTheLimit: with two slots taken, a third
// request waits without running, health answers at once, and the waiting
// request runs as soon as a slot frees.
func TestAdmissionHoldsRequestsPastTheLimit(t *testing.T) {
	adm, url, entered, release := heldServer(t, 2, time.Minute)
	statuses := make(chan int, 3)
	for _, path := range []string{"/a", "/b"} {
		go func() { s, _, _ := get(t, url+path); statuses <- s }()
	}
	<-entered
	<-entered
	go func() { s, _, _ := get(t, url+"/c"); statuses <- s }()
	eventually(t, "the third request waits", func() bool { return testutil.ToFloat64(adm.waiting) == 1 })

	if s, _, _ := get(t, url+"/health"); s != http.StatusOK {
		t.Errorf("GET /health while full = %d", s)
	}
	if p := <-entered; p != "/health" {
		t.Fatalf("%s ran past the limit", p)
	}
	if got := testutil.ToFloat64(adm.active); got != 2 {
		t.Errorf("active = %v, want 2", got)
	}
	release <- struct{}{} // /a or /b ends
	if p := <-entered; p != "/c" {
		t.Fatalf("entered %s, want /c", p)
	}
	close(release)
	for range 3 {
		if s := <-statuses; s != http.StatusOK {
			t.Errorf("status %d", s)
		}
	}
	eventually(t, "every slot is free", func() bool {
		return testutil.ToFloat64(adm.active) == 0 && testutil.ToFloat64(adm.waiting) == 0 && len(adm.slots) == 0
	})
}

// TestAdmissionRefusesAfterMaxWait: a request that waits longer than the
// queue timeout is 503 in the error envelope, with Retry-After, and leaves
// its slot to the next one.
func TestAdmissionRefusesAfterMaxWait(t *testing.T) {
	adm, url, entered, release := heldServer(t, 1, 10*time.Millisecond)
	done := make(chan int)
	go func() { s, _, _ := get(t, url+"/a"); done <- s }()
	<-entered

	status, header, body := get(t, url+"/b")
	if status != http.StatusServiceUnavailable || header.Get("Retry-After") != "1" {
		t.Fatalf("a request past the wait = %d (Retry-After %q), want 503 with Retry-After: 1", status, header.Get("Retry-After"))
	}
	var envelope struct {
		Error struct{ Code, Type, Message string } `json:"error"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil || envelope.Error.Code != "HE_00" {
		t.Errorf("body %s is not the error envelope with HE_00: %v", body, err)
	}
	close(release)
	if s := <-done; s != http.StatusOK {
		t.Errorf("the admitted request = %d", s)
	}
	if s, _, _ := get(t, url+"/c"); s != http.StatusOK { // no slot leaked
		t.Errorf("GET /c = %d", s)
	}
	if p := <-entered; p != "/c" {
		t.Errorf("entered %s, want /c", p)
	}
	if got := testutil.ToFloat64(adm.waiting); got != 0 {
		t.Errorf("waiting = %v after the refusal", got)
	}
}
