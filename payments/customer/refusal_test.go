package customer

import (
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// refusal is what a table test checks of a refused input: the kind of
// error, the member at fault and, where the member alone does not tell
// two rules apart, words of the message. A nil *refusal wants no error.
type refusal struct {
	kind  errs.Kind
	field string
	words string
}

// invalid is a refusal of the request's value of field (KindInvalid).
func invalid(field string, words ...string) *refusal {
	return &refusal{kind: errs.KindInvalid, field: field, words: strings.Join(words, " ")}
}

// checkRefusal fails t unless err is the refusal want (or nil when want is).
func checkRefusal(t *testing.T, err error, want *refusal) {
	t.Helper()
	if want == nil {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	e, ok := errs.As(err)
	switch {
	case err == nil:
		t.Fatalf("accepted; want %s refused", want.field)
	case !ok:
		t.Fatalf("%v is not a domain error", err)
	case e.Kind != want.kind || e.Field != want.field:
		t.Fatalf("refused %s (%s): %v; want %s (%s)", e.Field, e.Kind, err, want.field, want.kind)
	case !strings.Contains(err.Error(), want.words):
		t.Fatalf("refused with %q; want it to say %q", err, want.words)
	}
}

func ptr[T any](v T) *T { return &v }

// missing is the refusal of a required member the request left out.
func missing(field string) *refusal { return invalid(field, "Missing required param") }
