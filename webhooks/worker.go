package webhooks

import (
	"bytes"
	"context"
	stdsql "database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
	"switchyard/ent/predicate"
	"switchyard/ent/profile"
	"switchyard/ent/schema/schematype"
	"switchyard/ent/webhookdeliverytask"
	"switchyard/internal/tenancy"
)

// Options configure a Worker.
type Options struct {
	// Schedule is the wait before each automatic retry.
	Schedule []time.Duration
	// Timeout bounds one delivery (default 30 s).
	Timeout time.Duration
	// AllowPrivate permits private and loopback targets (sandbox default).
	AllowPrivate bool
	// RowLocks claims tasks with SELECT … FOR UPDATE SKIP LOCKED (MySQL).
	RowLocks bool
	// BatchSize is how many due tasks one claim takes and delivers at once
	// (default DefaultBatchSize).
	BatchSize int
	// PollInterval is the wait when nothing is due (default 1 s), unless
	// Wake comes first: polling finds retries that fall due and events
	// queued by processes that run no workers.
	PollInterval time.Duration
	// Version goes into the User-Agent.
	Version string
	// HashKey opens a profile's payment_response_hash_key.
	HashKey func(*ent.Profile) (string, error)
	Log     *slog.Logger
	// Now is the clock tasks fall due by: the outbox's, which queues them
	// at its own now (default the wall clock).
	Now func() time.Time
}

// DefaultBatchSize is how many tasks a claim takes. A batch's bookkeeping
// costs the same few statements whatever its size, so larger batches
// deliver more per second (docs/performance.md, "Webhook delivery"); a
// batch is also sent at once, so it bounds the connections one worker
// opens to a single merchant.
const DefaultBatchSize = 50

// MaxRecordedBody bounds the response body kept on an attempt.
const MaxRecordedBody = 16 << 10

// Worker delivers due webhook tasks.
type Worker struct {
	client *ent.Client
	opts   Options
	http   *http.Client
	now    func() time.Time

	wakeMu sync.Mutex
	woken  chan struct{} // closed by Wake, then replaced
}

// Wake tells the waiting Run loops that deliveries were queued, so they
// claim them now rather than at their next poll. It never blocks.
func (w *Worker) Wake() {
	w.wakeMu.Lock()
	close(w.woken)
	w.woken = make(chan struct{})
	w.wakeMu.Unlock()
}

// wakeup is what the next Wake closes.
func (w *Worker) wakeup() <-chan struct{} {
	w.wakeMu.Lock()
	defer w.wakeMu.Unlock()
	return w.woken
}

