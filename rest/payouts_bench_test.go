package rest_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/ids"
)

// BenchmarkPayoutsVsFairFloor is POST /payouts/create with confirm and
// auto_fulfill (card 4242…: created, then fulfilled at the sandbox, in one
// request) from 32 clients, beside the fair floor of a payout measured in
// the same run, round by round as BenchmarkCreateConfirmVsBaseline does:
//
//	go test ./rest -run '^$' -bench PayoutsVsFairFloor -benchtime 2000x -rounds=3
//
// It reports "fair_ratio", the API's time a payout over the floor's
// (median of the rounds, with _min and _max).
func BenchmarkPayoutsVsFairFloor(b *testing.B) {
	env := newBenchEnv(b)
	row := benchPayoutSetup(b, env)
	var fair, api benchRuns
	for r := 1; r <= *benchRounds; r++ {
		b.Run(fmt.Sprintf("round%d", r), func(b *testing.B) {
			b.Run("fair_floor", func(b *testing.B) {
				benchSettle(b, env)
				db, rdb := env.baselineDB(), env.srv.Redis.Client
				fair.add(benchParallel(b, "payouts/s", func(ctx context.Context) error { return benchFairPayout(ctx, db, rdb, row) }))
			})
			b.Run("payout", func(b *testing.B) {
				benchSettle(b, env)
				api.add(benchPost(b, env, "/payouts/create", benchPayoutBody(b), `"status":"success"`, "payouts/s"))
			})
		})
	}
	if len(api) == 0 || len(fair) != len(api) {
		return
	}
	b.Run("ratio", func(b *testing.B) {
		for b.Loop() {
		}
		b.ReportMetric(0, "ns/op")
		lo, mid, hi := api.ratios(fair)
		b.ReportMetric(mid, "fair_ratio")
		b.ReportMetric(lo, "fair_ratio_min")
		b.ReportMetric(hi, "fair_ratio_max")
		for i := range api {
			b.Logf("run %d: payouts %.0f/s (p50 %v, p99 %v); fair floor %.0f/s (p50 %v, p99 %v), %.2f×",
				i+1, 1e9/api[i].nsPerOp(), api[i].p50, api[i].p99, 1e9/fair[i].nsPerOp(), fair[i].p50, fair[i].p99,
				api[i].nsPerOp()/fair[i].nsPerOp())
		}
	})
}

// benchPayoutBody is the benchmark's payout: 100 USD minor units to card
// 4242…, confirmed and fulfilled at once.
func benchPayoutBody(b *testing.B) []byte {
	body, err := json.Marshal(map[string]any{"amount": 100, "currency": "USD", "payout_type": "card",
		"confirm": true, "auto_fulfill": true, "customer_id": "cus_bench", "entity_type": "Individual",
		"payout_method_data": map[string]any{"card": map[string]any{"card_number": "4242424242424242",
			"expiry_month": "12", "expiry_year": "2035", "card_holder_name": "Ada Lovelace"}}})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// benchPayoutRow is what the payout floor writes about the demo merchant.
type benchPayoutRow struct {
	merchant, profile, mca string
	event                  string // the size of the API's payout_success event
}

// benchPayoutSetup gives the demo merchant a payout processor (its sandbox
// balance, 10,000,000 minor units, pays 100,000 of the benchmark's
// payouts) and sizes the floor's event on one payout made through the API.
func benchPayoutSetup(b *testing.B, env *benchEnv) benchPayoutRow {
	d := env.srv.Demo
	mca := benchAdmin(b, env, "/account/"+d.MerchantID+"/connectors", map[string]any{
		"connector_type": "payout_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_payout_bench_1234"},
	})["merchant_connector_id"].(string)
	payout := benchAdmin(b, env, "/payouts/create", json.RawMessage(benchPayoutBody(b)))
	var size int
	if err := env.baselineDB().QueryRow("SELECT LENGTH(content) FROM events WHERE object_id = ? AND event_type = 'payout_success'",
		payout["payout_id"]).Scan(&size); err != nil {
		b.Fatal(err)
	}
	const head, tail = `{"type":"payout_success","content":{"object":"`, `"}}`
	event := head + strings.Repeat("x", max(0, size-len(head)-len(tail))) + tail
	return benchPayoutRow{merchant: d.MerchantID, profile: d.ProfileID, mca: mca, event: event}
}

// benchAdmin posts body with the demo merchant's key and decodes the 200.
func benchAdmin(b *testing.B, env *benchEnv, path string, body any) map[string]any {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", env.srv.URL+path, bytes.NewReader(raw))
	req.Header.Set("api-key", env.srv.Demo.SecretKey)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 {
		b.Fatalf("POST %s: %d %v %v", path, resp.StatusCode, err, out)
	}
	return out
}

