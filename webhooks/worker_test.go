package webhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/schema/schematype"
	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/merchant"
	"switchyard/webhooks"
)

type received struct {
	body      []byte
	signature string
	agent     string
	at        time.Time // when the request arrived
}

// receiver answers with the statuses in plan, then 200.
type receiver struct {
	mu    sync.Mutex
	got   []received
	plan  []int
	delay time.Duration
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Now()
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.got = append(rc.got, received{b, r.Header.Get(webhooks.SignatureHeader), r.Header.Get("User-Agent"), at})
	status := 200
	if len(rc.plan) > 0 {
		status, rc.plan = rc.plan[0], rc.plan[1:]
	}
	rc.mu.Unlock()
	if rc.delay > 0 {
		time.Sleep(rc.delay)
	}
	w.Header().Set("X-Receiver", "test")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(`{"ok":true}`))
}

func (rc *receiver) count() int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.got)
}

type fixture struct {
	srv     *testenv.Server
	worker  *webhooks.Worker
	hashKey string
	sys     context.Context
}

func setup(t *testing.T, rc http.Handler, schedule []time.Duration, timeout time.Duration) *fixture {
	t.Helper()
	srv := testenv.NewServer(t, testenv.Database(t))
	recv := httptest.NewServer(rc)
	t.Cleanup(recv.Close)
	sys := tenancy.System(context.Background())
	url := recv.URL + "/hooks"
	prof, err := srv.Store.Client.Profile.UpdateOneID(srv.Demo.ProfileID).
		SetWebhookDetails(&schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: &url}}).Save(sys)
	if err != nil {
		t.Fatal(err)
	}
	key, err := srv.Merchants.ProfileHashKey(prof)
	if err != nil {
		t.Fatal(err)
	}
	w := webhooks.NewWorker(srv.Store.Client, webhooks.Options{
		Schedule: schedule, Timeout: timeout, AllowPrivate: true,
		RowLocks: srv.Store.Dialect == "mysql", Version: "test", HashKey: srv.Merchants.ProfileHashKey,
	})
	return &fixture{srv: srv, worker: w, hashKey: key, sys: sys}
}

// enqueue writes an event and its delivery task, as the outbox does.
func (f *fixture) enqueue(t *testing.T, objectID string) *ent.Event {
	t.Helper()
	return f.enqueueFor(t, objectID, f.srv.Demo.ProfileID)
}

// enqueueFor writes an event of one profile and its delivery task.
func (f *fixture) enqueueFor(t *testing.T, objectID, profileID string) *ent.Event {
	t.Helper()
	body := `{"merchant_id":"` + f.srv.Demo.MerchantID + `","event_type":"payment_succeeded","content":{"type":"payment_details","object":{"payment_id":"` + objectID + `"}}}`
	ev, err := f.srv.Store.Client.Event.Create().
		SetMerchantID(f.srv.Demo.MerchantID).SetProfileID(profileID).
		SetObjectID(objectID).SetEventType(event.EventTypePaymentSucceeded).SetEventClass(event.EventClassPayments).
		SetIdempotentEventID(objectID + "_payment_succeeded").SetContent(body).Save(f.sys)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.srv.Store.Client.WebhookDeliveryTask.Create().SetMerchantID(ev.MerchantID).
		SetEventID(ev.ID).SetNextAttemptAt(time.Now().UTC()).Save(f.sys); err != nil {
		t.Fatal(err)
	}
	return ev
}

