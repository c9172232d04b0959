package testenv

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// Two binaries of one go command: the first to leave writes nothing, the
// last writes every skip of the run, and the run file goes.
func TestSharedRunLastLeaverReportsAll(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	first := &sharedRun{path: path, goStarted: "100", self: os.Getpid()}
	second := &sharedRun{path: path, goStarted: "100", self: os.Getppid()} // alive, so not pruned
	for _, r := range []*sharedRun{first, second} {
		if err := r.update(func(f *runFile) { f.Running = append(f.Running, r.self) }); err != nil {
			t.Fatal(err)
		}
	}
	if all, last := first.leave(map[string][]string{"no X": {"a.TestA"}}); last || all != nil {
		t.Fatalf("first leaver: last=%v all=%v, want it silent", last, all)
	}
	all, last := second.leave(map[string][]string{"no X": {"b.TestB"}, "no Y": {"b.TestC"}})
	if !last {
		t.Fatal("the last binary to leave must report")
	}
	want := map[string][]string{"no X": {"a.TestA", "b.TestB"}, "no Y": {"b.TestC"}}
	if !reflect.DeepEqual(all, want) {
		t.Fatalf("run's skips = %v, want %v", all, want)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("run file left behind: %v", err)
	}
}

// A binary that died without leaving does not keep the run open, and a run
// file of an earlier go command with the same PID is not merged in.
func TestSharedRunDropsTheDeadAndOtherRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	stale := runFile{GoStarted: "100", Running: []int{deadPID(t)}, Skipped: map[string][]string{"no Z": {"c.TestOld"}}}
	data, _ := json.Marshal(stale)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	r := &sharedRun{path: path, goStarted: "100", self: os.Getpid()}
	if err := r.update(func(f *runFile) { f.Running = append(f.Running, r.self) }); err != nil {
		t.Fatal(err)
	}
	all, last := r.leave(nil)
	if !last {
		t.Fatal("a dead binary kept the run open")
	}
	if want := map[string][]string{"no Z": {"c.TestOld"}}; !reflect.DeepEqual(all, want) {
		t.Fatalf("skips = %v, want %v", all, want)
	}

	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	other := &sharedRun{path: path, goStarted: "200", self: os.Getpid()}
	if all, _ := other.leave(nil); len(all) != 0 {
		t.Fatalf("another go command's skips were merged: %v", all)
	}
}

func TestFormatSkips(t *testing.T) {
	for _, tc := range []struct {
		name    string
		skipped map[string][]string
		want    string
	}{
		{"none", nil, ""},
		{"one", map[string][]string{"no Chromium": {"web.TestB", "web.TestA", "web.TestA"}},
			"go test: skipped (no Chromium): web.TestA, web.TestB\n"},
		{"by what was missing", map[string][]string{"no Y": {"b.TestC"}, "no X": {"a.TestA"}},
			"go test: skipped (no X): a.TestA; (no Y): b.TestC\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := formatSkips("go test", tc.skipped); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// deadPID is the PID of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/true", []string{"true"}, &os.ProcAttr{})
	if err != nil {
		t.Fatalf("starting /bin/true: %v", err)
	}
	if _, err := p.Wait(); err != nil {
		t.Fatal(err)
	}
	return p.Pid
}
