package httperr

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"switchyard/payments/errs"
)

// Every kind has its own status, so no two kinds answer alike by accident.
func TestEveryKindHasAStatus(t *testing.T) {
	seen := map[int]errs.Kind{}
	for k := errs.KindInvalid; k <= errs.KindBlocked; k++ {
		s, ok := statuses[k]
		if !ok {
			t.Fatalf("kind %s has no status", k)
		}
		if other, dup := seen[s]; dup {
			t.Errorf("kinds %s and %s share status %d", k, other, s)
		}
		seen[s] = k
		if KindOf(s) != k {
			t.Errorf("KindOf(%d) = %s, want %s", s, KindOf(s), k)
		}
		if back, ok := errs.KindNamed(k.String()); !ok || back != k {
			t.Errorf("KindNamed(%q) = %v, %v", k.String(), back, ok)
		}
	}
}

func TestOf(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		code   string
	}{
		{errs.NotFound("Payment"), http.StatusNotFound, "HE_02"},
		{errs.MissingField("amount"), http.StatusBadRequest, "IR_04"},
		{errs.IdempotencyMismatch(), http.StatusUnprocessableEntity, "IR_06"},
		{errs.IdempotencyInFlight(), http.StatusConflict, "IR_16"},
		{errs.BodyTooLarge(10), http.StatusRequestEntityTooLarge, "IR_06"},
		{errs.Unavailable("Redis"), http.StatusServiceUnavailable, "HE_00"},
		{errors.New("boom"), http.StatusInternalServerError, "HE_00"},
	} {
		e, status := Of(c.err)
		if status != c.status || e.Code != c.code {
			t.Errorf("Of(%v) = %s %d, want %s %d", c.err, e.Code, status, c.code, c.status)
		}
	}
}

// TestClientGone: only a cancelled request whose error is the cancellation
// is the client's going away; a deadline, another failure, or a
// cancellation error on a live request is the server's.
func TestClientGone(t *testing.T) {
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	late, stop := context.WithTimeout(context.Background(), 0)
	defer stop()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		want bool
	}{
		{"cancelled request, cancelled call", gone, errs.Internal(context.Canceled), true},
		{"cancelled request, other failure", gone, errs.Internal(errors.New("disk full")), false},
		{"live request, cancelled call", context.Background(), errs.Internal(context.Canceled), false},
		{"deadline", late, errs.Internal(context.DeadlineExceeded), false},
	} {
		if got := ClientGone(tc.ctx, tc.err); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
