package rest_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

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

// received is amount_received, null (nothing captured yet) read as 0.
func (r mReply) received() int64 {
	if r.body["amount_received"] == nil {
		return 0
	}
	return r.num("amount_received")
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
			prev.Status, strings.Join(line, "; "), got.str("status"), got.received(), got.num("amount_capturable")))
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
	s := mState{Status: got.str("status"), Captured: got.received(), Capturable: got.num("amount_capturable")}
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
	case (got.body["amount_received"] == nil) != (s.Captures == 0 || charged == 0):
		r.fatalf("amount_received is %v with charged captures of %d: null until one succeeds", got.body["amount_received"], charged)
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