// benchFairPayout is the least a payout created, confirmed and fulfilled
// in one request must cost, written with database/sql and go-redis: the
// Idempotency-Key's lease; a transaction recording the payout (with its
// key) and its attempt before the connector is asked to create it; a
// second recording the creation's answer and reserving the fulfilment
// before the money-moving call; a third recording the outcome with its
// event and the event's delivery task; then the key's stored result.
// The connector's calls themselves are not made, and nothing is read back.
func benchFairPayout(ctx context.Context, db *sql.DB, rdb redis.UniversalClient, r benchPayoutRow) error {
	idemKey := "fair-" + ids.Base62(20)
	key := "bench-fair:{" + r.merchant + "}:" + idemKey
	if err := rdb.SetArgs(ctx, key, "lease", redis.SetArgs{Mode: "NX", TTL: 30 * time.Second}).Err(); err != nil {
		return fmt.Errorf("lease: %w", err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	poID, attID, evtID := "payout_"+ids.Base62(23), ids.New(ids.PayoutAttempt), ids.New(ids.Event)
	const method = `{"card":{"card_number":"4242 **** **** 4242","card_holder_name":"Ada Lovelace","expiry_month":"12","expiry_year":"2035"}}`
	err := runTransaction(ctx, db, statement{"payouts", "INSERT INTO `payouts` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
		"`profile_id`, `customer_id`, `amount`, `currency`, `status`, `payout_type`, `payout_method_data`, `auto_fulfill`, " +
		"`entity_type`, `connector`, `merchant_connector_id`, `active_attempt_id`, `attempt_count`, `client_secret`, " +
		"`idempotency_key`, `idempotency_fingerprint`) " +
		"VALUES (?, ?, ?, ?, ?, 'cus_bench', 100, 'USD', 'initiated', 'card', ?, 1, 'Individual', 'adyen', ?, ?, 1, ?, ?, ?)",
		[]any{poID, r.merchant, now, now, r.profile, method, r.mca, attID, poID + "_secret_" + ids.Base62(20),
			idemKey, fmt.Sprintf("%x", sha256.Sum256([]byte(idemKey)))}},
		statement{"payout_attempts", "INSERT INTO `payout_attempts` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`profile_id`, `status`, `amount`, `currency`, `connector`, `merchant_connector_id`, `payout_type`, `payout_id`) " +
			"VALUES (?, ?, ?, ?, ?, 'requires_creation', 100, 'USD', 'adyen', ?, 'card', ?)",
			[]any{attID, r.merchant, now, now, r.profile, r.mca, poID}})
	if err != nil {
		return err
	}
	// The connector creates the payout here, outside any transaction.
	err = runTransaction(ctx, db, statement{"creation", "UPDATE `payout_attempts` SET `status` = 'initiated', `modified_at` = ?, " +
		"`connector_transaction_id` = ? WHERE `id` = ?", []any{now, "sim_" + attID, attID}},
		statement{"payout created", "UPDATE `payouts` SET `modified_at` = ?, `connector_transaction_id` = ? WHERE `id` = ?",
			[]any{now, "sim_" + attID, poID}})
	if err != nil {
		return err
	}
	// The connector fulfils it here.
	err = runTransaction(ctx, db, statement{"attempt outcome", "UPDATE `payout_attempts` SET `status` = 'success', `modified_at` = ? WHERE `id` = ?",
		[]any{now, attID}},
		statement{"payout outcome", "UPDATE `payouts` SET `status` = 'success', `modified_at` = ? WHERE `id` = ?", []any{now, poID}},
		statement{"events", "INSERT INTO `events` (`id`, `merchant_id`, `created_at`, `modified_at`, `profile_id`, " +
			"`object_id`, `event_type`, `event_class`, `idempotent_event_id`, `content`, `is_delivered`, " +
			"`primary_object_created_at`) VALUES (?, ?, ?, ?, ?, ?, 'payout_success', 'payouts', ?, ?, 0, ?)",
			[]any{evtID, r.merchant, now, now, r.profile, poID, poID + "_payout_success", r.event, now}},
		statement{"webhook_delivery_tasks", "INSERT INTO `webhook_delivery_tasks` (`id`, `merchant_id`, `created_at`, `modified_at`, " +
			"`status`, `retry_count`, `next_attempt_at`, `event_id`) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)",
			[]any{ids.New(ids.WebhookTask), r.merchant, now, now, now, evtID}})
	if err != nil {
		return err
	}
	return rdb.Set(ctx, key, r.event, 24*time.Hour).Err()
}
