package rest_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/ent/dispute"
	"switchyard/ent/event"
	"switchyard/ent/predicate"
	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
)

// decideDisputes runs the dispute worker's pass once, as serve does
// (a recovery window of two minutes), and answers how many disputes it
// settled or decided.
func decideDisputes(t *testing.T, c *client) int {
	t.Helper()
	n, err := c.srv.Payments.DecideDisputes(context.Background(), 2*time.Minute, 100)
	if err != nil {
		t.Fatalf("dispute pass: %v", err)
	}
	return n
}

// disputeStatusOf is the dispute's status and connector status as a plain
// GET (no force_sync) shows them.
func disputeStatusOf(t *testing.T, c *client, key, dp string) string {
	t.Helper()
	r := c.do("GET", "/disputes/"+dp, key, nil).must(t, 200)
	return r.str("dispute_status") + "/" + r.str("connector_status")
}

// passShows runs a pass, which must settle or decide settled disputes,
// and checks what dp then shows (disputeStatusOf) and its events so far.
func passShows(t *testing.T, c *client, key, dp string, settled int, status, events string) {
	t.Helper()
	if n := decideDisputes(t, c); n != settled {
		t.Fatalf("the pass settled or decided %d, want %d", n, settled)
	}
	if got := disputeStatusOf(t, c, key, dp); got != status {
		t.Fatalf("after the pass: %s, want %s", got, status)
	}
	if got := strings.Join(disputeEventTypes(t, c, dp), ","); got != events {
		t.Fatalf("events after the pass: %s, want %s", got, events)
	}
}

// TestDisputePassDecidesChallenged: the worker pass leaves a dispute under
// review alone, and once the sandbox's review delay has passed decides it
// (dispute_won, its event) without anyone asking for force_sync; a
// decided dispute is not looked at again.
func TestDisputePassDecidesChallenged(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "we win"}).must(t, 200)
	// Under review: nothing to decide.
	passShows(t, c, key, dp, 0, "dispute_challenged/under_review", "dispute_opened,dispute_challenged")
	c.srv.Clock.Advance(2 * time.Minute)
	passShows(t, c, key, dp, 1, "dispute_won/won", "dispute_opened,dispute_challenged,dispute_won")
	// Decided, it is not looked at again.
	passShows(t, c, key, dp, 0, "dispute_won/won", "dispute_opened,dispute_challenged,dispute_won")
}

// TestDisputeDecidedOnceWhenPassesRace: passes of several processes (and
// a forced sync) racing over one due dispute decide it once: one pass
// counts it, and it has exactly one dispute_lost event.
func TestDisputeDecidedOnceWhenPassesRace(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeNotReceivedCard)
	c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "tracked"}).must(t, 200)
	c.srv.Clock.Advance(2 * time.Minute)

	const passes = 4
	counts := make([]int, passes)
	errs := make([]error, passes)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range passes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			counts[i], errs[i] = c.srv.Payments.DecideDisputes(context.Background(), 2*time.Minute, 100)
		}()
	}
	close(start)
	synced := c.do("GET", "/disputes/"+dp+"?force_sync=true", key, nil)
	wg.Wait()
	total := 0
	for i := range passes {
		if errs[i] != nil {
			t.Fatalf("pass %d: %v", i, errs[i])
		}
		total += counts[i]
	}
	if synced.Status != 200 || synced.str("dispute_status") != "dispute_lost" {
		t.Fatalf("forced sync during the passes: %d %s", synced.Status, synced.Raw)
	}
	if total > 1 {
		t.Fatalf("the passes decided the dispute %d times", total)
	}
	if got := strings.Join(disputeEventTypes(t, c, dp), ","); got != "dispute_opened,dispute_challenged,dispute_lost" {
		t.Fatalf("events: %s", got)
	}
}

