package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"

	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// idem sends a payment call with an Idempotency-Key.
func (c *client) idem(method, path, key string, body any) response {
	c.t.Helper()
	return c.doWith(method, path, c.merchantKey(), body, map[string]string{"Idempotency-Key": key})
}

// runKey makes an Idempotency-Key unique to this run: the test Redis is
// shared across runs (and keeps keys 24 h), and every run's demo merchant
// has the same id.
func runKey(name string) string { return name + "-" + ids.Base62(10) }

// TestIdempotencyKeys: replay, mismatch, in flight, scoping and validation
// of the Idempotency-Key header on mutating calls.
func TestIdempotencyKeys(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
	key, badKey, capKey := runKey("order-1001"), runKey("order-bad"), runKey("cap-1")

	before := countPayments(t, c)
	first := c.idem("POST", "/payments", key, body).must(t, 200)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the first call is marked replayed")
	}
	again := c.idem("POST", "/payments", key, body).must(t, 200)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Raw) != string(first.Raw) {
		t.Fatalf("replay: %q\n%s\nwant\n%s", again.Header.Get("Idempotent-Replayed"), again.Raw, first.Raw)
	}
	if n := countPayments(t, c) - before; n != 1 {
		t.Fatalf("%d payments for one key", n)
	}

	// The same key with another body, method or path: 422, and nothing runs.
	other := payment(map[string]any{"amount": 999, "confirm": true, "payment_method_data": card("4242424242424242")})
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/payments", other},
		{"POST", "/payments/" + first.str("payment_id") + "/cancel", body},
	} {
		r := c.idem(tc.method, tc.path, key, tc.body)
		if r.Status != 422 || r.errCode() != "IR_06" || !strings.Contains(r.str("error", "message"), "Idempotency-Key") {
			t.Fatalf("%s %s with a used key: %d %s", tc.method, tc.path, r.Status, r.Raw)
		}
	}
	if n := countPayments(t, c) - before; n != 1 {
		t.Fatalf("a mismatched request created a payment")
	}

	// Error answers are kept and replayed too.
	bad := payment(map[string]any{"currency": "XXX"})
	e1 := c.idem("POST", "/payments", badKey, bad)
	e2 := c.idem("POST", "/payments", badKey, bad)
	if e1.Status != 400 || e2.Status != 400 || string(e1.Raw) != string(e2.Raw) || e2.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("error replay: %d %s / %d %s", e1.Status, e1.Raw, e2.Status, e2.Raw)
	}

	// Keys are the merchant's: another merchant's same key is its own.
	b := makeMerchant(t, c, "merchant_idem_b")
	rb := c.doWith("POST", "/payments", b.key, body, map[string]string{"Idempotency-Key": key}).must(t, 200)
	if rb.Header.Get("Idempotent-Replayed") != "" || rb.str("payment_id") == first.str("payment_id") || rb.str("merchant_id") != b.id {
		t.Fatalf("another merchant's key replayed: %s", rb.Raw)
	}

	// Every mutating route takes a key (capture here), and reads ignore it.
	mid := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	cap1 := c.idem("POST", "/payments/"+mid+"/capture", capKey, map[string]any{"amount_to_capture": 100}).must(t, 200)
	cap2 := c.idem("POST", "/payments/"+mid+"/capture", capKey, map[string]any{"amount_to_capture": 100}).must(t, 200)
	if cap2.Header.Get("Idempotent-Replayed") != "true" || len(cap2.list("captures")) != 1 || string(cap1.Raw) != string(cap2.Raw) {
		t.Fatalf("capture replay: %s", cap2.Raw)
	}
	if r := c.idem("GET", "/payments/"+mid, capKey, nil).must(t, 200); r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("a GET was replayed")
	}

	// Malformed keys are 400 naming the header.
	for _, key := range []string{"", strings.Repeat("k", 256), "has space", "ünïcode"} {
		r := c.idem("POST", "/payments", key, body)
		if r.Status != 400 || r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), "Idempotency-Key") {
			t.Errorf("key %q: %d %s", key, r.Status, r.Raw)
		}
	}
}

