package rest_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestPayoutOutcomesBySandboxRecipient: each test recipient of the sandbox
// (docs/sandbox.md, "Payouts") gives its outcome when confirmed with
// auto_fulfill, and a sync (GET ?force_sync=true) moves a pending payout
// to success and a reversing one to reversed.
func TestPayoutOutcomesBySandboxRecipient(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	ach := func(acct string) map[string]any {
		return map[string]any{"bank": map[string]any{"bank_account_number": acct, "bank_routing_number": "110000000"}}
	}
	tests := []struct {
		name, payoutType string
		method           map[string]any
		want, afterSync  string
		errorCode        string
	}{
		{"card success", "card", payoutCard("4242424242424242"), "success", "success", ""},
		{"card declined", "card", payoutCard("4000000000000002"), "failed", "failed", "payout_declined"},
		{"card pending", "card", payoutCard("4000000000000259"), "pending", "success", ""},
		{"card reversed", "card", payoutCard("4000000000005126"), "success", "reversed", ""},
		{"ach success", "bank", ach("000123456789"), "success", "success", ""},
		{"ach declined", "bank", ach("000123450002"), "failed", "failed", "payout_declined"},
		{"bacs pending", "bank", map[string]any{"bank": map[string]any{"bank_account_number": "55550259", "bank_sort_code": "231470"}}, "pending", "success", ""},
		{"sepa reversed", "bank", map[string]any{"bank": map[string]any{"iban": "DE89370400440532015126", "bic": "COBADEFFXXX"}}, "success", "reversed", ""},
		{"pix success", "bank", map[string]any{"bank": map[string]any{"bank_account_number": "12345678", "pix_key": "k", "emv": "x"}}, "success", "success", ""},
		{"paypal pending", "wallet", map[string]any{"wallet": map[string]any{"paypal": map[string]any{"email": "pending@example.com", "telephone_number": "1", "paypal_id": "p"}}}, "pending", "success", ""},
		{"paypal declined", "wallet", map[string]any{"wallet": map[string]any{"paypal": map[string]any{"email": "fail@example.com", "telephone_number": "1", "paypal_id": "p"}}}, "failed", "failed", "payout_declined"},
		{"card ineligible", "card", payoutCard("4000000000000069"), "ineligible", "ineligible", "payout_method_ineligible"},
		{"paypal ineligible", "wallet", map[string]any{"wallet": map[string]any{"paypal": map[string]any{"email": "ineligible@example.com", "telephone_number": "1", "paypal_id": "p"}}}, "ineligible", "ineligible", "payout_method_ineligible"},
		{"venmo success", "wallet", map[string]any{"wallet": map[string]any{"venmo": map[string]any{"telephone_number": "5551234567"}}}, "success", "success", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := createPayout(t, c, map[string]any{"payout_type": tt.payoutType, "payout_method_data": tt.method,
				"confirm": true, "auto_fulfill": true})
			if p.str("status") != tt.want || p.str("error_code") != tt.errorCode {
				t.Fatalf("status %q error_code %q, want %q %q: %s", p.str("status"), p.str("error_code"), tt.want, tt.errorCode, p.Raw)
			}
			if tt.errorCode != "" && p.str("error_message") == "" {
				t.Fatalf("a failure without its reason: %s", p.Raw)
			}
			synced := c.do("GET", "/payouts/"+p.str("payout_id")+"?force_sync=true", c.merchantKey(), nil).must(t, 200)
			if synced.str("status") != tt.afterSync {
				t.Fatalf("after sync %q, want %q: %s", synced.str("status"), tt.afterSync, synced.Raw)
			}
			if len(synced.list("attempts")) != 1 {
				t.Fatalf("attempts: %s", synced.Raw)
			}
		})
	}
}

// TestPayoutMethodIsStoredMasked: the card number, the account number and
// the e-mail are shown (and stored) masked.
func TestPayoutMethodIsStoredMasked(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	p := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	if got := p.str("payout_method_data", "card", "last4"); got != "4242" {
		t.Fatalf("last4 %q: %s", got, p.Raw)
	}
	for _, v := range dumpDatabase(t, c) {
		if string(v.value) != "" && containsPAN(string(v.value), "4242424242424242") {
			t.Fatalf("%s.%s holds the card number", v.table, v.column)
		}
	}
}

