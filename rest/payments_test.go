package rest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"switchyard/internal/idempotency"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments"
)

// Payments through the v1 REST routes and the sandbox simulator. Every
// payment response is checked against the money invariants (checkMoney).

const futureYear = "2035"

// card is payment_method_data for a test card number.
func card(number string) map[string]any {
	cvc := "123"
	if strings.HasPrefix(number, "34") || strings.HasPrefix(number, "37") {
		cvc = "1234" // American Express
	}
	return map[string]any{"card": map[string]any{
		"card_number": number, "card_exp_month": "12", "card_exp_year": futureYear,
		"card_holder_name": "Jane Doe", "card_cvc": cvc,
	}}
}

// payment is a create body: amount 10000 USD with the given members.
func payment(members map[string]any) map[string]any {
	body := map[string]any{"amount": 10000, "currency": "USD"}
	for k, v := range members {
		body[k] = v
	}
	return body
}

// billingAddress makes every card check available (line1, zip).
var billingAddress = map[string]any{
	"address": map[string]any{"line1": "1 Main St", "zip": "94105", "city": "San Francisco", "country": "US",
		"first_name": "Jane", "last_name": "Doe"},
	"phone": map[string]any{"number": "5551234567", "country_code": "+1"},
	"email": "jane@example.com",
}

// merchantKey is the demo merchant's secret key.
func (c *client) merchantKey() string { return c.srv.Demo.SecretKey }

// pay sends a payment call with the demo merchant's key and checks the
// money invariants of a 200 answer.
func (c *client) pay(method, path string, body any) response {
	c.t.Helper()
	r := c.do(method, path, c.merchantKey(), body)
	if r.Status == 200 {
		checkMoney(c.t, r)
	}
	return r
}

func (r response) num(key string) int64 {
	v, ok := r.obj()[key].(float64)
	if !ok {
		return -1
	}
	return int64(v)
}

func (r response) list(key string) []map[string]any {
	arr, _ := r.obj()[key].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, e := range arr {
		m, _ := e.(map[string]any)
		out = append(out, m)
	}
	return out
}

// checkMoney asserts a payment record's money invariants: amount_received
// is the sum of the charged captures, nothing captured exceeds the
// authorization (net_amount), what is still capturable fits in what is
// left, and a payment that is not capturable has nothing capturable.
func checkMoney(t *testing.T, r response) {
	t.Helper()
	if r.obj()["payment_id"] == nil {
		return // not a payment record
	}
	var charged int64
	for _, cp := range r.list("captures") {
		if cp["status"] == "charged" {
			charged += int64(cp["amount"].(float64))
		}
	}
	received, capturable, net := r.num("amount_received"), r.num("amount_capturable"), r.num("net_amount")
	status := r.str("status")
	if received != charged {
		t.Fatalf("%s: amount_received %d != sum of charged captures %d: %s", status, received, charged, r.Raw)
	}
	if received > net || capturable < 0 || received+capturable > net {
		t.Fatalf("%s: received %d + capturable %d exceeds net_amount %d: %s", status, received, capturable, net, r.Raw)
	}
	switch status {
	case "requires_capture", "partially_captured_and_capturable", "partially_authorized_and_requires_capture":
		if capturable <= 0 {
			t.Fatalf("%s with amount_capturable %d: %s", status, capturable, r.Raw)
		}
	case "processing", "partially_captured_and_processing":
	default:
		if capturable != 0 {
			t.Fatalf("%s with amount_capturable %d: %s", status, capturable, r.Raw)
		}
	}
	if status == "succeeded" && received == 0 && net > 0 {
		t.Fatalf("succeeded with nothing received: %s", r.Raw)
	}
}

// countPayments counts the payment rows in the database (every merchant).
func countPayments(t *testing.T, c *client) int {
	t.Helper()
	var n int
	if err := c.srv.Store.DB.QueryRow("SELECT COUNT(*) FROM payment_intents").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// form is one HTML form of a page.
type form struct {
	action string
	fields url.Values
	button string
}

var (
	formRe   = regexp.MustCompile(`(?s)<form method="post" action="([^"]*)">(.*?)</form>`)
	hiddenRe = regexp.MustCompile(`<input type="hidden" name="([^"]*)" value="([^"]*)">`)
	buttonRe = regexp.MustCompile(`<button[^>]*>([^<]*)</button>`)
)

// page is a fetched HTML page.
type page struct {
	status int
	header http.Header
	body   string
	forms  []form
}

// getPage fetches an HTML page (no API key: a customer's browser).
func getPage(t *testing.T, rawURL string) page {
	t.Helper()
	resp, err := http.Get(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	p := page{status: resp.StatusCode, header: resp.Header, body: string(b)}
	for _, m := range formRe.FindAllStringSubmatch(p.body, -1) {
		f := form{action: html.UnescapeString(m[1]), fields: url.Values{}}
		for _, in := range hiddenRe.FindAllStringSubmatch(m[2], -1) {
			f.fields.Set(html.UnescapeString(in[1]), html.UnescapeString(in[2]))
		}
		if b := buttonRe.FindStringSubmatch(m[2]); b != nil {
			f.button = strings.TrimSpace(b[1])
		}
		p.forms = append(p.forms, f)
	}
	return p
}

// submit posts one of a page's forms, resolved against the page's URL, the
// way a browser does, without following the redirect it answers.
func submit(t *testing.T, pageURL string, f form) *http.Response {
	t.Helper()
	base, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	action, err := base.Parse(f.action)
	if err != nil {
		t.Fatal(err)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.PostForm(action.String(), f.fields)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp
}

// authenticate drives the sandbox page of a payment waiting for its
// customer: it fetches next_action.redirect_to_url, finds the button's form
// and submits it. It returns the answer (a 303 to return_url, or a page).
func authenticate(t *testing.T, r response, button string) *http.Response {
	t.Helper()
	if r.str("status") != "requires_customer_action" || r.str("next_action", "type") != "redirect_to_url" {
		t.Fatalf("no redirect next_action: %s", r.Raw)
	}
	target := r.str("next_action", "redirect_to_url")
	p := getPage(t, target)
	if p.status != 200 || len(p.forms) != 2 {
		t.Fatalf("page %s: %d with %d forms:\n%s", target, p.status, len(p.forms), p.body)
	}
	if !strings.Contains(p.body, r.str("payment_id")) {
		t.Fatalf("the page does not show the payment id:\n%s", p.body)
	}
	for _, f := range p.forms {
		if f.button == button {
			return submit(t, target, f)
		}
	}
	t.Fatalf("no %q button on the page:\n%s", button, p.body)
	return nil
}

// TestSandboxCards runs every row of sandbox-cards.md through POST /payments
// with confirm: true.
func TestSandboxCards(t *testing.T) {
	c := newClient(t)
	checks := func(cvc, line1, zip string) map[string]any {
		return map[string]any{"cvc_check": cvc, "address_line1_check": line1, "address_postal_code_check": zip}
	}
	allPass := checks("pass", "pass", "pass")
	type want struct {
		status, errorCode, reason string
		checks                    map[string]any
		dispute                   string // connector_reason of the dispute opened
	}
	declined := func(code, reason string) want {
		return want{status: "failed", errorCode: code, reason: reason, checks: allPass}
	}
	rows := []struct {
		numbers []string
		capture string
		want    want
	}{
		{[]string{"4242424242424242", "4111111111111111", "5555555555554444", "378282246310005", "371449635398431",
			"6011111111111117", "38000000000006", "3566002020360505"}, "automatic", want{status: "succeeded", checks: allPass}},
		{[]string{"4242424242424242", "4111111111111111", "5555555555554444", "378282246310005", "371449635398431",
			"6011111111111117", "38000000000006", "3566002020360505"}, "manual", want{status: "requires_capture", checks: allPass}},
		{[]string{"4000000000000077"}, "automatic", want{status: "succeeded", checks: allPass}},
		{[]string{"4000000000000002", "5105105105105100"}, "automatic", declined("card_declined", "generic_decline")},
		{[]string{"4000000000009995"}, "automatic", declined("card_declined", "insufficient_funds")},
		{[]string{"4000000000009987"}, "automatic", declined("card_declined", "lost_card")},
		{[]string{"4000000000009979"}, "automatic", declined("card_declined", "stolen_card")},
		{[]string{"4000000000000069"}, "automatic", declined("expired_card", "expired_card")},
		{[]string{"4000000000000127"}, "automatic", want{status: "failed", errorCode: "incorrect_cvc", reason: "incorrect_cvc",
			checks: checks("fail", "pass", "pass")}},
		{[]string{"4000000000000119"}, "automatic", declined("processing_error", "processing_error")},
		{[]string{"4000000000000101"}, "automatic", want{status: "succeeded", checks: checks("fail", "pass", "pass")}},
		{[]string{"4000000000000036"}, "automatic", want{status: "succeeded", checks: checks("pass", "pass", "fail")}},
		{[]string{"4000000000000028"}, "automatic", want{status: "succeeded", checks: checks("pass", "fail", "pass")}},
		{[]string{"4000000000000259"}, "automatic", want{status: "succeeded", checks: allPass, dispute: "fraudulent"}},
		{[]string{"4000000000002685"}, "automatic", want{status: "succeeded", checks: allPass, dispute: "product_not_received"}},
		{[]string{"4000000000000341"}, "automatic", declined("card_declined", "generic_decline")},
		{[]string{"4012888888881881", "4000056655665556", "6200000000000005"}, "automatic", want{status: "succeeded", checks: allPass}},
	}
	for _, row := range rows {
		for _, number := range row.numbers {
			t.Run(number+"/"+row.capture, func(t *testing.T) {
				r := c.pay("POST", "/payments", payment(map[string]any{
					"confirm": true, "capture_method": row.capture, "payment_method": "card",
					"payment_method_data": card(number), "billing": billingAddress,
				})).must(t, 200)
				w := row.want
				if r.str("status") != w.status {
					t.Fatalf("status %q, want %q: %s", r.str("status"), w.status, r.Raw)
				}
				if got := r.str("error_code"); got != w.errorCode {
					t.Fatalf("error_code %q, want %q", got, w.errorCode)
				}
				if w.reason != "" {
					if msg := r.str("error_message"); !strings.Contains(msg, w.reason) {
						t.Fatalf("error_message %q does not name %q", msg, w.reason)
					}
					if got := r.str("error_details", "connector_details", "reason"); got != w.reason {
						t.Fatalf("error_details.connector_details.reason %q, want %q", got, w.reason)
					}
				} else if r.obj()["error_message"] != nil || r.obj()["error_details"] != nil {
					t.Fatalf("an error on a successful payment: %s", r.Raw)
				}
				pmCard, _ := r.obj()["payment_method_data"].(map[string]any)["card"].(map[string]any)
				if pmCard["last4"] != number[len(number)-4:] || pmCard["card_isin"] != number[:6] {
					t.Fatalf("payment_method_data.card %v", pmCard)
				}
				if got := fmt.Sprint(pmCard["payment_checks"]); got != fmt.Sprint(w.checks) {
					t.Fatalf("payment_checks %s, want %s", got, fmt.Sprint(w.checks))
				}
				disputes := r.list("disputes")
				switch {
				case w.dispute == "" && len(disputes) != 0:
					t.Fatalf("unexpected dispute: %s", r.Raw)
				case w.dispute != "" && (len(disputes) != 1 || disputes[0]["connector_reason"] != w.dispute ||
					disputes[0]["dispute_status"] != "dispute_opened" || disputes[0]["amount"] != "10000"):
					t.Fatalf("dispute %v, want one opened for %s", disputes, w.dispute)
				}
				if strings.Contains(string(r.Raw), number) {
					t.Fatalf("the card number is in the response: %s", r.Raw)
				}
			})
		}
	}

	// Rejected before any connector call: nothing is created.
	before := countPayments(t, c)
	for _, number := range []string{"4242424242424241", "42424242424", "4242 4242 4242 424x"} {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card(number)}))
		if r.Status != 400 || r.errCode() != "CE_04" || !strings.Contains(r.str("error", "message"), "card_number") {
			t.Fatalf("card %q: %d %s, want 400 CE_04 naming card_number", number, r.Status, r.Raw)
		}
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("invalid cards created %d payments", n-before)
	}
}

