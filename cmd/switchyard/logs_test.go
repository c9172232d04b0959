package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// TestMain empties the test Redis database and removes the binary the
// process tests built (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// TestLogLinesAreJSON runs the real binary and checks what it writes to
// its standard output: every line is a JSON object; a line written inside
// a request, a warning of the default logger included (Redis down), carries
// the request_id, and so does the error line of every 5xx, REST's or
// GraphQL's (whose answer is a 200 with errors); each webhook delivery attempt is one info line with the
// event, the target's host, the answer and the duration.
func TestLogLinesAreJSON(t *testing.T) {
	redis := testenv.StartRedis(t)
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError) // a failed attempt, to be seen in the log
	}))
	t.Cleanup(recv.Close)
	c := testenv.NewCluster(t, map[string]string{
		"SWITCHYARD_REDIS_URL":              redis.URL(),
		"SWITCHYARD_LOG_LEVEL":              "info",
		"SWITCHYARD_WEBHOOK_RETRY_SCHEDULE": "1h",
	})
	p := c.Serve()
	status, body, err := testenv.Call(p.URL, "POST", "/account/"+c.Keys.MerchantID+"/business_profile/"+c.Keys.ProfileID,
		testenv.ProcessAdminKey, map[string]any{"webhook_details": map[string]any{"webhook_url": recv.URL + "/hooks?token=secret"}})
	if err != nil || status != 200 {
		t.Fatalf("set webhook: %d %s %v", status, body, err)
	}
	status, body, err = testenv.Call(p.URL, "POST", "/payments", c.Keys.SecretKey, map[string]any{"amount": 100, "currency": "USD"})
	if err != nil || status != 200 {
		t.Fatalf("create payment: %d %s %v", status, body, err)
	}
	var pay struct {
		PaymentID string `json:"payment_id"`
	}
	_ = json.Unmarshal(body, &pay)
	if status, body, err = testenv.Call(p.URL, "POST", "/payments/"+pay.PaymentID+"/cancel", c.Keys.SecretKey, nil); err != nil || status != 200 {
		t.Fatalf("cancel: %d %s %v", status, body, err) // payment_cancelled: an event to deliver
	}
	redis.Stop()
	status, body, _ = testenv.Call(p.URL, "POST", "/payments", c.Keys.SecretKey, map[string]any{"amount": 100, "currency": "USD"},
		"Idempotency-Key", "logs-redis-down", "X-Request-Id", "req_logs_redis_down")
	if status != 503 {
		t.Fatalf("with Redis down: %d %s", status, body)
	}
	// GraphQL answers the same failure in its own shape, and logs it as
	// REST does: every server-side failure of either door is logged with
	// its request id.
	status, body, _ = testenv.Call(p.URL, "POST", "/graphql", c.Keys.SecretKey, map[string]any{
		"query": `mutation { createPayment(input: {amount: 100, currency: "USD"}, idempotencyKey: "logs-graphql-down") { payment { paymentID } } }`},
		"X-Request-Id", "req_logs_graphql_down")
	if !strings.Contains(string(body), "HE_00") {
		t.Fatalf("GraphQL with Redis down: %d %s", status, body)
	}

	deadline := time.Now().Add(20 * time.Second)
	var attempt, redisDown, restFailed, graphqlFailed map[string]any
	for attempt == nil || redisDown == nil || restFailed == nil || graphqlFailed == nil {
		if time.Now().After(deadline) {
			t.Fatalf("delivery attempt line %v, Redis-down line %v, REST failure %v, GraphQL failure %v",
				attempt != nil, redisDown != nil, restFailed != nil, graphqlFailed != nil)
		}
		time.Sleep(100 * time.Millisecond)
		attempt, redisDown, restFailed, graphqlFailed = nil, nil, nil, nil
		sc := bufio.NewScanner(strings.NewReader(p.Stdout()))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("a log line that is not JSON: %q", line)
			}
			if _, ok := rec["time"]; !ok || rec["level"] == nil || rec["msg"] == nil {
				t.Fatalf("a log line without time, level or msg: %q", line)
			}
			switch rec["msg"] {
			case "webhook delivery attempt":
				attempt = rec
			case "idempotency store unavailable":
				if redisDown == nil {
					redisDown = rec // REST's request comes first
				}
			case "request failed":
				restFailed = rec
			case "graphql: request failed":
				graphqlFailed = rec
			}
		}
	}
	if redisDown["request_id"] != "req_logs_redis_down" || redisDown["level"] != "WARN" {
		t.Errorf("the Redis-down warning: %v", redisDown)
	}
	for _, failed := range []struct {
		rec       map[string]any
		requestID string
	}{{restFailed, "req_logs_redis_down"}, {graphqlFailed, "req_logs_graphql_down"}} {
		if failed.rec["request_id"] != failed.requestID || failed.rec["level"] != "ERROR" || failed.rec["code"] != "HE_00" {
			t.Errorf("the failure of %s: %v", failed.requestID, failed.rec)
		}
	}
	host := strings.TrimPrefix(recv.URL, "http://")
	if attempt["level"] != "INFO" || attempt["host"] != host || attempt["status"] != float64(500) ||
		attempt["delivered"] != false || attempt["duration"] == nil || !strings.HasPrefix(attempt["event_id"].(string), "evt_") {
		t.Errorf("the delivery attempt line: %v", attempt)
	}
	if strings.Contains(p.Stdout(), "token=secret") {
		t.Error("the log shows the webhook URL's query")
	}
}
