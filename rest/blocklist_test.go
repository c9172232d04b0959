package rest_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// blockedCard is the sandbox's card that succeeds: 424242 / 42424242 are
// its BIN and extended BIN.
const blockedCard = "4242424242424242"

// blockedCardPayment is a confirmed card payment of number.
func blockedCardPayment(number string) map[string]any {
	return payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": card(number)})
}

// TestBlocklistEntries: each kind of entry is added, listed by its kind,
// refused when added twice and when malformed, and removed; removing one
// the merchant does not have is 404.
func TestBlocklistEntries(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	cases := []struct{ typ, data, kind string }{
		{"card_bin", "424242", "card_bin"},
		{"extended_card_bin", "42424242", "extended_card_bin"},
		{"fingerprint", "fp_0123456789abcdef", "payment_method"},
	}
	for _, tc := range cases {
		t.Run(tc.typ, func(t *testing.T) {
			entry := map[string]any{"type": tc.typ, "data": tc.data}
			r := c.do("POST", "/blocklist", key, entry).must(t, 200)
			if r.str("fingerprint_id") != tc.data || r.str("data_kind") != tc.kind || r.str("created_at") == "" {
				t.Fatalf("add: %s", r.Raw)
			}
			again := c.do("POST", "/blocklist", key, entry)
			if again.Status != 400 || again.errCode() != "IR_16" {
				t.Fatalf("a second add: %d %s", again.Status, again.Raw)
			}
			list := c.do("GET", "/blocklist?data_kind="+tc.kind, key, nil).must(t, 200)
			items, _ := list.Body.([]any)
			if len(items) != 1 || items[0].(map[string]any)["fingerprint_id"] != tc.data {
				t.Fatalf("list of %s: %s", tc.kind, list.Raw)
			}
			c.do("DELETE", "/blocklist", key, entry).must(t, 200)
			gone := c.do("DELETE", "/blocklist", key, entry)
			if gone.Status != 404 || gone.errCode() != "IR_37" {
				t.Fatalf("delete of a removed entry: %d %s", gone.Status, gone.Raw)
			}
		})
	}
}

// TestBlocklistRefusals: what a request cannot be, each with its code.
func TestBlocklistRefusals(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	cases := []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"short BIN", "POST", "/blocklist", map[string]any{"type": "card_bin", "data": "42424"}, 422, "IR_05"},
		{"BIN with letters", "POST", "/blocklist", map[string]any{"type": "card_bin", "data": "42424a"}, 422, "IR_05"},
		{"extended BIN of 6", "POST", "/blocklist", map[string]any{"type": "extended_card_bin", "data": "424242"}, 422, "IR_05"},
		{"unknown type", "POST", "/blocklist", map[string]any{"type": "iban", "data": "x"}, 400, "IR_07"},
		{"no data", "POST", "/blocklist", map[string]any{"type": "card_bin"}, 400, "IR_04"},
		{"unknown member", "POST", "/blocklist", map[string]any{"type": "card_bin", "data": "424242", "pan": "4242"}, 400, "IR_06"},
		{"list without kind", "GET", "/blocklist", nil, 400, "IR_04"},
		{"list of unknown kind", "GET", "/blocklist?data_kind=iban", nil, 400, "IR_07"},
		{"toggle without status", "POST", "/blocklist/toggle", nil, 400, "IR_04"},
		{"toggle of yes", "POST", "/blocklist/toggle?status=yes", nil, 400, "IR_07"},
		{"unknown job", "GET", "/blocklist/batch/blkjob_nope", nil, 404, "IR_37"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do(tc.method, tc.path, key, tc.body)
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("%d %s, want %d %s", r.Status, r.Raw, tc.status, tc.code)
			}
		})
	}
	if r := c.do("GET", "/blocklist?data_kind=card_bin", "", nil); r.Status != 401 {
		t.Fatalf("no key: %d %s", r.Status, r.Raw)
	}
}

