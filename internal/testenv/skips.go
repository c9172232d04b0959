package testenv

// A plain `go test ./...` shows nothing of a passing package but its "ok"
// line: the test binary's stdout and stderr go to a buffer the go command
// drops (cmd/go: "If a package test passes, go test prints only the final
// 'ok' summary line"). So a test skipped for want of a backend, a browser or
// a build would pass unseen. Skip records such skips, and Main names them
// in one line per package written where the go command's own output goes.

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
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

// skipLine is the line naming the skipped tests, by what they lacked, or
// "" when none was.
func skipLine() string {
	skips.mu.Lock()
	defer skips.mu.Unlock()
	if len(skips.byWhat) == 0 {
		return ""
	}
	var parts []string
	for _, missing := range slices.Sorted(maps.Keys(skips.byWhat)) {
		parts = append(parts, fmt.Sprintf("(%s): %s", missing, strings.Join(slices.Sorted(slices.Values(skips.byWhat[missing])), ", ")))
	}
	pkg := "this package"
	if bi, ok := debug.ReadBuildInfo(); ok {
		pkg = strings.TrimSuffix(bi.Path, ".test")
	}
	return fmt.Sprintf("%s: skipped %s\n", pkg, strings.Join(parts, "; "))
}

// reportSkips writes skipLine where it is seen: the test binary's stdout
// when the go command shows it (-v, -json, a run without packages named) or
// no go command runs the binary; else, on Linux, straight to the go
// command's stdout or stderr when that is a terminal or a pipe (a file is
// left alone: writing at its end would race the go command's own offset).
func reportSkips() {
	line := skipLine()
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
	parent := filepath.Join("/proc", fmt.Sprint(os.Getppid()))
	if comm, err := os.ReadFile(filepath.Join(parent, "comm")); err != nil || strings.TrimSpace(string(comm)) != "go" {
		return nil
	}
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