// TestIdempotencyInFlight: a key whose request is still running is 409;
// once it is released the request runs.
func TestIdempotencyInFlight(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"description": "in flight"})
	raw, _ := json.Marshal(body)
	store := idempotency.New(c.srv.Redis.Client, c.srv.Box)
	key := runKey("slow-1")
	// Another request (here, the test) holds the key for the same call.
	lease, _, err := store.Begin(context.Background(), c.srv.Demo.MerchantID, key,
		store.Fingerprint("POST /payments", raw))
	if err != nil {
		t.Fatal(err)
	}
	before := countPayments(t, c)
	r := c.idem("POST", "/payments", key, raw)
	if r.Status != 409 || r.errCode() != "IR_16" || !strings.Contains(r.str("error", "message"), "still being processed") {
		t.Fatalf("in flight: %d %s", r.Status, r.Raw)
	}
	if countPayments(t, c) != before {
		t.Fatal("an in-flight duplicate created a payment")
	}
	if err := lease.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.idem("POST", "/payments", key, raw).must(t, 200)
	if countPayments(t, c) != before+1 {
		t.Fatal("the released key did not run")
	}
}

// TestIdempotencyConcurrent: 100 concurrent POST /payments with one key and
// body make exactly one payment. The others are replays of it, or 409 while
// it runs.
func TestIdempotencyConcurrent(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242"),
		"customer_id": "cus_concurrent"})
	raw, _ := json.Marshal(body)
	before := countPayments(t, c)
	const n = 100
	race := raceOneKey(t, []string{c.srv.URL}, c.merchantKey(), runKey("concurrent-1"), raw, n)
	if got := countPayments(t, c) - before; got != 1 {
		t.Fatalf("%d payments made by %d requests with one key", got, n)
	}
	race.mustBeOne(t, n)
}

// raceResult is what concurrent requests with one Idempotency-Key answered.
type raceResult struct {
	ids       map[string]int // payment id → the 200 answers naming it
	fresh     int            // 200 answers not marked replayed
	conflicts int            // 409 answers (the first still running)
}

// raceOneKey sends n POST /payments with body raw and Idempotency-Key key
// at once, the i-th to the server at urls[i%len(urls)].
func raceOneKey(t *testing.T, urls []string, apiKey, key string, raw []byte, n int) raceResult {
	t.Helper()
	type answer struct {
		status   int
		replayed bool
		id       string
	}
	answers := make(chan answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest("POST", urls[i%len(urls)]+"/payments", bytes.NewReader(raw))
			req.Header.Set("api-key", apiKey)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var out map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&out)
			id, _ := out["payment_id"].(string)
			answers <- answer{resp.StatusCode, resp.Header.Get("Idempotent-Replayed") == "true", id}
		})
	}
	close(start)
	wg.Wait()
	close(answers)
	r := raceResult{ids: map[string]int{}}
	for a := range answers {
		switch a.status {
		case 200:
			r.ids[a.id]++
			if !a.replayed {
				r.fresh++
			}
		case 409:
			r.conflicts++
		default:
			t.Errorf("status %d", a.status)
		}
	}
	return r
}

// mustBeOne fails the test unless the answers name one payment, made by
// one request; it logs how the n requests were answered.
func (r raceResult) mustBeOne(t *testing.T, n int) {
	t.Helper()
	if len(r.ids) != 1 || r.fresh != 1 {
		t.Fatalf("answers name %d payments, %d not replayed (%d conflicts)", len(r.ids), r.fresh, r.conflicts)
	}
	for id := range maps.Keys(r.ids) {
		t.Logf("%d requests: 1 ran, %d replayed it, %d in flight (409)", n, r.ids[id]-1, r.conflicts)
	}
}

