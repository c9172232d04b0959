package rest_test

import (
	"strings"
	"testing"
	"time"
)

// disputeEventTypes are the event types written for dispute dp, oldest first.
func disputeEventTypes(t *testing.T, c *client, dp string) []string {
	t.Helper()
	r := c.do("POST", "/events/"+c.srv.Demo.MerchantID, c.admin(), map[string]any{"object_id": dp}).must(t, 200)
	var out []string
	for _, e := range r.obj()["events"].([]any) {
		out = append([]string{e.(map[string]any)["event_type"].(string)}, out...) // the list is newest first
	}
	return out
}

// TestDisputeEvidenceWon: a receipt attached with PUT, text given with
// POST: the dispute is dispute_challenged (event dispute_challenged), GET
// /disputes/evidence lists the receipt, the file can no longer be
// deleted, and once the sandbox's review delay has passed a forced sync
// finds the dispute won (event dispute_won).
func TestDisputeEvidenceWon(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)

	pdf := []byte("%PDF-1.4 receipt")
	attached := c.upload("PUT", "/disputes/evidence", key, map[string]string{"dispute_id": dp, "evidence_type": "receipt",
		"file_type": "application/pdf"}, "receipt.pdf", "", pdf).must(t, 200)
	fileID := attached.str("file_id")
	if !strings.HasPrefix(fileID, "file_") {
		t.Fatalf("PUT evidence: %s", attached.Raw)
	}
	list := c.do("GET", "/disputes/evidence/"+dp, key, nil).must(t, 200)
	blocks := list.Body.([]any)
	if len(blocks) != 1 {
		t.Fatalf("evidence: %s", list.Raw)
	}
	b := blocks[0].(map[string]any)
	meta := b["file_metadata_response"].(map[string]any)
	if b["evidence_type"] != "receipt" || meta["file_id"] != fileID || meta["file_size"] != float64(len(pdf)) ||
		meta["file_type"] != "application/pdf" || meta["file_name"] != "receipt.pdf" || meta["available"] != true {
		t.Fatalf("evidence block: %s", list.Raw)
	}
	if got := c.do("GET", "/disputes/"+dp, key, nil).must(t, 200); got.str("dispute_status") != "dispute_opened" {
		t.Fatalf("attaching submits nothing: %s", got.Raw)
	}

	submitted := c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp,
		"product_description": "A blue mug", "shipping_tracking_number": "1Z999", "access_activity_log": nil}).must(t, 200)
	if submitted.str("dispute_status") != "dispute_challenged" || submitted.str("connector_status") != "under_review" {
		t.Fatalf("submit: %s", submitted.Raw)
	}
	if r := c.do("DELETE", "/files/"+fileID, key, nil); r.Status != 400 || r.errCode() != "HE_03" ||
		!strings.Contains(r.str("error", "message"), "submitted") {
		t.Fatalf("deleting submitted evidence: %d %s", r.Status, r.Raw)
	}
	// Before the review delay the network has not decided.
	if got := c.do("GET", "/disputes/"+dp+"?force_sync=true", key, nil).must(t, 200); got.str("dispute_status") != "dispute_challenged" {
		t.Fatalf("sync before the delay: %s", got.Raw)
	}
	c.srv.Clock.Advance(2 * time.Minute)
	if got := c.do("GET", "/disputes/"+dp, key, nil).must(t, 200); got.str("dispute_status") != "dispute_challenged" {
		t.Fatalf("a read without force_sync asks nobody: %s", got.Raw)
	}
	won := c.do("GET", "/disputes/"+dp+"?force_sync=true", key, nil).must(t, 200)
	if won.str("dispute_status") != "dispute_won" || won.str("connector_status") != "won" {
		t.Fatalf("sync after the delay: %s", won.Raw)
	}
	if got := strings.Join(disputeEventTypes(t, c, dp), ","); got != "dispute_opened,dispute_challenged,dispute_won" {
		t.Fatalf("events: %s", got)
	}
	// A decided dispute takes no more evidence.
	r := c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "more"})
	if r.Status != 400 || r.errCode() != "HE_03" || !strings.Contains(r.str("error", "message"), "dispute_won") {
		t.Fatalf("evidence on a won dispute: %d %s", r.Status, r.Raw)
	}
}