// TestSandboxChallenges drives every 3-D Secure card and the redirect
// methods through the sandbox page's own forms: Approve and Decline each
// send the browser to return_url with the payment id and status.
func TestSandboxChallenges(t *testing.T) {
	c := newClient(t)
	const returnURL = "https://shop.example/checkout/done?order=42"
	rows := []struct {
		name      string
		members   map[string]any
		button    string
		status    string
		errorCode string
	}{}
	for _, n := range []string{"4000000000003063", "4000002760003184", "4000003800000446", "4000000000003220"} {
		rows = append(rows,
			struct {
				name      string
				members   map[string]any
				button    string
				status    string
				errorCode string
			}{n + "/approve", map[string]any{"payment_method": "card", "payment_method_data": card(n)}, "Approve", "succeeded", ""},
			struct {
				name      string
				members   map[string]any
				button    string
				status    string
				errorCode string
			}{n + "/decline", map[string]any{"payment_method": "card", "payment_method_data": card(n)}, "Decline", "failed", "authentication_failed"},
		)
	}
	type row = struct {
		name      string
		members   map[string]any
		button    string
		status    string
		errorCode string
	}
	rows = append(rows,
		row{"3ds-then-insufficient-funds", map[string]any{"payment_method_data": card("4000008260003178")}, "Approve", "failed", "card_declined"},
		row{"3ds-on-session", map[string]any{"payment_method_data": card("4000002500003155")}, "Approve", "succeeded", ""},
		row{"3ds-manual-capture", map[string]any{"payment_method_data": card("4000000000003063"), "capture_method": "manual"}, "Approve", "requires_capture", ""},
		row{"3ds-sequential-automatic", map[string]any{"payment_method_data": card("4000000000003063"), "capture_method": "sequential_automatic"}, "Approve", "succeeded", ""},
		row{"upi-success", map[string]any{"payment_method": "upi", "payment_method_data": map[string]any{
			"upi": map[string]any{"upi_collect": map[string]any{"vpa_id": "success@upi"}}}}, "Approve", "succeeded", ""},
		row{"paypal-approve", map[string]any{"payment_method": "wallet", "payment_method_data": map[string]any{
			"wallet": map[string]any{"paypal_redirect": map[string]any{}}}}, "Approve", "succeeded", ""},
		row{"klarna-decline", map[string]any{"payment_method": "pay_later", "payment_method_data": map[string]any{
			"pay_later": map[string]any{"klarna_redirect": map[string]any{"billing_email": "a@b.c", "billing_country": "SE"}}}}, "Decline", "failed", "payment_method_provider_decline"},
		row{"ideal-approve", map[string]any{"payment_method": "bank_redirect", "payment_method_data": map[string]any{
			"bank_redirect": map[string]any{"ideal": map[string]any{"bank_name": "ing", "country": "NL"}}}}, "Approve", "succeeded", ""},
	)
	for _, rw := range rows {
		t.Run(rw.name, func(t *testing.T) {
			members := map[string]any{"confirm": true, "return_url": returnURL}
			for k, v := range rw.members {
				members[k] = v
			}
			r := c.pay("POST", "/payments", payment(members)).must(t, 200)
			if r.obj()["amount_received"].(float64) != 0 || len(r.list("captures")) != 0 {
				t.Fatalf("money moved before the customer answered: %s", r.Raw)
			}
			resp := authenticate(t, r, rw.button)
			if resp.StatusCode != http.StatusSeeOther {
				t.Fatalf("complete: %d, want 303", resp.StatusCode)
			}
			loc, err := url.Parse(resp.Header.Get("Location"))
			if err != nil {
				t.Fatal(err)
			}
			q := loc.Query()
			if loc.Host != "shop.example" || loc.Path != "/checkout/done" || q.Get("order") != "42" ||
				q.Get("payment_id") != r.str("payment_id") || q.Get("status") != rw.status {
				t.Fatalf("redirected to %s, want return_url with payment_id and status %s", loc, rw.status)
			}
			got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
			if got.str("status") != rw.status || got.str("error_code") != rw.errorCode || got.obj()["next_action"] != nil {
				t.Fatalf("after %s: %s", rw.button, got.Raw)
			}
			// The page again: the payment no longer waits; a second click changes nothing.
			p := getPage(t, r.str("next_action", "redirect_to_url"))
			if p.status != 200 || len(p.forms) != 0 || !strings.Contains(p.body, "no longer waiting") {
				t.Fatalf("page after completion: %d %s", p.status, p.body)
			}
		})
	}

	t.Run("off-session needs no challenge", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "off_session": true,
			"payment_method_data": card("4000002500003155")})).must(t, 200)
		if r.str("status") != "succeeded" || r.obj()["next_action"] != nil {
			t.Fatalf("%s", r.Raw)
		}
	})
	t.Run("upi failure", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": map[string]any{
			"upi": map[string]any{"upi_collect": map[string]any{"vpa_id": "failure@upi"}}}})).must(t, 200)
		if r.str("status") != "failed" || r.obj()["next_action"] != nil {
			t.Fatalf("%s", r.Raw)
		}
	})

	t.Run("no return_url shows the result", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
			"payment_method_data": card("4000000000003063")})).must(t, 200)
		resp := authenticate(t, r, "Approve")
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("complete without return_url: %d %s", resp.StatusCode, resp.Header)
		}
		if got := c.pay("GET", "/payments/"+r.str("payment_id"), nil); got.str("status") != "succeeded" {
			t.Fatalf("%s", got.Raw)
		}
	})

	t.Run("the page", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "return_url": returnURL,
			"description": `<script>alert("x")</script>`, "payment_method_data": card("4000000000003063")})).must(t, 200)
		target := r.str("next_action", "redirect_to_url")
		p := getPage(t, target)
		for _, s := range []string{"100.00", "USD", "stripe_test", r.str("payment_id"), "Approve", "Decline"} {
			if !strings.Contains(p.body, s) {
				t.Errorf("the page does not show %q", s)
			}
		}
		if p.header.Get("Referrer-Policy") != "no-referrer" || p.header.Get("Cache-Control") != "no-store" {
			t.Errorf("page headers %v", p.header)
		}
		for _, f := range p.forms {
			if f.fields.Get("token") == "" || (f.fields.Get("approve") != "true" && f.fields.Get("approve") != "false") {
				t.Errorf("form %+v", f)
			}
		}
		u, _ := url.Parse(target)
		attempt := strings.TrimPrefix(u.Path, "/sandbox/authenticate/")
		// A wrong or missing token, or an unknown attempt: 404, and nothing changes.
		for _, bad := range []string{
			c.srv.URL + "/sandbox/authenticate/" + attempt + "?token=" + strings.Repeat("0", 32),
			c.srv.URL + "/sandbox/authenticate/" + attempt,
			c.srv.URL + "/sandbox/authenticate/pa_unknown?token=" + u.Query().Get("token"),
		} {
			if p := getPage(t, bad); p.status != 404 || len(p.forms) != 0 {
				t.Errorf("GET %s: %d", bad, p.status)
			}
		}
		forged := form{action: "/sandbox/authenticate/" + attempt + "/complete",
			fields: url.Values{"token": {"forged"}, "approve": {"true"}}}
		if resp := submit(t, target, forged); resp.StatusCode != 404 {
			t.Errorf("POST with a forged token: %d", resp.StatusCode)
		}
		bad := form{action: "/sandbox/authenticate/" + attempt + "/complete",
			fields: url.Values{"token": {u.Query().Get("token")}, "approve": {"maybe"}}}
		if resp := submit(t, target, bad); resp.StatusCode != 400 {
			t.Errorf("POST approve=maybe: %d", resp.StatusCode)
		}
		// A prefetcher GETting the complete URL changes nothing.
		if resp, err := http.Get(c.srv.URL + "/sandbox/authenticate/" + attempt + "/complete?token=" + u.Query().Get("token") + "&approve=true"); err != nil {
			t.Fatal(err)
		} else {
			resp.Body.Close()
			if resp.StatusCode == 200 || resp.StatusCode == 303 {
				t.Errorf("GET complete: %d", resp.StatusCode)
			}
		}
		if got := c.pay("GET", "/payments/"+r.str("payment_id"), nil); got.str("status") != "requires_customer_action" {
			t.Fatalf("a bad request moved the payment: %s", got.Raw)
		}
	})
}

