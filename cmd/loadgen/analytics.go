package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"switchyard/internal/tenancy"
	"switchyard/payments/connector"
)

// The analytics mode (-mode analytics) seeds -payments payments over the
// last 90 days on a fresh database (three connector accounts, mixed
// statuses, methods and currencies, refunds and disputes of mixed
// statuses), then asks the real server's GraphQL endpoint each analytics
// query over two windows in America/New_York: the last 30 days by day and
// the last 7 days by hour. For each it EXPLAINs the grouped statement the
// server sent, fails unless it is read from its covering index alone
// ("Using index"), and prints p50 and p99 over -requests runs after
// -warmup:
//
//	go run ./cmd/loadgen -mode analytics -requests 30

// analyticsSpread is how far back the analytics mode's payments go.
const analyticsSpread = 90 * 24 * time.Hour

// analyticsQuery is one GraphQL query measured, and the index its grouped
// statement must be read from.
type analyticsQuery struct {
	name, document, index string
}

var analyticsQueries = []analyticsQuery{
	{"payments by status", `query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: STATUS) { bucketStart key currency count volume } }`, "paymentintent_analytics"},
	{"payments by connector", `query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: CONNECTOR) { bucketStart key currency count volume } }`, "paymentintent_analytics"},
	{"payments by method", `query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: PAYMENT_METHOD) { bucketStart key currency count volume } }`, "paymentintent_analytics"},
	{"payments by currency", `query($r: AnalyticsRange!) { paymentAnalytics(range: $r, groupBy: CURRENCY) { bucketStart key currency count volume } }`, "paymentintent_analytics"},
	{"success rates", `query($r: AnalyticsRange!) { connectorSuccessRateSeries(range: $r) { merchantConnectorID connector bucketStart attempts succeeded failed successRate } }`, "paymentattempt_merchant_id_crea"},
	{"refunds", `query($r: AnalyticsRange!) { refundAnalytics(range: $r) { bucketStart status currency count volume } }`, "refund_analytics"},
	{"disputes", `query($r: AnalyticsRange!) { disputeAnalytics(range: $r) { bucketStart status count } }`, "dispute_analytics"},
}

// analyticsWindow is a range the queries are asked over.
type analyticsWindow struct {
	name   string
	span   time.Duration
	bucket string
}

var analyticsWindows = []analyticsWindow{
	{"30 days by day", 30 * 24 * time.Hour, "DAY"},
	{"7 days by hour", 7 * 24 * time.Hour, "HOUR"},
}

const analyticsZone = "America/New_York"

// analyticsFigure is one query's timing over one window, and its
// baseline's: the grouped statements the server sent for it, run by
// database/sql at once (as the server runs its slices) and read whole.
type analyticsFigure struct {
	window, query string
	groups        int
	p50, p99      time.Duration
	baseP50       time.Duration
}

func runAnalytics(ctx context.Context, o options, out io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	env, cleanup, err := openSize(ctx, o, o.payments, out)
	defer cleanup()
	if err != nil {
		return err
	}
	figures, err := measureAnalytics(ctx, env)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nanalytics at %s payments over 90 days, %s, %d runs each after %d (target p99 < 300 ms)\n",
		human(env.n), analyticsZone, o.requests, o.warmup)
	fmt.Fprintf(out, "%-16s %-22s %7s %10s %10s %13s %6s\n", "window", "query", "groups", "p50", "p99", "baseline p50", "ratio")
	for _, f := range figures {
		fmt.Fprintf(out, "%-16s %-22s %7d %10s %10s %13s %5.2fx\n", f.window, f.query, f.groups, ms(f.p50), ms(f.p99),
			ms(f.baseP50), float64(f.p50)/float64(f.baseP50))
	}
	return nil
}

// measureAnalytics adds two connector accounts to the demo merchant, seeds
// and analyzes, checks each query's plan, then times every query over
// every window.
func measureAnalytics(ctx context.Context, env *runEnv) ([]analyticsFigure, error) {
	mctx := tenancy.ForMerchant(tenancy.System(ctx), env.merchant)
	for _, name := range []string{"adyen", "checkout"} {
		mca, err := env.app.Connectors.CreateSandboxAccount(mctx, connector.SandboxAccountInput{
			ProfileID: env.profile, ConnectorName: name, Label: "loadgen_" + name,
			Credentials: map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
		})
		if err != nil {
			return nil, fmt.Errorf("connector account %s: %w", name, err)
		}
		env.accounts = append(env.accounts, account{id: mca.ID, name: name})
	}
	env.spread, env.varied = analyticsSpread, true
	if err := seedAndAnalyze(ctx, env); err != nil {
		return nil, err
	}
	to := time.Now().UTC().Truncate(time.Hour)
	var figures []analyticsFigure
	for _, w := range analyticsWindows {
		vars := map[string]any{"r": map[string]any{"from": to.Add(-w.span).Format(time.RFC3339), "to": to.Format(time.RFC3339),
			"bucket": w.bucket, "timeZone": analyticsZone}}
		for _, q := range analyticsQueries {
			stmts, err := explainAnalytics(ctx, env, w, q, vars)
			if err != nil {
				return nil, err
			}
			f := analyticsFigure{window: w.name, query: q.name}
			var took []time.Duration
			for i := range env.o.warmup + env.o.requests {
				start := time.Now()
				groups, err := askGraphQL(ctx, env, q.document, vars, "")
				if err != nil {
					return nil, fmt.Errorf("%s, %s: %w", w.name, q.name, err)
				}
				if i >= env.o.warmup {
					took = append(took, time.Since(start))
				}
				f.groups = groups
			}
			st := percentiles(took, 0.50, 0.99)
			f.p50, f.p99 = st[0], st[1]
			if f.baseP50, err = baselineAnalytics(ctx, env, stmts); err != nil {
				return nil, fmt.Errorf("%s, %s baseline: %w", w.name, q.name, err)
			}
			figures = append(figures, f)
		}
	}
	return figures, nil
}

