package rest_test

import (
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPaymentModel is a model-based test of the payment state machine. For
// each seed it creates a payment (a success card, a random capture method
// and amount) and fires random batches of confirm, capture, cancel and
// refund calls, several at once, at that one payment through the HTTP API.
// After every batch it reads the payment back and checks:
//
//   - every answer was a success or one of the documented client errors of
//     its operation, never a 5xx;
//   - the status is one of the spec's 16 and reachable from the status seen
//     before the batch through the legal transitions (modelLegalNext);
//   - the money invariants of the record (checkModelMoney);
//   - the batch is explained by the model: some interleaving of the
//     operations' atomic steps (payModel.step) gives every call the outcome
//     it got and ends in the state the server shows (payModel.linearize);
//     and the totals the test counted from the successes it saw agree with
//     the server's.
//
// Some calls repeat another call's Idempotency-Key and body in the same
// batch: exactly one of them runs, the others are a byte-identical replay
// or 409 IR_16.
//
// A failure names its seed and prints the payment's history. Replay it with
//
//	go test ./rest -run TestPaymentModel -model.seed=N -count=20
//
// (or SWITCHYARD_MODEL_SEED=N). The seed fixes the payment and every choice
// the test makes from what it has seen; the interleaving within a batch is
// the scheduler's, hence -count. -model.runs sets how many seeds run.
func TestPaymentModel(t *testing.T) {
	seeds := modelSeeds(t)
	c := newClient(t)
	h := newModelHTTP(c.srv.URL, c.merchantKey())
	t.Cleanup(h.hc.CloseIdleConnections)
	start := time.Now()
	cov := &modelCoverage{seen: map[string]int{}}
	t.Run("seeds", func(t *testing.T) {
		for _, seed := range seeds {
			t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
				t.Parallel()
				r := &modelRun{t: t, h: h, seed: seed, rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), cov: cov}
				r.run()
			})
		}
	})
	t.Logf("%d seeds in %v; %s", len(seeds), time.Since(start).Round(time.Millisecond), cov)
	if len(seeds) >= 50 && !t.Failed() {
		// Guard against a model test that quietly stops testing: across
		// this many seeds each of these is seen ten times or more on
		// average, so missing one means the generator or the API changed.
		for _, k := range []string{"concurrent batches", "confirm 200", "confirm IR_14", "capture 200", "capture refused",
			"cancel 200", "cancel IR_14", "refund 200", "refund IR_13", "refund HE_03", "status succeeded", "status partial"} {
			if cov.seen[k] == 0 {
				t.Errorf("coverage: no %q in %d seeds (%s)", k, len(seeds), cov)
			}
		}
	}
}

// modelCoverage counts the outcomes and statuses the runs saw.
type modelCoverage struct {
	mu   sync.Mutex
	seen map[string]int
}

func (c *modelCoverage) add(k string) {
	c.mu.Lock()
	c.seen[k]++
	c.mu.Unlock()
}

func (c *modelCoverage) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	keys := slices.Sorted(maps.Keys(c.seen))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, c.seen[k])
	}
	return strings.Join(parts, ", ")
}

var (
	modelSeedFlag = flag.Uint64("model.seed", 0, "TestPaymentModel: replay this one seed")
	modelRunsFlag = flag.Int("model.runs", 0, "TestPaymentModel: number of seeds (default 50, 10 with -short)")
)

// modelSeeds is the one seed asked for, else runs seeds from a random base
// (each failure prints its own).
func modelSeeds(t *testing.T) []uint64 {
	if *modelSeedFlag != 0 {
		return []uint64{*modelSeedFlag}
	}
	if v := os.Getenv("SWITCHYARD_MODEL_SEED"); v != "" {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SWITCHYARD_MODEL_SEED: %v", err)
		}
		return []uint64{s}
	}
	n := 50
	if testing.Short() {
		n = 10
	}
	if *modelRunsFlag > 0 {
		n = *modelRunsFlag
	}
	base := rand.Uint64N(1<<40) + 1
	out := make([]uint64, n)
	for i := range out {
		out[i] = base + uint64(i)
	}
	return out
}

// --- the legal transitions -------------------------------------------------

