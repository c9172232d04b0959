package webhooks_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
	"switchyard/webhooks"
)

// floorDelivery is one claimed task of the fair floor.
type floorDelivery struct {
	task, event, merchant, content string
	status                         int
}

// floorLoop is the least a batch of deliveries must cost, written with
// database/sql and net/http: claim due tasks (SELECT … FOR UPDATE SKIP
// LOCKED, one UPDATE that leases them, commit), read their events (one
// SELECT), POST each signed body concurrently over kept-alive connections,
// then record the outcomes in one transaction (one multi-row INSERT of the
// attempts, one UPDATE of the events, one of the tasks). It is the
// worker's job without ent, without the profile read and the signing key's
// decryption, and without logging; the worker is measured against it in
// the same run.
type floorLoop struct {
	db     *sql.DB
	client *http.Client
	target string
	batch  int
}

func newFloorLoop(b *testing.B, dsn, target string) *floorLoop {
	b.Helper()
	db := testenv.BaselineDB(b, dsn)
	return &floorLoop{db: db, target: target, batch: webhooks.DefaultBatchSize,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4 * webhooks.DefaultBatchSize}}}
}

// run drains batches until ctx is done.
func (f *floorLoop) run(ctx context.Context, b *testing.B) {
	for ctx.Err() == nil {
		n, err := f.once(ctx)
		if err != nil && ctx.Err() == nil {
			b.Error(err)
			return
		}
		if n == 0 {
			time.Sleep(time.Millisecond)
		}
	}
}

// in lists n placeholders for an IN clause.
func in(n int) string { return "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")" }

func (f *floorLoop) once(ctx context.Context) (int, error) {
	now := time.Now().UTC().Truncate(time.Microsecond)
	var ds []*floorDelivery
	var taskIDs, eventIDs []any
	if err := inTx(ctx, f.db, func(tx *sql.Tx) error {
		ds, taskIDs, eventIDs = nil, nil, nil
		rows, err := tx.QueryContext(ctx, "SELECT `id`, `event_id` FROM `webhook_delivery_tasks` "+
			"WHERE `status` = 'pending' AND `next_attempt_at` <= ? ORDER BY `next_attempt_at`, `id` LIMIT ? FOR UPDATE SKIP LOCKED",
			now, f.batch)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			d := &floorDelivery{}
			if err := rows.Scan(&d.task, &d.event); err != nil {
				return err
			}
			ds = append(ds, d)
			taskIDs, eventIDs = append(taskIDs, d.task), append(eventIDs, d.event)
		}
		if err := rows.Err(); err != nil || len(ds) == 0 {
			return err
		}
		lease := now.Add(time.Minute)
		_, err = tx.ExecContext(ctx, "UPDATE `webhook_delivery_tasks` SET `locked_until` = ?, `next_attempt_at` = ?, `modified_at` = ? "+
			"WHERE `id` IN "+in(len(ds)), append([]any{lease, lease, now}, taskIDs...)...)
		return err
	}); err != nil || len(ds) == 0 {
		return 0, err
	}

	byEvent := make(map[string]*floorDelivery, len(ds))
	for _, d := range ds {
		byEvent[d.event] = d
	}
	evRows, err := f.db.QueryContext(ctx, "SELECT `id`, `merchant_id`, `content` FROM `events` WHERE `id` IN "+in(len(ds)), eventIDs...)
	if err != nil {
		return 0, err
	}
	for evRows.Next() {
		var id, merchant, content string
		if err := evRows.Scan(&id, &merchant, &content); err != nil {
			return 0, err
		}
		byEvent[id].merchant, byEvent[id].content = merchant, content
	}
	if err := evRows.Err(); err != nil {
		return 0, err
	}

	var wg sync.WaitGroup
	for _, d := range ds {
		wg.Go(func() { d.status = f.post(ctx, d.content) })
	}
	wg.Wait()

	var values strings.Builder
	args := make([]any, 0, 9*len(ds))
	for i, d := range ds {
		if i > 0 {
			values.WriteString(", ")
		}
		values.WriteString("(?, ?, ?, ?, 'initial_attempt', ?, ?, ?, ?, ?, ?)")
		args = append(args, ids.New(ids.DeliveryAttempt), d.merchant, now, now, d.event,
			`{"headers":[["Content-Type","application/json"],["X-Webhook-Signature-512","`+strings.Repeat("0", 128)+`"]]}`,
			fmt.Sprintf(`{"body":"ok","headers":[["Content-Length","2"]],"status_code":%d,"error_message":null}`, d.status),
			d.status, d.status == http.StatusOK, d.event)
	}
	return len(ds), inTx(ctx, f.db, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, "INSERT INTO `event_delivery_attempts` (`id`, `merchant_id`, `created_at`, `modified_at`, "+
			"`delivery_attempt`, `initial_attempt_id`, `request`, `response`, `response_status_code`, `is_delivery_successful`, `event_id`) VALUES "+
			values.String(), args...); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE `events` SET `is_delivered` = 1, `modified_at` = ? WHERE `id` IN "+in(len(ds)),
			append([]any{now}, eventIDs...)...); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "UPDATE `webhook_delivery_tasks` SET `status` = 'delivered', `locked_until` = NULL, "+
			"`last_error` = NULL, `modified_at` = ? WHERE `id` IN "+in(len(ds)), append([]any{now}, taskIDs...)...)
		return err
	})
}

// inTx runs fn in a transaction, again when MariaDB picked it as a
// deadlock's victim (1213) or its lock wait timed out (1205), as any worker
// on InnoDB must: two floor loops' claims and records can cross.
func inTx(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	for try := 1; ; try++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if err = fn(tx); err == nil {
			err = tx.Commit()
		}
		if err == nil {
			return nil
		}
		_ = tx.Rollback()
		var me *mysql.MySQLError
		if try == 5 || !errors.As(err, &me) || (me.Number != 1213 && me.Number != 1205) {
			return err
		}
	}
}

// post sends one signed body and returns the status (0 when it failed).
func (f *floorLoop) post(ctx context.Context, body string) int {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.target, bytes.NewReader([]byte(body)))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhooks.SignatureHeader, webhooks.Sign("floor-key", []byte(body)))
	res, err := f.client.Do(req)
	if err != nil {
		return 0
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode
}