// pendEvidence leaves the dispute as a crash after the reserve step of an
// evidence submission does: the evidence stored and the submission pending
// since age ago, with nothing sent to the connector.
func pendEvidence(t *testing.T, c *client, dp string, evidence map[string]any, age time.Duration) {
	t.Helper()
	err := c.srv.Store.Client.Dispute.UpdateOneID(dp).SetEvidence(evidence).
		SetEvidencePendingSince(c.srv.Clock.Now().Add(-age)).Exec(tenancy.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
}

// TestDisputeEvidenceLeftPendingIsRecovered: a submission a crash left
// pending refuses other evidence (HE_03) and is left alone while younger
// than the recovery window; then the pass finds the connector never got
// it, sends it again and records the dispute challenged (one event), and
// a later pass decides it by that evidence.
func TestDisputeEvidenceLeftPendingIsRecovered(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	receipt := uploadFile(t, c, key, "receipt.pdf", "application/pdf", []byte("%PDF receipt"))
	pendEvidence(t, c, dp, map[string]any{"receipt": receipt}, 0)

	for _, r := range []response{
		c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "other"}),
		c.do("DELETE", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "evidence_type": "receipt"}),
	} {
		if r.Status != 400 || r.errCode() != "HE_03" || !strings.Contains(r.str("error", "message"), "being submitted") {
			t.Fatalf("evidence while a submission is pending: %d %s", r.Status, r.Raw)
		}
	}
	// Younger than the recovery window, its call may still be on its way.
	passShows(t, c, key, dp, 0, "dispute_opened/needs_response", "dispute_opened")
	pendEvidence(t, c, dp, map[string]any{"receipt": receipt}, time.Hour)
	passShows(t, c, key, dp, 1, "dispute_challenged/under_review", "dispute_opened,dispute_challenged")
	c.srv.Clock.Advance(2 * time.Minute)
	// Decided by the evidence sent on recovery (a receipt wins).
	passShows(t, c, key, dp, 1, "dispute_won/won", "dispute_opened,dispute_challenged,dispute_won")
	// Decided, the dispute takes no more evidence.
	if r := c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp}); r.Status != 400 || r.errCode() != "HE_03" {
		t.Fatalf("evidence on a decided dispute: %d %s", r.Status, r.Raw)
	}
}

// TestDisputeEvidenceArrivedBeforeTheCrash: the connector took the
// evidence but the process died before recording its answer (the dispute
// still open, the submission pending, no dispute_challenged event). The
// pass learns from the connector's dispute sync that it arrived, records
// the dispute challenged with one event without sending again, and the
// decision follows by the evidence the connector has.
func TestDisputeEvidenceArrivedBeforeTheCrash(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeNotReceivedCard)
	c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "lost cause"}).must(t, 200)
	ctx, db := systemDB(c)
	if err := db.Dispute.UpdateOneID(dp).SetDisputeStatus(dispute.DisputeStatusDisputeOpened).SetConnectorStatus("needs_response").
		SetEvidencePendingSince(c.srv.Clock.Now().Add(-time.Hour)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	challenged := []predicate.Event{event.ObjectID(dp), event.EventTypeEQ(event.EventTypeDisputeChallenged)}
	evs, err := db.Event.Query().Where(challenged...).IDs(ctx)
	if err != nil || len(evs) != 1 {
		t.Fatalf("challenged events: %v %v", evs, err)
	}
	if _, err := db.WebhookDeliveryTask.Delete().Where(webhookdeliverytask.EventIDIn(evs...)).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Event.Delete().Where(challenged...).Exec(ctx); err != nil {
		t.Fatal(err)
	}

	c.srv.Clock.Advance(30 * time.Second) // within the review: a second submission would restart it
	passShows(t, c, key, dp, 1, "dispute_challenged/under_review", "dispute_opened,dispute_challenged")
	c.srv.Clock.Advance(45 * time.Second) // past the first submission's minute, not a second's
	passShows(t, c, key, dp, 1, "dispute_lost/lost", "dispute_opened,dispute_challenged,dispute_lost")
}