// TestPaymentModelExplains pins the model down without a server: what it
// must accept as some interleaving of the calls, and what it must refuse.
func TestPaymentModelExplains(t *testing.T) {
	amt := func(v int64) *int64 { return &v }
	op := func(k mOpKind, a *int64) mOp { return mOp{kind: k, amount: a, dupOf: -1} }
	ok, refused := mObserved{}, func(code string) mObserved { return mObserved{code: code} }
	refunded := func(v int64) mObserved { return mObserved{refundAmount: v} }
	authorized := mState{Status: "requires_capture", Capturable: 100}
	unconfirmed := mState{Status: "requires_confirmation"}
	succeeded := mState{Status: "succeeded", Captured: 100, Captures: 1}
	for _, c := range []struct {
		name   string
		method string
		from   mState
		ops    []mOp
		obs    []mObserved
		to     mState
		want   bool
	}{
		{"two partial captures, the second over what is left", "manual_multiple", authorized,
			[]mOp{op(mCapture, amt(60)), op(mCapture, amt(60))}, []mObserved{ok, refused("IR_07")},
			mState{Status: "partially_captured_and_capturable", Captured: 60, Capturable: 40, Captures: 1}, true},
		{"a capture and a refund that came first", "manual_multiple", authorized,
			[]mOp{op(mCapture, amt(40)), op(mRefund, nil)}, []mObserved{ok, refused("HE_03")},
			mState{Status: "partially_captured_and_capturable", Captured: 40, Capturable: 60, Captures: 1}, true},
		{"confirm once of three", "automatic", unconfirmed,
			[]mOp{op(mConfirm, nil), op(mConfirm, nil), op(mRefund, amt(5))}, []mObserved{refused("IR_14"), ok, refused("HE_03")},
			mState{Status: "succeeded", Captured: 100, Captures: 1}, true},
		{"two refunds up to the captured amount", "automatic", succeeded,
			[]mOp{op(mRefund, nil), op(mRefund, amt(10))}, []mObserved{refunded(90), refunded(10)},
			mState{Status: "succeeded", Captured: 100, Captures: 1, Refunded: 100, Refunds: 2}, true},
		{"a full refund leaves nothing for the other", "automatic", succeeded,
			[]mOp{op(mRefund, nil), op(mRefund, amt(10))}, []mObserved{refunded(100), refused("IR_13")},
			mState{Status: "succeeded", Captured: 100, Captures: 1, Refunded: 100, Refunds: 1}, true},
		{"a capture and a cancel both succeed, the capture first", "manual_multiple", authorized,
			[]mOp{op(mCapture, amt(30)), op(mCancel, nil)}, []mObserved{ok, ok},
			mState{Status: "partially_captured", Captured: 30, Captures: 1}, true},

		{"a cancel succeeds on a fully captured payment", "manual_multiple", authorized,
			[]mOp{op(mCapture, nil), op(mCancel, nil)}, []mObserved{ok, ok},
			mState{Status: "partially_captured", Captured: 100, Captures: 1}, false},
		{"a cancel and the one capture manual allows both succeed", "manual", authorized,
			[]mOp{op(mCancel, nil), op(mCapture, amt(30))}, []mObserved{ok, ok},
			mState{Status: "partially_captured", Captured: 30, Captures: 1}, false},
		{"two cancels both succeed", "manual", authorized,
			[]mOp{op(mCancel, nil), op(mCancel, nil)}, []mObserved{ok, ok},
			mState{Status: "cancelled"}, false},
		{"sequential_automatic: a capture beats the confirm's own", "sequential_automatic", unconfirmed,
			[]mOp{op(mConfirm, nil), op(mCapture, amt(30))}, []mObserved{refused("IR_14"), ok},
			mState{Status: "partially_captured", Captured: 30, Captures: 1}, false},
		{"a refund of the wrong amount", "automatic", succeeded,
			[]mOp{op(mRefund, nil)}, []mObserved{refunded(99)},
			mState{Status: "succeeded", Captured: 100, Captures: 1, Refunded: 99, Refunds: 1}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := payModel{method: c.method, net: 100}
			if got := m.linearize(c.from, c.ops, c.obs, c.to); got != c.want {
				t.Errorf("linearize = %v, want %v", got, c.want)
			}
		})
	}
	for _, c := range []struct {
		from, to string
		want     bool
	}{
		{"requires_confirmation", "succeeded", true},
		{"requires_capture", "partially_captured", true},
		{"partially_captured_and_capturable", "succeeded", true},
		{"succeeded", "partially_captured", false},
		{"partially_captured", "partially_captured_and_capturable", false},
		{"cancelled", "requires_capture", false},
		{"requires_capture", "requires_confirmation", false},
	} {
		if got := modelReachable(c.from, c.to); got != c.want {
			t.Errorf("modelReachable(%s, %s) = %v, want %v", c.from, c.to, got, c.want)
		}
	}
}