// TestCaptureMethods: every capture method, with the money invariants
// checked on every answer (pay does), and scheduled refused.
func TestCaptureMethods(t *testing.T) {
	c := newClient(t)
	create := func(t *testing.T, capture string) response {
		t.Helper()
		return c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": capture,
			"payment_method_data": card("4242424242424242")})).must(t, 200)
	}
	capture := func(t *testing.T, id string, amount any) response {
		t.Helper()
		var body any
		if amount != nil {
			body = map[string]any{"amount_to_capture": amount}
		}
		return c.pay("POST", "/payments/"+id+"/capture", body)
	}
	expect := func(t *testing.T, r response, status string, received, capturable int64, captures int) {
		t.Helper()
		if r.Status != 200 || r.str("status") != status || r.num("amount_received") != received ||
			r.num("amount_capturable") != capturable || len(r.list("captures")) != captures {
			t.Fatalf("want %s received %d capturable %d with %d captures: %d %s",
				status, received, capturable, captures, r.Status, r.Raw)
		}
	}

	t.Run("automatic", func(t *testing.T) {
		r := create(t, "automatic")
		expect(t, r, "succeeded", 10000, 0, 1)
		if r := capture(t, r.str("payment_id"), nil); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("capture of a succeeded payment: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("sequential_automatic", func(t *testing.T) {
		r := create(t, "sequential_automatic")
		expect(t, r, "succeeded", 10000, 0, 1)
		if r.list("attempts")[0]["status"] != "charged" {
			t.Fatalf("%s", r.Raw)
		}
	})
	t.Run("manual full", func(t *testing.T) {
		r := create(t, "manual")
		expect(t, r, "requires_capture", 0, 10000, 0)
		r = capture(t, r.str("payment_id"), nil)
		expect(t, r, "succeeded", 10000, 0, 1)
		if cp := r.list("captures")[0]; cp["status"] != "charged" || cp["capture_sequence"] != 1.0 ||
			cp["authorized_attempt_id"] != r.list("attempts")[0]["attempt_id"] {
			t.Fatalf("capture record %v", cp)
		}
	})
	t.Run("manual partial", func(t *testing.T) {
		r := create(t, "manual")
		id := r.str("payment_id")
		for _, bad := range []any{0, -1, 10001} {
			if r := capture(t, id, bad); r.Status != 400 || r.errCode() != "IR_07" {
				t.Fatalf("capture %v: %d %s", bad, r.Status, r.Raw)
			}
		}
		r = capture(t, id, 6000)
		expect(t, r, "partially_captured", 6000, 0, 1)
		// One partial capture ends a manual authorization.
		if r := capture(t, id, 1000); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("second capture: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("manual_multiple", func(t *testing.T) {
		r := create(t, "manual_multiple")
		id := r.str("payment_id")
		expect(t, r, "requires_capture", 0, 10000, 0)
		expect(t, capture(t, id, 2500), "partially_captured_and_capturable", 2500, 7500, 1)
		expect(t, capture(t, id, 3500), "partially_captured_and_capturable", 6000, 4000, 2)
		if r := capture(t, id, 4001); r.Status != 400 || r.errCode() != "IR_07" {
			t.Fatalf("over-capture: %d %s", r.Status, r.Raw)
		}
		r = capture(t, id, 4000)
		expect(t, r, "succeeded", 10000, 0, 3)
		for i, cp := range r.list("captures") {
			if cp["capture_sequence"] != float64(i+1) || cp["status"] != "charged" {
				t.Fatalf("capture %d: %v", i, cp)
			}
		}
		if r := capture(t, id, 1); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("capture after full: %d %s", r.Status, r.Raw)
		}
	})
	t.Run("manual_multiple with net amount", func(t *testing.T) {
		// Shipping, tax and surcharge are authorized with the order amount.
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual_multiple",
			"shipping_cost": 500, "order_tax_amount": 300, "surcharge_details": map[string]any{"surcharge_amount": 200, "tax_amount": 20},
			"payment_method_data": card("4242424242424242")})).must(t, 200)
		expect(t, r, "requires_capture", 0, 11020, 0)
		if r.num("net_amount") != 11020 || r.num("amount") != 10000 {
			t.Fatalf("%s", r.Raw)
		}
		expect(t, capture(t, r.str("payment_id"), 11020), "succeeded", 11020, 0, 1)
	})
	t.Run("scheduled", func(t *testing.T) {
		before := countPayments(t, c)
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "scheduled",
			"payment_method_data": card("4242424242424242")}))
		if r.Status != 400 || r.errCode() != "IR_20" || !strings.Contains(r.str("error", "message"), "not supported") {
			t.Fatalf("scheduled: %d %s", r.Status, r.Raw)
		}
		if countPayments(t, c) != before {
			t.Fatal("a refused payment was created")
		}
	})
	t.Run("capture before authorization", func(t *testing.T) {
		r := c.pay("POST", "/payments", payment(map[string]any{"capture_method": "manual"})).must(t, 200)
		if r := capture(t, r.str("payment_id"), nil); r.Status != 400 || r.errCode() != "IR_14" {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
}

// TestCancel: cancel in every state that allows it, IR_14 in the others.
func TestCancel(t *testing.T) {
	c := newClient(t)
	make := func(t *testing.T, members map[string]any) string {
		t.Helper()
		return c.pay("POST", "/payments", payment(members)).must(t, 200).str("payment_id")
	}
	allowed := []struct {
		name, from, to string
		setup          func(t *testing.T) string
	}{
		{"requires_payment_method", "requires_payment_method", "cancelled", func(t *testing.T) string {
			return make(t, nil)
		}},
		{"requires_confirmation", "requires_confirmation", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"payment_method_data": card("4242424242424242")})
		}},
		{"requires_capture", "requires_capture", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
		}},
		{"requires_customer_action", "requires_customer_action", "cancelled", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4000000000003063")})
		}},
		{"partially_captured_and_capturable", "partially_captured_and_capturable", "partially_captured", func(t *testing.T) string {
			id := make(t, map[string]any{"confirm": true, "capture_method": "manual_multiple", "payment_method_data": card("4242424242424242")})
			c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
			return id
		}},
	}
	for _, a := range allowed {
		t.Run(a.name, func(t *testing.T) {
			id := a.setup(t)
			if got := c.pay("GET", "/payments/"+id, nil).str("status"); got != a.from {
				t.Fatalf("set up %s, got %s", a.from, got)
			}
			r := c.pay("POST", "/payments/"+id+"/cancel", map[string]any{"cancellation_reason": "requested_by_customer"}).must(t, 200)
			if r.str("status") != a.to || r.str("cancellation_reason") != "requested_by_customer" || r.num("amount_capturable") != 0 {
				t.Fatalf("cancel from %s: %s", a.from, r.Raw)
			}
			if r.obj()["next_action"] != nil {
				t.Fatalf("a cancelled payment still asks for the customer: %s", r.Raw)
			}
			if a.from == "partially_captured_and_capturable" && r.num("amount_received") != 4000 {
				t.Fatalf("the capture was lost: %s", r.Raw)
			}
			// Cancelled is final.
			if r := c.pay("POST", "/payments/"+id+"/cancel", nil); r.Status != 400 || r.errCode() != "IR_14" {
				t.Fatalf("second cancel: %d %s", r.Status, r.Raw)
			}
		})
	}
	t.Run("empty body", func(t *testing.T) {
		id := make(t, nil)
		if r := c.pay("POST", "/payments/"+id+"/cancel", nil); r.Status != 200 || r.str("status") != "cancelled" ||
			r.obj()["cancellation_reason"] != nil {
			t.Fatalf("%d %s", r.Status, r.Raw)
		}
	})
	refused := []struct {
		name   string
		status string
		setup  func(t *testing.T) string
	}{
		{"succeeded", "succeeded", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
		}},
		{"failed", "failed", func(t *testing.T) string {
			return make(t, map[string]any{"confirm": true, "payment_method_data": card("4000000000000002")})
		}},
		{"partially_captured", "partially_captured", func(t *testing.T) string {
			id := make(t, map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
			c.pay("POST", "/payments/"+id+"/capture", map[string]any{"amount_to_capture": 10}).must(t, 200)
			return id
		}},
	}
	for _, rf := range refused {
		t.Run("refused "+rf.name, func(t *testing.T) {
			id := rf.setup(t)
			r := c.pay("POST", "/payments/"+id+"/cancel", map[string]any{"cancellation_reason": "x"})
			if r.Status != 400 || r.errCode() != "IR_14" || !strings.Contains(r.str("error", "message"), rf.status) {
				t.Fatalf("cancel %s: %d %s", rf.status, r.Status, r.Raw)
			}
			if got := c.pay("GET", "/payments/"+id, nil); got.str("status") != rf.status || got.obj()["cancellation_reason"] != nil {
				t.Fatalf("a refused cancel changed the payment: %s", got.Raw)
			}
		})
	}
}

