package idempotency_test

import (
	"context"
	"errors"
	"testing"

	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// TestScope: one scope rule for both front doors.
func TestScope(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    tenancy.Principal
		want string
	}{
		{"platform admin", tenancy.Principal{}, "admin"},
		{"secret key", tenancy.Principal{MerchantID: "m1"}, "m1"},
		{"dashboard session", tenancy.Principal{MerchantID: "m1", UserID: "usr_1"}, "m1"},
		{"publishable key", tenancy.Principal{MerchantID: "m1", ClientOnly: true}, "client:m1"},
	} {
		if got := idempotency.Scope(tc.p); got != tc.want {
			t.Errorf("%s: Scope = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRun: the runner's answers, one case per rule of its comment.
func TestRun(t *testing.T) {
	s, _ := store(t)
	ctx := context.Background()
	p := tenancy.Principal{MerchantID: "merchant_" + ids.Base62(8)}
	fp := s.Fingerprint("POST /refunds", []byte(`{"amount":100}`))
	calls := 0
	answer := func(status int) func(context.Context) idempotency.Response {
		return func(context.Context) idempotency.Response {
			calls++
			return idempotency.Response{Status: status, Body: []byte(`{"n":1}`)}
		}
	}

	// A new key runs the operation; the same key replays it without running.
	if r, replayed, err := s.Run(ctx, p, "k-ok", fp, answer(200)); err != nil || replayed || r.Status != 200 || calls != 1 {
		t.Fatalf("first run: %+v %v %v, %d calls", r, replayed, err, calls)
	}
	if r, replayed, err := s.Run(ctx, p, "k-ok", fp, answer(200)); err != nil || !replayed || string(r.Body) != `{"n":1}` || calls != 1 {
		t.Fatalf("replay: %+v %v %v, %d calls", r, replayed, err, calls)
	}
	// A client error is kept too.
	s.Run(ctx, p, "k-400", fp, answer(400))
	if r, replayed, _ := s.Run(ctx, p, "k-400", fp, answer(200)); !replayed || r.Status != 400 || calls != 2 {
		t.Fatalf("a 400 is replayed: %+v %v, %d calls", r, replayed, calls)
	}
	// Another request under a used key is refused.
	other := s.Fingerprint("POST /refunds", []byte(`{"amount":200}`))
	if _, _, err := s.Run(ctx, p, "k-ok", other, answer(200)); !errors.Is(err, idempotency.ErrMismatch) || calls != 2 {
		t.Fatalf("mismatch: %v, %d calls", err, calls)
	}
	// The same key is another key for another scope.
	if _, replayed, err := s.Run(ctx, tenancy.Principal{MerchantID: p.MerchantID, ClientOnly: true}, "k-ok", other, answer(200)); err != nil || replayed || calls != 3 {
		t.Fatalf("publishable scope: %v %v, %d calls", replayed, err, calls)
	}
	// A server error gives the key back: the retry runs.
	s.Run(ctx, p, "k-500", fp, answer(503))
	if _, replayed, err := s.Run(ctx, p, "k-500", fp, answer(200)); err != nil || replayed || calls != 5 {
		t.Fatalf("after a 503: %v %v, %d calls", replayed, err, calls)
	}
	// So does a panic.
	func() {
		defer func() { _ = recover() }()
		s.Run(ctx, p, "k-panic", fp, func(context.Context) idempotency.Response { panic("boom") })
	}()
	if _, replayed, err := s.Run(ctx, p, "k-panic", fp, answer(200)); err != nil || replayed || calls != 6 {
		t.Fatalf("after a panic: %v %v, %d calls", replayed, err, calls)
	}
	// While one runs, another with the key is refused.
	s.Run(ctx, p, "k-busy", fp, func(ctx context.Context) idempotency.Response {
		if _, _, err := s.Run(ctx, p, "k-busy", fp, answer(200)); !errors.Is(err, idempotency.ErrInFlight) {
			t.Errorf("in flight: %v", err)
		}
		return idempotency.Response{Status: 200}
	})
	// A malformed key, and no store, never run the operation.
	if _, _, err := s.Run(ctx, p, "", fp, answer(200)); !errors.Is(err, idempotency.ErrInvalidKey) {
		t.Fatalf("empty key: %v", err)
	}
	var none *idempotency.Store
	if _, _, err := none.Run(ctx, p, "k", fp, answer(200)); !errors.Is(err, idempotency.ErrUnavailable) || calls != 6 {
		t.Fatalf("no store: %v, %d calls", err, calls)
	}
}

// TestRefusal: each refusal is the domain error the doors answer, naming
// the key as the client sent it.
func TestRefusal(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code string
		kind errs.Kind
	}{
		{idempotency.ErrMismatch, "IR_06", errs.KindUnprocessable},
		{idempotency.ErrInFlight, "IR_16", errs.KindConflict},
		{idempotency.ErrInvalidKey, "IR_07", errs.KindInvalid},
		{idempotency.ErrUnavailable, "HE_00", errs.KindUnavailable},
	} {
		var e *errs.Error
		if !errors.As(idempotency.Refusal(tc.err, "idempotencyKey"), &e) || e.Code != tc.code || e.Kind != tc.kind {
			t.Errorf("%v: %+v, want %s", tc.err, e, tc.code)
		}
		if tc.code != "HE_00" && e.Field != "idempotencyKey" {
			t.Errorf("%v: field %q", tc.err, e.Field)
		}
	}
}