// TestBlocklistGuardAtConfirm: with the guard on, a card whose BIN,
// extended BIN or fingerprint is blocked is refused at confirm with
// Hyperswitch's HE_03 (type blocked, status 200), and the payment and its
// attempt are failed without a connector call; with the guard off, or the
// entry removed, the same card pays.
func TestBlocklistGuardAtConfirm(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	// The card's fingerprint, as a saved card of a customer shows it.
	saved := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
		"payment_method_data": card(blockedCard), "customer_id": "cus_blocklist", "setup_future_usage": "on_session",
		"customer_acceptance": map[string]any{"acceptance_type": "offline"}})).must(t, 200)
	if saved.str("status") != "succeeded" {
		t.Fatalf("saving the card: %s", saved.Raw)
	}
	methods := c.do("GET", "/customers/cus_blocklist/payment_methods", key, nil).must(t, 200)
	var fingerprint string
	for _, pm := range methods.list("customer_payment_methods") {
		if card, ok := pm["card"].(map[string]any); ok {
			fingerprint, _ = card["card_fingerprint"].(string)
		}
	}
	if fingerprint == "" {
		t.Fatalf("no card fingerprint: %s", methods.Raw)
	}
	if r := c.do("POST", "/blocklist/toggle?status=true", key, nil).must(t, 200); r.str("blocklist_guard_status") != "enabled" {
		t.Fatalf("toggle: %s", r.Raw)
	}
	for _, entry := range []map[string]any{
		{"type": "card_bin", "data": blockedCard[:6]},
		{"type": "extended_card_bin", "data": blockedCard[:8]},
		{"type": "fingerprint", "data": fingerprint},
	} {
		t.Run(entry["type"].(string), func(t *testing.T) {
			c.do("POST", "/blocklist", key, entry).must(t, 200)
			created := c.pay("POST", "/payments", payment(nil)).must(t, 200)
			id := created.str("payment_id")
			checkBlocked(t, c, id, c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"payment_method": "card",
				"payment_method_data": card(blockedCard)}))
			// Another card passes while this entry stands.
			if other := c.pay("POST", "/payments", blockedCardPayment("5555555555554444")).must(t, 200); other.str("status") != "succeeded" {
				t.Fatalf("another card: %s", other.Raw)
			}
			c.do("DELETE", "/blocklist", key, entry).must(t, 200)
			if ok := c.pay("POST", "/payments", blockedCardPayment(blockedCard)).must(t, 200); ok.str("status") != "succeeded" {
				t.Fatalf("the card once unblocked: %s", ok.Raw)
			}
		})
	}
	// The guard off: a blocked BIN pays.
	c.do("POST", "/blocklist", key, map[string]any{"type": "card_bin", "data": blockedCard[:6]}).must(t, 200)
	if r := c.do("POST", "/blocklist/toggle?status=false", key, nil).must(t, 200); r.str("blocklist_guard_status") != "disabled" {
		t.Fatalf("toggle off: %s", r.Raw)
	}
	if ok := c.pay("POST", "/payments", blockedCardPayment(blockedCard)).must(t, 200); ok.str("status") != "succeeded" {
		t.Fatalf("guard off: %s", ok.Raw)
	}
	// Confirmed at creation, with the guard on: refused the same way.
	c.do("POST", "/blocklist/toggle?status=true", key, nil).must(t, 200)
	if r := c.pay("POST", "/payments", blockedCardPayment(blockedCard)); r.Status != 200 || r.errCode() != "HE_03" {
		t.Fatalf("create with confirm of a blocked card: %d %s", r.Status, r.Raw)
	}
}

// checkBlocked checks r, the confirm of payment id, was the blocklist's
// refusal (Hyperswitch's HE_03, type blocked, status 200), and that the
// payment and its one attempt failed without reaching the connector.
func checkBlocked(t *testing.T, c *client, id string, r response) {
	t.Helper()
	if r.Status != 200 || r.str("error", "type") != "blocked" || r.errCode() != "HE_03" ||
		r.str("error", "message") != "This payment method is blocked" {
		t.Fatalf("confirm of a blocked card: %d %s", r.Status, r.Raw)
	}
	got := c.pay("GET", "/payments/"+id+"?expand_attempts=true", nil).must(t, 200)
	attempts := got.list("attempts")
	if got.str("status") != "failed" || got.str("error_code") != "HE_03" ||
		got.str("error_message") != "This payment method is blocked" || len(attempts) != 1 {
		t.Fatalf("the blocked payment: %s", got.Raw)
	}
	if a := attempts[0]; a["status"] != "failure" || a["connector_transaction_id"] != nil {
		t.Fatalf("the blocked attempt reached the connector: %v", a)
	}
}