func containsPAN(s, pan string) bool {
	for i := 0; i+len(pan) <= len(s); i++ {
		if s[i:i+len(pan)] == pan {
			return true
		}
	}
	return false
}

// TestPayoutStepByStep: create without confirm, update, confirm with the
// client secret (auto_fulfill false stops at requires_fulfillment), fulfil;
// and each step refused where Hyperswitch refuses it.
func TestPayoutStepByStep(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	key := c.merchantKey()
	p := createPayout(t, c, map[string]any{"confirm": false})
	id, secret := p.str("payout_id"), p.str("client_secret")
	if p.str("status") != "requires_confirmation" || secret == "" {
		t.Fatalf("created: %s", p.Raw)
	}
	upd := c.do("POST", "/payouts/"+id, key, map[string]any{"amount": 2500, "description": "updated"}).must(t, 200)
	if upd.num("amount") != 2500 || upd.str("status") != "requires_confirmation" {
		t.Fatalf("updated: %s", upd.Raw)
	}
	wrong := c.do("POST", "/payouts/"+id+"/confirm", key, map[string]any{"client_secret": secret + "x"}).must(t, 400)
	if wrong.errCode() != "IR_09" {
		t.Fatalf("wrong secret: %s", wrong.Raw)
	}
	conf := c.do("POST", "/payouts/"+id+"/confirm", key, map[string]any{"client_secret": secret}).must(t, 200)
	if conf.str("status") != "requires_fulfillment" || conf.str("connector") != "adyen" || conf.str("merchant_connector_id") == "" {
		t.Fatalf("confirmed: %s", conf.Raw)
	}
	again := c.do("POST", "/payouts/"+id+"/confirm", key, map[string]any{"client_secret": secret}).must(t, 422)
	if again.errCode() != "IR_06" {
		t.Fatalf("second confirm: %s", again.Raw)
	}
	money := c.do("POST", "/payouts/"+id, key, map[string]any{"amount": 3000}).must(t, 422)
	if money.errCode() != "IR_06" {
		t.Fatalf("amount changed after creation: %s", money.Raw)
	}
	done := c.do("POST", "/payouts/"+id+"/fulfill", key, map[string]any{"payout_id": id}).must(t, 200)
	if done.str("status") != "success" || done.num("amount") != 2500 {
		t.Fatalf("fulfilled: %s", done.Raw)
	}
	for path, body := range map[string]map[string]any{"/fulfill": {"payout_id": id}, "/cancel": {"payout_id": id},
		"/confirm": {"client_secret": secret}, "": {"description": "late"}} {
		r := c.do("POST", "/payouts/"+id+path, key, body).must(t, 422)
		if r.errCode() != "IR_06" {
			t.Fatalf("POST %s on a success: %s", path, r.Raw)
		}
	}
}

// TestPayoutWithoutMethod: a payout created without a method waits for
// it; confirm asks for it; an update gives it.
func TestPayoutWithoutMethod(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	key := c.merchantKey()
	p := createPayout(t, c, map[string]any{"payout_method_data": nil, "payout_type": nil})
	id := p.str("payout_id")
	if p.str("status") != "requires_payout_method_data" {
		t.Fatalf("created: %s", p.Raw)
	}
	if r := c.do("POST", "/payouts/"+id+"/confirm", key, map[string]any{"client_secret": p.str("client_secret")}).must(t, 400); r.errCode() != "IR_04" {
		t.Fatalf("confirm without a method: %s", r.Raw)
	}
	upd := c.do("POST", "/payouts/"+id, key, map[string]any{"payout_type": "card", "payout_method_data": payoutCard("4242424242424242")}).must(t, 200)
	if upd.str("status") != "requires_confirmation" {
		t.Fatalf("updated: %s", upd.Raw)
	}
	conf := c.do("POST", "/payouts/"+id, key, map[string]any{"confirm": true, "auto_fulfill": true}).must(t, 200)
	if conf.str("status") != "success" {
		t.Fatalf("update with confirm: %s", conf.Raw)
	}
}