// NewWorker returns a worker over client.
func NewWorker(client *ent.Client, opts Options) *Worker {
	if opts.Timeout <= 0 {
		opts.Timeout = 30 * time.Second
	}
	if opts.BatchSize <= 0 {
		opts.BatchSize = DefaultBatchSize
	}
	now := func() time.Time { return time.Now().UTC() }
	if opts.Now != nil {
		now = func() time.Time { return opts.Now().UTC() }
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Schedule == nil {
		opts.Schedule = DefaultSchedule
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	transport := &http.Transport{
		DialContext:           dialContext(opts.Timeout, opts.AllowPrivate),
		TLSHandshakeTimeout:   opts.Timeout,
		ResponseHeaderTimeout: opts.Timeout,
		MaxIdleConnsPerHost:   4 * opts.BatchSize, // batches of several workers to one host reuse their connections
		IdleConnTimeout:       90 * time.Second,
		Proxy:                 nil, // a proxy would hide the target from the address check
	}
	return &Worker{
		client: client,
		opts:   opts,
		woken:  make(chan struct{}),
		http: &http.Client{
			Transport: transport,
			Timeout:   opts.Timeout,
			// A redirect could lead anywhere; the merchant's URL must answer itself.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		now: now,
	}
}

// Run delivers due tasks until ctx is done.
func (w *Worker) Run(ctx context.Context) {
	poll := time.NewTimer(w.opts.PollInterval)
	defer poll.Stop()
	for ctx.Err() == nil {
		woken := w.wakeup() // before the claim: a Wake during it is not lost
		n, err := w.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			w.opts.Log.ErrorContext(ctx, "webhook worker", "err", err)
		}
		if n == 0 || err != nil {
			poll.Reset(w.opts.PollInterval)
			select {
			case <-ctx.Done():
			case <-woken:
			case <-poll.C:
			}
		}
	}
}

// RunOnce claims one batch of due tasks and delivers them; it returns how
// many it delivered (successfully or not).
//
// A batch costs a fixed handful of statements, whatever its size: the
// claim, one read of its events, one of their profiles, and one
// transaction that records every outcome (the attempts in one multi-row
// INSERT, the delivered events and tasks in one UPDATE each). Only a failed
// delivery, whose retry falls due at its own time, costs a statement of its
// own. A process that dies between the POSTs and that transaction leaves
// the tasks leased; they fall due again when the lease ends and are sent
// again: at least once.
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	sys := tenancy.System(ctx)
	tasks, err := w.claim(sys)
	if err != nil || len(tasks) == 0 {
		return 0, err
	}
	sends, err := w.prepare(sys, tasks)
	if err != nil {
		return 0, err
	}
	// The batch is delivered concurrently: every task is settled within one
	// delivery timeout of its claim, inside its lease, however slow the
	// receivers are (one after the other, a batch of slow receivers would
	// outlast the lease and another worker would claim its tail again), and
	// one slow merchant does not hold up the others' events.
	var wg sync.WaitGroup
	for _, d := range sends {
		if d.target != "" {
			wg.Go(func() { d.send(sys, w) })
		}
	}
	wg.Wait()
	if err := w.record(sys, sends); err != nil {
		return 0, err
	}
	return len(tasks), nil
}

// delivery is one claimed task on its way: the event, where it goes, and,
// once sent, what came back.
type delivery struct {
	task  *ent.WebhookDeliveryTask
	event *ent.Event
	kind  eventdeliveryattempt.DeliveryAttempt
	signer
	resp    *schematype.DeliveryResponse
	headers [][2]string
	ok      bool
}

// prepare reads the batch's events and their profiles in one query each,
// and opens each profile's signing key once.
func (w *Worker) prepare(ctx context.Context, tasks []*ent.WebhookDeliveryTask) ([]*delivery, error) {
	eventIDs := make([]string, len(tasks))
	for i, t := range tasks {
		eventIDs[i] = t.EventID
	}
	evs, err := w.client.Event.Query().Where(event.IDIn(eventIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*ent.Event, len(evs))
	var profileIDs []string
	for _, ev := range evs {
		byID[ev.ID] = ev
		if !slices.Contains(profileIDs, ev.ProfileID) {
			profileIDs = append(profileIDs, ev.ProfileID)
		}
	}
	profs, err := w.client.Profile.Query().Where(profile.IDIn(profileIDs...)).All(ctx)
	if err != nil {
		return nil, err
	}
	signers := make(map[string]signer, len(profs))
	for _, p := range profs {
		if signers[p.ID], err = w.signerOf(p); err != nil {
			return nil, err
		}
	}
	out := make([]*delivery, 0, len(tasks))
	for _, t := range tasks {
		ev, ok := byID[t.EventID]
		if !ok { // the foreign key makes this impossible; such a task would stay leased, and is logged
			w.opts.Log.ErrorContext(ctx, "webhook task without its event", "task", t.ID, "event_id", t.EventID)
			continue
		}
		kind := eventdeliveryattempt.DeliveryAttemptAutomaticRetry
		if t.RetryCount == 0 {
			kind = eventdeliveryattempt.DeliveryAttemptInitialAttempt
		}
		out = append(out, &delivery{task: t, event: ev, kind: kind, signer: signers[ev.ProfileID]})
	}
	return out, nil
}

// signer is where a profile's events go and the key that signs them;
// target is "" when the profile has no webhook_url.
type signer struct{ target, key string }

// signerOf opens p's signing key when it has somewhere to send.
func (w *Worker) signerOf(p *ent.Profile) (signer, error) {
	var s signer
	if p.WebhookDetails != nil && p.WebhookDetails.WebhookURL != nil {
		s.target = *p.WebhookDetails.WebhookURL
	}
	if s.target == "" {
		return s, nil
	}
	var err error
	s.key, err = w.opts.HashKey(p)
	return s, err
}

// send POSTs the event, signed, and notes the answer.
func (d *delivery) send(ctx context.Context, w *Worker) {
	body := []byte(d.event.Content)
	d.headers = w.headers(d.key, body)
	start := time.Now()
	d.resp = w.post(ctx, d.target, body, d.headers)
	d.ok = succeeded(d.resp)
	w.logAttempt(ctx, d.event, d.kind, d.target, d.resp, d.ok, time.Since(start))
}

// headers are those of every delivery: JSON, who sends it, and the
// signature of the body.
func (w *Worker) headers(key string, body []byte) [][2]string {
	return [][2]string{
		{"Content-Type", "application/json"},
		{"User-Agent", "Switchyard/" + w.opts.Version},
		{SignatureHeader, Sign(key, body)},
	}
}

// succeeded is Hyperswitch's rule: any 2xx answer is a delivery.
func succeeded(resp *schematype.DeliveryResponse) bool {
	return resp.StatusCode != nil && *resp.StatusCode >= 200 && *resp.StatusCode < 300
}

// attemptRow is the attempt a sent delivery leaves.
func attemptRow(c *ent.EventDeliveryAttemptClient, ev *ent.Event, kind eventdeliveryattempt.DeliveryAttempt,
	headers [][2]string, resp *schematype.DeliveryResponse, ok bool) *ent.EventDeliveryAttemptCreate {
	return c.Create().
		SetMerchantID(ev.MerchantID).
		SetEventID(ev.ID).
		SetDeliveryAttempt(kind).
		SetInitialAttemptID(ev.ID).
		SetRequest(&schematype.DeliveryRequest{Headers: headers}). // the body is the event's content
		SetResponse(resp).
		SetNillableResponseStatusCode(resp.StatusCode).
		SetIsDeliverySuccessful(ok)
}

// record writes the batch's outcomes in one transaction: the attempts, the
// events now delivered, and each task's new state.
func (w *Worker) record(ctx context.Context, sends []*delivery) error {
	tx, err := w.tx(ctx)
	if err != nil {
		return err
	}
	rollback := func(err error) error { _ = tx.Rollback(); return err }
	var (
		rows                      []*ent.EventDeliveryAttemptCreate
		newlyDelivered, delivered []string
		disabled                  []string
	)
	for _, d := range sends {
		switch {
		case d.target == "":
			disabled = append(disabled, d.task.ID)
			continue
		case d.ok:
			delivered = append(delivered, d.task.ID)
			if !d.event.IsDelivered && !slices.Contains(newlyDelivered, d.event.ID) {
				newlyDelivered = append(newlyDelivered, d.event.ID)
			}
		default:
			if err := w.retryLater(ctx, tx, d); err != nil {
				return rollback(err)
			}
		}
		rows = append(rows, attemptRow(tx.EventDeliveryAttempt, d.event, d.kind, d.headers, d.resp, d.ok))
	}
	if len(rows) > 0 {
		if err := tx.EventDeliveryAttempt.CreateBulk(rows...).Exec(ctx); err != nil {
			return rollback(err)
		}
	}
	if len(newlyDelivered) > 0 {
		if err := tx.Event.Update().Where(event.IDIn(newlyDelivered...)).SetIsDelivered(true).Exec(ctx); err != nil {
			return rollback(err)
		}
	}
	if len(delivered) > 0 {
		if err := tx.WebhookDeliveryTask.Update().Where(webhookdeliverytask.IDIn(delivered...)).
			SetStatus(webhookdeliverytask.StatusDelivered).ClearLockedUntil().ClearLastError().Exec(ctx); err != nil {
			return rollback(err)
		}
	}
	if len(disabled) > 0 {
		if err := tx.WebhookDeliveryTask.Update().Where(webhookdeliverytask.IDIn(disabled...)).
			SetStatus(webhookdeliverytask.StatusDisabled).ClearLockedUntil().
			SetLastError("the profile has no webhook_url").Exec(ctx); err != nil {
			return rollback(err)
		}
	}
	return tx.Commit()
}

// retryLater counts a failed delivery and schedules its next attempt, or
// gives the task up when the schedule has run out.
func (w *Worker) retryLater(ctx context.Context, tx *ent.Tx, d *delivery) error {
	retry := d.task.RetryCount + 1
	upd := tx.WebhookDeliveryTask.UpdateOneID(d.task.ID).ClearLockedUntil().SetRetryCount(retry)
	if d.resp.ErrorMessage != nil {
		upd.SetLastError(*d.resp.ErrorMessage)
	}
	if retry > len(w.opts.Schedule) {
		upd.SetStatus(webhookdeliverytask.StatusExhausted)
	} else {
		upd.SetNextAttemptAt(w.now().Add(w.opts.Schedule[retry-1]))
	}
	return upd.Exec(ctx)
}

// tx begins a worker's transaction. On MySQL it reads committed rows:
// under REPEATABLE READ the claim's SELECT … FOR UPDATE would also lock the
// gaps of the (status, next_attempt_at) index it scans, and two workers
// moving their tasks' entries in that index (the lease, the outcome) would
// wait on each other's gaps, as would every payment inserting a task.
// SKIP LOCKED and the row locks are what keep claims apart.
func (w *Worker) tx(ctx context.Context) (*ent.Tx, error) {
	if !w.opts.RowLocks {
		return w.client.Tx(ctx)
	}
	return w.client.BeginTx(ctx, &stdsql.TxOptions{Isolation: stdsql.LevelReadCommitted})
}

// lease is how long a claimed task stays reserved for its worker: the
// delivery timeout, plus a margin for recording the outcome (the timeout
// itself, at least 5 s and at most 30 s). A worker that dies holding a task
// leaves it due again when the lease ends, so delivery is at least once.
func (w *Worker) lease() time.Duration {
	return w.opts.Timeout + min(max(w.opts.Timeout, 5*time.Second), 30*time.Second)
}

// claim takes due tasks and leases them: their next_attempt_at moves to the
// end of the lease, so a crashed worker's tasks become due again and are
// delivered at least once. On MySQL the rows are claimed with SELECT … FOR
// UPDATE SKIP LOCKED: concurrent claimers (other workers, other processes)
// skip each other's rows instead of waiting for them, and none takes a task
// another one holds.
func (w *Worker) claim(ctx context.Context) ([]*ent.WebhookDeliveryTask, error) {
	tx, err := w.tx(ctx)
	if err != nil {
		return nil, err
	}
	now := w.now()
	q := tx.WebhookDeliveryTask.Query().
		Where(webhookdeliverytask.StatusEQ(webhookdeliverytask.StatusPending), webhookdeliverytask.NextAttemptAtLTE(now)).
		Order(ent.Asc(webhookdeliverytask.FieldNextAttemptAt), ent.Asc(webhookdeliverytask.FieldID)).
		Limit(w.opts.BatchSize)
	if w.opts.RowLocks {
		q = q.ForUpdate(sql.WithLockAction(sql.SkipLocked))
	}
	tasks, err := q.All(ctx)
	if err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	if len(tasks) == 0 {
		return nil, tx.Commit()
	}
	lease := now.Add(w.lease())
	claimed := make([]string, len(tasks))
	for i, t := range tasks {
		claimed[i] = t.ID
		t.LockedUntil, t.NextAttemptAt = &lease, lease
	}
	if err := tx.WebhookDeliveryTask.Update().Where(webhookdeliverytask.IDIn(claimed...)).
		SetLockedUntil(lease).SetNextAttemptAt(lease).Exec(ctx); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return tasks, tx.Commit()
}

// Retry sends an event now as a manual retry and returns the attempt. A
// success also marks the event delivered and settles its pending task, in
// the transaction that records the attempt.
func (w *Worker) Retry(ctx context.Context, eventID string) (*ent.EventDeliveryAttempt, error) {
	ev, err := w.client.Event.Query().Where(event.ID(eventID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	sys := tenancy.System(ctx)
	prof, err := w.client.Profile.Get(sys, ev.ProfileID)
	if err != nil {
		return nil, err
	}
	sg, err := w.signerOf(prof)
	if err != nil {
		return nil, err
	}
	if sg.target == "" {
		return nil, errors.New("the profile has no webhook_url")
	}
	d := &delivery{event: ev, kind: eventdeliveryattempt.DeliveryAttemptManualRetry, signer: sg}
	d.send(tenancy.ForMerchant(sys, ev.MerchantID), w)
	ok := d.ok

	tx, err := w.tx(sys)
	if err != nil {
		return nil, err
	}
	att, err := attemptRow(tx.EventDeliveryAttempt, ev, d.kind, d.headers, d.resp, ok).Save(sys)
	if err == nil && ok && !ev.IsDelivered {
		err = tx.Event.UpdateOneID(ev.ID).SetIsDelivered(true).Exec(sys)
	}
	if err == nil && ok {
		err = tx.WebhookDeliveryTask.Update().
			Where(webhookdeliverytask.EventID(ev.ID), webhookdeliverytask.StatusIn(
				webhookdeliverytask.StatusPending, webhookdeliverytask.StatusExhausted)).
			SetStatus(webhookdeliverytask.StatusDelivered).ClearLockedUntil().Exec(sys)
	}
	if err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	return att, tx.Commit()
}

// logAttempt writes one line for a delivery attempt, so an operator sees
// failures without the admin API: the event, the target's host (never its
// path or query, which may carry a secret), the answer or the error, and
// how long it took.
func (w *Worker) logAttempt(ctx context.Context, ev *ent.Event, kind eventdeliveryattempt.DeliveryAttempt,
	target string, resp *schematype.DeliveryResponse, ok bool, took time.Duration) {
	host := target
	if u, err := url.Parse(target); err == nil {
		host = u.Host
	}
	attrs := []slog.Attr{
		slog.String("event_id", ev.ID), slog.String("event_type", string(ev.EventType)),
		slog.String("merchant_id", ev.MerchantID), slog.String("attempt", string(kind)),
		slog.String("host", host), slog.Bool("delivered", ok), slog.Duration("duration", took),
	}
	if resp.StatusCode != nil {
		attrs = append(attrs, slog.Int("status", *resp.StatusCode))
	}
	if resp.ErrorMessage != nil {
		attrs = append(attrs, slog.String("error", *resp.ErrorMessage))
	}
	w.opts.Log.LogAttrs(ctx, slog.LevelInfo, "webhook delivery attempt", attrs...)
}

// post sends the request and describes what came back.
func (w *Worker) post(ctx context.Context, target string, body []byte, headers [][2]string) *schematype.DeliveryResponse {
	out := &schematype.DeliveryResponse{Headers: [][2]string{}}
	fail := func(err error) *schematype.DeliveryResponse {
		msg := err.Error()
		out.ErrorMessage = &msg
		return out
	}
	if err := CheckURL(target); err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return fail(err)
	}
	for _, h := range headers {
		req.Header.Set(h[0], h[1])
	}
	res, err := w.http.Do(req)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fail(fmt.Errorf("no answer within %s", w.opts.Timeout))
		}
		return fail(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, MaxRecordedBody))
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 1<<20))
	code := res.StatusCode
	s := string(b)
	out.StatusCode, out.Body = &code, &s
	names := make([]string, 0, len(res.Header))
	for name := range res.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, v := range res.Header[name] {
			out.Headers = append(out.Headers, [2]string{name, v})
		}
	}
	return out
}