// TestBlocklistGuardSavedCards: a card charged without its number, a
// customer's saved card (payment_token) or a mandate's, is refused at
// confirm like a card given in full when its BIN, extended BIN or keyed
// fingerprint is blocked, by what was kept of it when it was saved, before
// any connector call; unblocked, the same card pays again.
func TestBlocklistGuardSavedCards(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.pay("POST", "/payments", savingPayment("cus_bl_saved", blockedCard, "on_session")).must(t, 200)
	saved := savedMethods(t, c, "cus_bl_saved")
	if len(saved) != 1 {
		t.Fatalf("saved methods: %v", saved)
	}
	token := saved[0]["payment_token"].(string)
	fingerprint, _ := saved[0]["card"].(map[string]any)["card_fingerprint"].(string)
	mandateID := setUpMandate(t, c, key, "cus_bl_mandate", nil)
	c.do("POST", "/blocklist/toggle?status=true", key, nil).must(t, 200)

	// Each way of charging a saved card: the confirm that charges it, and
	// the payment it confirms. A mandate's payment is confirmed at its
	// creation: it is given its payment_id, to be read once refused.
	charges := 0
	ways := []struct {
		name string
		pay  func(t *testing.T) (string, response)
	}{
		{"payment_token", func(t *testing.T) (string, response) {
			id := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_bl_saved"})).must(t, 200).str("payment_id")
			return id, c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"payment_method": "card", "payment_token": token,
				"payment_method_data": map[string]any{"card_token": map[string]any{"card_cvc": "123"}}})
		}},
		{"mandate", func(t *testing.T) (string, response) {
			charges++
			body := recurring("cus_bl_mandate", mandateID, 1000)
			body["payment_id"] = fmt.Sprintf("pay_bl_mandate_%d", charges)
			return body["payment_id"].(string), c.pay("POST", "/payments", body)
		}},
	}
	entries := []map[string]any{
		{"type": "card_bin", "data": blockedCard[:6]},
		{"type": "extended_card_bin", "data": blockedCard[:8]},
		{"type": "fingerprint", "data": fingerprint},
	}
	for _, entry := range entries {
		c.do("POST", "/blocklist", key, entry).must(t, 200)
		for _, w := range ways {
			t.Run(entry["type"].(string)+"/"+w.name, func(t *testing.T) {
				id, r := w.pay(t)
				checkBlocked(t, c, id, r)
			})
		}
		c.do("DELETE", "/blocklist", key, entry).must(t, 200)
	}
	for _, w := range ways {
		if _, r := w.pay(t); r.must(t, 200).str("status") != "succeeded" {
			t.Fatalf("%s once unblocked: %s", w.name, r.Raw)
		}
	}
}

// TestBlocklistRefusalForgetsTheCard: a card that waits in the vault for
// its confirm is dropped from it when the blocklist refuses it (as the
// connector's answer would drop it), and a card the refused payment was
// to save for its customer is not saved.
func TestBlocklistRefusalForgetsTheCard(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.do("POST", "/blocklist/toggle?status=true", key, nil).must(t, 200)
	c.do("POST", "/blocklist", key, map[string]any{"type": "card_bin", "data": blockedCard[:6]}).must(t, 200)
	vaulted := func(id string) int { return len(testenv.RedisKeys(t, c.srv.Redis.Client, "pmv:*"+id+"*")) }

	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_bl_vault", "setup_future_usage": "on_session",
		"customer_acceptance": acceptance, "payment_method": "card", "payment_method_data": card(blockedCard)})).must(t, 200)
	id := created.str("payment_id")
	if n := vaulted(id); n != 1 {
		t.Fatalf("the card waits in the vault under %d keys, want 1", n)
	}
	checkBlocked(t, c, id, c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}))
	if n := vaulted(id); n != 0 {
		t.Fatalf("the refused card is still in the vault (%d keys)", n)
	}
	if saved := savedMethods(t, c, "cus_bl_vault"); len(saved) != 0 {
		t.Fatalf("the refused card was saved: %v", saved)
	}
}

