package errs_test

import (
	"errors"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"

	"switchyard/internal/httperr"
	"switchyard/payments/errs"
)

// shown is how Hyperswitch shows a variant: its code, type and status.
type shown struct {
	code, typ string
	status    int
}

// hyperswitchCatalogue reads the "## Codes" table of Hyperswitch's error
// catalogue: variant → shown. A status that is not a number ("connector
// status") reads as 0.
func hyperswitchCatalogue(t *testing.T) map[string]shown {
	t.Helper()
	b, err := os.ReadFile("testdata/hyperswitch_errors.md")
	if err != nil {
		t.Fatal(err)
	}
	_, codes, ok := strings.Cut(string(b), "\n## Codes\n")
	if !ok {
		t.Fatal("the catalogue has no ## Codes section")
	}
	out := map[string]shown{}
	for _, line := range strings.Split(codes, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 6 || !strings.Contains(cells[1], "_") {
			continue
		}
		status, _ := strconv.Atoi(strings.TrimSpace(cells[2]))
		variant := strings.TrimSpace(cells[4])
		if _, dup := out[variant]; dup {
			t.Fatalf("the catalogue has %s twice", variant)
		}
		out[variant] = shown{code: strings.TrimSpace(cells[1]), typ: strings.TrimSpace(cells[3]), status: status}
	}
	if len(out) < 100 {
		t.Fatalf("read %d variants from the catalogue; the table's shape changed", len(out))
	}
	return out
}

// deviations are the failures Switchyard shows with another status (and
// type) than the variant its row names, each with what it shows and why.
// The code is always the variant's.
var deviations = map[*errs.Failure]struct {
	typ    string
	status int
	why    string
}{
	errs.ErrUnavailable:          {"api", http.StatusServiceUnavailable, "a dependency down is 503, so clients retry; Hyperswitch answers 500"},
	errs.ErrInvalidRequest:       {"invalid_request", http.StatusBadRequest, "a body that cannot be read: Hyperswitch's JSON error handler answers IR_06 with 400"},
	errs.ErrBodyTooLarge:         {"invalid_request", http.StatusRequestEntityTooLarge, "Hyperswitch has no body limit error; 413 is the status for one"},
	errs.ErrOverLimit:            {"invalid_request", http.StatusTooManyRequests, "GraphQL's live connections and subscriptions, which Hyperswitch has not; 429 is the status for a bound"},
	errs.ErrIdempotencyInFlight:  {"invalid_request", http.StatusConflict, "the IETF Idempotency-Key draft answers a key in flight with 409"},
	errs.ErrConnectorUnavailable: {"invalid_request", http.StatusServiceUnavailable, "the connector did not answer at all, so there is no connector status to pass on: 503, retry"},
}

// dashboardCodes are the prefixes of the rows outside Hyperswitch's API
// catalogue: its user errors (UR_, crates/router/src/core/errors/user.rs,
// not in the reference) and Switchyard's rate limits (RL_).
var dashboardCodes = []string{"UR_", "RL_"}

// TestEveryFailureIsShownAsHyperswitchShowsIt: each failure of the
// catalogue has a row, and its code, type and HTTP status are those of
// the Hyperswitch variant the row names, but for the deviations above.
func TestEveryFailureIsShownAsHyperswitchShowsIt(t *testing.T) {
	ref := hyperswitchCatalogue(t)
	codes := map[string]bool{}
	for _, s := range ref {
		codes[s.code] = true
	}
	for _, f := range errs.Catalogue() {
		t.Run(f.Error(), func(t *testing.T) {
			variant, ok := errs.VariantOf(f)
			if !ok {
				t.Fatalf("%s has no row in hyperswitch.go", f)
			}
			e := f.New()
			_, status := httperr.Of(e)
			got := shown{e.Code, e.Type, status}
			if variant == "" {
				prefix, _, _ := strings.Cut(e.Code, "_")
				if !strings.Contains(strings.Join(dashboardCodes, " "), prefix+"_") || codes[e.Code] {
					t.Errorf("%s names no Hyperswitch variant but shows %s, an API code", f, e.Code)
				}
				return
			}
			want, ok := ref[variant]
			if !ok {
				t.Fatalf("%s names %s, which Hyperswitch's catalogue has not", f, variant)
			}
			if d, ok := deviations[f]; ok {
				if d.typ == want.typ && d.status == want.status {
					t.Errorf("%s is listed as a deviation but shows what %s does", f, variant)
				}
				want.typ, want.status = d.typ, d.status
			}
			if got != want {
				t.Errorf("%s shows %+v; Hyperswitch's %s is %+v", f, got, variant, want)
			}
			if e.Message == "" {
				t.Errorf("%s has no standard message", f)
			}
		})
	}
}