// TestUpdatePayment: a payment can be changed until it is confirmed.
func TestUpdatePayment(t *testing.T) {
	c := newClient(t)
	r := c.pay("POST", "/payments", payment(map[string]any{"description": "first", "metadata": map[string]any{"a": "1"},
		"customer_id": "cus_update", "customer": map[string]any{"name": "Jane"}})).must(t, 200)
	id := r.str("payment_id")
	if r.str("status") != "requires_payment_method" || r.str("customer", "name") != "Jane" {
		t.Fatalf("%s", r.Raw)
	}
	r = c.pay("POST", "/payments/"+id, map[string]any{"amount": 2500, "currency": "EUR", "description": "second",
		"metadata": map[string]any{"b": "2"}, "email": "jane@example.com", "customer_id": "cus_update",
		"payment_method": "card", "payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.num("amount") != 2500 || r.str("currency") != "EUR" || r.str("description") != "second" ||
		r.str("status") != "requires_confirmation" || r.str("email") != "jane@example.com" ||
		fmt.Sprint(r.obj()["metadata"]) != "map[b:2]" {
		t.Fatalf("update: %s", r.Raw)
	}
	for _, bad := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"payment_id": "pay_other"}, "IR_07"},
		{map[string]any{"profile_id": c.srv.Demo.ProfileID}, "IR_07"},
		{map[string]any{"amount": 0}, "IR_07"},
		{map[string]any{"currency": "XXX"}, "IR_07"},
		{map[string]any{"no_such_member": 1}, "IR_06"},
		{map[string]any{"capture_method": "scheduled"}, "IR_20"},
		{map[string]any{"email": "x@y.z"}, "IR_04"},
		{map[string]any{"customer_id": "a", "customer": map[string]any{"id": "b"}}, "IR_07"},
	} {
		if r := c.pay("POST", "/payments/"+id, bad.body); r.Status != 400 || r.errCode() != bad.code {
			t.Errorf("update %v: %d %s, want %s", bad.body, r.Status, r.Raw, bad.code)
		}
	}
	// Confirm with the card given on update (it waited in the vault).
	r = c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}).must(t, 200)
	if r.str("status") != "succeeded" || r.num("amount_received") != 2500 {
		t.Fatalf("confirm: %s", r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id, map[string]any{"description": "third"}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("update after confirm: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}); r.Status != 400 || r.errCode() != "IR_14" {
		t.Fatalf("confirm twice: %d %s", r.Status, r.Raw)
	}
	// Update with confirm: true authorizes.
	id = c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	r = c.pay("POST", "/payments/"+id, map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.str("status") != "requires_capture" {
		t.Fatalf("update with confirm: %s", r.Raw)
	}
	// Confirm may not change the amount.
	id = c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"amount": 1, "payment_method_data": card("4242424242424242")}); r.Status != 400 || r.errCode() != "IR_07" {
		t.Fatalf("confirm with amount: %d %s", r.Status, r.Raw)
	}
	if r := c.pay("POST", "/payments/"+id+"/confirm", map[string]any{}); r.Status != 400 || r.errCode() != "IR_04" {
		t.Fatalf("confirm without a payment method: %d %s", r.Status, r.Raw)
	}
}