// TestDuplicatePaymentID: a merchant-supplied payment_id is unique per
// merchant (HE_01), and another merchant may use the same one.
func TestDuplicatePaymentID(t *testing.T) {
	c := newClient(t)
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "order_2024_0001"})).must(t, 200)
	r := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "order_2024_0001", "amount": 5}))
	if r.Status != 400 || r.errCode() != "HE_01" || !strings.Contains(r.str("error", "message"), "payment_id") {
		t.Fatalf("duplicate payment_id: %d %s", r.Status, r.Raw)
	}
	b := makeMerchant(t, c, "merchant_dup_b")
	c.do("POST", "/payments", b.key, payment(map[string]any{"payment_id": "order_2024_0001"})).must(t, 200)
	// Concurrent creates with one id: one wins, the others are HE_01.
	var wg sync.WaitGroup
	codes := make(chan string, 10)
	for range 10 {
		wg.Go(func() {
			r := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"payment_id": "order_race"}))
			if r.Status == 200 {
				codes <- "ok"
			} else {
				codes <- r.errCode()
			}
		})
	}
	wg.Wait()
	close(codes)
	ok := 0
	for code := range codes {
		switch code {
		case "ok":
			ok++
		case "HE_01":
		default:
			t.Errorf("concurrent duplicate: %s", code)
		}
	}
	if ok != 1 {
		t.Fatalf("%d creates of one payment_id succeeded", ok)
	}
}

// TestIdempotencyRedisDown: with the key store down, a call that carries an
// Idempotency-Key is 503 in the error envelope and changes nothing; calls
// without one that need no Redis still work.
func TestIdempotencyRedisDown(t *testing.T) {
	redis := testenv.StartRedis(t)
	c := newClientOnRedis(t, redis)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
	c.idem("POST", "/payments", "before-the-fault", body).must(t, 200)
	authorized := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")})).must(t, 200)

	redis.Stop()
	before := countPayments(t, c)
	for _, key := range []string{"after-the-fault", "before-the-fault"} {
		r := c.idem("POST", "/payments", key, body)
		if r.Status != 503 || r.errCode() != "HE_00" || r.str("error", "type") != "api" {
			t.Fatalf("with Redis down, key %s: %d %s", key, r.Status, r.Raw)
		}
	}
	r := c.idem("POST", "/payments/"+authorized.str("payment_id")+"/capture", "cap-down", nil)
	if r.Status != 503 {
		t.Fatalf("capture with Redis down: %d %s", r.Status, r.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("%d payments created with Redis down", n-before)
	}
	if got := c.pay("GET", "/payments/"+authorized.str("payment_id"), nil).must(t, 200); got.str("status") != "requires_capture" {
		t.Fatalf("the refused capture ran: %s", got.Raw)
	}
	// A card without confirm must wait in the vault (Redis): refused, nothing written.
	if r := c.pay("POST", "/payments", payment(map[string]any{"payment_method_data": card("4242424242424242")})); r.Status != 503 {
		t.Fatalf("vaulting with Redis down: %d %s", r.Status, r.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("a payment was written although its card could not be vaulted")
	}
	// Without a key, calls that need no Redis work.
	c.pay("POST", "/payments", body).must(t, 200)
	c.pay("POST", "/payments/"+authorized.str("payment_id")+"/capture", nil).must(t, 200)
	c.pay("GET", "/payments/"+authorized.str("payment_id"), nil).must(t, 200)
}

// TestIdempotencyKeyGivenTwice: two Idempotency-Key headers on one request
// are refused; neither is guessed at, and nothing is created.
func TestIdempotencyKeyGivenTwice(t *testing.T) {
	c := newClient(t)
	before := countPayments(t, c)
	body, _ := json.Marshal(payment(nil))
	req, err := http.NewRequest("POST", c.srv.URL+"/payments", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", c.merchantKey())
	req.Header.Add("Idempotency-Key", runKey("twice-a"))
	req.Header.Add("Idempotency-Key", runKey("twice-b"))
	r := c.send(req).must(t, 400)
	if r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), "Idempotency-Key") {
		t.Fatalf("got %s", r.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("%d payments after the refusal, %d before", n, before)
	}
}
