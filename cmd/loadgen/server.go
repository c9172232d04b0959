package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The connections mode runs the real switchyard binary as a process of its
// own, so that the memory read from /proc/<pid>/status is the server's
// alone, not loadgen's clients' too.

// buildServer builds cmd/switchyard into dir (go build, from inside the
// module) unless -bin names a binary already built.
func buildServer(ctx context.Context, o options, dir string) (string, error) {
	if o.bin != "" {
		return o.bin, nil
	}
	bin := filepath.Join(dir, "switchyard")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "switchyard/cmd/switchyard").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go build switchyard/cmd/switchyard (run loadgen from the module, or give -bin): %v\n%s", err, out)
	}
	return bin, nil
}

// serverEnv is the environment of every switchyard command of the run:
// loadgen's own without SWITCHYARD_* variables, then the run's database,
// Redis (embedded when -redis is empty), data directory and log level. The
// secrets are generated into the data directory by the first command and
// read back by the next.
func serverEnv(o options, db *database, dataDir string) ([]string, error) {
	if db.server.Net != "tcp" {
		return nil, errors.New("-dsn: the connections mode needs a tcp(…) address")
	}
	u := url.URL{Scheme: "mysql", User: url.User(db.server.User), Host: db.server.Addr, Path: "/" + db.name}
	if db.server.Passwd != "" {
		u.User = url.UserPassword(db.server.User, db.server.Passwd)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "SWITCHYARD_") {
			env = append(env, kv)
		}
	}
	env = append(env, "SWITCHYARD_DATABASE_URL="+u.String(), "SWITCHYARD_DATA_DIR="+dataDir,
		"SWITCHYARD_LOG_LEVEL="+o.serverLog)
	if o.redis != "" {
		env = append(env, "SWITCHYARD_REDIS_URL="+o.redis)
	}
	if o.maxActive > 0 {
		env = append(env, "SWITCHYARD_MAX_ACTIVE_REQUESTS="+strconv.Itoa(o.maxActive))
	}
	return env, nil
}

// demoKeys is what `switchyard bootstrap` keeps in the data directory.
type demoKeys struct {
	MerchantID       string `json:"merchant_id"`
	ProfileID        string `json:"profile_id"`
	SecretKey        string `json:"secret_key"`
	ConnectorAccount string `json:"merchant_connector_id"`
}

// bootstrapServer migrates the database and creates the demo merchant with
// `switchyard bootstrap`, and returns its keys.
func bootstrapServer(ctx context.Context, bin string, env []string, dataDir string) (demoKeys, error) {
	cmd := exec.CommandContext(ctx, bin, "bootstrap")
	cmd.Env = append(env, "SWITCHYARD_ADDR=127.0.0.1:0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return demoKeys{}, fmt.Errorf("switchyard bootstrap: %v\n%s", err, out)
	}
	var k demoKeys
	b, err := os.ReadFile(filepath.Join(dataDir, "demo_keys.json"))
	if err == nil {
		err = json.Unmarshal(b, &k)
	}
	if err == nil && (k.SecretKey == "" || k.ConnectorAccount == "") {
		err = errors.New("a key is missing")
	}
	if err != nil {
		return demoKeys{}, fmt.Errorf("demo_keys.json: %w", err)
	}
	return k, nil
}

// oneShot is the client of loadgen's own calls to the server, outside the
// attacks: it keeps no connection open, so the attacks' are all the server
// holds.
var oneShot = &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}

// serverProcess is one running `switchyard serve`.
type serverProcess struct {
	cmd  *exec.Cmd
	url  string
	port int
	logs string // its standard output and error, a file in the data directory
	done chan struct{}
}

func (p *serverProcess) pid() int { return p.cmd.Process.Pid }

// startServer starts `switchyard serve` on a free loopback port and waits
// until /health/ready answers 200.
func startServer(ctx context.Context, bin string, env []string, dataDir string) (*serverProcess, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	logs := filepath.Join(dataDir, "server.log")
	f, err := os.Create(logs)
	if err != nil {
		return nil, err
	}
	defer f.Close() // the child has its own descriptor
	p := &serverProcess{url: "http://" + addr, port: port, logs: logs, done: make(chan struct{})}
	p.cmd = exec.Command(bin, "serve")
	p.cmd.Env = append(env, "SWITCHYARD_ADDR="+addr)
	p.cmd.Stdout, p.cmd.Stderr = f, f
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); close(p.done) }()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := oneShot.Get(p.url + "/health/ready")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p, nil
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("switchyard serve exited before it was ready:\n%s", p.tail())
		case <-ctx.Done():
			p.stop()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, fmt.Errorf("switchyard serve not ready within 60 s:\n%s", p.tail())
		}
	}
}

