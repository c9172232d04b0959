package users

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"

	"switchyard/payments/errs"
)

// Password hashing is bounded: each argon2id computation holds argonMemory
// (19 MiB) while it runs and leaves it as garbage afterwards, and sign-up
// and sign-in need no credentials. Unbounded, a hundred sign-ups at once
// took the process from 82 MB to 2 GB, and a hundred sign-ins after them to
// 3.7 GB, kept for minutes (Go returns freed memory to the system slowly).
// A computation takes one of a few slots first; past a bounded wait the
// request is refused with nothing done (errs.ErrHashingBusy, with Retry-After).

// hashMemoryBudget is the memory the slots may hold at once by default:
// three computations.
const hashMemoryBudget = 3 * argonMemory // KiB

// DefaultHashWait is how long a request waits for a hashing slot.
const DefaultHashWait = 5 * time.Second

// DefaultHashSlots is how many password hashes run at once by default: one
// a processor (argon2id with one lane is all computation, so more would only
// queue inside the CPU) and at most hashMemoryBudget's worth.
func DefaultHashSlots() int {
	return max(1, min(runtime.GOMAXPROCS(0), hashMemoryBudget/argonMemory))
}

// hashGate bounds the password hashes computed at once.
type hashGate struct {
	slots        chan struct{}
	wait         time.Duration
	active, peak atomic.Int64
}

func newHashGate(slots int, wait time.Duration) *hashGate {
	if slots < 1 {
		slots = DefaultHashSlots()
	}
	if wait <= 0 {
		wait = DefaultHashWait
	}
	return &hashGate{slots: make(chan struct{}, slots), wait: wait}
}

// run computes f in a slot, waiting for one at most the gate's wait (and
// not past ctx); a request that gets none is refused (errBusy).
func (g *hashGate) run(ctx context.Context, f func()) error {
	select {
	case g.slots <- struct{}{}:
	default:
		t := time.NewTimer(g.wait)
		defer t.Stop()
		select {
		case g.slots <- struct{}{}:
		case <-t.C:
			return errBusy()
		case <-ctx.Done():
			return errBusy()
		}
	}
	defer func() { <-g.slots }()
	n := g.active.Add(1)
	defer g.active.Add(-1)
	for {
		if p := g.peak.Load(); n <= p || g.peak.CompareAndSwap(p, n) {
			break
		}
	}
	f()
	return nil
}

// hash is hashPassword in a slot.
func (g *hashGate) hash(ctx context.Context, password string) (string, error) {
	var h string
	err := g.run(ctx, func() { h = hashPassword(password) })
	return h, err
}

// matches is passwordMatches in a slot.
func (g *hashGate) matches(ctx context.Context, hash, password string) (bool, error) {
	var ok bool
	err := g.run(ctx, func() { ok = passwordMatches(hash, password) })
	return ok, err
}

// HashingStats are the password hashing slots: how many there are, how many
// are computing now, and the most that ever computed at once.
type HashingStats struct{ Slots, Active, Peak int }

// Hashing reports the hashing slots (metrics and tests read it).
func (s *Service) Hashing() HashingStats {
	return HashingStats{Slots: cap(s.hashes.slots), Active: int(s.hashes.active.Load()), Peak: int(s.hashes.peak.Load())}
}

// errBusy refuses a request whose password could not be hashed in time:
// nothing was done, and the caller may try again in a moment.
func errBusy() *errs.Error {
	return errs.ErrHashingBusy.New().WithRetryAfter(time.Second)
}
