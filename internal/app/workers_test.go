package app

import (
	"context"
	"testing"
	"time"
)

// TestRunEveryRunsPassesUntilStopped: a worker loop runs its pass once per
// tick, never before the first tick, and returns once its context ends.
func TestRunEveryRunsPassesUntilStopped(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	passes := make(chan time.Time, 100)
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		runEvery(ctx, 10*time.Millisecond, func(context.Context) { passes <- time.Now() })
	}()
	first := <-passes
	if first.Sub(start) < 10*time.Millisecond {
		t.Errorf("the first pass ran %v after the start, before its tick", first.Sub(start))
	}
	<-passes
	<-passes // a loop, not one pass
	stop()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("runEvery did not return once its context ended")
	}
	n := len(passes)
	time.Sleep(50 * time.Millisecond)
	if len(passes) != n {
		t.Fatal("a pass ran after the loop returned")
	}
}
