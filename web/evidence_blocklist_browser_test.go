package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// TestDashboardDisputeEvidence drives a dispute's Evidence section in
// headless Chromium: a file chosen in the attach form becomes the
// dispute's receipt (the server lists it with its name and type), the
// submit form sends it with the uncategorized text, and the page then
// shows the dispute challenged with the text; the server agrees. An empty submit is refused on the page before any
// request.
func TestDashboardDisputeEvidence(t *testing.T) {
	d := newDashTab(t)
	disputed := d.pay("4000000000000259", 4200, "USD", nil)
	disputes := d.rest("GET", "/disputes/list", nil).([]any)
	if len(disputes) != 1 || disputes[0].(map[string]any)["payment_id"] != disputed {
		t.Fatalf("the dispute card made %v", disputes)
	}
	disputeID := disputes[0].(map[string]any)["dispute_id"].(string)

	d.open("/disputes/"+disputeID, `[data-testid="dispute-evidence"]`)
	d.poll("no evidence yet", `document.querySelector('[data-testid="dispute-evidence"]').innerText.includes("No evidence yet.")`)
	d.checkAxe("a dispute's page with its evidence forms")

	// Submitting with nothing attached and no text is refused on the page.
	d.click(`//button[text()="Submit evidence"]`)
	d.poll("the empty submit refused", `document.querySelector('[data-testid="dispute-evidence"]').innerText.includes("there is no evidence to submit")`)
	if got := d.rest("GET", "/disputes/"+disputeID, nil).(map[string]any); got["dispute_status"] != "dispute_opened" {
		t.Fatalf("an empty submit on the page changed the dispute: %v", got)
	}

	receipt := filepath.Join(t.TempDir(), "receipt.pdf")
	if err := os.WriteFile(receipt, []byte("%PDF-1.4\n% the order's receipt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.setField("#evidence-type", "receipt")
	if err := chromedp.Do(d.ctx, chromedp.SetUploadFiles(chromedp.CSS(`#evidence-file`), []string{receipt})); err != nil {
		d.fail("choose the file: %v", err)
	}
	d.click(`//button[text()="Attach file"]`)
	d.poll("the receipt attached", `!!document.querySelector('[data-testid="evidence-receipt"]')`)
	fileID := d.eval(`document.querySelector('[data-testid="evidence-receipt"]').innerText.trim()`)
	if !strings.HasPrefix(fileID, "file_") {
		d.fail("the receipt shows %q, not a file id", fileID)
	}
	blocks := d.rest("GET", "/disputes/evidence/"+disputeID, nil).([]any)
	if len(blocks) != 1 {
		t.Fatalf("the server has evidence %v", blocks)
	}
	block := blocks[0].(map[string]any)
	meta, _ := block["file_metadata_response"].(map[string]any)
	if block["evidence_type"] != "receipt" || meta["file_id"] != fileID || meta["file_name"] != "receipt.pdf" || meta["file_type"] != "application/pdf" {
		t.Fatalf("the attached receipt is %v", block)
	}

	d.setTextArea("#uncategorized-text", "The customer signed for the parcel; we expect to win.")
	d.click(`//button[text()="Submit evidence"]`)
	d.poll("challenged", `document.querySelector('[data-testid="dispute-status"]')?.innerText.includes("dispute_challenged")`)
	d.poll("the text shown", `document.querySelector('[data-testid="evidence-uncategorized_text"]')?.innerText.includes("we expect to win")`)
	got := d.rest("GET", "/disputes/"+disputeID, nil).(map[string]any)
	if got["dispute_status"] != "dispute_challenged" {
		t.Fatalf("after Submit the server has %v", got)
	}
	d.checkAxe("a challenged dispute's page")
	if problems := d.watch.Problems(); len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
}

// TestDashboardBlocklist drives the Routing page's blocklist section: with
// the guard turned on from the page and a BIN blocked with the form, a
// payment with a card of that BIN is refused before any connector (HE_03)
// while another card pays; unblocked from its row, the same card pays.
func TestDashboardBlocklist(t *testing.T) {
	d := newDashTab(t)
	d.open("/routing", `[data-testid="blocklist-guard"]`)
	d.poll("the guard off", `document.querySelector('[data-testid="blocklist-guard"]').innerText.includes("Guard: off")`)
	d.poll("nothing blocked", `document.querySelector('[data-testid="blocklist-entries"]').innerText.includes("Nothing is blocked.")`)
	d.click(`//button[text()="Turn the guard on"]`)
	d.poll("the guard on", `document.querySelector('[data-testid="blocklist-guard"]').innerText.includes("Guard: on")`)

	d.setField("#blocklist-type", "card_bin")
	d.setField("#blocklist-data", "424242")
	d.click(`//button[text()="Block"]`)
	d.poll("the BIN listed", `document.querySelector('[data-testid="blocklist-entries"] tbody').innerText.includes("424242")`)
	if entries := d.text(`[data-testid="blocklist-entries"] tbody`); strings.Contains(entries, "Nothing is blocked.") {
		d.fail("the blocklist lists an entry and says nothing is blocked:\n%s", entries)
	}
	d.poll("the form emptied", `document.querySelector('#blocklist-data').value === ""`)
	d.checkAxe("the Routing page with a blocklist entry")

	if status, body := d.payRaw("4242424242424242"); status != 200 || !strings.Contains(body, `"HE_03"`) ||
		!strings.Contains(body, "This payment method is blocked") {
		t.Fatalf("a card of the blocked BIN: %d %s", status, body)
	}
	if status, body := d.payRaw("4111111111111111"); status != 200 || !strings.Contains(body, `"succeeded"`) {
		t.Fatalf("a card of another BIN: %d %s", status, body)
	}

	d.click(`//tr[contains(., "424242")]//button[text()="Unblock"]`)
	d.poll("the BIN gone", `(() => { const t = document.querySelector('[data-testid="blocklist-entries"] tbody').innerText;
		return t.includes("Nothing is blocked.") && !t.includes("424242"); })()`)
	if got := d.rest("GET", "/blocklist?data_kind=card_bin", nil).([]any); len(got) != 0 {
		t.Fatalf("after Unblock the server still blocks %v", got)
	}
	if status, body := d.payRaw("4242424242424242"); status != 200 || !strings.Contains(body, `"succeeded"`) {
		t.Fatalf("the unblocked card: %d %s", status, body)
	}
	if problems := d.watch.Problems(); len(problems) > 0 {
		t.Errorf("the page reported errors:\n%s", strings.Join(problems, "\n"))
	}
}

// payRaw makes a confirmed card payment over REST and answers its status
// and body as they came, whatever they are.
func (d *dashTab) payRaw(card string) (int, string) {
	d.t.Helper()
	status, raw, err := testenv.Call(d.srv.URL, "POST", "/payments", d.key, map[string]any{
		"amount": 1500, "currency": "USD", "confirm": true, "payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{
			"card_number": card, "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3), "card_cvc": "123",
		}},
	})
	if err != nil {
		d.t.Fatalf("pay: %v", err)
	}
	return status, string(raw)
}

// setTextArea sets a textarea's value past React's own setter, as typing
// does.
func (d *dashTab) setTextArea(sel, value string) {
	d.t.Helper()
	js := fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el) return false;
		Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(el, %q);
		el.dispatchEvent(new Event('input', {bubbles: true}));
		return el.value === %q;
	})()`, sel, value, value)
	if ok, err := chromedp.Run(d.ctx, chromedp.Evaluate[bool](js)); err != nil || !ok {
		d.fail("set %s (%v)", sel, err)
	}
}
