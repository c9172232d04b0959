package testenv

// go test ./... runs one test binary per package, side by side, and shows
// nothing of a passing binary's output. So that a run names what it skipped
// in one line rather than one per package, the binaries one go command runs
// share a small file: each joins it when it starts and, when it ends, adds
// its skips and leaves; the last to leave writes the line for all of them.
// A binary the go command starts after that (it was still being built)
// writes a line of its own: rare, and nothing is lost.

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// runFile is what the binaries of one go command share.
type runFile struct {
	GoStarted string              `json:"go_started"` // the go command's start time, which tells a reused PID apart
	Running   []int               `json:"running"`    // the binaries that joined and have not left
	Skipped   map[string][]string `json:"skipped"`    // what was missing → the tests ("pkg.TestX") skipped for it
}

// sharedRun is this binary's membership of its go command's run, or nil
// when no go command runs it (the binary reports alone).
type sharedRun struct {
	path      string
	goStarted string
	self      int // this binary's PID
}

// joinRun registers this binary with the run of the go command that
// started it, if one did.
func joinRun() *sharedRun {
	goPID := goCommandPID()
	if goPID == 0 {
		return nil
	}
	r := &sharedRun{
		path:      filepath.Join(os.TempDir(), fmt.Sprintf("switchyard-test-run-%d.json", goPID)),
		goStarted: processStart(goPID),
		self:      os.Getpid(),
	}
	if err := r.update(func(f *runFile) { f.Running = append(f.Running, r.self) }); err != nil {
		return nil
	}
	return r
}

// leave adds this binary's skips to the run and takes it out; it returns
// every skip of the run when this binary was the last one running, else nil.
func (r *sharedRun) leave(skipped map[string][]string) (all map[string][]string, last bool) {
	err := r.update(func(f *runFile) {
		f.Running = slices.DeleteFunc(f.Running, func(pid int) bool { return pid == r.self })
		for missing, tests := range skipped {
			f.Skipped[missing] = append(f.Skipped[missing], tests...)
		}
		if len(f.Running) == 0 {
			all, last = f.Skipped, true
		}
	})
	if err != nil {
		return skipped, true // report alone rather than not at all
	}
	return all, last
}

// update applies change to the run file under an exclusive lock. Binaries
// that died without leaving (a timeout, ^C) are dropped first.
func (r *sharedRun) update(change func(*runFile)) error {
	lock, err := os.OpenFile(r.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing unlocks too

	var f runFile
	if data, err := os.ReadFile(r.path); err == nil {
		_ = json.Unmarshal(data, &f)
	} else if !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if f.GoStarted != r.goStarted {
		f = runFile{GoStarted: r.goStarted} // another go command had this PID
	}
	if f.Skipped == nil {
		f.Skipped = map[string][]string{}
	}
	f.Running = slices.DeleteFunc(f.Running, func(pid int) bool { return pid != r.self && !alive(pid) })
	change(&f)
	if len(f.Running) == 0 { // the run is over: leave nothing behind
		_ = os.Remove(lock.Name())
		if err := os.Remove(r.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return os.WriteFile(r.path, data, 0o600)
}

// goCommandPID is the PID of the go command running this binary, or 0.
func goCommandPID() int {
	parent := os.Getppid()
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", parent))
	if err != nil || strings.TrimSpace(string(comm)) != "go" {
		return 0
	}
	return parent
}

// processStart is the process's start time in clock ticks since boot
// (field 22 of /proc/PID/stat), or "".
func processStart(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	// The command name (field 2) may hold spaces; the fields after it do not.
	rest := string(stat[strings.LastIndexByte(string(stat), ')')+1:])
	fields := strings.Fields(rest)
	if len(fields) < 20 {
		return ""
	}
	return fields[19]
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// formatSkips is the one line naming the skipped tests by what they lacked,
// or "" when none was skipped.
func formatSkips(subject string, skipped map[string][]string) string {
	if len(skipped) == 0 {
		return ""
	}
	var parts []string
	for _, missing := range slices.Sorted(maps.Keys(skipped)) {
		tests := slices.Compact(slices.Sorted(slices.Values(skipped[missing])))
		parts = append(parts, fmt.Sprintf("(%s): %s", missing, strings.Join(tests, ", ")))
	}
	return fmt.Sprintf("%s: skipped %s\n", subject, strings.Join(parts, "; "))
}