// percentiles are the sample's values at the quantiles qs.
func percentiles(d []time.Duration, qs ...float64) []time.Duration {
	sorted := slices.Clone(d)
	slices.Sort(sorted)
	out := make([]time.Duration, len(qs))
	for i, q := range qs {
		out[i] = sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
	}
	return out
}

// askGraphQL posts one document (marked with the request id when one is
// given) and answers how many rows its list has; any error is an error.
func askGraphQL(ctx context.Context, env *runEnv, document string, vars map[string]any, requestID string) (int, error) {
	body, _ := json.Marshal(map[string]any{"query": document, "variables": vars})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, env.baseURL+"/graphql", bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", env.key)
	if requestID != "" {
		req.Header.Set("X-Request-Id", requestID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var answer struct {
		Data   map[string][]json.RawMessage `json:"data"`
		Errors []json.RawMessage            `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil {
		return 0, fmt.Errorf("%s: %w", resp.Status, err)
	}
	if resp.StatusCode != http.StatusOK || len(answer.Errors) > 0 {
		return 0, fmt.Errorf("%s: %s", resp.Status, answer.Errors)
	}
	for _, rows := range answer.Data {
		return len(rows), nil
	}
	return 0, fmt.Errorf("no data")
}

// explainAnalytics asks q once with a marked request, EXPLAINs the grouped
// statements the server sent (one a slice), prints the first one's plan
// and fails unless each reads q.index alone; it returns them for the
// baseline.
func explainAnalytics(ctx context.Context, env *runEnv, w analyticsWindow, q analyticsQuery, vars map[string]any) ([]capturedStmt, error) {
	id := explainPrefix + strings.ReplaceAll(w.name+"-"+q.name, " ", "-")
	if _, err := askGraphQL(ctx, env, q.document, vars, id); err != nil {
		return nil, fmt.Errorf("%s, %s: %w", w.name, q.name, err)
	}
	var grouped []capturedStmt
	for _, s := range env.plans.take(id) {
		if !strings.Contains(s.query, "GROUP BY") {
			continue
		}
		rows, err := explain(ctx, env.seedDB, s)
		if err != nil {
			return nil, err
		}
		r := rows[0]
		if len(grouped) == 0 {
			fmt.Fprintf(env.out, "plan %-16s %-22s table=%s type=%s key=%s rows≈%s extra=%q\n", w.name, q.name,
				r["table"], r["type"], r["key"], r["rows"], r["Extra"])
		}
		if env.o.verbose {
			fmt.Fprintf(env.out, "  %s\n", abbreviate(s.query, 400))
		}
		if len(rows) != 1 || !strings.HasPrefix(r["key"], q.index) || r["type"] != "range" || !strings.Contains(r["Extra"], "Using index") {
			return nil, fmt.Errorf("%s, %s: not a range read of %s alone: %v\n%s", w.name, q.name, q.index, rows, s.query)
		}
		grouped = append(grouped, s)
	}
	if len(grouped) == 0 {
		return nil, fmt.Errorf("%s, %s: no grouped statement among the server's", w.name, q.name)
	}
	return grouped, nil
}

// baselineAnalytics is the p50 of running stmts with database/sql, all at
// once on their own connections, reading every row: what the answer costs
// the database, without the server.
func baselineAnalytics(ctx context.Context, env *runEnv, stmts []capturedStmt) (time.Duration, error) {
	run := func(s capturedStmt) error {
		rows, err := env.seedDB.QueryContext(ctx, s.query, s.args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
	var took []time.Duration
	for i := range env.o.warmup + env.o.requests {
		start := time.Now()
		errs := make(chan error, len(stmts))
		for _, s := range stmts {
			go func() { errs <- run(s) }()
		}
		for range stmts {
			if err := <-errs; err != nil {
				return 0, err
			}
		}
		if i >= env.o.warmup {
			took = append(took, time.Since(start))
		}
	}
	return percentiles(took, 0.50)[0], nil
}
