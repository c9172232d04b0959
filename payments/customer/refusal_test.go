package customer

import (
	"errors"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// refusal is what a table test checks of a refused input: the failure
// (errors.Is), the member at fault and, where those do not tell two rules
// apart, words of the message. A nil *refusal wants no error.
type refusal struct {
	failure *errs.Failure
	field   string
	words   string
}

// invalid is a refusal of the value of field.
func invalid(field string, words ...string) *refusal {
	return &refusal{errs.ErrInvalidValue, field, strings.Join(words, " ")}
}

// missing is the refusal of a required member the request left out.
func missing(field string) *refusal { return &refusal{errs.ErrMissingField, field, ""} }

// precondition is the refusal of a request whose other members, or the
// resource's state, do not allow field's value.
func precondition(field string, words ...string) *refusal {
	return &refusal{errs.ErrPreconditionFailed, field, strings.Join(words, " ")}
}

// unreadable is the refusal of a body that cannot be read as the request
// (Hyperswitch refuses a card number while it reads the body).
func unreadable(field string, words ...string) *refusal {
	return &refusal{errs.ErrInvalidRequest, field, strings.Join(words, " ")}
}

// mandateInvalid is the refusal of a mandate the payment cannot use.
func mandateInvalid(field string, words ...string) *refusal {
	return &refusal{errs.ErrMandateInvalid, field, strings.Join(words, " ")}
}

// checkRefusal fails t unless err is the refusal want (or nil when want is).
func checkRefusal(t *testing.T, err error, want *refusal) {
	t.Helper()
	e, ok := errs.As(err)
	switch {
	case want == nil && err != nil:
		t.Fatalf("refused: %v", err)
	case want == nil:
	case err == nil:
		t.Fatalf("accepted; want %s refused", want.field)
	case !ok:
		t.Fatalf("%v is not a domain error", err)
	case !errors.Is(err, want.failure):
		t.Fatalf("refused %s: %v; want %s", e.Field, err, want.failure)
	case e.Kind != errs.KindInvalid || e.Field != want.field:
		t.Fatalf("refused %s (%s): %v; want %s", e.Field, e.Kind, err, want.field)
	case !strings.Contains(err.Error(), want.words):
		t.Fatalf("refused with %q; want it to say %q", err, want.words)
	}
}

func ptr[T any](v T) *T { return &v }
