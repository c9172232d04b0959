package graph_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// The dashboard's nested payment page through GraphQL against REST's list
// of the same payments, on MariaDB + Redis, in one run
// (docs/performance.md: benchmarks report ratios, never single absolute
// times; no test asserts a time).
//
//	SWITCHYARD_TEST_MYSQL_DSN='root@tcp(127.0.0.1:3306)/' \
//	SWITCHYARD_TEST_REDIS_URL=redis://127.0.0.1:6379/0 \
//	go test ./graph -run '^$' -bench NestedPageVsREST -benchtime 400x
//
// Each iteration asks for the newest 50 payments twice, alternately: the
// GraphQL page with attempts, captures and refunds, then
// GET /payments/list?limit=50 (which carries the same nested records). It
// reports the mean time of each and their ratio, graphql/rest (target ≤ 1.5).
// Without both variables it skips: SQLite and the in-process Redis are not
// what it measures.

// benchPage is the page the dashboard shows: what REST's list returns of
// each payment, through GraphQL.
const benchPage = `query($n: Int!) { payments(first: $n) { edges { cursor node {
	id paymentID status amount amountCaptured currency displayAmount createdAt connector paymentMethod cardNetwork
	attempts { id status amount connector }
	captures { id status amount captureSequence }
	refunds(first: 10) { edges { node { id refundID status amount displayAmount } } }
} } } }`

func BenchmarkNestedPageVsREST(b *testing.B) {
	if os.Getenv(testenv.EnvMySQLDSN) == "" || os.Getenv(testenv.EnvRedisURL) == "" {
		b.Skipf("%s and %s must both be set: the benchmark measures MariaDB + Redis", testenv.EnvMySQLDSN, testenv.EnvRedisURL)
	}
	srv := testenv.NewServer(b, testenv.MySQLDatabase(b))
	tn := demoTenant(srv)
	seedNested(b, srv, tn, 500)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	gqlBody, _ := json.Marshal(map[string]any{"query": benchPage, "variables": map[string]any{"n": 50}})
	call := func(req *http.Request) {
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || bytes.Contains(raw, []byte(`"errors"`)) {
			b.Fatalf("%d %.300s", resp.StatusCode, raw)
		}
	}
	graphql := func() {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(gqlBody))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("api-key", tn.key)
		call(req)
	}
	rest := func() {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/payments/list?limit=50", nil)
		req.Header.Set("api-key", tn.key)
		call(req)
	}
	for range 20 { // warm both: connections, the query cache, the server's pools
		graphql()
		rest()
	}
	var gqlTime, restTime time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		graphql()
		mid := time.Now()
		rest()
		gqlTime += mid.Sub(start)
		restTime += time.Since(mid)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(float64(gqlTime.Microseconds())/n, "graphql-µs/page")
	b.ReportMetric(float64(restTime.Microseconds())/n, "rest-µs/page")
	b.ReportMetric(float64(gqlTime)/float64(restTime), "graphql/rest")
}
