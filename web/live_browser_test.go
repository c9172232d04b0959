package web_test

import (
	"testing"
)

// TestDashboardPaymentsListIsLive: with the payments list open, payments
// made over REST (a declined one, one held for capture) appear in it, and
// the held one's capture changes its row, without a reload, through the
// paymentUpdated subscription: the page is the same document throughout
// (a marker set on window before the payments is still there after).
func TestDashboardPaymentsListIsLive(t *testing.T) {
	d := newDashTab(t)
	first := d.pay("4242424242424242", 1500, "USD", nil)
	d.open("/payments", `[data-testid="payments"]`)
	d.waitList([]string{first})
	d.poll("the marker", `(() => { window.__sameDocument = true; return true; })()`)

	second := d.pay("4000000000000002", 2500, "EUR", nil) // declined
	held := d.pay("4242424242424242", 990, "KWD", map[string]any{"capture_method": "manual"})
	d.waitList([]string{held, second, first})
	row := func(id, status string) string {
		return `[...document.querySelectorAll('[data-testid="payments"] tbody tr')]
			.some(tr => tr.textContent.includes("` + id + `") && tr.textContent.toLowerCase().includes("` + status + `"))`
	}
	d.poll("the declined payment's status", row(second, "failed"))
	d.poll("the held payment's status", row(held, "capture"))
	call(t, d.srv.URL, "/payments/"+held+"/capture", map[string]any{}, "api-key", d.key)
	d.poll("the captured payment's new status", row(held, "succeeded"))
	d.poll("the same document", `window.__sameDocument === true`)
}
