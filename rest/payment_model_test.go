package rest_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
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

// modelStatuses is the spec's 16 intent statuses.
var modelStatuses = []string{
	"succeeded", "failed", "cancelled", "cancelled_post_capture", "processing",
	"requires_customer_action", "requires_merchant_action", "requires_payment_method",
	"requires_confirmation", "requires_capture", "partially_captured",
	"partially_captured_and_capturable", "partially_authorized_and_requires_capture",
	"partially_captured_and_processing", "conflicted", "expired",
}

// modelLegalNext is the relation "one state change may move a payment from
// this status to that one". What is not listed is illegal: nothing leaves
// cancelled, failed, expired or conflicted; a captured payment (succeeded,
// partially_captured) can only be voided post capture; a capture never goes
// back to an uncaptured state. Refunds and disputes do not change the
// payment's status.
var modelLegalNext = map[string][]string{
	"requires_payment_method": {"requires_confirmation", "processing", "requires_customer_action",
		"requires_capture", "partially_authorized_and_requires_capture", "succeeded", "failed", "cancelled", "expired"},
	"requires_confirmation": {"requires_payment_method", "processing", "requires_customer_action",
		"requires_capture", "partially_authorized_and_requires_capture", "succeeded", "failed", "cancelled", "expired"},
	"processing": {"requires_customer_action", "requires_merchant_action", "requires_capture",
		"partially_authorized_and_requires_capture", "partially_captured", "partially_captured_and_capturable",
		"succeeded", "failed", "conflicted"},
	"requires_customer_action": {"processing", "requires_capture", "partially_authorized_and_requires_capture",
		"succeeded", "failed", "cancelled", "expired"},
	"requires_merchant_action": {"processing", "requires_capture", "succeeded", "failed", "cancelled"},
	"requires_capture": {"processing", "partially_captured_and_processing", "partially_captured",
		"partially_captured_and_capturable", "succeeded", "cancelled", "failed", "expired"},
	"partially_authorized_and_requires_capture": {"processing", "partially_captured_and_processing",
		"partially_captured", "partially_captured_and_capturable", "succeeded", "cancelled", "failed", "expired"},
	"partially_captured_and_capturable": {"partially_captured_and_processing", "partially_captured",
		"succeeded"},
	"partially_captured_and_processing": {"partially_captured", "partially_captured_and_capturable", "succeeded"},
	"succeeded":                         {"cancelled_post_capture"},
	"partially_captured":                {"cancelled_post_capture"},
	"cancelled":                         nil,
	"cancelled_post_capture":            nil,
	"failed":                            nil,
	"expired":                           nil,
	"conflicted":                        nil,
}