// TestPayoutCancel: before the connector knows it, after it created it,
// while it is pending (refused by the connector: IR_41), once ended (IR_06).
func TestPayoutCancel(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	key := c.merchantKey()
	cancel := func(id string, status int) response {
		return c.do("POST", "/payouts/"+id+"/cancel", key, map[string]any{"payout_id": id}).must(t, status)
	}
	local := createPayout(t, c, nil).str("payout_id")
	if got := cancel(local, 200).str("status"); got != "cancelled" {
		t.Fatalf("local cancel: %s", got)
	}
	created := createPayout(t, c, map[string]any{"confirm": true}).str("payout_id")
	if got := cancel(created, 200).str("status"); got != "cancelled" {
		t.Fatalf("connector cancel: %s", got)
	}
	if r := c.do("POST", "/payouts/"+created+"/fulfill", key, nil).must(t, 422); r.errCode() != "IR_06" {
		t.Fatalf("fulfil of a cancelled payout: %s", r.Raw)
	}
	pending := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true,
		"payout_method_data": payoutCard("4000000000000259")}).str("payout_id")
	if r := cancel(pending, 400); r.errCode() != "IR_41" {
		t.Fatalf("cancel of a pending payout: %s", r.Raw)
	}
	if got := payoutStatus(t, c, pending); got != "pending" {
		t.Fatalf("a refused cancel changed the payout: %s", got)
	}
	if r := cancel(local, 422); r.errCode() != "IR_06" {
		t.Fatalf("second cancel: %s", r.Raw)
	}
}

// TestPayoutOverTheBalanceFails: the sandbox account's payout balance
// never goes negative; a payout over it fails with its reason.
func TestPayoutOverTheBalanceFails(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	p := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "amount": 10_000_001})
	if p.str("status") != "failed" || p.str("error_code") != "insufficient_balance" {
		t.Fatalf("over the balance: %s", p.Raw)
	}
	ok := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "amount": 10_000_000})
	if ok.str("status") != "success" {
		t.Fatalf("the whole balance: %s", ok.Raw)
	}
	if r := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "amount": 1}); r.str("error_code") != "insufficient_balance" {
		t.Fatalf("an empty balance: %s", r.Raw)
	}
}

// TestConcurrentFulfilsMoveMoneyOnce: many fulfils of one payout at once:
// one fulfils it, the others are refused, and the balance is debited once.
func TestConcurrentFulfilsMoveMoneyOnce(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	id := createPayout(t, c, map[string]any{"confirm": true, "amount": 6_000_000}).str("payout_id")
	const n = 8
	statuses := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses[i] = c.do("POST", "/payouts/"+id+"/fulfill", c.merchantKey(), nil).Status
		}()
	}
	wg.Wait()
	ok := 0
	for _, s := range statuses {
		if s == 200 {
			ok++
		} else if s != 422 {
			t.Fatalf("statuses %v", statuses)
		}
	}
	if ok != 1 || payoutStatus(t, c, id) != "success" {
		t.Fatalf("statuses %v", statuses)
	}
	// 6,000,000 of 10,000,000 went once: another 4,000,000 fits exactly.
	if r := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true, "amount": 4_000_000}); r.str("status") != "success" {
		t.Fatalf("the balance was debited more than once: %s", r.Raw)
	}
}

// TestPayoutIdempotentCreate: the same Idempotency-Key and body answer the
// same payout; another body with the key is 422.
func TestPayoutIdempotentCreate(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	body := payoutRequestOf(map[string]any{"confirm": true, "auto_fulfill": true})
	hdr := map[string]string{"Idempotency-Key": "payout-key-1"}
	first := c.doWith("POST", "/payouts/create", c.merchantKey(), body, hdr).must(t, 200)
	second := c.doWith("POST", "/payouts/create", c.merchantKey(), body, hdr).must(t, 200)
	if first.str("payout_id") != second.str("payout_id") {
		t.Fatalf("two payouts for one key: %s / %s", first.Raw, second.Raw)
	}
	body["amount"] = 1001
	c.doWith("POST", "/payouts/create", c.merchantKey(), body, hdr).must(t, 422)
}

