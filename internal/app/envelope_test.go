package app_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"switchyard/internal/app"
	"switchyard/internal/testenv"
)

// serveForReal serves an app through App.Serve on a loopback listener (not
// httptest), so the answers net/http writes by itself go through the
// process's own listener.
func serveForReal(t *testing.T) string {
	t.Helper()
	cfg := testenv.Config(t, testenv.Database(t))
	a, err := app.Open(context.Background(), cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)), app.Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, ln) }()
	t.Cleanup(func() {
		stop()
		<-done
		a.Close()
	})
	return ln.Addr().String()
}

// rawRequest writes req as is and reads the answer.
func rawRequest(t *testing.T, addr, req string) *http.Response {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestServerRefusalsAreEnvelopes: what net/http refuses before any handler
// runs (a malformed %-escape in the path, headers too large) is still the
// error envelope, with its status, never Go's plain text.
func TestServerRefusalsAreEnvelopes(t *testing.T) {
	addr := serveForReal(t)
	for _, tc := range []struct {
		name, req string
		status    int
	}{
		{"malformed escape", "GET /payments/pay_% HTTP/1.1\r\nHost: x\r\n\r\n", 400},
		{"malformed escape mid-path", "GET /payments/pay_%zz/capture HTTP/1.1\r\nHost: x\r\napi-key: snd_x\r\n\r\n", 400},
		{"headers too large", "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 2<<20) + "\r\n\r\n", 431},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := rawRequest(t, addr, tc.req)
			raw, _ := io.ReadAll(resp.Body)
			var body struct {
				Error struct{ Type, Message, Code string } `json:"error"`
			}
			if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != "application/json" ||
				json.Unmarshal(raw, &body) != nil || body.Error.Code != "IR_06" || body.Error.Type != "invalid_request" {
				t.Fatalf("got %d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), raw)
			}
		})
	}
	// A well-formed request on the same server is answered as usual.
	resp := rawRequest(t, addr, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
	if resp.StatusCode != 200 {
		t.Fatalf("GET /health: %d", resp.StatusCode)
	}
}