// modelReachable reports whether to can follow from through zero or more
// legal transitions (a batch may make several).
func modelReachable(from, to string) bool {
	seen := map[string]bool{from: true}
	queue := []string{from}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s == to {
			return true
		}
		for _, n := range modelLegalNext[s] {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return false
}

var (
	modelCapturable  = []string{"requires_capture", "partially_captured_and_capturable", "partially_authorized_and_requires_capture"}
	modelCancellable = []string{"requires_payment_method", "requires_confirmation", "requires_capture",
		"requires_customer_action", "partially_captured_and_capturable", "partially_authorized_and_requires_capture"}
	modelRefundable = []string{"succeeded", "partially_captured", "partially_captured_and_capturable"}
)

// --- the model -------------------------------------------------------------

type mOpKind string

const (
	mConfirm mOpKind = "confirm"
	mCapture mOpKind = "capture"
	mCancel  mOpKind = "cancel"
	mRefund  mOpKind = "refund"
)

// modelClientErrors are the documented refusals of each operation; anything
// else (and any 5xx) is a failure.
var modelClientErrors = map[mOpKind][]string{
	mConfirm: {"IR_14"},                   // not in a confirmable state
	mCapture: {"IR_14", "IR_07"},          // not capturable / amount_to_capture out of range
	mCancel:  {"IR_14"},                   // not cancellable
	mRefund:  {"IR_13", "HE_03", "IR_07"}, // over the captured amount / not succeeded / bad amount
}

// mState is what the model knows of a payment. The pending and in-flight
// members are zero between batches.
type mState struct {
	Status     string
	Captured   int64 // amount_received
	Capturable int64 // amount_capturable
	Refunded   int64 // sum of refunds that did not fail
	Captures   int   // capture rows that did not fail
	Refunds    int   // refund rows that did not fail
	PendingCap int64 // reserved by captures in flight
	Capturing  int   // captures in flight
	Voiding    bool  // a cancel is voiding the authorization
}

// payModel is the fixed part of a payment.
type payModel struct {
	method    string // capture_method
	net       int64  // net_amount: what confirm authorizes
	toCapture int64  // amount_to_capture of an automatic payment; 0: all
}

// mOp is one call of a batch.
type mOp struct {
	kind   mOpKind
	amount *int64 // amount_to_capture or refund amount; nil means "all"
	body   map[string]any
	key    string // Idempotency-Key
	dupOf  int    // ≥ 0: this call repeats that one's key and body
}

func (o mOp) String() string {
	a := "all"
	if o.amount != nil {
		a = strconv.FormatInt(*o.amount, 10)
	}
	switch {
	case o.dupOf >= 0:
		return fmt.Sprintf("repeat of #%d", o.dupOf)
	case o.kind == mCapture || o.kind == mRefund:
		return fmt.Sprintf("%s(%s)", o.kind, a)
	}
	return string(o.kind)
}

// mStep is the effect of one atomic step of an operation.
type mStep struct {
	next  mState
	done  bool   // the operation has no further step
	code  string // decided at the first step: "" success, else the error code
	local int64  // carried to the next step (the reserved capture amount); refund: its amount
}

// step is the model of the domain: the atomic steps each operation makes
// (each one database transaction under the payment's row lock), with the
// connector called between them. phase is the step number, local what the
// previous step carried.
func (m payModel) step(s mState, o mOp, phase int, local int64) mStep {
	n := s
	switch o.kind {
	case mConfirm:
		if phase == 0 {
			if s.Status != "requires_payment_method" && s.Status != "requires_confirmation" {
				return mStep{next: n, done: true, code: "IR_14"}
			}
			n.Status = "processing"
			return mStep{next: n}
		}
		switch m.method {
		case "automatic", "sequential_automatic":
			// sequential_automatic captures right after the authorization,
			// inside the same confirm.
			n.Status, n.Captured, n.Capturable, n.Captures = "succeeded", m.net, 0, s.Captures+1
			if m.toCapture > 0 && m.toCapture < m.net { // the rest is released
				n.Status, n.Captured = "partially_captured", m.toCapture
			}
		default:
			n.Status, n.Capturable = "requires_capture", m.net
		}
		return mStep{next: n, done: true}

	case mCapture:
		if phase == 0 {
			if !slices.Contains(modelCapturable, s.Status) || s.Voiding {
				return mStep{next: n, done: true, code: "IR_14"}
			}
			amt := s.Capturable
			if o.amount != nil {
				amt = *o.amount
			}
			if amt <= 0 || amt > s.Capturable {
				return mStep{next: n, done: true, code: "IR_07"}
			}
			if m.method != "manual_multiple" && s.Captures > 0 {
				return mStep{next: n, done: true, code: "IR_14"}
			}
			n.Capturable -= amt
			n.PendingCap += amt
			n.Captures++
			n.Capturing++
			return mStep{next: n, local: amt}
		}
		n.Captured += local
		n.PendingCap -= local
		n.Capturing--
		switch {
		case n.Captured >= m.net:
			n.Status, n.Capturable = "succeeded", 0
		case m.method == "manual_multiple" && n.Capturable > 0:
			n.Status = "partially_captured_and_capturable"
		default: // one partial capture releases the rest
			n.Status, n.Capturable = "partially_captured", 0
		}
		return mStep{next: n, done: true}

	case mCancel:
		if phase == 0 {
			if !slices.Contains(modelCancellable, s.Status) {
				return mStep{next: n, done: true, code: "IR_14"}
			}
			if !slices.Contains(modelCapturable, s.Status) {
				// Nothing authorized: the cancellation is only recorded.
				n.Status, n.Capturable = "cancelled", 0
				return mStep{next: n, done: true}
			}
			if s.Capturing > 0 || s.Voiding {
				// A capture (or void) is under way: a cancel may be refused
				// rather than race it.
				return mStep{next: n, done: true, code: "IR_14"}
			}
			n.Voiding = true
			return mStep{next: n}
		}
		n.Voiding = false
		n.Capturable = 0
		n.Status = "cancelled"
		if n.Captured > 0 {
			n.Status = "partially_captured" // the captures stand
		}
		return mStep{next: n, done: true}

	case mRefund:
		if o.amount != nil && *o.amount <= 0 {
			return mStep{next: n, done: true, code: "IR_07"}
		}
		if !slices.Contains(modelRefundable, s.Status) || s.Captured == 0 {
			return mStep{next: n, done: true, code: "HE_03"}
		}
		remaining := s.Captured - s.Refunded
		amt := remaining
		if o.amount != nil {
			amt = *o.amount
		}
		if amt <= 0 || amt > remaining {
			return mStep{next: n, done: true, code: "IR_13"}
		}
		n.Refunded += amt
		n.Refunds++
		return mStep{next: n, done: true, local: amt}
	}
	panic("unknown op " + o.kind)
}

// modelSameOutcome compares the model's outcome of an operation with the
// server's. The two refusals of a capture are one outcome: which one a
// capture gets depends on whether a concurrent capture has reserved the
// amount yet, which the model does not tell apart.
func modelSameOutcome(kind mOpKind, model, got string) bool {
	if kind == mCapture && model != "" && got != "" {
		return true
	}
	return model == got
}

// mObserved is the server's answer to one executed call, as the model
// compares it.
type mObserved struct {
	code         string // "" on success
	refundAmount int64  // a successful refund's amount
}

// linearize searches for an interleaving of the operations' steps that
// gives each operation its observed outcome and ends in final.
func (m payModel) linearize(start mState, ops []mOp, obs []mObserved, final mState) bool {
	type frame struct {
		phase []int8
		local []int64
	}
	dead := map[string]bool{}
	var dfs func(s mState, f frame) bool
	dfs = func(s mState, f frame) bool {
		key := fmt.Sprintf("%v|%v|%v", s, f.phase, f.local)
		if dead[key] {
			return false
		}
		finished := true
		for i, o := range ops {
			if f.phase[i] < 0 {
				continue
			}
			finished = false
			r := m.step(s, o, int(f.phase[i]), f.local[i])
			if f.phase[i] == 0 {
				if !modelSameOutcome(o.kind, r.code, obs[i].code) {
					continue
				}
				if o.kind == mRefund && r.code == "" && r.local != obs[i].refundAmount {
					continue
				}
			}
			nf := frame{phase: slices.Clone(f.phase), local: slices.Clone(f.local)}
			nf.phase[i]++
			if r.done {
				nf.phase[i] = -1
			}
			nf.local[i] = r.local
			if dfs(r.next, nf) {
				return true
			}
		}
		if finished && s == final {
			return true
		}
		dead[key] = true
		return false
	}
	return dfs(start, frame{phase: make([]int8, len(ops)), local: make([]int64, len(ops))})
}

// --- HTTP ------------------------------------------------------------------

// modelHTTP calls the API from many goroutines: it never calls t.Fatal.
type modelHTTP struct {
	base, key string
	hc        *http.Client
}

func newModelHTTP(base, key string) *modelHTTP {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 64
	return &modelHTTP{base: base, key: key, hc: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// mReply is one answer.
type mReply struct {
	status   int
	raw      []byte
	body     map[string]any
	replayed bool
	err      error
}

func (r mReply) code() string {
	e, _ := r.body["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func (r mReply) str(k string) string { s, _ := r.body[k].(string); return s }

func (r mReply) num(k string) int64 {
	f, ok := r.body[k].(float64)
	if !ok {
		return -1
	}
	return int64(f)
}

func (r mReply) list(k string) []map[string]any {
	arr, _ := r.body[k].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		m, _ := e.(map[string]any)
		out = append(out, m)
	}
	return out
}

func (h *modelHTTP) call(method, path string, body any, idemKey string) mReply {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return mReply{err: err}
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(context.Background(), method, h.base+path, rd)
	if err != nil {
		return mReply{err: err}
	}
	req.Header.Set("api-key", h.key)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	resp, err := h.hc.Do(req)
	if err != nil {
		return mReply{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	out := mReply{status: resp.StatusCode, raw: raw, err: err, replayed: resp.Header.Get("Idempotent-Replayed") == "true"}
	if err == nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			out.err = fmt.Errorf("body is not a JSON object: %q", raw)
		}
	}
	return out
}

// --- one seed --------------------------------------------------------------

type modelRun struct {
	t    *testing.T
	h    *modelHTTP
	seed uint64
	rng  *rand.Rand
	cov  *modelCoverage

	id    string
	model payModel
	state mState
	log   []string

	// What the test counted from the successes it saw.
	sawCaptures int   // successful capture calls, plus the capture an automatic confirm makes
	sawRefunds  int   // successful refund calls
	sawRefunded int64 // their amounts
}

func (r *modelRun) fatalf(format string, args ...any) {
	r.t.Helper()
	r.t.Fatalf("seed %d (replay: go test ./rest -run 'TestPaymentModel' -model.seed=%d -count=20)\npayment %s, capture_method %s, net_amount %d\nhistory:\n  %s\n%s",
		r.seed, r.seed, r.id, r.model.method, r.model.net, strings.Join(r.log, "\n  "), fmt.Sprintf(format, args...))
}

func (r *modelRun) run() {
	// manual_multiple twice as often: it has the most states.
	methods := []string{"automatic", "manual", "manual_multiple", "manual_multiple", "sequential_automatic"}
	r.model.method = methods[r.rng.IntN(len(methods))]
	amount := 100 + r.rng.Int64N(50_000)
	body := map[string]any{
		"amount": amount, "currency": "USD", "capture_method": r.model.method,
		"payment_method_data": card("4242424242424242"),
	}
	if r.rng.IntN(4) == 0 { // net_amount ≠ amount: what is authorized includes shipping
		body["shipping_cost"] = r.rng.Int64N(2_000)
	}
	if r.model.method == "automatic" && r.rng.IntN(3) == 0 { // a partial automatic capture
		r.model.toCapture = 1 + r.rng.Int64N(amount)
		body["amount_to_capture"] = r.model.toCapture
	}
	confirm := r.rng.IntN(4) == 0
	if confirm {
		body["confirm"] = true
	}
	created := r.h.call("POST", "/payments", body, runKey("model-create"))
	if created.err != nil || created.status != 200 {
		r.fatalf("create: %d %v %s", created.status, created.err, created.raw)
	}
	r.id = created.str("payment_id")
	r.model.net = created.num("net_amount")
	want := amount
	if s, ok := body["shipping_cost"].(int64); ok {
		want += s
	}
	if r.model.net != want {
		r.fatalf("net_amount %d, want %d", r.model.net, want)
	}
	r.state = mState{Status: "requires_confirmation"}
	r.log = append(r.log, fmt.Sprintf("create amount=%d amount_to_capture=%d confirm=%v -> %s", amount, r.model.toCapture, confirm, created.str("status")))
	if confirm {
		// The create's own confirm, as a batch of one.
		r.check(r.state, []mOp{{kind: mConfirm, dupOf: -1}}, []mReply{created}, created)
	} else {
		r.check(r.state, nil, nil, created)
	}

	batches := 5 + r.rng.IntN(8)
	for b := 0; b < batches && !r.settled(); b++ {
		ops := r.batch()
		replies := r.fire(ops)
		prev := r.state
		got := r.h.call("GET", "/payments/"+r.id, nil, "")
		if got.err != nil || got.status != 200 {
			r.fatalf("retrieve: %d %v %s", got.status, got.err, got.raw)
		}
		r.check(prev, ops, replies, got)
	}
}

// settled reports whether nothing more can change the payment's money.
func (r *modelRun) settled() bool {
	switch r.state.Status {
	case "cancelled", "failed":
		return true
	case "succeeded", "partially_captured":
		return r.state.Refunded == r.state.Captured
	}
	return false
}

// batch draws 1 to 8 calls, weighted by what the last record allows, some
// of them repeats of another call's Idempotency-Key and body.
func (r *modelRun) batch() []mOp {
	n := 1 + r.rng.IntN(8)
	if r.rng.IntN(5) == 0 {
		n = 1 // a lone call: the model must predict it exactly
	}
	s := r.state
	w := map[mOpKind]int{mConfirm: 1, mCapture: 2, mCancel: 1, mRefund: 2}
	switch {
	case s.Status == "requires_confirmation":
		w[mConfirm] = 6
	case slices.Contains(modelCapturable, s.Status):
		w[mCapture] = 8
		w[mRefund] = 3
	case slices.Contains(modelRefundable, s.Status):
		w[mRefund] = 8
	}
	total := 0
	for _, v := range w {
		total += v
	}
	ops := make([]mOp, n)
	for i := range ops {
		if i > 0 && r.rng.IntN(10) == 0 {
			d := r.rng.IntN(i)
			for ops[d].dupOf >= 0 {
				d = ops[d].dupOf
			}
			ops[i] = mOp{kind: ops[d].kind, amount: ops[d].amount, body: ops[d].body, key: ops[d].key, dupOf: d}
			continue
		}
		k := r.rng.IntN(total)
		var kind mOpKind
		for _, c := range []mOpKind{mConfirm, mCapture, mCancel, mRefund} {
			if k < w[c] {
				kind = c
				break
			}
			k -= w[c]
		}
		ops[i] = r.newOp(kind)
	}
	return ops
}

// amountFor draws an amount against limit (what is capturable or
// refundable): all of it (nil or exact), a part, more, or not positive.
func (r *modelRun) amountFor(limit int64) *int64 {
	if limit <= 0 {
		limit = r.model.net
	}
	var v int64
	switch k := r.rng.IntN(20); {
	case k < 5:
		return nil
	case k < 7:
		v = limit
	case k < 15:
		v = 1 + r.rng.Int64N(max(limit/2, 1))
	case k < 19:
		v = limit + 1 + r.rng.Int64N(r.model.net)
	default:
		v = -r.rng.Int64N(2)
	}
	return &v
}

func (r *modelRun) newOp(kind mOpKind) mOp {
	o := mOp{kind: kind, key: runKey("model-" + string(kind)), dupOf: -1, body: map[string]any{}}
	switch kind {
	case mConfirm:
		if r.rng.IntN(2) == 0 { // else the card the create vaulted
			o.body["payment_method_data"] = card("4242424242424242")
		}
	case mCapture:
		o.amount = r.amountFor(r.state.Capturable)
		if o.amount != nil {
			o.body["amount_to_capture"] = *o.amount
		}
	case mCancel:
		if r.rng.IntN(2) == 0 {
			o.body["cancellation_reason"] = "model test"
		}
	case mRefund:
		o.amount = r.amountFor(r.state.Captured - r.state.Refunded)
		o.body["payment_id"] = r.id
		if o.amount != nil {
			o.body["amount"] = *o.amount
		}
	}
	return o
}

// fire sends a batch at once: every call waits at the gate.
func (r *modelRun) fire(ops []mOp) []mReply {
	out := make([]mReply, len(ops))
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for i, o := range ops {
		method, path := "POST", "/payments/"+r.id+"/"+string(o.kind)
		if o.kind == mRefund {
			path = "/refunds"
		}
		wg.Go(func() {
			<-gate
			out[i] = r.h.call(method, path, o.body, o.key)
		})
	}
	close(gate)
	wg.Wait()
	return out
}

// check judges a batch: the answers, the record read after it, and the
// model's account of both. It then takes the record's state as the model's.
func (r *modelRun) check(prev mState, ops []mOp, replies []mReply, got mReply) {
	r.t.Helper()
	var line []string
	for i, o := range ops {
		rp := replies[i]
		res := "200"
		if rp.err != nil {
			res = "error: " + rp.err.Error()
		} else if rp.status != 200 {
			res = fmt.Sprintf("%d %s", rp.status, rp.code())
		}
		if rp.replayed {
			res += " (replayed)"
		}
		line = append(line, fmt.Sprintf("#%d %s -> %s", i, o, res))
	}
	if len(ops) > 0 {
		r.log = append(r.log, fmt.Sprintf("batch from %s: %s => %s received=%d capturable=%d",
			prev.Status, strings.Join(line, "; "), got.str("status"), got.num("amount_received"), got.num("amount_capturable")))
	}

	// (a) Every answer is a success or a documented client error; repeats
	// of an Idempotency-Key are a replay or "in flight".
	var exec []mOp
	var obs []mObserved
	for i, o := range ops {
		rp := replies[i]
		if rp.err != nil {
			r.fatalf("#%d %s: %v", i, o, rp.err)
		}
		if rp.status >= 500 {
			r.fatalf("#%d %s: server error %d: %s", i, o, rp.status, rp.raw)
		}
		first := o
		if o.dupOf >= 0 {
			first = ops[o.dupOf]
		}
		if o.dupOf >= 0 || r.keyRepeated(ops, i) {
			if rp.status == 409 && rp.code() == "IR_16" {
				continue
			}
			if rp.replayed {
				// The same answer as the call that ran.
				ran := r.ranWith(ops, replies, first.key)
				if ran < 0 || replies[ran].status != rp.status || !bytes.Equal(replies[ran].raw, rp.raw) {
					r.fatalf("#%d %s: replay %d %s differs from the call that ran", i, o, rp.status, rp.raw)
				}
				continue
			}
			if ran := r.ranWith(ops, replies, first.key); ran != i {
				r.fatalf("#%d %s: two calls with one Idempotency-Key both ran (#%d too)", i, o, ran)
			}
		}
		ob := mObserved{}
		switch {
		case rp.status == 200:
			switch o.kind {
			case mRefund:
				ob.refundAmount = rp.num("amount")
				if rp.str("status") != "succeeded" || rp.str("payment_id") != r.id {
					r.fatalf("#%d %s: refund %s for %s", i, o, rp.str("status"), rp.str("payment_id"))
				}
				r.sawRefunds++
				r.sawRefunded += ob.refundAmount
			case mCapture:
				r.sawCaptures++
			}
			if o.kind != mRefund {
				if st := rp.str("status"); !slices.Contains(modelStatuses, st) || rp.str("payment_id") != r.id {
					r.fatalf("#%d %s: answered a record with status %q for %q", i, o, st, rp.str("payment_id"))
				}
			}
		case rp.status == 400 && slices.Contains(modelClientErrors[o.kind], rp.code()):
			ob.code = rp.code()
		default:
			r.fatalf("#%d %s: %d %s is not a documented answer of %s", i, o, rp.status, rp.raw, o.kind)
		}
		exec = append(exec, o)
		obs = append(obs, ob)
		r.cov.add(fmt.Sprintf("%s %s", o.kind, cmp.Or(ob.code, "200")))
		if o.kind == mCapture && ob.code != "" {
			r.cov.add("capture refused")
		}
	}
	r.cov.add("status " + got.str("status"))
	if strings.HasPrefix(got.str("status"), "partially_captured") {
		r.cov.add("status partial")
	}
	if len(ops) > 1 {
		r.cov.add("concurrent batches")
	}

	// (b) A status of the spec, reached legally.
	status := got.str("status")
	if !slices.Contains(modelStatuses, status) {
		r.fatalf("status %q is not one of the spec's", status)
	}
	if !modelReachable(prev.Status, status) {
		r.fatalf("illegal transition %s -> %s", prev.Status, status)
	}

	// (c) Money.
	final := r.checkModelMoney(got)
	for i, o := range exec {
		if o.kind == mConfirm && obs[i].code == "" && (r.model.method == "automatic" || r.model.method == "sequential_automatic") {
			r.sawCaptures++ // the capture the confirm makes
		}
	}
	if final.Captures != r.sawCaptures {
		r.fatalf("%d live captures on the payment, but %d captures succeeded", final.Captures, r.sawCaptures)
	}
	if final.Refunds != r.sawRefunds || final.Refunded != r.sawRefunded {
		r.fatalf("refunds on the payment: %d for %d; the successful refund calls: %d for %d",
			final.Refunds, final.Refunded, r.sawRefunds, r.sawRefunded)
	}
	// The model explains the batch.
	if !r.model.linearize(prev, exec, obs, final) {
		r.fatalf("no interleaving of the model's steps explains the batch: from %+v to %+v", prev, final)
	}
	r.state = final
}

// keyRepeated reports whether another call of the batch repeats call i's key.
func (r *modelRun) keyRepeated(ops []mOp, i int) bool {
	for j, o := range ops {
		if j != i && o.key == ops[i].key {
			return true
		}
	}
	return false
}

// ranWith is the call with this key that ran (neither replayed nor in
// flight), or -1.
func (r *modelRun) ranWith(ops []mOp, replies []mReply, key string) int {
	for j, o := range ops {
		if o.key == key && !replies[j].replayed && !(replies[j].status == 409 && replies[j].code() == "IR_16") {
			return j
		}
	}
	return -1
}

// checkModelMoney checks the money invariants of a record read between
// batches (nothing in flight) and returns the state it shows.
func (r *modelRun) checkModelMoney(got mReply) mState {
	r.t.Helper()
	s := mState{Status: got.str("status"), Captured: got.num("amount_received"), Capturable: got.num("amount_capturable")}
	net := got.num("net_amount")
	if net != r.model.net {
		r.fatalf("net_amount changed: %d, was %d", net, r.model.net)
	}
	var charged, pending int64
	for _, c := range got.list("captures") {
		a := int64(c["amount"].(float64))
		switch c["status"] {
		case "charged":
			charged += a
			s.Captures++
		case "pending", "started":
			pending += a
			s.Captures++
		case "failed":
		default:
			r.fatalf("capture status %v", c["status"])
		}
	}
	if pending != 0 {
		r.fatalf("captures still pending (%d) after every call answered", pending)
	}
	for _, f := range got.list("refunds") {
		switch f["status"] {
		case "failed":
			continue
		case "succeeded":
		default:
			r.fatalf("refund %v is %v after every call answered", f["refund_id"], f["status"])
		}
		s.Refunded += int64(f["amount"].(float64))
		s.Refunds++
	}
	switch {
	case s.Captured != charged:
		r.fatalf("amount_received %d != sum of charged captures %d", s.Captured, charged)
	case s.Captured > net:
		r.fatalf("amount_received %d > authorized %d", s.Captured, net)
	case s.Capturable < 0:
		r.fatalf("amount_capturable %d < 0", s.Capturable)
	case s.Refunded > s.Captured:
		r.fatalf("refunded %d > received %d", s.Refunded, s.Captured)
	}
	authorized := slices.Contains(modelCapturable, s.Status)
	switch {
	case authorized && s.Capturable != net-s.Captured-pending:
		r.fatalf("%s: amount_capturable %d != authorized %d - captured %d - pending %d", s.Status, s.Capturable, net, s.Captured, pending)
	case authorized && s.Capturable <= 0:
		r.fatalf("%s with nothing capturable", s.Status)
	case !authorized && s.Capturable != 0:
		r.fatalf("%s with amount_capturable %d", s.Status, s.Capturable)
	}
	switch s.Status {
	case "succeeded":
		if s.Captured != net {
			r.fatalf("succeeded with %d of %d received", s.Captured, net)
		}
	case "partially_captured", "partially_captured_and_capturable":
		if s.Captured <= 0 || s.Captured >= net {
			r.fatalf("%s with %d of %d received", s.Status, s.Captured, net)
		}
	case "requires_payment_method", "requires_confirmation", "requires_capture", "cancelled", "failed", "processing":
		if s.Captured != 0 {
			r.fatalf("%s with %d received", s.Status, s.Captured)
		}
	}
	return s
}

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
