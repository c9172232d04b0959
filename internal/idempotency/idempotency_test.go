package idempotency_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/redisconn"
	"switchyard/internal/secrets"
	"switchyard/internal/testenv"
)

func store(t *testing.T) (*idempotency.Store, *redisconn.Conn) { //nolint:unparam
	t.Helper()
	conn, err := redisconn.Open(context.Background(), testenv.RedisURL(t), redisconn.Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return idempotency.New(conn.Client, testBox(t)), conn
}

func TestReplayMismatchAndInFlight(t *testing.T) {
	s, _ := store(t)
	ctx := context.Background()
	scope, key := "merchant_"+ids.Base62(8), "key-1"
	fp := s.Fingerprint("POST /payments", []byte(`{"amount":100}`))

	lease, replay, err := s.Begin(ctx, scope, key, fp)
	if err != nil || lease == nil || replay != nil {
		t.Fatalf("first begin: %v %v %v", lease, replay, err)
	}
	if _, _, err := s.Begin(ctx, scope, key, fp); !errors.Is(err, idempotency.ErrInFlight) {
		t.Fatalf("while in flight: %v", err)
	}
	other := s.Fingerprint("POST /payments", []byte(`{"amount":200}`))
	if _, _, err := s.Begin(ctx, scope, key, other); !errors.Is(err, idempotency.ErrMismatch) {
		t.Fatalf("other payload: %v", err)
	}
	ok, err := lease.Complete(ctx, idempotency.Response{Status: 200, Body: []byte(`{"id":"pay_1"}`)})
	if err != nil || !ok {
		t.Fatalf("complete: %v %v", ok, err)
	}
	_, replay, err = s.Begin(ctx, scope, key, fp)
	if err != nil || replay == nil || replay.Status != 200 || string(replay.Body) != `{"id":"pay_1"}` {
		t.Fatalf("replay: %+v %v", replay, err)
	}
	if _, _, err := s.Begin(ctx, scope, key, other); !errors.Is(err, idempotency.ErrMismatch) {
		t.Fatalf("other payload after completion: %v", err)
	}
	// Another merchant's identical key is a different record.
	if l, r, err := s.Begin(ctx, scope+"_other", key, fp); err != nil || l == nil || r != nil {
		t.Fatalf("other scope: %v %v %v", l, r, err)
	}
}

func TestReleaseLetsARetryRun(t *testing.T) {
	s, _ := store(t)
	ctx := context.Background()
	scope := "merchant_" + ids.Base62(8)
	lease, _, err := s.Begin(ctx, scope, "k", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if l, _, err := s.Begin(ctx, scope, "k", "fp"); err != nil || l == nil {
		t.Fatalf("after release: %v %v", l, err)
	}
}

// TestExpiredLeaseCannotOverwrite: a request whose lock expired and whose
// key was taken by a retry must not store its response over the retry's.
func TestExpiredLeaseCannotOverwrite(t *testing.T) {
	s, _ := store(t)
	s = s.WithTTLs(300*time.Millisecond, time.Minute)
	ctx := context.Background()
	scope := "merchant_" + ids.Base62(8)
	slow, _, err := s.Begin(ctx, scope, "k", "fp")
	if err != nil {
		t.Fatal(err)
	}
	var fresh *idempotency.Lease
	deadline := time.Now().Add(5 * time.Second)
	for fresh == nil {
		fresh, _, err = s.Begin(ctx, scope, "k", "fp")
		if err != nil && !errors.Is(err, idempotency.ErrInFlight) {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("lock never expired")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if ok, err := slow.Complete(ctx, idempotency.Response{Status: 200, Body: []byte("slow")}); err != nil || ok {
		t.Fatalf("expired lease completed: %v %v", ok, err)
	}
	if ok, _ := fresh.Complete(ctx, idempotency.Response{Status: 200, Body: []byte("fresh")}); !ok {
		t.Fatal("fresh lease could not complete")
	}
	_, replay, _ := s.Begin(ctx, scope, "k", "fp")
	if replay == nil || string(replay.Body) != "fresh" {
		t.Fatalf("replay %+v", replay)
	}
}

// TestConcurrentBeginsTakeOneLease: of 100 simultaneous requests with one
// key, exactly one runs.
func TestConcurrentBeginsTakeOneLease(t *testing.T) {
	s, _ := store(t)
	scope := "merchant_" + ids.Base62(8)
	var leases, inflight atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l, _, err := s.Begin(context.Background(), scope, "same", "fp")
			switch {
			case err == nil && l != nil:
				leases.Add(1)
			case errors.Is(err, idempotency.ErrInFlight):
				inflight.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if leases.Load() != 1 || inflight.Load() != 99 {
		t.Fatalf("leases %d, in flight %d", leases.Load(), inflight.Load())
	}
}

func TestKeyValidationAndRedisDown(t *testing.T) {
	s, _ := store(t)
	ctx := context.Background()
	for _, k := range []string{"", "has space", string(make([]byte, 256)), "naïve"} {
		if _, _, err := s.Begin(ctx, "m", k, "fp"); !errors.Is(err, idempotency.ErrInvalidKey) {
			t.Errorf("key %q: %v", k, err)
		}
	}
	// A Redis that is gone is ErrUnavailable, never a lease.
	dead, err := redisconn.Open(ctx, "", redisconn.Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	dead.Close()
	if _, _, err := idempotency.New(dead.Client, testBox(t)).Begin(ctx, "m", "k", "fp"); !errors.Is(err, idempotency.ErrUnavailable) {
		t.Fatalf("redis down: %v", err)
	}
}

func testBox(t *testing.T) *secrets.Box {
	t.Helper()
	box, err := secrets.NewBox(bytes.Repeat([]byte{3}, secrets.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	return box
}

// TestFingerprintIsKeyedAndHidesCards: a fingerprint is a keyed hash (the
// same request under another master key differs, and it is no plain
// SHA-256 of the body), over the body with card numbers and CVCs replaced:
// requests that differ only there still differ, and requests that differ
// only in member order do not.
func TestFingerprintIsKeyedAndHidesCards(t *testing.T) {
	body := []byte(`{"amount":100,"payment_method_data":{"card":{"card_number":"4242424242424242","card_cvc":"123"}}}`)
	s := idempotency.New(nil, testBox(t))
	fp := s.Fingerprint("POST /payments", body)
	other, _ := secrets.NewBox(bytes.Repeat([]byte{4}, secrets.KeySize))
	for _, unkeyed := range []string{hexSHA(body), hexSHA(append([]byte("POST /payments\x00"), body...))} {
		if fp == unkeyed {
			t.Fatal("the fingerprint is an unkeyed SHA-256")
		}
	}
	if fp == idempotency.New(nil, other).Fingerprint("POST /payments", body) {
		t.Error("the fingerprint does not depend on the key")
	}
	for _, tc := range []struct {
		name string
		body string
		same bool
	}{
		{"members reordered", `{"payment_method_data":{"card":{"card_cvc":"123","card_number":"4242424242424242"}},"amount":100}`, true},
		{"another card", `{"amount":100,"payment_method_data":{"card":{"card_number":"5555555555554444","card_cvc":"123"}}}`, false},
		{"another CVC", `{"amount":100,"payment_method_data":{"card":{"card_number":"4242424242424242","card_cvc":"124"}}}`, false},
		{"another amount", `{"amount":101,"payment_method_data":{"card":{"card_number":"4242424242424242","card_cvc":"123"}}}`, false},
	} {
		if got := s.Fingerprint("POST /payments", []byte(tc.body)) == fp; got != tc.same {
			t.Errorf("%s: same fingerprint %v, want %v", tc.name, got, tc.same)
		}
	}
}

func hexSHA(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

type prefetchedKey struct{}

// TestPrefetchRidesOnTheLease: a lease taken for a merchant also runs the
// store's prefetched reads, in one pipeline, and hands their answers to
// the operation's context; a missing answer leaves the context alone, and
// a replay or a refusal prefetches nothing into any context.
func TestPrefetchRidesOnTheLease(t *testing.T) {
	base, conn := store(t)
	ctx := context.Background()
	merchant := "merchant_" + ids.Base62(8)
	if err := conn.Client.Set(ctx, "prefetch-test:"+merchant, "v7", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	var asked []string
	s := base.WithPrefetch(func(ctx context.Context, p redis.Pipeliner, merchantID string) func(context.Context) context.Context {
		asked = append(asked, merchantID)
		cmd := p.Get(ctx, "prefetch-test:"+merchantID)
		return func(ctx context.Context) context.Context {
			if v, err := cmd.Result(); err == nil {
				return context.WithValue(ctx, prefetchedKey{}, v)
			}
			return ctx
		}
	})
	fp := s.Fingerprint("POST /payments", []byte(`{"amount":100}`))
	lease, _, err := s.BeginFor(ctx, merchant, merchant, "key-1", fp)
	if err != nil || lease == nil {
		t.Fatalf("begin: %v %v", lease, err)
	}
	if got := lease.Context(ctx).Value(prefetchedKey{}); got != "v7" {
		t.Fatalf("prefetched %v, want v7", got)
	}
	// No answer (a merchant without the key): the context is as it was.
	lease2, _, err := s.BeginFor(ctx, merchant+"_none", merchant+"_none", "key-1", fp)
	if err != nil || lease2.Context(ctx).Value(prefetchedKey{}) != nil {
		t.Fatalf("a missing answer: %v %v", lease2, err)
	}
	// In flight: refused, whatever was prefetched.
	if _, _, err := s.BeginFor(ctx, merchant, merchant, "key-1", fp); !errors.Is(err, idempotency.ErrInFlight) {
		t.Fatalf("in flight: %v", err)
	}
	// Without a merchant (the admin key), or with Begin, nothing is prefetched.
	n := len(asked)
	// The admin scope is one for every run on a shared Redis: a key of
	// this run's own, or an earlier run's lease is still in flight.
	if l, _, err := s.BeginFor(ctx, "", "admin", "key-2-"+ids.Base62(8), fp); err != nil || l.Context(ctx) != ctx {
		t.Fatalf("admin: %v", err)
	}
	if l, _, err := s.Begin(ctx, merchant, "key-3", fp); err != nil || l.Context(ctx) != ctx {
		t.Fatalf("begin: %v", err)
	}
	if len(asked) != n {
		t.Fatalf("prefetched for %v after the merchant's", asked[n:])
	}
}

// TestReplayGivesTheBytesOfTheFirstAnswer: a JSON body is kept as it is
// (not base64), and its replay is byte for byte the first answer, whatever
// json.Marshal would have changed in it (spaces, <, >, &); other bodies, and
// records written in base64 before, replay too.
func TestReplayGivesTheBytesOfTheFirstAnswer(t *testing.T) {
	s, conn := store(t)
	ctx := context.Background()
	scope := "merchant_" + ids.Base62(8)
	for i, tc := range []struct {
		body     string
		keptAsIs bool
	}{
		{`{"id":"pay_1","description":"<b>a & b</b>", "n": [1, 2.50]}`, true},
		{`{"error":{"type":"invalid_request","message":"\u00e9"}}` + "\n", true},
		{`[1]` + " \n", true},
		{` {"a":1}`, false},
		{`"a string"`, false},
		{`not json`, false},
		{``, false},
	} {
		key := "key-" + ids.Base62(6)
		fp := s.Fingerprint("POST /payments", []byte(`{"i":`+string(rune('0'+i))+`}`))
		lease, _, err := s.Begin(ctx, scope, key, fp)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := lease.Complete(ctx, idempotency.Response{Status: 200, Header: map[string]string{"X-A": "b"}, Body: []byte(tc.body)}); err != nil || !ok {
			t.Fatalf("complete: %v %v", ok, err)
		}
		kept, err := conn.Client.Get(ctx, "idem:{"+scope+":"+key+"}").Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(kept, []byte(`"json":`+strings.TrimRight(tc.body, " \n"))); got != tc.keptAsIs {
			t.Errorf("%q kept as is: %v, want %v (record %s)", tc.body, got, tc.keptAsIs, kept)
		}
		_, replay, err := s.Begin(ctx, scope, key, fp)
		if err != nil || replay == nil || replay.Status != 200 || string(replay.Body) != tc.body || replay.Header["X-A"] != "b" {
			t.Fatalf("replay of %q: %+v %v", tc.body, replay, err)
		}
	}
	// A record written before bodies were kept as JSON.
	key := "key-" + ids.Base62(6)
	fp := s.Fingerprint("POST /payments", []byte(`{"old":true}`))
	old := `{"state":"done","fingerprint":"` + fp + `","token":"t","response":{"status":201,"body":"eyJpZCI6InBheV8yIn0="}}`
	if err := conn.Client.Set(ctx, "idem:{"+scope+":"+key+"}", old, time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	if _, replay, err := s.Begin(ctx, scope, key, fp); err != nil || replay == nil || replay.Status != 201 || string(replay.Body) != `{"id":"pay_2"}` {
		t.Fatalf("replay of a base64 record: %+v %v", replay, err)
	}
}