// TestPublishableKey: the publishable key works with the payment's client
// secret on the client routes (confirm, retrieve), and nowhere else.
func TestPublishableKey(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	if !strings.HasPrefix(pk, "pk_snd_") {
		t.Fatalf("demo publishable key %q", pk)
	}
	created := c.pay("POST", "/payments", payment(map[string]any{"customer_id": "cus_pk"})).must(t, 200)
	id, secret := created.str("payment_id"), created.str("client_secret")
	if !strings.HasPrefix(secret, id+"_secret_") {
		t.Fatalf("client_secret %q", secret)
	}
	confirmBody := func(members map[string]any) map[string]any {
		body := map[string]any{"payment_method": "card", "payment_method_data": card("4242424242424242"),
			"browser_info": map[string]any{"user_agent": "Mozilla/5.0", "language": "en-US", "color_depth": 24}}
		for k, v := range members {
			body[k] = v
		}
		return body
	}

	// Retrieve: the secret is required and checked.
	for _, tc := range []struct {
		query, code string
		status      int
	}{
		{"", "IR_08", 400},
		{"?client_secret=" + url.QueryEscape(id+"_secret_wrong"), "IR_09", 400},
		{"?client_secret=", "IR_08", 400},
		{"?client_secret=" + url.QueryEscape(secret), "", 200},
	} {
		r := c.do("GET", "/payments/"+id+tc.query, pk, nil)
		if r.Status != tc.status || r.errCode() != tc.code {
			t.Errorf("GET with pk %q: %d %s", tc.query, r.Status, r.Raw)
		}
	}
	// A secret key may retrieve without the secret, and a wrong one is refused too.
	c.pay("GET", "/payments/"+id, nil).must(t, 200)
	if r := c.pay("GET", "/payments/"+id+"?client_secret=nope", nil); r.Status != 400 || r.errCode() != "IR_09" {
		t.Errorf("secret key with a wrong client secret: %d %s", r.Status, r.Raw)
	}

	// Confirm: missing, mismatched, then the right secret.
	for _, tc := range []struct {
		body map[string]any
		code string
	}{
		{confirmBody(nil), "IR_08"},
		{confirmBody(map[string]any{"client_secret": id + "_secret_000000000000000000000000"}), "IR_09"},
		{confirmBody(map[string]any{"client_secret": secret, "amount_to_capture": 5}), "IR_22"},
		{confirmBody(map[string]any{"client_secret": secret, "metadata": map[string]any{"x": 1}}), "IR_22"},
		{confirmBody(map[string]any{"client_secret": secret, "capture_method": "manual"}), "IR_22"},
	} {
		if r := c.do("POST", "/payments/"+id+"/confirm", pk, tc.body); r.errCode() != tc.code {
			t.Errorf("confirm with pk %v: %d %s, want %s", tc.body["client_secret"], r.Status, r.Raw, tc.code)
		}
	}
	if got := c.pay("GET", "/payments/"+id, nil); got.str("status") != "requires_payment_method" {
		t.Fatalf("a refused confirm changed the payment: %s", got.Raw)
	}
	r := c.do("POST", "/payments/"+id+"/confirm", pk, confirmBody(map[string]any{"client_secret": secret,
		"return_url": "https://shop.example/done", "billing": billingAddress})).must(t, 200)
	checkMoney(t, r)
	if r.str("status") != "succeeded" || r.str("browser_info", "user_agent") != "Mozilla/5.0" ||
		r.str("billing", "email") != "jane@example.com" {
		t.Fatalf("confirm with pk: %s", r.Raw)
	}

	// An expired secret (session_expiry 0 expires at once).
	expired := c.pay("POST", "/payments", payment(map[string]any{"session_expiry": 0})).must(t, 200)
	body := confirmBody(map[string]any{"client_secret": expired.str("client_secret")})
	if r := c.do("POST", "/payments/"+expired.str("payment_id")+"/confirm", pk, body); r.Status != 400 || r.errCode() != "IR_08" ||
		!strings.Contains(r.str("error", "message"), "expired") {
		t.Errorf("expired secret on confirm: %d %s", r.Status, r.Raw)
	}
	if r := c.do("GET", "/payments/"+expired.str("payment_id")+"?client_secret="+url.QueryEscape(expired.str("client_secret")), pk, nil); r.errCode() != "IR_08" {
		t.Errorf("expired secret on retrieve: %d %s", r.Status, r.Raw)
	}
	// session_expiry moves expires_on.
	if e := c.pay("POST", "/payments", payment(map[string]any{"session_expiry": 60})).must(t, 200); !strings.HasPrefix(e.str("expires_on"), "20") {
		t.Fatalf("%s", e.Raw)
	}

	// Another payment's secret does not open this one.
	other := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	if r := c.do("GET", "/payments/"+other.str("payment_id")+"?client_secret="+url.QueryEscape(secret), pk, nil); r.errCode() != "IR_09" {
		t.Errorf("another payment's secret: %d %s", r.Status, r.Raw)
	}

	// Everywhere else the publishable key is 401.
	for _, rt := range []struct{ method, path string }{
		{"POST", "/payments"},
		{"POST", "/payments/" + id},
		{"POST", "/payments/" + id + "/capture"},
		{"POST", "/payments/" + id + "/cancel"},
		{"GET", "/account/" + c.srv.Demo.MerchantID + "/connectors"},
		{"GET", "/accounts/" + c.srv.Demo.MerchantID},
		{"POST", "/account/" + c.srv.Demo.MerchantID + "/business_profile"},
		{"GET", "/api_keys/" + c.srv.Demo.MerchantID + "/list"},
	} {
		if r := c.do(rt.method, rt.path, pk, map[string]any{"amount": 1, "currency": "USD", "client_secret": secret}); r.Status != 401 || r.errCode() != "IR_01" {
			t.Errorf("%s %s with the publishable key: %d %s", rt.method, rt.path, r.Status, r.Raw)
		}
	}
	// An unknown publishable key is 401 on the client routes too.
	if r := c.do("GET", "/payments/"+id+"?client_secret="+url.QueryEscape(secret), "pk_snd_unknown", nil); r.Status != 401 {
		t.Errorf("unknown pk: %d %s", r.Status, r.Raw)
	}
	// Another merchant's publishable key cannot see this payment.
	b := makeMerchant(t, c, "merchant_pk_b")
	acct := c.do("GET", "/accounts/"+b.id, c.admin(), nil).must(t, 200)
	if r := c.do("GET", "/payments/"+id+"?client_secret="+url.QueryEscape(secret), acct.str("publishable_key"), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Errorf("B's pk on A's payment: %d %s", r.Status, r.Raw)
	}
}

// idem sends a payment call with an Idempotency-Key.
func (c *client) idem(method, path, key string, body any) response {
	c.t.Helper()
	return c.doWith(method, path, c.merchantKey(), body, map[string]string{"Idempotency-Key": key})
}

// runKey makes an Idempotency-Key unique to this run: the test Redis is
// shared across runs (and keeps keys 24 h), and every run's demo merchant
// has the same id.
func runKey(name string) string { return name + "-" + ids.Base62(10) }

// TestIdempotencyKeys: replay, mismatch, in flight, scoping and validation
// of the Idempotency-Key header on mutating calls.
func TestIdempotencyKeys(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
	key, badKey, capKey := runKey("order-1001"), runKey("order-bad"), runKey("cap-1")

	before := countPayments(t, c)
	first := c.idem("POST", "/payments", key, body).must(t, 200)
	if first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("the first call is marked replayed")
	}
	again := c.idem("POST", "/payments", key, body).must(t, 200)
	if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Raw) != string(first.Raw) {
		t.Fatalf("replay: %q\n%s\nwant\n%s", again.Header.Get("Idempotent-Replayed"), again.Raw, first.Raw)
	}
	if n := countPayments(t, c) - before; n != 1 {
		t.Fatalf("%d payments for one key", n)
	}

	// The same key with another body, method or path: 422, and nothing runs.
	other := payment(map[string]any{"amount": 999, "confirm": true, "payment_method_data": card("4242424242424242")})
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/payments", other},
		{"POST", "/payments/" + first.str("payment_id") + "/cancel", body},
	} {
		r := c.idem(tc.method, tc.path, key, tc.body)
		if r.Status != 422 || r.errCode() != "IR_06" || !strings.Contains(r.str("error", "message"), "Idempotency-Key") {
			t.Fatalf("%s %s with a used key: %d %s", tc.method, tc.path, r.Status, r.Raw)
		}
	}
	if n := countPayments(t, c) - before; n != 1 {
		t.Fatalf("a mismatched request created a payment")
	}

	// Error answers are kept and replayed too.
	bad := payment(map[string]any{"currency": "XXX"})
	e1 := c.idem("POST", "/payments", badKey, bad)
	e2 := c.idem("POST", "/payments", badKey, bad)
	if e1.Status != 400 || e2.Status != 400 || string(e1.Raw) != string(e2.Raw) || e2.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("error replay: %d %s / %d %s", e1.Status, e1.Raw, e2.Status, e2.Raw)
	}

	// Keys are the merchant's: another merchant's same key is its own.
	b := makeMerchant(t, c, "merchant_idem_b")
	rb := c.doWith("POST", "/payments", b.key, body, map[string]string{"Idempotency-Key": key}).must(t, 200)
	if rb.Header.Get("Idempotent-Replayed") != "" || rb.str("payment_id") == first.str("payment_id") || rb.str("merchant_id") != b.id {
		t.Fatalf("another merchant's key replayed: %s", rb.Raw)
	}

	// Every mutating route takes a key (capture here), and reads ignore it.
	mid := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")})).must(t, 200).str("payment_id")
	cap1 := c.idem("POST", "/payments/"+mid+"/capture", capKey, map[string]any{"amount_to_capture": 100}).must(t, 200)
	cap2 := c.idem("POST", "/payments/"+mid+"/capture", capKey, map[string]any{"amount_to_capture": 100}).must(t, 200)
	if cap2.Header.Get("Idempotent-Replayed") != "true" || len(cap2.list("captures")) != 1 || string(cap1.Raw) != string(cap2.Raw) {
		t.Fatalf("capture replay: %s", cap2.Raw)
	}
	if r := c.idem("GET", "/payments/"+mid, capKey, nil).must(t, 200); r.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("a GET was replayed")
	}

	// Malformed keys are 400 naming the header.
	for _, key := range []string{"", strings.Repeat("k", 256), "has space", "ünïcode"} {
		r := c.idem("POST", "/payments", key, body)
		if r.Status != 400 || r.errCode() != "IR_07" || !strings.Contains(r.str("error", "message"), "Idempotency-Key") {
			t.Errorf("key %q: %d %s", key, r.Status, r.Raw)
		}
	}
}