// maxRequeue bounds one RequeueFailed: one statement, whatever the backlog;
// a dashboard asks again for the rest.
const maxRequeue = 1000

// RequeueFailed makes the failed deliveries of the merchant in ctx (of
// profileID, when given) due now, for the workers to send again: those
// given up (exhausted) and those waiting for their next automatic retry
// after a failure, never one a worker holds at the moment or one delivered.
// Each gets one more attempt on the schedule it was on. It answers how many
// it queued, at most maxRequeue at a time.
func (w *Worker) RequeueFailed(ctx context.Context, profileID string) (int, error) {
	merchantID, err := tenancy.Scope(ctx)
	if err != nil || merchantID == "" {
		return 0, errors.New("requeue: no merchant")
	}
	now := w.now()
	preds := []predicate.WebhookDeliveryTask{
		webhookdeliverytask.MerchantID(merchantID),
		webhookdeliverytask.Or(
			webhookdeliverytask.StatusEQ(webhookdeliverytask.StatusExhausted),
			webhookdeliverytask.And(webhookdeliverytask.StatusEQ(webhookdeliverytask.StatusPending),
				webhookdeliverytask.RetryCountGT(0)),
		),
		webhookdeliverytask.Or(webhookdeliverytask.LockedUntilIsNil(), webhookdeliverytask.LockedUntilLT(now)),
	}
	if profileID != "" {
		preds = append(preds, webhookdeliverytask.HasEventWith(event.ProfileID(profileID)))
	}
	sys := tenancy.System(ctx)
	ids, err := w.client.WebhookDeliveryTask.Query().Where(preds...).Limit(maxRequeue).IDs(sys)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	// Re-checked in the update: a worker may have claimed one meanwhile.
	return w.client.WebhookDeliveryTask.Update().Where(append(preds, webhookdeliverytask.IDIn(ids...))...).
		SetStatus(webhookdeliverytask.StatusPending).SetNextAttemptAt(now).ClearLockedUntil().Save(sys)
}
