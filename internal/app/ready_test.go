package app_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"switchyard/internal/app"
	"switchyard/internal/config"
	"switchyard/internal/testenv"
)

// pollTimeout bounds how long a readiness change may take to show.
const pollTimeout = 10 * time.Second

type readyBody struct {
	Status     string            `json:"status"`
	Components map[string]string `json:"components"`
}

// serveApp opens an app on cfg and serves it; both close when the test ends.
func serveApp(t *testing.T, cfg *config.Config) string {
	t.Helper()
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	a, err := app.Open(context.Background(), cfg, log, app.Options{Bootstrap: true})
	if err != nil {
		t.Fatalf("open app: %v", err)
	}
	srv := httptest.NewServer(a.Handler())
	t.Cleanup(func() {
		srv.Close()
		a.Close()
	})
	return srv.URL
}

func getReady(t *testing.T, base string) (int, readyBody) {
	t.Helper()
	resp, err := http.Get(base + "/health/ready")
	if err != nil {
		t.Fatalf("GET /health/ready: %v", err)
	}
	defer resp.Body.Close()
	var body readyBody
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("decode /health/ready (status %d): %v", resp.StatusCode, err)
	}
	return resp.StatusCode, body
}

// waitReady polls /health/ready until it answers want, failing after
// pollTimeout, and returns the matching body.
func waitReady(t *testing.T, base string, want int) readyBody {
	t.Helper()
	deadline := time.Now().Add(pollTimeout)
	for {
		code, body := getReady(t, base)
		if code == want {
			return body
		}
		if time.Now().After(deadline) {
			t.Fatalf("/health/ready still %d (%+v) after %v, want %d", code, body, pollTimeout, want)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func checkComponents(t *testing.T, body readyBody, down, up string) {
	t.Helper()
	if body.Status != "unavailable" {
		t.Errorf("status = %q, want unavailable", body.Status)
	}
	if got := body.Components[down]; !strings.HasPrefix(got, "down") {
		t.Errorf("components[%s] = %q, want down", down, got)
	}
	if got := body.Components[up]; got != "ok" {
		t.Errorf("components[%s] = %q, want ok", up, got)
	}
}

func TestReadyTurns503WhenRedisStopsAndRecovers(t *testing.T) {
	redis := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL = redis.URL()
	cfg.RedisEmbedded = false
	base := serveApp(t, cfg)

	if code, body := getReady(t, base); code != http.StatusOK || body.Status != "ready" {
		t.Fatalf("ready before the fault = %d %+v, want 200 ready", code, body)
	}

	redis.Stop()
	body := waitReady(t, base, http.StatusServiceUnavailable)
	checkComponents(t, body, "redis", "database")

	redis.Start()
	body = waitReady(t, base, http.StatusOK)
	if body.Status != "ready" || body.Components["redis"] != "ok" || body.Components["database"] != "ok" {
		t.Errorf("ready after recovery = %+v", body)
	}
}

// cutProxy forwards a loopback port to target until cut, which closes the
// listener and every live connection; restore listens on the same port again.
type cutProxy struct {
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	p := &cutProxy{target: target, addr: "127.0.0.1:0", conns: map[net.Conn]struct{}{}}
	if err := p.listen(); err != nil {
		t.Fatal(err)
	}
	p.addr = p.ln.Addr().String()
	t.Cleanup(func() {
		p.cut()
		p.wg.Wait()
	})
	return p
}

func (p *cutProxy) listen() error {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return err
	}
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go p.accept(ln)
	return nil
}

func (p *cutProxy) accept(ln net.Listener) {
	defer p.wg.Done()
	for {
		down, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			down.Close()
			continue
		}
		if !p.track(ln, down, up) {
			continue
		}
		p.wg.Add(2)
		go p.pipe(up, down)
		go p.pipe(down, up)
	}
}

// track registers a connection pair accepted on ln, or closes it when ln has
// been cut in the meantime.
func (p *cutProxy) track(ln net.Listener, cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != ln {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *cutProxy) pipe(dst, src net.Conn) {
	defer p.wg.Done()
	_, _ = io.Copy(dst, src)
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
	dst.Close()
	src.Close()
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

func (p *cutProxy) restore(t *testing.T) {
	t.Helper()
	if err := p.listen(); err != nil {
		t.Fatalf("proxy restore on %s: %v", p.addr, err)
	}
}

func TestReadyTurns503WhenDatabaseStopsAndRecovers(t *testing.T) {
	db := testenv.MySQLDatabase(t)
	dsn, err := mysql.ParseDSN(db.DSN)
	if err != nil {
		t.Fatal(err)
	}
	if dsn.Net != "tcp" {
		t.Fatalf("test MySQL DSN uses %q, need tcp for the proxy", dsn.Net)
	}
	proxy := newCutProxy(t, dsn.Addr)
	dsn.Addr = proxy.addr
	db.DSN = dsn.FormatDSN()

	cfg := testenv.Config(t, db)
	base := serveApp(t, cfg)

	if code, body := getReady(t, base); code != http.StatusOK || body.Status != "ready" {
		t.Fatalf("ready before the fault = %d %+v, want 200 ready", code, body)
	}

	proxy.cut()
	body := waitReady(t, base, http.StatusServiceUnavailable)
	checkComponents(t, body, "database", "redis")

	proxy.restore(t)
	body = waitReady(t, base, http.StatusOK)
	if body.Status != "ready" || body.Components["redis"] != "ok" || body.Components["database"] != "ok" {
		t.Errorf("ready after recovery = %+v", body)
	}
}

func TestMetricsAndRequestID(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))

	get := func(path string, header http.Header) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range header {
			req.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("x-request-id") == "" {
			t.Errorf("GET %s: no x-request-id header", path)
		}
		return resp, string(b)
	}

	if resp, body := get("/health", nil); resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /health = %d %s", resp.StatusCode, body)
	}
	resp, body := get("/metrics", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics = %d", resp.StatusCode)
	}
	for _, name := range []string{"switchyard_http_requests_total", "switchyard_http_connections_open",
		"switchyard_http_requests_active", "switchyard_http_requests_waiting"} {
		if !strings.Contains(body, name) {
			t.Errorf("/metrics lacks %s:\n%s", name, body)
		}
	}

	if resp, _ := get("/no/such/route", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /no/such/route = %d, want 404", resp.StatusCode)
	}
	resp, _ = get("/health", http.Header{"X-Request-Id": {"abc-123"}})
	if got := resp.Header.Get("x-request-id"); got != "abc-123" {
		t.Errorf("x-request-id = %q, want the incoming abc-123 echoed", got)
	}
	a, _ := get("/health", nil)
	b, _ := get("/health", nil)
	if a.Header.Get("x-request-id") == b.Header.Get("x-request-id") {
		t.Errorf("two requests share x-request-id %q", a.Header.Get("x-request-id"))
	}
}
