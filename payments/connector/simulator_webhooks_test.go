package connector

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// memOutbox keeps the queued webhooks in order, with their due times.
type memOutbox struct {
	webhooks []SandboxWebhook
	due      []time.Time
}

func (o *memOutbox) Queue(_ context.Context, b []byte, due time.Time) error {
	var w SandboxWebhook
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	o.webhooks = append(o.webhooks, w)
	o.due = append(o.due, due)
	return nil
}

// take is what was queued since the last take: "id@due" with the due time
// as an offset from now ("+0s" for at once).
func (o *memOutbox) take(now time.Time) []string {
	var out []string
	for i, w := range o.webhooks {
		out = append(out, w.Event.ID+" "+w.Event.Type+" "+string(w.Event.Object)+":"+w.Event.Reference+
			"@+"+o.due[i].Sub(now).String())
	}
	o.webhooks, o.due = nil, nil
	return out
}

func want(t *testing.T, step string, got []string, want ...string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s: queued\n%s\nwant\n%s", step, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSimulatorQueuesItsWebhooks: with the account's webhooks on, every
// change the simulator makes to a payment, a refund or a dispute queues one
// webhook with an event id of its own, due when the change happens (an
// evidence decision when the review ends); a refusal under an outage
// (nothing done) and a payment waiting for its customer queue none; with
// webhooks off nothing is queued.
func TestSimulatorQueuesItsWebhooks(t *testing.T) {
	now := time.Date(2026, 11, 28, 6, 0, 0, 0, time.UTC)
	out := &memOutbox{}
	sim := &Simulator{Ledger: &memLedger{m: map[string][]byte{}}, Webhooks: out, Now: func() time.Time { return now }}
	acct := account("stripe_test")
	acct.Sandbox.Webhooks = true
	req := func(number string, cm CaptureMethod) *AuthorizeRequest {
		r := cardReq(number, cm)
		r.Account = acct
		return r
	}

	auth, _ := sim.Authorize(ctx, req("4000000000000259", CaptureManualMultiple))
	want(t, "authorize", out.take(now), "evt_sim_authorized_"+attemptID+" payment_authorized payment:"+attemptID+"@+0s")
	md := roundTrip(t, auth.ConnectorMetadata)
	c1, _ := sim.Capture(ctx, &CaptureRequest{Account: acct, ConnectorTransactionID: txnID, CaptureID: "cap_1",
		AmountToCapture: 1000, Currency: "USD", ConnectorMetadata: md})
	md = roundTrip(t, c1.ConnectorMetadata)
	sim.Capture(ctx, &CaptureRequest{Account: acct, ConnectorTransactionID: txnID, CaptureID: "cap_2",
		AmountToCapture: 500, Currency: "USD", ConnectorMetadata: md})
	want(t, "two captures", out.take(now),
		"evt_sim_succeeded_"+attemptID+"_capture_1 payment_succeeded payment:"+attemptID+"@+0s",
		"evt_sim_opened_sim_dp_"+attemptID+" dispute_opened dispute:sim_dp_"+attemptID+"@+0s",
		"evt_sim_succeeded_"+attemptID+"_capture_2 payment_succeeded payment:"+attemptID+"@+0s",
		"evt_sim_opened_sim_dp_"+attemptID+" dispute_opened dispute:sim_dp_"+attemptID+"@+0s")

	sim.Refund(ctx, &RefundRequest{Account: acct, ConnectorTransactionID: txnID, RefundID: "ref_1", Amount: 100,
		Currency: "USD", ConnectorMetadata: md})
	sim.Refund(ctx, &RefundRequest{Account: acct, ConnectorTransactionID: txnID, RefundID: "ref_2", Amount: 0,
		Currency: "USD", ConnectorMetadata: md})
	want(t, "refunds", out.take(now), "evt_sim_succeeded_ref_1 refund_succeeded refund:ref_1@+0s",
		"evt_sim_failed_ref_2 refund_failed refund:ref_2@+0s")

	sim.SubmitEvidence(ctx, &EvidenceRequest{Account: acct, ConnectorDisputeID: "sim_dp_" + attemptID,
		Text: map[string]string{"uncategorized_text": "we win"}})
	decide := now.Add(EvidenceReviewDelay).UnixMilli()
	want(t, "evidence", out.take(now), "evt_sim_won_sim_dp_"+attemptID+"_"+strconv.FormatInt(decide, 10)+" dispute_won dispute:sim_dp_"+
		attemptID+"@+"+EvidenceReviewDelay.String())

	pending, _ := sim.Authorize(ctx, req("4000000000003063", CaptureAutomatic))
	want(t, "a challenge", out.take(now))
	sim.CompleteAuthentication(ctx, &CompleteAuthenticationRequest{Account: acct, ConnectorTransactionID: txnID,
		ConnectorMetadata: roundTrip(t, pending.ConnectorMetadata), Approved: false})
	want(t, "a declined challenge", out.take(now), "evt_sim_failed_"+attemptID+" payment_failed payment:"+attemptID+"@+0s")

	manual, _ := sim.Authorize(ctx, req("4242424242424242", CaptureManual))
	out.take(now)
	sim.Void(ctx, &VoidRequest{Account: acct, ConnectorTransactionID: txnID, ConnectorMetadata: roundTrip(t, manual.ConnectorMetadata)})
	want(t, "void", out.take(now), "evt_sim_voided_"+attemptID+" payment_voided payment:"+attemptID+"@+0s")

	timedOut := req("4242424242424242", CaptureAutomatic)
	timedOut.Sandbox.Timeout = true
	sim.Authorize(ctx, timedOut)
	want(t, "a timeout", out.take(now), "evt_sim_failed_"+attemptID+" payment_failed payment:"+attemptID+"@+0s")

	down := req("4242424242424242", CaptureAutomatic)
	down.Sandbox.Outage = true
	sim.Authorize(ctx, down)
	sim.Refund(ctx, &RefundRequest{Account: down.Account, ConnectorTransactionID: txnID, RefundID: "ref_3", Amount: 100,
		Currency: "USD", ConnectorMetadata: md})
	want(t, "an outage", out.take(now))

	quiet := cardReq("4242424242424242", CaptureAutomatic)
	sim.Authorize(ctx, quiet)
	want(t, "webhooks off", out.take(now))
}
