package httperr

import (
	"errors"
	"net/http"
	"testing"

	"switchyard/payments/errs"
)

// Every kind has its own status, so no two kinds answer alike by accident.
func TestEveryKindHasAStatus(t *testing.T) {
	seen := map[int]errs.Kind{}
	for k := errs.KindInvalid; k <= errs.KindTooManyRequests; k++ {
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