// TestAnErrorIsItsFailure: errors.Is(err, ErrX) holds for every Error made
// from ErrX, whatever its message, field or cause, and for the failure it
// is a case of; never for another failure, nor for an error rebuilt from
// a stored answer, however its code reads.
func TestAnErrorIsItsFailure(t *testing.T) {
	cause := errors.New("disk full")
	for _, tc := range []struct {
		name string
		err  error
		is   []*errs.Failure
		not  []*errs.Failure
	}{
		{"standard", errs.ErrClientSecretExpired.New(), []*errs.Failure{errs.ErrClientSecretExpired}, []*errs.Failure{errs.ErrClientSecretMissing}},
		{"own message", errs.ErrUnexpectedState.Newf("cannot %s", "capture"), []*errs.Failure{errs.ErrUnexpectedState}, []*errs.Failure{errs.ErrPreconditionFailed}},
		{"detail and field", errs.MissingField("amount"), []*errs.Failure{errs.ErrMissingField}, []*errs.Failure{errs.ErrInvalidValue}},
		{"a case of a broader failure", errs.ErrRefundNotFound.New(), []*errs.Failure{errs.ErrRefundNotFound, errs.ErrNotFound}, []*errs.Failure{errs.ErrCustomerNotFound}},
		{"the broader failure is not its cases", errs.NotFound("Payment"), []*errs.Failure{errs.ErrNotFound}, []*errs.Failure{errs.ErrRefundNotFound}},
		{"wrapped, with a cause", errors.Join(errs.Internal(cause)), []*errs.Failure{errs.ErrInternal}, []*errs.Failure{errs.ErrUnavailable}},
		{"rebuilt from a stored answer, with its code", &errs.Error{Kind: errs.KindInvalid, Code: errs.ErrClientSecretMissing.New().Code, Message: "client_secret was not provided"}, nil, []*errs.Failure{errs.ErrClientSecretMissing}},
		{"a cause that is a failure", (&errs.Error{Kind: errs.KindInvalid, Message: "declined"}).WithCause(errs.ErrCaptureDeclined), []*errs.Failure{errs.ErrCaptureDeclined}, nil},
	} {
		for _, f := range tc.is {
			if !errors.Is(tc.err, f) {
				t.Errorf("%s: errors.Is(%v, %s) is false", tc.name, tc.err, f)
			}
		}
		for _, f := range tc.not {
			if errors.Is(tc.err, f) {
				t.Errorf("%s: errors.Is(%v, %s) is true", tc.name, tc.err, f)
			}
		}
	}
	if !errors.Is(errs.Internal(cause), cause) {
		t.Error("an Error's cause is lost to errors.Is")
	}
}

// TestMessagesAndFields: the constructors keep Hyperswitch's words.
func TestMessagesAndFields(t *testing.T) {
	for _, tc := range []struct {
		err          *errs.Error
		message, fld string
	}{
		{errs.MissingField("amount"), "Missing required param: amount", "amount"},
		{errs.InvalidValue("currency", "must be %s", "ISO 4217"), "Invalid value provided: currency: must be ISO 4217", "currency"},
		{errs.NotFound("Payment"), "Payment does not exist in our records", ""},
		{errs.RefundExceedsCaptured(100, 40, 70), "The refund amount exceeds the amount captured: 100 was captured, 40 is already refunded or pending, 70 was asked", ""},
		{errs.MandateInvalid("mandate_data", "no customer"), "Mandate Validation Failed: no customer", "mandate_data"},
		{errs.IdempotencyInFlight(), "A request with this Idempotency-Key is still being processed; retry after it completes", "Idempotency-Key"},
	} {
		if tc.err.Message != tc.message || tc.err.Field != tc.fld {
			t.Errorf("%q on %q, want %q on %q", tc.err.Message, tc.err.Field, tc.message, tc.fld)
		}
	}
}

// TestABareFailureIsShownAsItsError: a Failure returned as it is (not
// made into an Error) is still a domain error to the front doors.
func TestABareFailureIsShownAsItsError(t *testing.T) {
	e, ok := errs.As(errs.ErrVoidFailed)
	if !ok || !errors.Is(e, errs.ErrVoidFailed) || e.Message != errs.ErrVoidFailed.New().Message {
		t.Fatalf("%v %v", e, ok)
	}
	if !errors.Is(errs.ErrRefundNotFound, errs.ErrNotFound) {
		t.Fatal("a bare failure is not a case of the failure it refines")
	}
}
