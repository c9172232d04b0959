package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// TestServerErrorsAreLogged: every error GraphQL answers that REST would
// answer with a 5xx is logged at error level with its code and cause (an
// internal domain error, the key store down, an error of no domain kind);
// a client's mistake is not. The request id each line carries is the
// process's logger's work (TestLogLinesAreJSON runs it).
func TestServerErrorsAreLogged(t *testing.T) {
	var buf bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	for _, tc := range []struct {
		name   string
		err    error
		logged bool
	}{
		{"internal", errs.Internal(errors.New("ent: validator failed for field")), true},
		{"unavailable", errs.Unavailable("the Idempotency-Key store (Redis)"), true},
		{"no domain kind", errors.New("resolver bug"), true},
		{"invalid value", errs.InvalidValue("business_label", "must be at most 64 characters"), false},
		{"not found", errs.NotFound("Payment"), false},
	} {
		buf.Reset()
		presentError(context.Background(), tc.err)
		var rec map[string]any
		if line := strings.TrimSpace(buf.String()); line != "" {
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("%s: %q", tc.name, line)
			}
		}
		if got := rec != nil; got != tc.logged {
			t.Errorf("%s: logged %v, want %v: %v", tc.name, got, tc.logged, rec)
			continue
		}
		if tc.logged && (rec["level"] != "ERROR" || rec["code"] != "HE_00" || !strings.Contains(rec["err"].(string), tc.err.Error())) {
			t.Errorf("%s: %v", tc.name, rec)
		}
	}
}
