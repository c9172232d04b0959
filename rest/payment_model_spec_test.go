package rest_test

import (
	"fmt"
	"slices"
	"strconv"
)

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
