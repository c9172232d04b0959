package testenv

// Whole-process tests run the real switchyard binary: built once per test
// binary, started with `serve` on a database and a Redis of the test's
// choosing, and killed with SIGKILL or stopped with SIGTERM like a real
// deployment's processes.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"switchyard/internal/config"
	"switchyard/internal/store"
)

// Fixed secrets, so every process of a cluster shares them.
const (
	ProcessAdminKey  = "adm_processtest_0123456789abcdefghijklmnopqrstuv"
	ProcessMasterKey = "6b3f0c1d2e4a5968778695a4b3c2d1e0f1e2d3c4b5a69788796a5b4c3d2e1f00"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// SwitchyardBinary builds cmd/switchyard once per test binary run; a
// package that uses it removes it when its tests end (Main).
func SwitchyardBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "switchyard-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "switchyard")
		out, err := exec.Command("go", "build", "-o", binPath, "switchyard/cmd/switchyard").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binPath
}

// RemoveBinary removes what SwitchyardBinary built.
func RemoveBinary() {
	if binPath != "" {
		_ = os.RemoveAll(filepath.Dir(binPath))
	}
}

// Cluster is a MariaDB database and a Redis shared by the processes of one
// test, with the demo merchant bootstrapped on it.
type Cluster struct {
	t     *testing.T
	bin   string
	Env   map[string]string
	Keys  DemoKeys
	Store *store.Store
	seq   int
}

// DemoKeys are the bootstrapped demo merchant's.
type DemoKeys struct {
	MerchantID string `json:"merchant_id"`
	ProfileID  string `json:"profile_id"`
	SecretKey  string `json:"secret_key"`
}

// NewCluster makes a fresh MariaDB database on the test server and
// bootstraps the demo merchant with `switchyard bootstrap`. It skips
// outside CI without MariaDB and Redis (and fails in CI without them).
// extra adds or overrides SWITCHYARD_* settings of every process.
func NewCluster(t *testing.T, extra map[string]string) *Cluster {
	t.Helper()
	dbURL := MySQLURL(t)
	redisURL := RedisURL(t)
	if redisURL == "" {
		Skip(t, "no "+EnvRedisURL, "process test skipped outside CI")
	}
	c := &Cluster{t: t, bin: SwitchyardBinary(t), Env: map[string]string{
		"SWITCHYARD_DATABASE_URL":  dbURL,
		"SWITCHYARD_REDIS_URL":     redisURL,
		"SWITCHYARD_ADMIN_API_KEY": ProcessAdminKey,
		"SWITCHYARD_MASTER_KEY":    ProcessMasterKey,
		"SWITCHYARD_LOG_LEVEL":     "warn",
	}}
	for k, v := range extra {
		c.Env[k] = v
	}
	dataDir := t.TempDir()
	if out, err := c.Command("bootstrap", dataDir, "127.0.0.1:0").CombinedOutput(); err != nil {
		t.Fatalf("switchyard bootstrap: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dataDir, "demo_keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &c.Keys); err != nil || c.Keys.SecretKey == "" {
		t.Fatalf("demo_keys.json %s: %v", b, err)
	}
	cfg, err := config.LoadFrom(map[string]string{"SWITCHYARD_DATABASE_URL": dbURL,
		"SWITCHYARD_ADMIN_API_KEY": ProcessAdminKey, "SWITCHYARD_MASTER_KEY": ProcessMasterKey})
	if err != nil {
		t.Fatal(err)
	}
	if c.Store, err = store.Open(context.Background(), cfg.Database); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Store.Close() })
	return c
}

// Command is the binary run with sub, the cluster's settings and the
// test's environment without its own SWITCHYARD_* variables.
func (c *Cluster) Command(sub, dataDir, addr string) *exec.Cmd {
	cmd := exec.Command(c.bin, sub)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SWITCHYARD_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for k, v := range c.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Env = append(cmd.Env, "SWITCHYARD_DATA_DIR="+dataDir, "SWITCHYARD_ADDR="+addr)
	return cmd
}

// Process is one running `switchyard serve`.
type Process struct {
	cmd    *exec.Cmd
	URL    string
	stdout *syncBuffer
	stderr *syncBuffer
	done   chan struct{}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Stdout is what the process has written to its standard output so far
// (its log lines).
func (p *Process) Stdout() string { return p.stdout.String() }

// Stderr is what the process has written to its standard error so far
// (the start banner, for a person).
func (p *Process) Stderr() string { return p.stderr.String() }

// FreeAddr is a loopback address nothing listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// Serve starts a server process with its own data directory and waits
// until it is ready.
func (c *Cluster) Serve() *Process { return c.ServeIn(c.t.TempDir()) }

// ServeIn starts a server process on dataDir and waits until it is ready.
func (c *Cluster) ServeIn(dataDir string) *Process {
	t := c.t
	t.Helper()
	c.seq++
	addr := FreeAddr(t)
	p := &Process{URL: "http://" + addr, stdout: &syncBuffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	p.cmd = c.Command("serve", dataDir, addr)
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	name := fmt.Sprintf("process %d", c.seq)
	t.Cleanup(func() {
		p.Kill()
		if t.Failed() {
			t.Logf("%s stdout:\n%s\n%s stderr:\n%s", name, tail(p.stdout.String(), 4000), name, tail(p.stderr.String(), 2000))
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(p.URL + "/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return p
			}
		}
		select {
		case <-p.done:
			t.Fatalf("%s exited before it was ready:\n%s\n%s", name, p.stdout.String(), p.stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready within 30 s", name)
		}
	}
}

// Kill sends SIGKILL (kill -9) and waits for the process to be gone.
func (p *Process) Kill() { p.signal(syscall.SIGKILL) }

// Stop sends SIGTERM (a graceful stop) and waits for the process to exit.
func (p *Process) Stop() { p.signal(syscall.SIGTERM) }

func (p *Process) signal(sig syscall.Signal) {
	select {
	case <-p.done:
		return
	default:
	}
	_ = p.cmd.Process.Signal(sig)
	<-p.done
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

var processClient = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}

// Call sends a JSON request to a process with key in the api-key header and
// any extra headers, and returns the status and body.
func Call(base, method, path, key string, body any, headers ...string) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", key)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := processClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}
