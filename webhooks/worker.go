package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"sync"
	"time"

	"entgo.io/ent/dialect/sql"

	"switchyard/ent"
	"switchyard/ent/event"
	"switchyard/ent/eventdeliveryattempt"
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
	// (default 20).
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
}

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
		opts.BatchSize = 20
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
		MaxIdleConnsPerHost:   8,
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
		now: func() time.Time { return time.Now().UTC() },
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
func (w *Worker) RunOnce(ctx context.Context) (int, error) {
	sys := tenancy.System(ctx)
	tasks, err := w.claim(sys)
	if err != nil || len(tasks) == 0 {
		return 0, err
	}
	// The batch is delivered concurrently: every task is settled within one
	// delivery timeout of its claim, inside its lease, however slow the
	// receivers are (one after the other, a batch of slow receivers would
	// outlast the lease and another worker would claim its tail again), and
	// one slow merchant does not hold up the others' events.
	var wg sync.WaitGroup
	for _, t := range tasks {
		wg.Go(func() {
			if err := w.deliverTask(sys, t); err != nil {
				w.opts.Log.ErrorContext(ctx, "webhook delivery", "task", t.ID, "err", err)
			}
		})
	}
	wg.Wait()
	return len(tasks), nil
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
	tx, err := w.client.Tx(ctx)
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
	lease := now.Add(w.lease())
	for i, t := range tasks {
		if tasks[i], err = t.Update().SetLockedUntil(lease).SetNextAttemptAt(lease).Save(ctx); err != nil {
			_ = tx.Rollback()
			return nil, err
		}
	}
	return tasks, tx.Commit()
}

// deliverTask sends one task's event and records the outcome.
func (w *Worker) deliverTask(ctx context.Context, t *ent.WebhookDeliveryTask) error {
	ev, err := w.client.Event.Query().Where(event.ID(t.EventID)).Only(ctx)
	if err != nil {
		return err
	}
	kind := eventdeliveryattempt.DeliveryAttemptAutomaticRetry
	if t.RetryCount == 0 {
		kind = eventdeliveryattempt.DeliveryAttemptInitialAttempt
	}
	att, target, err := w.deliver(ctx, ev, kind)
	if err != nil {
		return err
	}
	upd := w.client.WebhookDeliveryTask.UpdateOne(t).ClearLockedUntil()
	switch {
	case target == "":
		upd.SetStatus(webhookdeliverytask.StatusDisabled).SetLastError("the profile has no webhook_url")
	case att.IsDeliverySuccessful:
		upd.SetStatus(webhookdeliverytask.StatusDelivered).ClearLastError()
	default:
		retry := t.RetryCount + 1
		upd.SetRetryCount(retry)
		if att.Response != nil && att.Response.ErrorMessage != nil {
			upd.SetLastError(*att.Response.ErrorMessage)
		}
		if retry > len(w.opts.Schedule) {
			upd.SetStatus(webhookdeliverytask.StatusExhausted)
		} else {
			upd.SetNextAttemptAt(w.now().Add(w.opts.Schedule[retry-1]))
		}
	}
	_, err = upd.Save(ctx)
	return err
}

// Retry sends an event now as a manual retry and returns the attempt. A
// success also settles its pending task.
func (w *Worker) Retry(ctx context.Context, eventID string) (*ent.EventDeliveryAttempt, error) {
	ev, err := w.client.Event.Query().Where(event.ID(eventID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	att, target, err := w.deliver(tenancy.ForMerchant(tenancy.System(ctx), ev.MerchantID), ev,
		eventdeliveryattempt.DeliveryAttemptManualRetry)
	if err != nil {
		return nil, err
	}
	if target == "" {
		return nil, errors.New("the profile has no webhook_url")
	}
	if att.IsDeliverySuccessful {
		_, err = w.client.WebhookDeliveryTask.Update().
			Where(webhookdeliverytask.EventID(ev.ID), webhookdeliverytask.StatusIn(
				webhookdeliverytask.StatusPending, webhookdeliverytask.StatusExhausted)).
			SetStatus(webhookdeliverytask.StatusDelivered).ClearLockedUntil().
			Save(tenancy.System(ctx))
	}
	return att, err
}

// deliver POSTs the event to its profile's webhook URL and records the
// attempt (and, on success, marks the event delivered) in one transaction.
func (w *Worker) deliver(ctx context.Context, ev *ent.Event, kind eventdeliveryattempt.DeliveryAttempt) (*ent.EventDeliveryAttempt, string, error) {
	prof, err := w.client.Profile.Get(tenancy.System(ctx), ev.ProfileID)
	if err != nil {
		return nil, "", err
	}
	target := ""
	if prof.WebhookDetails != nil && prof.WebhookDetails.WebhookURL != nil {
		target = *prof.WebhookDetails.WebhookURL
	}
	if target == "" {
		return nil, "", nil
	}
	key, err := w.opts.HashKey(prof)
	if err != nil {
		return nil, "", err
	}
	body := []byte(ev.Content)
	headers := [][2]string{
		{"Content-Type", "application/json"},
		{"User-Agent", "Switchyard/" + w.opts.Version},
		{SignatureHeader, Sign(key, body)},
	}
	start := time.Now()
	resp := w.post(ctx, target, body, headers)
	ok := resp.StatusCode != nil && *resp.StatusCode >= 200 && *resp.StatusCode < 300
	w.logAttempt(ctx, ev, kind, target, resp, ok, time.Since(start))

	tx, err := w.client.Tx(ctx)
	if err != nil {
		return nil, "", err
	}
	att, err := tx.EventDeliveryAttempt.Create().
		SetMerchantID(ev.MerchantID).
		SetEventID(ev.ID).
		SetDeliveryAttempt(kind).
		SetInitialAttemptID(ev.ID).
		SetRequest(&schematype.DeliveryRequest{Body: string(body), Headers: headers}).
		SetResponse(resp).
		SetNillableResponseStatusCode(resp.StatusCode).
		SetIsDeliverySuccessful(ok).
		Save(tenancy.System(ctx))
	if err == nil && ok && !ev.IsDelivered {
		_, err = tx.Event.UpdateOneID(ev.ID).SetIsDelivered(true).Save(tenancy.System(ctx))
	}
	if err != nil {
		_ = tx.Rollback()
		return nil, "", err
	}
	return att, target, tx.Commit()
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