// TestBlocklistFingerprintTakenAsGiven: a fingerprint entry is any opaque
// value, as Hyperswitch takes it (a card may be blocked before it has paid
// here); only a value blocked already (IR_16) or too long for the entry is
// refused.
func TestBlocklistFingerprintTakenAsGiven(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	cases := []struct {
		name, data string
		status     int
		code       string
	}{
		{"unknown to this server", "fp_never_seen_here", 200, ""},
		{"blocked already", "fp_never_seen_here", 400, "IR_16"},
		{"a keyed hash's length", strings.Repeat("ab", 32), 200, ""},
		{"longer than an entry holds", strings.Repeat("a", 65), 400, "IR_07"},
		{"empty", "", 400, "IR_04"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := c.do("POST", "/blocklist", key, map[string]any{"type": "fingerprint", "data": tc.data})
			if r.Status != tc.status || r.errCode() != tc.code {
				t.Fatalf("%d %s, want %d %q", r.Status, r.Raw, tc.status, tc.code)
			}
			if tc.status == 200 && (r.str("fingerprint_id") != tc.data || r.str("data_kind") != "payment_method") {
				t.Fatalf("the entry: %s", r.Raw)
			}
		})
	}
}

// uploadBatch posts csv as the file of a multipart batch upload.
func uploadBatch(t *testing.T, c *client, key, csv string) response {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	f, err := w.CreateFormFile("file", "blocklist.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte(csv))
	_ = w.Close()
	req, err := http.NewRequest("POST", c.srv.URL+"/blocklist/batch", &body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("api-key", key)
	return c.send(req)
}

// TestBlocklistBatch: a CSV batch adds its good rows, counts the bad ones
// failed, and is recorded as a finished job, listed and read back; a file
// that is not the documented CSV is refused whole.
func TestBlocklistBatch(t *testing.T) {
	c := newClient(t)
	key := c.merchantKey()
	c.do("POST", "/blocklist", key, map[string]any{"type": "card_bin", "data": "555555"}).must(t, 200)
	csv := "type,data,metadata\ncard_bin,411111,reason=fraud;source=manual\nextended_card_bin,41111111,\n" +
		"fingerprint,fp_batch,\ncard_bin,4111,\ncard_bin,555555,\n"
	r := uploadBatch(t, c, key, csv).must(t, 202)
	jobID := r.str("job_id")
	if r.num("total_rows") != 5 || r.str("status") != "completed" || !strings.HasPrefix(jobID, "blkjob_") {
		t.Fatalf("upload: %s", r.Raw)
	}
	job := c.do("GET", "/blocklist/batch/"+jobID, key, nil).must(t, 200)
	if job.num("succeeded_rows") != 3 || job.num("failed_rows") != 2 || job.str("merchant_id") != c.srv.Demo.MerchantID {
		t.Fatalf("job: %s", job.Raw)
	}
	list := c.do("GET", "/blocklist/batch?limit=5", key, nil).must(t, 200)
	if list.num("count") != 1 || list.num("total_count") != 1 {
		t.Fatalf("jobs: %s", list.Raw)
	}
	bins := c.do("GET", "/blocklist?data_kind=card_bin", key, nil).must(t, 200)
	if items, _ := bins.Body.([]any); len(items) != 2 {
		t.Fatalf("card BINs after the batch: %s", bins.Raw)
	}
	for name, bad := range map[string]string{"no header": "", "wrong header": "kind,value\ncard_bin,411111\n",
		"no rows": "type,data,metadata\n"} {
		if r := uploadBatch(t, c, key, bad); r.Status != 400 {
			t.Fatalf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	if r := c.do("POST", "/blocklist/batch", key, map[string]any{"file": "x"}); r.Status != 400 {
		t.Fatalf("a JSON body: %d %s", r.Status, r.Raw)
	}
}

// TestBlocklistTenancy: one merchant's entries and jobs are not another's.
func TestBlocklistTenancy(t *testing.T) {
	c := newClient(t)
	_, otherKey, _ := otherMerchant(t, c, "merchant_blocklist_other")
	entry := map[string]any{"type": "card_bin", "data": "424242"}
	c.do("POST", "/blocklist", c.merchantKey(), entry).must(t, 200)
	job := uploadBatch(t, c, c.merchantKey(), "type,data\ncard_bin,411111\n").must(t, 202).str("job_id")
	if list := c.do("GET", "/blocklist?data_kind=card_bin", otherKey, nil).must(t, 200); len(list.Body.([]any)) != 0 {
		t.Fatalf("the other merchant's list: %s", list.Raw)
	}
	if r := c.do("DELETE", "/blocklist", otherKey, entry); r.Status != 404 {
		t.Fatalf("the other merchant's delete: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/blocklist/batch/"+job, otherKey, nil); r.Status != 404 {
		t.Fatalf("the other merchant's job: %d %s", r.Status, r.Raw)
	}
	// The same value is the other merchant's to block too.
	c.do("POST", "/blocklist", otherKey, entry).must(t, 200)
}