// TestPayoutTenancy: another merchant's payout is 404 (HE_02) on every
// route.
func TestPayoutTenancy(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	id := createPayout(t, c, nil).str("payout_id")
	_, otherKey, _ := otherMerchant(t, c, "merchant_payouts_other")
	for _, r := range []struct{ method, path string }{
		{"GET", ""}, {"POST", ""}, {"POST", "/confirm"}, {"POST", "/fulfill"}, {"POST", "/cancel"},
	} {
		var body any
		switch {
		case r.method == "POST" && r.path == "":
			body = map[string]any{"description": "not mine"}
		case r.path == "/confirm":
			body = map[string]any{"client_secret": "not mine"}
		case r.method == "POST":
			body = map[string]any{"payout_id": id}
		}
		got := c.do(r.method, "/payouts/"+id+r.path, otherKey, body).must(t, 404)
		if got.errCode() != "HE_02" || got.str("error", "message") != "Payout does not exist in our records" {
			t.Fatalf("%s %s: %s", r.method, r.path, got.Raw)
		}
	}
	list := c.do("GET", "/payouts/list", otherKey, nil).must(t, 200)
	if list.num("size") != 0 {
		t.Fatalf("another merchant's list: %s", list.Raw)
	}
}

// TestPayoutWithoutProcessor: a confirm with no payout processor is IR_39.
func TestPayoutWithoutProcessor(t *testing.T) {
	c := newClient(t)
	r := c.do("POST", "/payouts/create", c.merchantKey(), payoutRequestOf(map[string]any{"confirm": true})).must(t, 400)
	if r.errCode() != "IR_39" {
		t.Fatalf("no processor: %s", r.Raw)
	}
}

// TestPayoutValidation: bad members are 4xx in the envelope.
func TestPayoutValidation(t *testing.T) {
	c := newClient(t)
	tests := []struct {
		name    string
		members map[string]any
		code    string
	}{
		{"no amount", map[string]any{"amount": nil}, "IR_04"},
		{"no currency", map[string]any{"currency": nil}, "IR_04"},
		{"zero amount", map[string]any{"amount": 0}, "IR_07"},
		{"bad currency", map[string]any{"currency": "XXX"}, "IR_07"},
		{"bad payout type", map[string]any{"payout_type": "cash"}, "IR_07"},
		{"type and method differ", map[string]any{"payout_type": "bank"}, "IR_07"},
		{"bad card", map[string]any{"payout_method_data": payoutCard("4242424242424241")}, "IR_07"},
		{"unknown member", map[string]any{"no_such_member": 1}, "IR_06"},
		{"bank without account", map[string]any{"payout_type": "bank", "payout_method_data": map[string]any{"bank": map[string]any{"bank_name": "x"}}}, "IR_07"},
		// A member longer than its column is refused naming it, never a
		// database error.
		{"long customer_id", map[string]any{"customer_id": strings.Repeat("c", 65)}, "IR_07"},
		{"long merchant_order_reference_id", map[string]any{"merchant_order_reference_id": strings.Repeat("r", 256)}, "IR_07"},
		{"long description", map[string]any{"description": strings.Repeat("d", 1025)}, "IR_07"},
		{"long return_url", map[string]any{"return_url": "https://example.com/" + strings.Repeat("p", 2048)}, "IR_07"},
		{"long business_label", map[string]any{"business_label": strings.Repeat("b", 65)}, "IR_07"},
		{"long payout_token", map[string]any{"payout_token": strings.Repeat("t", 65)}, "IR_07"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.do("POST", "/payouts/create", c.merchantKey(), payoutRequestOf(tt.members))
			if r.Status != 400 || r.errCode() != tt.code {
				t.Fatalf("status %d code %q, want 400 %s: %s", r.Status, r.errCode(), tt.code, r.Raw)
			}
		})
	}
}