// stop sends SIGTERM (a graceful stop), and SIGKILL if the process is still
// there after its shutdown timeout and a margin. It returns how the process
// ended.
func (p *serverProcess) stop() error {
	select {
	case <-p.done:
		return p.exit()
	default:
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return errors.New("switchyard serve did not stop within 30 s of SIGTERM")
	}
	return p.exit()
}

func (p *serverProcess) exit() error {
	if st := p.cmd.ProcessState; st != nil && !st.Success() {
		return fmt.Errorf("switchyard serve ended with %s", st)
	}
	return nil
}

// tail is the end of the server's log, for error messages.
func (p *serverProcess) tail() string {
	b, _ := os.ReadFile(p.logs)
	if len(b) > 4000 {
		b = append([]byte("…"), b[len(b)-4000:]...)
	}
	return string(b)
}

// memory is a process's resident set, in bytes, from /proc/<pid>/status:
// now (VmRSS) and its high-water mark (VmHWM).
type memory struct{ rss, peak int64 }

func readMemory(pid int) (memory, error) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return memory{}, err
	}
	defer f.Close()
	var m memory
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if !ok || (name != "VmRSS" && name != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return memory{}, fmt.Errorf("/proc/%d/status %s: %w", pid, name, err)
		}
		if name == "VmRSS" {
			m.rss = kb << 10
		} else {
			m.peak = kb << 10
		}
	}
	if m.rss == 0 {
		return memory{}, fmt.Errorf("/proc/%d/status has no VmRSS", pid)
	}
	return m, sc.Err()
}

// resetPeak sets the process's VmHWM back to its current RSS (Linux's
// clear_refs 5), so each target's peak is its own.
func resetPeak(pid int) error {
	return os.WriteFile("/proc/"+strconv.Itoa(pid)+"/clear_refs", []byte("5"), 0)
}

// establishedOn counts the TCP connections in state ESTABLISHED whose local
// port is port: the server's ends of its clients' connections (the clients'
// ends have it as their remote port). Loopback connections of this network
// namespace are all in /proc/net/tcp and tcp6. The kernel writes those
// files a chunk at a time, so a connection opened or closed meanwhile can
// shift a line into the next chunk: each is counted once, by its remote
// address.
func establishedOn(port int) (int, error) {
	suffix := fmt.Sprintf(":%04X", port)
	seen := map[string]bool{}
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(file)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, err
		}
		for _, line := range bytes.Split(b, []byte("\n"))[1:] {
			// sl local_address rem_address st …
			f := bytes.Fields(line)
			if len(f) > 3 && bytes.HasSuffix(f[1], []byte(suffix)) && string(f[3]) == "01" {
				seen[string(f[2])] = true
			}
		}
	}
	return len(seen), nil
}

// openFiles counts the process's open file descriptors.
func openFiles(pid int) (int, error) {
	entries, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/fd")
	return len(entries), err
}

// fileLimit is a process's soft limit of open files, from /proc/<pid>/limits.
func fileLimit(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/limits")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "Max open files"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return strconv.ParseUint(f[0], 10, 64)
			}
		}
	}
	return 0, fmt.Errorf("/proc/%d/limits has no open-files limit", pid)
}

// raiseFileLimit raises this process's soft RLIMIT_NOFILE to its hard limit
// and fails unless that leaves need descriptors. The server started after
// this inherits the raised limit (Go gives children the original soft limit
// only while the program has not set it itself).
func raiseFileLimit(need uint64) (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, err
	}
	lim.Cur = lim.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("raise RLIMIT_NOFILE to %d: %w", lim.Max, err)
	}
	if lim.Cur < need {
		return lim.Cur, fmt.Errorf("RLIMIT_NOFILE is %d, below the %d descriptors -clients needs; raise the hard limit (ulimit -Hn)", lim.Cur, need)
	}
	return lim.Cur, nil
}
