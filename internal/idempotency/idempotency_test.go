package idempotency_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/redisconn"
	"switchyard/internal/testenv"
)

func store(t *testing.T) (*idempotency.Store, *redisconn.Conn) { //nolint:unparam
	t.Helper()
	conn, err := redisconn.Open(context.Background(), testenv.RedisURL(t), redisconn.Embedded{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return idempotency.New(conn.Client), conn
}

func TestReplayMismatchAndInFlight(t *testing.T) {
	s, _ := store(t)
	ctx := context.Background()
	scope, key := "merchant_"+ids.Base62(8), "key-1"
	fp := idempotency.Fingerprint("POST /payments", []byte(`{"amount":100}`))

	lease, replay, err := s.Begin(ctx, scope, key, fp)
	if err != nil || lease == nil || replay != nil {
		t.Fatalf("first begin: %v %v %v", lease, replay, err)
	}
	if _, _, err := s.Begin(ctx, scope, key, fp); !errors.Is(err, idempotency.ErrInFlight) {
		t.Fatalf("while in flight: %v", err)
	}
	other := idempotency.Fingerprint("POST /payments", []byte(`{"amount":200}`))
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
	if _, _, err := idempotency.New(dead.Client).Begin(ctx, "m", "k", "fp"); !errors.Is(err, idempotency.ErrUnavailable) {
		t.Fatalf("redis down: %v", err)
	}
}