// TestDisputeEvidenceLost: evidence without a receipt or a "win" is lost,
// with its dispute_lost event; is_already_refunded then counts it.
func TestDisputeEvidenceLost(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeNotReceivedCard)
	doc := uploadFile(t, c, key, "tracking.png", "image/png", []byte("\x89PNG tracking"))
	c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "shipping_documentation": doc,
		"uncategorized_text": "we would like to twin this"}).must(t, 200)
	list := c.do("GET", "/disputes/evidence/"+dp, key, nil).must(t, 200)
	if blocks := list.Body.([]any); len(blocks) != 1 || blocks[0].(map[string]any)["evidence_type"] != "shipping_documentation" {
		t.Fatalf("evidence: %s", list.Raw)
	}
	c.srv.Clock.Advance(2 * time.Minute)
	lost := c.do("GET", "/disputes/"+dp+"?force_sync=true", key, nil).must(t, 200)
	if lost.str("dispute_status") != "dispute_lost" || lost.obj()["is_already_refunded"] != false {
		t.Fatalf("lost: %s", lost.Raw)
	}
	if got := strings.Join(disputeEventTypes(t, c, dp), ","); got != "dispute_opened,dispute_challenged,dispute_lost" {
		t.Fatalf("events: %s", got)
	}
}

// TestDisputeEvidenceWinsByText: the word "win" in uncategorized_text wins
// without a receipt.
func TestDisputeEvidenceWinsByText(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "We should WIN: signed."}).must(t, 200)
	c.srv.Clock.Advance(2 * time.Minute)
	if r := c.do("GET", "/disputes/"+dp+"?force_sync=true", key, nil).must(t, 200); r.str("dispute_status") != "dispute_won" {
		t.Fatalf("%s", r.Raw)
	}
}

// TestDisputeEvidenceDelete: DELETE /disputes/evidence removes one
// evidence type's file from the dispute; the file itself stays.
func TestDisputeEvidenceDelete(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	for _, typ := range []string{"receipt", "customer_communication"} {
		c.upload("PUT", "/disputes/evidence", key, map[string]string{"dispute_id": dp, "evidence_type": typ,
			"file_type": "text/plain"}, typ+".txt", "", []byte(typ)).must(t, 200)
	}
	c.do("DELETE", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "evidence_type": "receipt"}).must(t, 200)
	list := c.do("GET", "/disputes/evidence/"+dp, key, nil).must(t, 200)
	blocks := list.Body.([]any)
	if len(blocks) != 1 || blocks[0].(map[string]any)["evidence_type"] != "customer_communication" {
		t.Fatalf("after delete: %s", list.Raw)
	}
	// A file deleted from the store while named is shown not available.
	fileID := blocks[0].(map[string]any)["file_metadata_response"].(map[string]any)["file_id"].(string)
	c.do("DELETE", "/files/"+fileID, key, nil).must(t, 200)
	list = c.do("GET", "/disputes/evidence/"+dp, key, nil).must(t, 200)
	if m := list.Body.([]any)[0].(map[string]any)["file_metadata_response"].(map[string]any); m["available"] != false {
		t.Fatalf("deleted file: %s", list.Raw)
	}
	// Submitting evidence that names a deleted file is refused.
	r := c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp})
	if r.Status != 404 || r.errCode() != "HE_04" || !strings.Contains(r.str("error", "message"), fileID) {
		t.Fatalf("submit naming a deleted file: %d %s", r.Status, r.Raw)
	}
}