// TestIdempotencyInFlight: a key whose request is still running is 409;
// once it is released the request runs.
func TestIdempotencyInFlight(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"description": "in flight"})
	raw, _ := json.Marshal(body)
	store := idempotency.New(c.srv.Redis.Client)
	key := runKey("slow-1")
	// Another request (here, the test) holds the key for the same call.
	lease, _, err := store.Begin(context.Background(), c.srv.Demo.MerchantID, key,
		idempotency.Fingerprint("POST /payments", raw))
	if err != nil {
		t.Fatal(err)
	}
	before := countPayments(t, c)
	r := c.idem("POST", "/payments", key, raw)
	if r.Status != 409 || r.errCode() != "IR_16" || !strings.Contains(r.str("error", "message"), "still being processed") {
		t.Fatalf("in flight: %d %s", r.Status, r.Raw)
	}
	if countPayments(t, c) != before {
		t.Fatal("an in-flight duplicate created a payment")
	}
	if err := lease.Release(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.idem("POST", "/payments", key, raw).must(t, 200)
	if countPayments(t, c) != before+1 {
		t.Fatal("the released key did not run")
	}
}

// TestIdempotencyConcurrent: 100 concurrent POST /payments with one key and
// body make exactly one payment. The others are replays of it, or 409 while
// it runs.
func TestIdempotencyConcurrent(t *testing.T) {
	c := newClient(t)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242"),
		"customer_id": "cus_concurrent"})
	raw, _ := json.Marshal(body)
	key := runKey("concurrent-1")
	before := countPayments(t, c)
	const n = 100
	type result struct {
		status   int
		replayed bool
		id       string
	}
	results := make(chan result, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest("POST", c.srv.URL+"/payments", bytes.NewReader(raw))
			req.Header.Set("api-key", c.merchantKey())
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Idempotency-Key", key)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			var out map[string]any
			_ = json.NewDecoder(resp.Body).Decode(&out)
			id, _ := out["payment_id"].(string)
			results <- result{resp.StatusCode, resp.Header.Get("Idempotent-Replayed") == "true", id}
		})
	}
	close(start)
	wg.Wait()
	close(results)
	ids := map[string]int{}
	fresh, conflicts := 0, 0
	for r := range results {
		switch r.status {
		case 200:
			ids[r.id]++
			if !r.replayed {
				fresh++
			}
		case 409:
			conflicts++
		default:
			t.Errorf("status %d", r.status)
		}
	}
	if got := countPayments(t, c) - before; got != 1 {
		t.Fatalf("%d payments made by %d requests with one key", got, n)
	}
	if len(ids) != 1 || fresh != 1 {
		t.Fatalf("answers name %d payments, %d not replayed (%d conflicts)", len(ids), fresh, conflicts)
	}
	for id := range maps.Keys(ids) {
		t.Logf("%d requests: 1 ran, %d replayed it, %d in flight (409)", n, ids[id]-1, conflicts)
	}
}

// TestDuplicatePaymentID: a merchant-supplied payment_id is unique per
// merchant (HE_01), and another merchant may use the same one.
func TestDuplicatePaymentID(t *testing.T) {
	c := newClient(t)
	c.pay("POST", "/payments", payment(map[string]any{"payment_id": "order_2024_0001"})).must(t, 200)
	r := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "order_2024_0001", "amount": 5}))
	if r.Status != 400 || r.errCode() != "HE_01" || !strings.Contains(r.str("error", "message"), "payment_id") {
		t.Fatalf("duplicate payment_id: %d %s", r.Status, r.Raw)
	}
	b := makeMerchant(t, c, "merchant_dup_b")
	c.do("POST", "/payments", b.key, payment(map[string]any{"payment_id": "order_2024_0001"})).must(t, 200)
	// Concurrent creates with one id: one wins, the others are HE_01.
	var wg sync.WaitGroup
	codes := make(chan string, 10)
	for range 10 {
		wg.Go(func() {
			r := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"payment_id": "order_race"}))
			if r.Status == 200 {
				codes <- "ok"
			} else {
				codes <- r.errCode()
			}
		})
	}
	wg.Wait()
	close(codes)
	ok := 0
	for code := range codes {
		switch code {
		case "ok":
			ok++
		case "HE_01":
		default:
			t.Errorf("concurrent duplicate: %s", code)
		}
	}
	if ok != 1 {
		t.Fatalf("%d creates of one payment_id succeeded", ok)
	}
}

// TestIdempotencyRedisDown: with the key store down, a call that carries an
// Idempotency-Key is 503 in the error envelope and changes nothing; calls
// without one that need no Redis still work.
func TestIdempotencyRedisDown(t *testing.T) {
	redis := testenv.StartRedis(t)
	c := newClientOnRedis(t, redis)
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
	c.idem("POST", "/payments", "before-the-fault", body).must(t, 200)
	authorized := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "capture_method": "manual",
		"payment_method_data": card("4242424242424242")})).must(t, 200)

	redis.Stop()
	before := countPayments(t, c)
	for _, key := range []string{"after-the-fault", "before-the-fault"} {
		r := c.idem("POST", "/payments", key, body)
		if r.Status != 503 || r.errCode() != "HE_00" || r.str("error", "type") != "api" {
			t.Fatalf("with Redis down, key %s: %d %s", key, r.Status, r.Raw)
		}
	}
	r := c.idem("POST", "/payments/"+authorized.str("payment_id")+"/capture", "cap-down", nil)
	if r.Status != 503 {
		t.Fatalf("capture with Redis down: %d %s", r.Status, r.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("%d payments created with Redis down", n-before)
	}
	if got := c.pay("GET", "/payments/"+authorized.str("payment_id"), nil).must(t, 200); got.str("status") != "requires_capture" {
		t.Fatalf("the refused capture ran: %s", got.Raw)
	}
	// A card without confirm must wait in the vault (Redis): refused, nothing written.
	if r := c.pay("POST", "/payments", payment(map[string]any{"payment_method_data": card("4242424242424242")})); r.Status != 503 {
		t.Fatalf("vaulting with Redis down: %d %s", r.Status, r.Raw)
	}
	if n := countPayments(t, c); n != before {
		t.Fatalf("a payment was written although its card could not be vaulted")
	}
	// Without a key, calls that need no Redis work.
	c.pay("POST", "/payments", body).must(t, 200)
	c.pay("POST", "/payments/"+authorized.str("payment_id")+"/capture", nil).must(t, 200)
	c.pay("GET", "/payments/"+authorized.str("payment_id"), nil).must(t, 200)
}

