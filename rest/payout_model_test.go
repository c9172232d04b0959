package rest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestPayoutModel is a model-based test of the payout state machine. For
// each seed it creates a payout (a random sandbox recipient, with or
// without its method, confirm and auto_fulfill drawn at random) and sends
// a random sequence of update, confirm, fulfil, cancel and force-sync
// calls through the HTTP API; a model of Hyperswitch's rules
// (payoutModel.apply) predicts each answer's status and error code and the
// payout's status after it, and the server must agree on every step.
// Some steps send three fulfils at once: exactly one may fulfil.
func TestPayoutModel(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	seen := map[string]int{}
	for seed := uint64(1); seed <= 40; seed++ {
		r := &payoutModelRun{t: t, c: c, rng: rand.New(rand.NewPCG(seed, seed^0x9a7)), seen: seen}
		t.Run(fmt.Sprint(seed), r.run)
	}
	for _, k := range []string{"confirm 200", "confirm 422", "fulfill 200", "fulfill 422", "cancel 200", "cancel 400",
		"cancel 422", "update 200", "update 422", "sync 200", "status success", "status failed", "status pending",
		"status reversed", "status cancelled", "status requires_fulfillment"} {
		if seen[k] == 0 {
			t.Errorf("coverage: no %q (%v)", k, seen)
		}
	}
}

// payoutModel is what the test knows of one payout.
type payoutModel struct {
	status    string
	hasMethod bool
	auto      bool
	outcome   string // what the recipient asks: success, failed, pending, reversed
}

var (
	payoutModelTerminal = []string{"success", "failed", "cancelled", "reversed"}
	payoutModelLocal    = []string{"requires_confirmation", "requires_payout_method_data", "requires_creation"}
	payoutModelCards    = map[string]string{"success": "4242424242424242", "failed": "4000000000000002",
		"pending": "4000000000000259", "reversed": "4000000000005126"}
)

// fulfilled is the status a fulfilment gives.
func (m *payoutModel) fulfilled() string {
	switch m.outcome {
	case "failed", "pending":
		return m.outcome
	}
	return "success"
}

// apply predicts op's answer (status code, error code) and moves m.
func (m *payoutModel) apply(op string) (int, string) {
	ended, inFlight := slices.Contains(payoutModelTerminal, m.status), m.status == "pending"
	switch op {
	case "update":
		if ended || inFlight {
			return 422, "IR_06"
		}
	case "method":
		if ended || inFlight || m.status == "requires_fulfillment" {
			return 422, "IR_06"
		}
		m.hasMethod = true
		if m.status == "requires_payout_method_data" {
			m.status = "requires_confirmation"
		}
	case "confirm":
		if !slices.Contains(payoutModelLocal, m.status) {
			return 422, "IR_06"
		}
		if !m.hasMethod {
			return 400, "IR_04"
		}
		m.status = "requires_fulfillment"
		if m.auto {
			m.status = m.fulfilled()
		}
	case "fulfill":
		if m.status != "requires_fulfillment" {
			return 422, "IR_06"
		}
		m.status = m.fulfilled()
	case "cancel":
		switch {
		case ended:
			return 422, "IR_06"
		case inFlight:
			return 400, "IR_41"
		}
		m.status = "cancelled"
	case "sync":
		switch {
		case m.status == "pending":
			m.status = "success"
		case m.status == "success" && m.outcome == "reversed":
			m.status = "reversed"
		}
	}
	return 200, ""
}

type payoutModelRun struct {
	t    *testing.T
	c    *client
	rng  *rand.Rand
	seen map[string]int
}

func (r *payoutModelRun) run(t *testing.T) {
	outcomes := []string{"success", "failed", "pending", "reversed"}
	m := &payoutModel{outcome: outcomes[r.rng.IntN(4)], auto: r.rng.IntN(2) == 0, hasMethod: r.rng.IntN(3) > 0}
	members := map[string]any{"auto_fulfill": m.auto, "payout_method_data": payoutCard(payoutModelCards[m.outcome])}
	m.status = "requires_confirmation"
	if !m.hasMethod {
		members["payout_method_data"], members["payout_type"], m.status = nil, nil, "requires_payout_method_data"
	}
	if m.hasMethod && r.rng.IntN(2) == 0 {
		members["confirm"] = true
		m.status = "requires_fulfillment"
		if m.auto {
			m.status = m.fulfilled()
		}
	}
	p := createPayout(t, r.c, members)
	id, secret := p.str("payout_id"), p.str("client_secret")
	r.check(t, "create", p.str("status"), m.status)
	ops := []string{"update", "method", "confirm", "fulfill", "cancel", "sync", "fulfill3"}
	for step := 0; step < 8; step++ {
		op := ops[r.rng.IntN(len(ops))]
		if op == "fulfill3" {
			r.concurrentFulfils(t, m, id)
			continue
		}
		wantCode, wantErr := m.apply(op)
		got := r.send(op, id, secret, m)
		r.seen[fmt.Sprintf("%s %d", op, got.Status)]++
		if got.Status != wantCode || got.errCode() != wantErr {
			t.Fatalf("step %d %s: %d %s, the model says %d %s: %s", step, op, got.Status, got.errCode(), wantCode, wantErr, got.Raw)
		}
		r.check(t, op, payoutStatus(t, r.c, id), m.status)
	}
}

// concurrentFulfils sends three fulfils at once: one fulfils a payout
// waiting for it, the others (or all, otherwise) are 422.
func (r *payoutModelRun) concurrentFulfils(t *testing.T, m *payoutModel, id string) {
	waiting := m.status == "requires_fulfillment"
	codes := make([]int, 3)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() { codes[i] = r.c.do("POST", "/payouts/"+id+"/fulfill", r.c.merchantKey(), nil).Status })
	}
	wg.Wait()
	ok := 0
	for _, code := range codes {
		if code == 200 {
			ok++
		} else if code != 422 {
			t.Fatalf("concurrent fulfils: %v", codes)
		}
	}
	if waiting {
		m.apply("fulfill")
	}
	if (waiting && ok != 1) || (!waiting && ok != 0) {
		t.Fatalf("concurrent fulfils of a %s payout: %v", map[bool]string{true: "waiting", false: "not waiting"}[waiting], codes)
	}
	r.check(t, "fulfill3", payoutStatus(t, r.c, id), m.status)
}

// send makes op's call.
func (r *payoutModelRun) send(op, id, secret string, m *payoutModel) response {
	key, path := r.c.merchantKey(), "/payouts/"+id
	switch op {
	case "update":
		return r.c.do("POST", path, key, map[string]any{"description": fmt.Sprint("step ", r.rng.IntN(100))})
	case "method":
		return r.c.do("POST", path, key, map[string]any{"payout_type": "card", "payout_method_data": payoutCard(payoutModelCards[m.outcome])})
	case "confirm":
		return r.c.do("POST", path+"/confirm", key, map[string]any{"client_secret": secret})
	case "sync":
		return r.c.do("GET", path+"?force_sync=true", key, nil)
	}
	return r.c.do("POST", path+"/"+op, key, map[string]any{"payout_id": id})
}

func (r *payoutModelRun) check(t *testing.T, op, got, want string) {
	t.Helper()
	r.seen["status "+got]++
	if got != want {
		t.Fatalf("after %s the payout is %s, the model says %s", op, got, want)
	}
}