// TestDisputeEvidenceRefusals: unknown, foreign and malformed requests,
// each with Hyperswitch's code; a refused dispute (accepted) takes no
// evidence.
func TestDisputeEvidenceRefusals(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	_, bKey, _ := otherMerchant(t, c, "merchant_evidence_b")
	bFile := uploadFile(t, c, bKey, "b.pdf", "application/pdf", []byte("%PDF b"))

	for _, tc := range []struct {
		name, method, path, key string
		body                    any
		status                  int
		code, message           string
	}{
		{"submit: unknown dispute", "POST", "/disputes/evidence", key, map[string]any{"dispute_id": "dp_unknown"}, 404, "HE_04", "Dispute does not exist"},
		{"submit: another merchant's dispute", "POST", "/disputes/evidence", bKey, map[string]any{"dispute_id": dp}, 404, "HE_04", "Dispute does not exist"},
		{"submit: another merchant's file", "POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "receipt": bFile}, 404, "HE_04", "File does not exist"},
		{"submit: no dispute_id", "POST", "/disputes/evidence", key, map[string]any{"receipt": "file_x"}, 400, "IR_34", "Dispute id not found"},
		{"submit: unknown member", "POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "verdict": "win"}, 400, "IR_06", "verdict"},
		{"get: unknown dispute", "GET", "/disputes/evidence/dp_unknown", key, nil, 404, "HE_04", "Dispute does not exist"},
		{"get: another merchant's dispute", "GET", "/disputes/evidence/" + dp, bKey, nil, 404, "HE_04", "Dispute does not exist"},
		{"delete: unknown evidence type", "DELETE", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "evidence_type": "selfie"}, 400, "IR_07", "evidence_type"},
		{"delete: another merchant's dispute", "DELETE", "/disputes/evidence", bKey, map[string]any{"dispute_id": dp, "evidence_type": "receipt"}, 404, "HE_04", "Dispute does not exist"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, tc.key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code || !strings.Contains(r.str("error", "message"), tc.message) {
				t.Fatalf("%d %s, want %d %s with %q", r.Status, r.Raw, tc.status, tc.code, tc.message)
			}
		})
	}
	for _, tc := range []struct {
		name   string
		fields map[string]string
		code   string
	}{
		{"attach: no dispute_id", map[string]string{"evidence_type": "receipt", "file_type": "application/pdf"}, "IR_34"},
		{"attach: no evidence_type", map[string]string{"dispute_id": dp, "file_type": "application/pdf"}, "IR_04"},
		{"attach: unknown evidence_type", map[string]string{"dispute_id": dp, "evidence_type": "selfie", "file_type": "application/pdf"}, "IR_07"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.upload("PUT", "/disputes/evidence", key, tc.fields, "a.pdf", "", []byte("%PDF"))
			if r.Status != 400 || r.errCode() != tc.code {
				t.Fatalf("%d %s, want 400 %s", r.Status, r.Raw, tc.code)
			}
		})
	}
	if r := c.upload("PUT", "/disputes/evidence", bKey, map[string]string{"dispute_id": dp, "evidence_type": "receipt",
		"file_type": "application/pdf"}, "a.pdf", "", []byte("%PDF")); r.Status != 404 || r.errCode() != "HE_04" {
		t.Fatalf("attach to another merchant's dispute: %d %s", r.Status, r.Raw)
	}

	c.do("POST", "/disputes/accept/"+dp, key, nil).must(t, 200)
	r := c.do("POST", "/disputes/evidence", key, map[string]any{"dispute_id": dp, "uncategorized_text": "win"})
	if r.Status != 400 || r.errCode() != "HE_03" || !strings.Contains(r.str("error", "message"), "dispute_accepted") {
		t.Fatalf("evidence on an accepted dispute: %d %s", r.Status, r.Raw)
	}
	r = c.upload("PUT", "/disputes/evidence", key, map[string]string{"dispute_id": dp, "evidence_type": "receipt",
		"file_type": "application/pdf"}, "a.pdf", "", []byte("%PDF"))
	if r.Status != 400 || r.errCode() != "HE_03" {
		t.Fatalf("attach on an accepted dispute: %d %s", r.Status, r.Raw)
	}
}

// TestDisputeProfileList: /disputes/profile/list answers as /disputes/list,
// narrowed to the caller's X-Profile-Id.
func TestDisputeProfileList(t *testing.T) {
	c := newClient(t)
	key := c.srv.Demo.SecretKey
	_, dp := disputedPayment(t, c, key, disputeFraudCard)
	all := c.do("GET", "/disputes/profile/list", key, nil).must(t, 200)
	if ids := disputeIDs(t, all); len(ids) != 1 || ids[0] != dp {
		t.Fatalf("profile list: %s", all.Raw)
	}
	profile := all.Body.([]any)[0].(map[string]any)["profile_id"].(string)
	mine := c.doWith("GET", "/disputes/profile/list?dispute_status=dispute_opened", key, nil, map[string]string{"X-Profile-Id": profile}).must(t, 200)
	if ids := disputeIDs(t, mine); len(ids) != 1 {
		t.Fatalf("own profile: %s", mine.Raw)
	}
	if r := c.doWith("GET", "/disputes/profile/list", key, nil, map[string]string{"X-Profile-Id": "pro_other"}); r.Status == 200 && len(disputeIDs(t, r)) != 0 {
		t.Fatalf("another profile sees the dispute: %s", r.Raw)
	}
	if r := c.do("GET", "/disputes/profile/list?limit=0", key, nil); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("limit=0: %d %s", r.Status, r.Raw)
	}
}