// TestPaymentsCrossTenant: another merchant's payment id is 404 on every
// payment route, whatever the key, and the payment is untouched.
func TestPaymentsCrossTenant(t *testing.T) {
	c := newClient(t)
	a := makeMerchant(t, c, "merchant_pay_a")
	b := makeMerchant(t, c, "merchant_pay_b")
	bPay := func(members map[string]any) string {
		t.Helper()
		return c.do("POST", "/payments", b.key, payment(members)).must(t, 200).str("payment_id")
	}
	open := bPay(nil)
	authorized := bPay(map[string]any{"confirm": true, "capture_method": "manual", "payment_method_data": card("4242424242424242")})
	bAcct := c.do("GET", "/accounts/"+b.id, c.admin(), nil).must(t, 200)
	bSecret := c.do("GET", "/payments/"+open, b.key, nil).must(t, 200).str("client_secret")
	aAcct := c.do("GET", "/accounts/"+a.id, c.admin(), nil).must(t, 200)

	routes := []struct {
		method, path string
		body         any
	}{
		{"GET", "/payments/" + open, nil},
		{"POST", "/payments/" + open, map[string]any{"description": "mine now"}},
		{"POST", "/payments/" + open + "/confirm", map[string]any{"payment_method_data": card("4242424242424242")}},
		{"POST", "/payments/" + authorized + "/capture", map[string]any{}},
		{"POST", "/payments/" + authorized + "/cancel", map[string]any{}},
	}
	callers := []struct {
		name    string
		key     string
		headers map[string]string
	}{
		{"A's secret key", a.key, nil},
		{"the admin key as A", c.admin(), map[string]string{"X-Merchant-Id": a.id}},
		{"A's publishable key", aAcct.str("publishable_key"), nil},
		{"B's key narrowed to its other profile", b.key, map[string]string{"X-Profile-Id": b.profileID}},
	}
	for _, rt := range routes {
		for _, cl := range callers {
			r := c.doWith(rt.method, rt.path, cl.key, rt.body, cl.headers)
			want := 404
			if cl.name == "A's publishable key" && !strings.HasSuffix(rt.path, "/confirm") && rt.method != "GET" {
				want = 401 // not a client route
			}
			if r.Status != want || (want == 404 && r.errCode() != "HE_02") {
				t.Errorf("%s %s with %s: %d %s, want %d", rt.method, rt.path, cl.name, r.Status, r.Raw, want)
			}
			if strings.Contains(string(r.Raw), b.id) {
				t.Errorf("B's data leaked: %s", r.Raw)
			}
		}
	}
	// B's publishable key and secret on a route that names A's payment id:
	aPay := c.do("POST", "/payments", a.key, payment(nil)).must(t, 200).str("payment_id")
	if r := c.do("GET", "/payments/"+aPay+"?client_secret="+url.QueryEscape(bSecret), bAcct.str("publishable_key"), nil); r.Status != 404 {
		t.Errorf("B's pk on A's payment: %d %s", r.Status, r.Raw)
	}
	// The admin key without a merchant has no payments to act on.
	if r := c.do("GET", "/payments/"+open, c.admin(), nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Errorf("admin without X-Merchant-Id: %d %s", r.Status, r.Raw)
	}
	// B's payments are untouched, and B still sees them.
	if r := c.do("GET", "/payments/"+open, b.key, nil).must(t, 200); r.str("status") != "requires_payment_method" || r.obj()["description"] != nil {
		t.Errorf("B's open payment changed: %s", r.Raw)
	}
	if r := c.do("GET", "/payments/"+authorized, b.key, nil).must(t, 200); r.str("status") != "requires_capture" {
		t.Errorf("B's authorized payment changed: %s", r.Raw)
	}
	if r := c.doWith("GET", "/payments/"+open, c.admin(), nil, map[string]string{"X-Merchant-Id": b.id}); r.Status != 200 {
		t.Errorf("admin as B: %d %s", r.Status, r.Raw)
	}
}

