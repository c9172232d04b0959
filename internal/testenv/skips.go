package testenv

// A plain `go test ./...` shows nothing of a passing package but its "ok"
// line: the test binary's stdout and stderr go to a buffer the go command
// drops (cmd/go: "If a package test passes, go test prints only the final
// 'ok' summary line"). So a test skipped for want of a backend, a browser or
// a build would pass unseen. Skip records such skips, and Main names them
// in one line for the whole run (skiprun.go), written where the go
// command's own output goes.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

var skips struct {
	mu     sync.Mutex
	byWhat map[string][]string // what is missing → the tests skipped for it
}

// Skip skips t because this machine lacks what it needs: missing says what
// in a few words ("no SWITCHYARD_TEST_MYSQL_DSN", "no Chromium"), why says
// the rest in the test's log. Main reports it even when the package passes.
// In CI, which provides everything, it fails the test instead.
func Skip(t testing.TB, missing, why string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s in CI: %s", missing, why)
	}
	if !testRedis.installed {
		t.Fatalf("testenv.Skip reports the skip from testenv.Main: this package's TestMain must call it")
	}
	skips.mu.Lock()
	if skips.byWhat == nil {
		skips.byWhat = map[string][]string{}
	}
	skips.byWhat[missing] = append(skips.byWhat[missing], t.Name())
	skips.mu.Unlock()
	t.Skipf("%s: %s", missing, why)
}

// packageName is this test binary's package, for the skip report.
func packageName() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return strings.TrimSuffix(bi.Path, ".test")
	}
	return "this package"
}

// recordedSkips are this binary's skips, each test named with its package.
func recordedSkips() map[string][]string {
	skips.mu.Lock()
	defer skips.mu.Unlock()
	pkg := packageName()
	out := map[string][]string{}
	for missing, tests := range skips.byWhat {
		for _, name := range tests {
			out[missing] = append(out[missing], pkg+"."+name)
		}
	}
	return out
}

// reportSkips writes the skip line where it is seen: the test binary's
// stdout when the go command shows it (-v, -json, a run without packages
// named) or no go command runs the binary; else, on Linux, straight to the
// go command's stdout or stderr when that is a terminal or a pipe (a file
// is left alone: writing at its end would race the go command's own
// offset). Under a go command, only the run's last binary writes it.
func reportSkips(run *sharedRun) {
	skipped := recordedSkips()
	subject := packageName()
	if run != nil {
		all, last := run.leave(skipped)
		if !last {
			return
		}
		skipped, subject = all, "go test"
	}
	line := formatSkips(subject, skipped)
	if line == "" {
		return
	}
	if out := goCommandOutput(); out != nil {
		defer out.Close()
		if _, err := out.WriteString(line); err == nil {
			return
		}
	}
	fmt.Print(line)
}

// goCommandOutput is the go command's stdout or stderr, opened for writing,
// when the go command runs this binary and drops what it prints; else nil.
func goCommandOutput() *os.File {
	if testing.Verbose() {
		return nil // -v and -json show the binary's output
	}
	goPID := goCommandPID()
	if goPID == 0 {
		return nil
	}
	parent := filepath.Join("/proc", fmt.Sprint(goPID))
	ours, err := os.Stdout.Stat()
	if err != nil {
		return nil
	}
	for _, fd := range []string{"1", "2"} {
		path := filepath.Join(parent, "fd", fd)
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if os.SameFile(info, ours) {
			return nil // the go command streams this binary's output
		}
		if info.Mode()&(os.ModeNamedPipe|os.ModeCharDevice) == 0 {
			continue
		}
		if f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f
		}
	}
	return nil
}