// TestPayoutListAndFilters: GET /payouts/list pages newest first by
// cursor; POST /payouts/list filters and pages by offset; POST
// /payouts/filter lists the values present.
func TestPayoutListAndFilters(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	key := c.merchantKey()
	var ids []string
	for i := range 5 {
		members := map[string]any{"customer_id": fmt.Sprintf("cus_%d", i%2)}
		if i < 2 {
			members["confirm"], members["auto_fulfill"] = true, true
		}
		ids = append(ids, createPayout(t, c, members).str("payout_id"))
	}
	page := c.do("GET", "/payouts/list?limit=2", key, nil).must(t, 200)
	data := page.list("data")
	if page.num("size") != 2 || page.num("total_count") != 5 || data[0]["payout_id"] != ids[4] || data[1]["payout_id"] != ids[3] {
		t.Fatalf("first page: %s", page.Raw)
	}
	next := c.do("GET", "/payouts/list?limit=2&starting_after="+ids[3], key, nil).must(t, 200).list("data")
	if len(next) != 2 || next[0]["payout_id"] != ids[2] {
		t.Fatalf("next page: %v", next)
	}
	prev := c.do("GET", "/payouts/list?limit=2&ending_before="+ids[1], key, nil).must(t, 200).list("data")
	if len(prev) != 2 || prev[0]["payout_id"] != ids[3] || prev[1]["payout_id"] != ids[2] {
		t.Fatalf("previous page: %v", prev)
	}
	if r := c.do("GET", "/payouts/list?customer_id=cus_1", key, nil).must(t, 200); r.num("size") != 2 {
		t.Fatalf("by customer: %s", r.Raw)
	}
	c.do("GET", "/payouts/list?limit=0", key, nil).must(t, 400)
	c.do("GET", "/payouts/list?nope=1", key, nil).must(t, 400)
	filtered := c.do("POST", "/payouts/list", key, map[string]any{"status": []string{"success"}, "currency": "USD",
		"entity_type": "Individual", "limit": 1, "offset": 1}).must(t, 200)
	if filtered.num("size") != 1 || filtered.num("total_count") != 2 {
		t.Fatalf("filtered: %s", filtered.Raw)
	}
	f := c.do("POST", "/payouts/filter", key, map[string]any{"start_time": "2000-01-01T00:00:00Z"}).must(t, 200)
	if len(f.list("status")) != 0 && fmt.Sprint(f.obj()["status"]) == "" {
		t.Fatalf("filters: %s", f.Raw)
	}
	if fmt.Sprint(f.obj()["connector"]) != "[adyen]" || fmt.Sprint(f.obj()["payout_method"]) != "[card]" {
		t.Fatalf("filters: %s", f.Raw)
	}
}

// TestPayoutConfirmWithThePublishableKey: the client-side confirm takes
// the publishable key with the payout's client_secret, and only with it;
// the publishable key opens no other payout route.
func TestPayoutConfirmWithThePublishableKey(t *testing.T) {
	c := newClient(t)
	payoutProcessor(t, c, "adyen")
	pk := c.srv.Demo.PublishableKey
	p := createPayout(t, c, map[string]any{"auto_fulfill": true})
	id := p.str("payout_id")
	if r := c.do("POST", "/payouts/"+id+"/confirm", pk, map[string]any{}).must(t, 400); r.errCode() != "IR_08" {
		t.Fatalf("no client_secret: %s", r.Raw)
	}
	if r := c.do("POST", "/payouts/"+id+"/confirm", pk, map[string]any{"client_secret": "payout_x_secret_y"}).must(t, 400); r.errCode() != "IR_09" {
		t.Fatalf("another secret: %s", r.Raw)
	}
	done := c.do("POST", "/payouts/"+id+"/confirm", pk, map[string]any{"client_secret": p.str("client_secret")}).must(t, 200)
	if done.str("status") != "success" {
		t.Fatalf("confirmed by the client: %s", done.Raw)
	}
	c.do("GET", "/payouts/"+id, pk, nil).must(t, 401)
	c.do("POST", "/payouts/"+id+"/fulfill", pk, nil).must(t, 401)
}