// paymentVolatile are the parts of a payment record that change from run to
// run beyond what golden replaces: attempt, capture and refund ids inside
// other strings, client secrets, redirect tokens and the server's address.
var paymentVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`_secret_[A-Za-z0-9]{24}`), "_secret_{secret}"},
	{regexp.MustCompile(`(pa|cap|ref|dp|pay)_[A-Za-z0-9]{24}`), "{$1 id}"},
	{regexp.MustCompile(`token=[0-9a-f]+`), "token={token}"},
	{regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`), "{base_url}"},
}

func paymentGolden(t *testing.T, name string, raw []byte) {
	t.Helper()
	s := string(raw)
	for _, v := range paymentVolatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	golden(t, name, []byte(s))
}

// TestPaymentRecordGolden: the full payment record of a payment with every
// nested list (attempt, captures, refunds), of a declined payment, of one
// waiting for 3-D Secure and of a payment with a dispute, as every route
// answers it.
func TestPaymentRecordGolden(t *testing.T) {
	c := newClient(t)
	full := payment(map[string]any{
		"payment_id": "pay_golden_full", "confirm": true, "capture_method": "manual_multiple",
		"amount": 6000, "currency": "EUR", "shipping_cost": 500, "order_tax_amount": 400,
		"customer_id": "cus_golden", "customer": map[string]any{"name": "Jane Doe", "email": "jane@example.com",
			"phone": "5551234567", "phone_country_code": "+1"},
		"description": "Two books", "return_url": "https://shop.example/return",
		"statement_descriptor_name": "SHOP EXAMPLE", "statement_descriptor_suffix": "BOOKS",
		"merchant_order_reference_id": "order-golden-1",
		"billing":                     billingAddress,
		"shipping": map[string]any{"address": map[string]any{"line1": "2 Side St", "city": "Berlin", "zip": "10115",
			"country": "DE", "first_name": "Jane", "last_name": "Doe"}},
		"order_details": []any{
			map[string]any{"product_name": "Book A", "quantity": 1, "amount": 4000},
			map[string]any{"product_name": "Book B", "quantity": 2, "amount": 1000},
		},
		"metadata":            map[string]any{"order": "golden-1", "channel": "web"},
		"browser_info":        map[string]any{"user_agent": "Mozilla/5.0", "accept_header": "text/html", "language": "en-GB", "color_depth": 24, "java_enabled": false},
		"setup_future_usage":  "on_session",
		"authentication_type": "no_three_ds",
		"business_country":    "DE",
		"business_label":      "books",
		"payment_method":      "card",
		"payment_method_type": "credit",
		"payment_method_data": map[string]any{
			"card": map[string]any{"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": futureYear,
				"card_holder_name": "Jane Doe", "card_cvc": "123"},
			"billing": billingAddress,
		},
		"request_incremental_authorization":        false,
		"request_external_three_ds_authentication": false,
	})
	created := c.pay("POST", "/payments", full).must(t, 200)
	if created.str("status") != "requires_capture" || created.num("amount_capturable") != 6900 {
		t.Fatalf("%s", created.Raw)
	}
	c.pay("POST", "/payments/pay_golden_full/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200)
	c.pay("POST", "/payments/pay_golden_full/capture", map[string]any{"amount_to_capture": 2900}).must(t, 200)
	// Refunds through the domain (the refund routes are REST's own concern).
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), c.srv.Demo.MerchantID)
	for i, amount := range []int64{1500, 500} {
		refundID, reason := fmt.Sprintf("ref_golden_%d", i+1), "customer returned a book"
		if _, err := c.srv.Payments.CreateRefund(ctx, payments.RefundInput{PaymentID: "pay_golden_full",
			RefundID: &refundID, Amount: &amount, Reason: &reason, Metadata: map[string]any{"n": i + 1}}); err != nil {
			t.Fatal(err)
		}
	}
	r := c.pay("GET", "/payments/pay_golden_full", nil).must(t, 200)
	if len(r.list("attempts")) != 1 || len(r.list("captures")) != 2 || len(r.list("refunds")) != 2 ||
		r.num("amount_received") != 6900 || r.str("status") != "succeeded" {
		t.Fatalf("%s", r.Raw)
	}
	paymentGolden(t, "payment_full", r.Raw)

	declined := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_declined", "confirm": true,
		"payment_method_data": card("4000000000009995"), "billing": billingAddress})).must(t, 200)
	paymentGolden(t, "payment_declined", declined.Raw)

	challenged := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_3ds", "confirm": true,
		"return_url": "https://shop.example/return", "payment_method_data": card("4000000000003063")})).must(t, 200)
	paymentGolden(t, "payment_requires_customer_action", challenged.Raw)

	disputed := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_dispute", "confirm": true,
		"payment_method_data": card("4000000000000259")})).must(t, 200)
	paymentGolden(t, "payment_disputed", disputed.Raw)

	// Every route answers with the same record.
	open := c.pay("POST", "/payments", payment(map[string]any{"payment_id": "pay_golden_open"})).must(t, 200)
	for _, got := range []response{
		c.pay("GET", "/payments/pay_golden_open", nil).must(t, 200),
		c.pay("POST", "/payments/pay_golden_open/cancel", nil).must(t, 200),
	} {
		if keysOf(got.obj()) != keysOf(open.obj()) || keysOf(got.obj()) != keysOf(r.obj()) {
			t.Fatalf("records differ in shape:\n%s\n%s", keysOf(got.obj()), keysOf(r.obj()))
		}
	}
}

func keysOf(m map[string]any) string {
	return strings.Join(slices.Sorted(maps.Keys(m)), ",")
}

// syncBuffer is a log sink the server's goroutines share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestCardNumberNeverLeaves: card numbers (and CVCs) sent through every
// payment path appear in no response, no log line at debug level, no
// database column and no Redis value.
func TestCardNumberNeverLeaves(t *testing.T) {
	logs := &syncBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	prev := slog.Default()
	slog.SetDefault(logger)
	t.Cleanup(func() { slog.SetDefault(prev) })
	c := &client{t: t, srv: testenv.NewServerWith(t, testenv.Config(t, testenv.Database(t)), logger)}

	numbers := []string{"4242424242424242", "4000000000009995", "4000000000003063", "5555555555554444",
		"4000000000000259", "378282246310005", "6011111111111117"}
	const cvc = "987"
	var responses []string
	record := func(r response) response {
		responses = append(responses, string(r.Raw))
		return r
	}
	cardWithCVC := func(number string) map[string]any {
		cv := cvc
		if strings.HasPrefix(number, "3") {
			cv = "9876"
		}
		return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "11",
			"card_exp_year": futureYear, "card_holder_name": "Card Holder", "card_cvc": cv}}
	}
	for _, n := range numbers {
		// Create and confirm at once; create, then confirm from the vault; update with the card;
		// confirm with the publishable key; a mismatched card number (a refused request).
		r := record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "return_url": "https://shop.example/r",
			"payment_method_data": cardWithCVC(n)})))
		if r.str("status") == "requires_customer_action" {
			authenticate(t, r, "Approve")
			record(c.pay("GET", "/payments/"+r.str("payment_id"), nil))
		}
		id := record(c.pay("POST", "/payments", payment(map[string]any{"payment_method_data": cardWithCVC(n)}))).str("payment_id")
		record(c.idem("POST", "/payments/"+id+"/confirm", "confirm-"+id, map[string]any{}))
		id = record(c.pay("POST", "/payments", payment(nil))).str("payment_id")
		record(c.pay("POST", "/payments/"+id, map[string]any{"payment_method_data": cardWithCVC(n)}))
		created := record(c.pay("POST", "/payments", payment(nil)))
		record(c.do("POST", "/payments/"+created.str("payment_id")+"/confirm", c.srv.Demo.PublishableKey,
			map[string]any{"client_secret": created.str("client_secret"), "payment_method_data": cardWithCVC(n)}))
		record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "wallet",
			"payment_method_data": cardWithCVC(n)})))
	}
	record(c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": cardWithCVC("4242424242424241")})))
	// A mandate saves the card (masked) and charges it again without it.
	setup := payment(map[string]any{"confirm": true, "customer_id": "cus_never", "setup_future_usage": "off_session",
		"payment_method_data": cardWithCVC("4242424242424242"), "mandate_data": map[string]any{
			"customer_acceptance": map[string]any{"acceptance_type": "offline"}}})
	mandateID := record(c.pay("POST", "/payments", setup)).str("mandate_id")
	if mandateID == "" {
		t.Fatalf("no mandate: %s", responses[len(responses)-1])
	}
	record(c.pay("POST", "/payments", map[string]any{"amount": 500, "currency": "USD", "confirm": true,
		"off_session": true, "customer_id": "cus_never", "mandate_id": mandateID}))
	record(c.pay("GET", "/mandates/"+mandateID, nil))
	record(c.pay("GET", "/customers/cus_never/mandates", nil))
	if len(responses) < 40 {
		t.Fatalf("only %d responses", len(responses))
	}
	numbers = append(numbers, "4242424242424241")

	check := func(where, s string) {
		t.Helper()
		for _, n := range numbers {
			if strings.Contains(s, n) {
				t.Errorf("%s holds the card number %s", where, n)
			}
		}
		if strings.Contains(s, `"card_cvc"`) || strings.Contains(s, `"9876"`) || strings.Contains(s, `"`+cvc+`"`) {
			t.Errorf("%s holds a CVC", where)
		}
	}
	for i, r := range responses {
		check(fmt.Sprintf("response %d", i), r)
	}
	if !strings.Contains(logs.String(), "http request") {
		t.Fatalf("the log capture saw no request: %q", logs.String())
	}
	check("the log", logs.String())
	dump := dumpDatabase(t, c)
	sawCard := false
	for _, v := range dump {
		check(v.table+"."+v.column, string(v.value))
		if strings.Contains(string(v.value), `"last4":"4242"`) || strings.Contains(string(v.value), `"last4": "4242"`) {
			sawCard = true
		}
	}
	if !sawCard {
		t.Fatal("the dump holds no card details: it does not read the attempts")
	}
	for _, table := range []string{"mandates", "payment_methods"} {
		if !slices.ContainsFunc(dump, func(v storedValue) bool { return v.table == table }) {
			t.Fatalf("the dump has no %s row: the mandate's card is not checked", table)
		}
	}
	// Cards given without confirm wait sealed in the Redis vault (the
	// updated payments above were never confirmed).
	ctx := context.Background()
	rdb := c.srv.Redis.Client
	keys, err := rdb.Keys(ctx, "pmv:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) == 0 {
		t.Fatal("no vaulted card to check")
	}
	more, err := rdb.Keys(ctx, "idem:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range append(keys, more...) {
		if v, err := rdb.Get(ctx, k).Result(); err == nil {
			check("redis "+k, v)
		}
	}
}

// TestPaymentRouting: the connector list of the request picks the connector
// account; without one the profile's first active processor serves.
func TestPaymentRouting(t *testing.T) {
	c := newClient(t)
	m := c.srv.Demo.MerchantID
	adyen := c.do("POST", "/account/"+m+"/connectors", c.merchantKey(), map[string]any{
		"connector_type": "payment_processor", "connector_name": "adyen",
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "adyen_key"},
	}).must(t, 200).str("merchant_connector_id")
	body := func(members map[string]any) map[string]any {
		m := map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")}
		for k, v := range members {
			m[k] = v
		}
		return payment(m)
	}
	if r := c.pay("POST", "/payments", body(nil)).must(t, 200); r.str("connector") != "stripe_test" {
		t.Fatalf("default routing: %s", r.Raw)
	}
	r := c.pay("POST", "/payments", body(map[string]any{"connector": []any{"adyen", "stripe_test"}})).must(t, 200)
	if r.str("connector") != "adyen" || r.str("merchant_connector_id") != adyen || r.list("attempts")[0]["connector"] != "adyen" {
		t.Fatalf("connector preference: %s", r.Raw)
	}
	// Given on confirm.
	id := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	r = c.pay("POST", "/payments/"+id+"/confirm", map[string]any{"connector": []any{"adyen"},
		"payment_method_data": card("4242424242424242")}).must(t, 200)
	if r.str("connector") != "adyen" {
		t.Fatalf("connector preference on confirm: %s", r.Raw)
	}
	r = c.pay("POST", "/payments", body(map[string]any{"connector": []any{"worldpay"}}))
	if r.Status != 400 || r.errCode() != "IR_39" {
		t.Fatalf("no such connector account: %d %s", r.Status, r.Raw)
	}
}

// TestStateChangeAnswersAsGET: what a state change answers is the payment
// exactly as GET shows it right after (the answer is rendered from the rows
// read inside the change's transaction, for its event, not read again).
func TestStateChangeAnswersAsGET(t *testing.T) {
	c := newClient(t)
	same := func(what string, r response) {
		t.Helper()
		got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
		if !bytes.Equal(r.Raw, got.Raw) {
			t.Fatalf("%s answered\n%s\nGET shows\n%s", what, r.Raw, got.Raw)
		}
	}
	visa := card("4242424242424242")
	same("create+confirm", c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method_data": visa,
		"customer_id": "cus_same", "description": "same"})).must(t, 200))
	same("sequential_automatic", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"capture_method": "sequential_automatic", "payment_method_data": visa})).must(t, 200))
	same("declined", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"payment_method_data": card("4000000000000002")})).must(t, 200))
	same("dispute card", c.pay("POST", "/payments", payment(map[string]any{"confirm": true,
		"payment_method_data": card("4000000000000259")})).must(t, 200))
	open := c.pay("POST", "/payments", payment(map[string]any{"capture_method": "manual_multiple"})).must(t, 200)
	same("confirm", c.pay("POST", "/payments/"+open.str("payment_id")+"/confirm", map[string]any{"payment_method_data": visa}).must(t, 200))
	same("partial capture", c.pay("POST", "/payments/"+open.str("payment_id")+"/capture", map[string]any{"amount_to_capture": 4000}).must(t, 200))
	same("cancel", c.pay("POST", "/payments/"+open.str("payment_id")+"/cancel", nil).must(t, 200))
	unconfirmed := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	same("cancel unconfirmed", c.pay("POST", "/payments/"+unconfirmed.str("payment_id")+"/cancel", nil).must(t, 200))
}
