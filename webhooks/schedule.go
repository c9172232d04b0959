// Package webhooks delivers outgoing events: a worker claims due delivery
// tasks from the transactional outbox (SELECT … FOR UPDATE SKIP LOCKED on
// MySQL, so any number of processes can run it), POSTs each event to the
// profile's webhook URL signed with HMAC-SHA512, records every attempt, and
// retries on a schedule until it succeeds or the schedule runs out. The
// events themselves are written by payments/events, in the transaction of
// the change they report; this package only sends them, and imports no
// domain package.
package webhooks

import (
	"fmt"
	"strings"
	"time"
)

// DefaultSchedule is Hyperswitch's: +1 min, 2×5 min, 5×10 min, 5×1 h,
// 3×6 h, then stop. Entry i is the wait before automatic retry i+1.
var DefaultSchedule = []time.Duration{
	time.Minute,
	5 * time.Minute, 5 * time.Minute,
	10 * time.Minute, 10 * time.Minute, 10 * time.Minute, 10 * time.Minute, 10 * time.Minute,
	time.Hour, time.Hour, time.Hour, time.Hour, time.Hour,
	6 * time.Hour, 6 * time.Hour, 6 * time.Hour,
}

// ParseSchedule reads SWITCHYARD_WEBHOOK_RETRY_SCHEDULE: comma-separated Go
// durations ("1m,5m,5m,10m"). Empty means DefaultSchedule.
func ParseSchedule(s string) ([]time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return DefaultSchedule, nil
	}
	parts := strings.Split(s, ",")
	out := make([]time.Duration, 0, len(parts))
	for i, p := range parts {
		d, err := time.ParseDuration(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("entry %d (%q): %v", i+1, p, err)
		}
		if d <= 0 {
			return nil, fmt.Errorf("entry %d (%q): must be positive", i+1, p)
		}
		out = append(out, d)
	}
	return out, nil
}