func (f *fixture) attempts(t *testing.T, eventID string) []*ent.EventDeliveryAttempt {
	t.Helper()
	out, err := f.srv.Store.Client.EventDeliveryAttempt.Query().
		Where(eventdeliveryattempt.EventID(eventID)).
		Order(ent.Asc(eventdeliveryattempt.FieldCreatedAt), ent.Asc(eventdeliveryattempt.FieldID)).All(f.sys)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// drain runs the worker until the task is settled or the bound is hit.
func (f *fixture) drain(t *testing.T, eventID string, bound time.Duration) *ent.WebhookDeliveryTask {
	t.Helper()
	deadline := time.Now().Add(bound)
	for {
		if _, err := f.worker.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		task, err := f.srv.Store.Client.WebhookDeliveryTask.Query().Where(webhookdeliverytask.EventID(eventID)).Only(f.sys)
		if err != nil {
			t.Fatal(err)
		}
		if task.Status != webhookdeliverytask.StatusPending || time.Now().After(deadline) {
			return task
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestDeliverySignedAndRecorded(t *testing.T) {
	rc := &receiver{}
	f := setup(t, rc, []time.Duration{10 * time.Millisecond}, 2*time.Second)
	ev := f.enqueue(t, "pay_signed")
	if task := f.drain(t, ev.ID, 5*time.Second); task.Status != webhookdeliverytask.StatusDelivered {
		t.Fatalf("task %s", task.Status)
	}
	if rc.count() != 1 {
		t.Fatalf("receiver got %d requests", rc.count())
	}
	got := rc.got[0]
	mac := hmac.New(sha512.New, []byte(f.hashKey))
	mac.Write(got.body)
	if want := hex.EncodeToString(mac.Sum(nil)); got.signature != want || string(got.body) != ev.Content {
		t.Fatalf("signature %q, want %q (body %s)", got.signature, want, got.body)
	}
	if got.agent != "Switchyard/test" {
		t.Fatalf("User-Agent %q", got.agent)
	}
	atts := f.attempts(t, ev.ID)
	if len(atts) != 1 || !atts[0].IsDeliverySuccessful || atts[0].DeliveryAttempt != eventdeliveryattempt.DeliveryAttemptInitialAttempt ||
		atts[0].InitialAttemptID != ev.ID || *atts[0].Response.StatusCode != 200 {
		t.Fatalf("attempts %+v", atts)
	}
	var sigRecorded bool
	for _, h := range atts[0].Request.Headers {
		sigRecorded = sigRecorded || (h[0] == webhooks.SignatureHeader && h[1] == got.signature)
	}
	if !sigRecorded {
		t.Fatal("the signature header is not recorded on the attempt")
	}
	if ev, _ := f.srv.Store.Client.Event.Get(f.sys, ev.ID); !ev.IsDelivered {
		t.Fatal("event not marked delivered")
	}
}

func TestRetriesFollowTheSchedule(t *testing.T) {
	rc := &receiver{plan: []int{500, 503, 404}}
	f := setup(t, rc, []time.Duration{20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond, 20 * time.Millisecond}, 2*time.Second)
	ev := f.enqueue(t, "pay_retry")
	if task := f.drain(t, ev.ID, 10*time.Second); task.Status != webhookdeliverytask.StatusDelivered || task.RetryCount != 3 {
		t.Fatalf("task %s after %d retries", task.Status, task.RetryCount)
	}
	atts := f.attempts(t, ev.ID)
	wantCodes := []int{500, 503, 404, 200}
	if len(atts) != 4 {
		t.Fatalf("%d attempts", len(atts))
	}
	for i, a := range atts {
		kind := eventdeliveryattempt.DeliveryAttemptAutomaticRetry
		if i == 0 {
			kind = eventdeliveryattempt.DeliveryAttemptInitialAttempt
		}
		if *a.Response.StatusCode != wantCodes[i] || a.DeliveryAttempt != kind || a.IsDeliverySuccessful != (i == 3) || a.InitialAttemptID != ev.ID {
			t.Fatalf("attempt %d: %d %s %v", i, *a.Response.StatusCode, a.DeliveryAttempt, a.IsDeliverySuccessful)
		}
	}
	// The schedule counts from the previous attempt's answer, which comes
	// after its request arrived: each request arrives at least a step after
	// the one before. (The attempts' rows are written after their answers,
	// a batch at a time, so their created_at cannot show it.)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for i := 1; i < len(rc.got); i++ {
		if gap := rc.got[i].at.Sub(rc.got[i-1].at); gap < 20*time.Millisecond {
			t.Fatalf("request %d came %s after the previous one, before the schedule allows", i, gap)
		}
	}
}

func TestScheduleRunsOut(t *testing.T) {
	rc := &receiver{plan: []int{500, 500, 500}}
	f := setup(t, rc, []time.Duration{10 * time.Millisecond, 10 * time.Millisecond}, 2*time.Second)
	ev := f.enqueue(t, "pay_exhausted")
	if task := f.drain(t, ev.ID, 10*time.Second); task.Status != webhookdeliverytask.StatusExhausted {
		t.Fatalf("task %s", task.Status)
	}
	if n := len(f.attempts(t, ev.ID)); n != 3 { // initial + 2 retries
		t.Fatalf("%d attempts, want 3", n)
	}
	// A manual retry delivers now and settles the task.
	att, err := f.worker.Retry(tenancy.ForMerchant(f.sys, f.srv.Demo.MerchantID), ev.ID)
	if err != nil {
		t.Fatal(err)
	}
	if att.DeliveryAttempt != eventdeliveryattempt.DeliveryAttemptManualRetry || !att.IsDeliverySuccessful {
		t.Fatalf("manual retry %+v", att)
	}
	task := f.drain(t, ev.ID, time.Second)
	if task.Status != webhookdeliverytask.StatusDelivered {
		t.Fatalf("task after manual retry: %s", task.Status)
	}
}

func TestReceiverThatTimesOut(t *testing.T) {
	rc := &receiver{delay: 700 * time.Millisecond}
	f := setup(t, rc, []time.Duration{time.Hour}, 200*time.Millisecond)
	ev := f.enqueue(t, "pay_slow")
	f.worker.RunOnce(context.Background())
	atts := f.attempts(t, ev.ID)
	if len(atts) != 1 || atts[0].IsDeliverySuccessful || atts[0].Response.ErrorMessage == nil ||
		!strings.Contains(*atts[0].Response.ErrorMessage, "no answer within") {
		t.Fatalf("attempt %+v", atts)
	}
}

func TestForbiddenTargets(t *testing.T) {
	var hits atomic.Int32
	for _, url := range []string{"http://169.254.169.254/latest/meta-data", "http://[fe80::1]/x", "ftp://example.com/x"} {
		t.Run(url, func(t *testing.T) {
			rc := &receiver{}
			f := setup(t, rc, []time.Duration{time.Hour}, time.Second)
			if _, err := f.srv.Store.Client.Profile.UpdateOneID(f.srv.Demo.ProfileID).
				SetWebhookDetails(&schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: &url}}).Save(f.sys); err != nil {
				t.Fatal(err)
			}
			ev := f.enqueue(t, "pay_forbidden")
			f.worker.RunOnce(context.Background())
			atts := f.attempts(t, ev.ID)
			if len(atts) != 1 || atts[0].IsDeliverySuccessful || atts[0].Response.ErrorMessage == nil ||
				!strings.Contains(*atts[0].Response.ErrorMessage, "not allowed") {
				t.Fatalf("attempt %+v", atts[0].Response)
			}
			hits.Add(int32(rc.count()))
		})
	}
	// Private targets are refused when the operator does not allow them.
	rc := &receiver{}
	f := setup(t, rc, []time.Duration{time.Hour}, time.Second)
	strict := webhooks.NewWorker(f.srv.Store.Client, webhooks.Options{Schedule: []time.Duration{time.Hour}, Timeout: time.Second,
		AllowPrivate: false, HashKey: f.srv.Merchants.ProfileHashKey})
	ev := f.enqueue(t, "pay_private")
	strict.RunOnce(context.Background())
	if rc.count() != 0 || hits.Load() != 0 {
		t.Fatal("a forbidden target was reached")
	}
	if atts := f.attempts(t, ev.ID); len(atts) != 1 || !strings.Contains(*atts[0].Response.ErrorMessage, "private or loopback") {
		t.Fatalf("attempt %+v", atts[0].Response)
	}
}

func TestParseSchedule(t *testing.T) {
	d, err := webhooks.ParseSchedule("")
	if err != nil || len(d) != 16 || d[0] != time.Minute || d[15] != 6*time.Hour {
		t.Fatalf("default schedule %v %v", d, err)
	}
	if d, err := webhooks.ParseSchedule("10ms, 1s,2m"); err != nil || len(d) != 3 || d[1] != time.Second {
		t.Fatalf("%v %v", d, err)
	}
	for _, bad := range []string{"1x", "1s,,2s", "-1s", "0s"} {
		if _, err := webhooks.ParseSchedule(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// failFor answers 500 to the bodies that mention one object, 200 to the rest.
type failFor struct {
	object string
	mu     sync.Mutex
	posts  int
}

func (h *failFor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	h.posts++
	h.mu.Unlock()
	if strings.Contains(string(b), h.object) {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// TestOneBatchSettlesEachTaskByItsOutcome: a claimed batch is recorded in
// one transaction, and each task still ends as its own delivery went:
// delivered, retried later, or disabled when its profile has no webhook URL.
func TestOneBatchSettlesEachTaskByItsOutcome(t *testing.T) {
	rc := &failFor{object: "pay_refused"}
	f := setup(t, rc, []time.Duration{time.Hour}, 2*time.Second)
	ctx := tenancy.ForMerchant(f.sys, f.srv.Demo.MerchantID)
	quiet, err := f.srv.Merchants.CreateProfile(ctx, merchant.ProfileInput{})
	if err != nil {
		t.Fatal(err)
	}
	delivered := []*ent.Event{f.enqueue(t, "pay_one"), f.enqueue(t, "pay_two"), f.enqueue(t, "pay_three")}
	refused := f.enqueue(t, "pay_refused")
	silent := f.enqueueFor(t, "pay_silent", quiet.ID)

	start := time.Now()
	if n, err := f.worker.RunOnce(context.Background()); err != nil || n != 5 {
		t.Fatalf("RunOnce: %d tasks, %v; want the 5 in one batch", n, err)
	}
	if rc.posts != 4 {
		t.Fatalf("%d POSTs, want 4 (the profile without a webhook URL gets none)", rc.posts)
	}
	task := func(ev *ent.Event) *ent.WebhookDeliveryTask {
		t.Helper()
		tk, err := f.srv.Store.Client.WebhookDeliveryTask.Query().Where(webhookdeliverytask.EventID(ev.ID)).Only(f.sys)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	event := func(ev *ent.Event) *ent.Event {
		t.Helper()
		return f.srv.Store.Client.Event.GetX(f.sys, ev.ID)
	}
	for _, ev := range delivered {
		tk, atts := task(ev), f.attempts(t, ev.ID)
		if tk.Status != webhookdeliverytask.StatusDelivered || tk.LockedUntil != nil || tk.RetryCount != 0 {
			t.Fatalf("%s: task %s locked %v retries %d", ev.ObjectID, tk.Status, tk.LockedUntil, tk.RetryCount)
		}
		if len(atts) != 1 || !atts[0].IsDeliverySuccessful || *atts[0].ResponseStatusCode != 200 || !event(ev).IsDelivered {
			t.Fatalf("%s: %d attempts, event delivered %v", ev.ObjectID, len(atts), event(ev).IsDelivered)
		}
	}
	tk, atts := task(refused), f.attempts(t, refused.ID)
	if tk.Status != webhookdeliverytask.StatusPending || tk.RetryCount != 1 || tk.LockedUntil != nil ||
		tk.NextAttemptAt.Before(start.Add(59*time.Minute)) || tk.LastError != nil && *tk.LastError == "" {
		t.Fatalf("refused: task %s retries %d next %s", tk.Status, tk.RetryCount, tk.NextAttemptAt)
	}
	if len(atts) != 1 || atts[0].IsDeliverySuccessful || *atts[0].ResponseStatusCode != 500 || event(refused).IsDelivered {
		t.Fatalf("refused: %d attempts, event delivered %v", len(atts), event(refused).IsDelivered)
	}
	tk = task(silent)
	if tk.Status != webhookdeliverytask.StatusDisabled || tk.LastError == nil || len(f.attempts(t, silent.ID)) != 0 {
		t.Fatalf("no webhook URL: task %s, last error %v", tk.Status, tk.LastError)
	}
	if n, err := f.worker.RunOnce(context.Background()); err != nil || n != 0 {
		t.Fatalf("a second claim took %d tasks (%v); none is due", n, err)
	}
}
