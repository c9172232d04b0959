package testenv

import (
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"testing"
	"time"
)

// PrivateRedis is a redis-server of the test's own, which it may stop and
// start again on the same port: fault tests never touch the shared Redis.
type PrivateRedis struct {
	t    testing.TB
	bin  string
	port int
	cmd  *exec.Cmd
}

// StartRedis starts a private redis-server on a free loopback port; it is
// killed when the test ends. Without redis-server the test fails in CI and
// is skipped elsewhere.
func StartRedis(t testing.TB) *PrivateRedis {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if InCI() {
			t.Fatalf("redis-server not found: %v", err)
		}
		t.Skipf("redis-server not found: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &PrivateRedis{t: t, bin: bin, port: port}
	r.Start()
	t.Cleanup(r.Stop)
	return r
}

// URL is the server's redis:// URL.
func (r *PrivateRedis) URL() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port) }

// Start runs redis-server on the port and waits until it answers PING.
func (r *PrivateRedis) Start() {
	r.t.Helper()
	cmd := exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no")
	cmd.Dir = r.t.TempDir()
	if err := cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	r.cmd = cmd
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(10 * time.Second)
	for !r.answers() {
		select {
		case err := <-exited:
			r.cmd = nil
			r.t.Fatalf("redis-server on port %d exited: %v", r.port, err)
		default:
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server on port %d not answering", r.port)
		}
		time.Sleep(20 * time.Millisecond)
	}
	go func() { <-exited }() // keep reaping; Stop waits on the port
}

// Stop kills the server and waits until its port no longer answers.
func (r *PrivateRedis) Stop() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	r.cmd = nil
	deadline := time.Now().Add(10 * time.Second)
	for r.answers() && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *PrivateRedis) answers() bool {
	c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(r.port), 200*time.Millisecond)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\n")); err != nil {
		return false
	}
	buf := make([]byte, 7)
	n, _ := c.Read(buf)
	return string(buf[:n]) == "+PONG\r\n"
}
