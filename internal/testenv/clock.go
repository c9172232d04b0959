package testenv

import (
	"sync/atomic"
	"time"
)

// Clock is a test server's clock: the wall clock, moved forward by Advance.
// A test that needs a deadline, an expiry or a cool-down to pass advances
// it instead of sleeping; it never goes back, so what the app wrote before
// stays in the past.
type Clock struct {
	ahead atomic.Int64 // nanoseconds ahead of the wall clock
}

// Now is the wall clock plus what Advance added, in UTC.
func (c *Clock) Now() time.Time {
	return time.Now().UTC().Add(time.Duration(c.ahead.Load()))
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		panic("testenv: a Clock does not go back")
	}
	c.ahead.Add(int64(d))
}
