package users

import (
	"context"
	"errors"
	"testing"
	"time"

	"switchyard/payments/errs"
)

// TestHashGate: a computation waits for a slot; one that gets none within
// the wait, or whose request ends first, is refused with RL_02 and
// Retry-After, having computed nothing.
func TestHashGate(t *testing.T) {
	g := newHashGate(1, time.Millisecond)
	holding, release := make(chan struct{}), make(chan struct{})
	done := make(chan error)
	go func() { done <- g.run(context.Background(), func() { close(holding); <-release }) }()
	<-holding

	ran := false
	err := g.run(context.Background(), func() { ran = true })
	e, ok := errs.As(err)
	if !ok || !errors.Is(err, errs.ErrHashingBusy) || e.Kind != errs.KindUnavailable || e.RetryAfterSeconds() != 1 || ran {
		t.Fatalf("with the one slot taken: %v (ran %v), want %s with Retry-After 1", err, ran, errs.ErrHashingBusy)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	slow := newHashGate(1, time.Hour)
	slow.slots <- struct{}{} // taken
	if err := slow.run(ctx, func() { ran = true }); err == nil || ran {
		t.Fatalf("a request that ended while waiting: %v (ran %v)", err, ran)
	}

	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := g.run(context.Background(), func() { ran = true }); err != nil || !ran {
		t.Fatalf("with the slot free again: %v (ran %v)", err, ran)
	}
	if g.peak.Load() != 1 || g.active.Load() != 0 {
		t.Fatalf("peak %d, active %d", g.peak.Load(), g.active.Load())
	}
}

func TestDefaultHashSlots(t *testing.T) {
	if n := DefaultHashSlots(); n < 1 || n > hashMemoryBudget/argonMemory {
		t.Fatalf("DefaultHashSlots() = %d, want 1..%d", n, hashMemoryBudget/argonMemory)
	}
	if g := newHashGate(0, 0); cap(g.slots) != DefaultHashSlots() || g.wait != DefaultHashWait {
		t.Fatalf("zero values: %d slots, wait %v", cap(g.slots), g.wait)
	}
}
