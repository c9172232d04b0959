package routing

import (
	"slices"

	"switchyard/ent/schema"
)

// AttemptOutcome is the connector's verdict an attempt's status shows:
// success for an authorization (whatever came after it), failure for a
// decline or a failed authentication, neither while it is pending. The
// dynamic routing windows count as the analytics' success rates do
// (payments/analytics, from the same sets).
func AttemptOutcome(status string) (success, failure bool) {
	return slices.Contains(schema.AuthorizedAttemptStatuses, status), slices.Contains(schema.DeclinedAttemptStatuses, status)
}
