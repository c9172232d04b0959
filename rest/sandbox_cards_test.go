package rest_test

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// form is one HTML form of a page.
type form struct {
	action string
	fields url.Values
	button string
}

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
	// Read whole, so the connection is done with; the answer keeps it.
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
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

// TestSandboxCards runs every row of the sandbox card table (docs/sandbox.md)
// through POST /payments with confirm: true.
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

	// Rejected before any connector call, as Hyperswitch's card number type
	// refuses them while reading the body: nothing is created.
	before := countPayments(t, c)
	for number, reason := range map[string]string{"4242424242424241": "card number invalid",
		"4242424": "invalid card number length", "4242 4242 4242 424x": "invalid character found in card number"} {
		r := c.pay("POST", "/payments", payment(map[string]any{"confirm": true, "payment_method": "card",
			"payment_method_data": card(number)}))
		if r.Status != 400 || r.errCode() != "IR_06" || r.str("error", "message") != "Json deserialize error: "+reason {
			t.Fatalf("card %q: %d %s, want 400 IR_06 %q", number, r.Status, r.Raw, reason)
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
			if r.obj()["amount_received"] != nil || len(r.list("captures")) != 0 {
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

// TestCardSecurityCodeLengths: Hyperswitch's rule, 3 or 4 digits whatever
// the network (an American Express card with its 3-digit back code pays),
// and its answer otherwise: 400 IR_16 "Invalid card_cvc length".
func TestCardSecurityCodeLengths(t *testing.T) {
	c := newClient(t)
	for _, tc := range []struct {
		number, cvc string
		status      int
	}{
		{"378282246310005", "123", 200},
		{"378282246310005", "1234", 200},
		{"4242424242424242", "1234", 200},
		{"4242424242424242", "123", 200},
		{"4242424242424242", "12", 400},
		{"378282246310005", "12345", 400},
	} {
		data := card(tc.number)
		data["card"].(map[string]any)["card_cvc"] = tc.cvc
		r := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true, "payment_method": "card", "payment_method_data": data}))
		if r.Status != tc.status || (tc.status == 200 && r.str("status") != "succeeded") ||
			(tc.status == 400 && (r.errCode() != "IR_16" || r.str("error", "message") != "Invalid card_cvc length")) {
			t.Fatalf("%s with a %d-digit code: %d %s", tc.number, len(tc.cvc), r.Status, r.Raw)
		}
	}
}

// TestCardChecksInHyperswitchOrder: card data is checked in the order of
// Hyperswitch's validate_card_data (the CVC's length, then the expiry
// month, then the year, then whether the card has expired) and answered in
// its words and codes; a confirm with no payment method at all is its
// InvalidRequestData.
func TestCardChecksInHyperswitchOrder(t *testing.T) {
	c := newClient(t)
	now := time.Now().UTC()
	withCard := func(month, year, cvc string) map[string]any {
		return map[string]any{"payment_method": "card", "payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": month, "card_exp_year": year,
			"card_holder_name": "Jane Doe", "card_cvc": cvc}}}
	}
	type check struct {
		name        string
		month, year string
		cvc         string
		status      int
		code        string
		message     string // the whole message, or for IR_07 the field it names
	}
	rows := []check{
		{"the CVC before the expiry", "13", "2001", "12", 400, "IR_16", "Invalid card_cvc length"},
		{"a CVC too long", "12", futureYear, "12345", 400, "IR_16", "Invalid card_cvc length"},
		{"a CVC's length before its digits", "12", futureYear, "1a", 400, "IR_16", "Invalid card_cvc length"},
		{"a CVC not a number", "12", futureYear, "12a", 400, "IR_07", "card_cvc"},
		{"the month before the year", "13", "2001", "123", 400, "IR_16", "Invalid Expiry Month"},
		{"a month of 0", "0", futureYear, "123", 400, "IR_16", "Invalid Expiry Month"},
		{"a month not a number", "ab", futureYear, "123", 400, "IR_07", "card_exp_month"},
		{"a past year", "12", "2001", "123", 400, "IR_16", "Invalid Expiry Year"},
		{"a past two-digit year", "12", "01", "123", 400, "IR_16", "Invalid Expiry Year"},
		{"a year of three digits", "12", "203", "123", 400, "IR_16", "Invalid Expiry Year"},
		{"a year not a number", "12", "20x5", "123", 400, "IR_07", "card_exp_year"},
		{"this month", strconv.Itoa(int(now.Month())), strconv.Itoa(now.Year()), "123", 200, "", ""},
	}
	if now.Month() > time.January {
		rows = append(rows, check{"an earlier month of this year", strconv.Itoa(int(now.Month()) - 1), strconv.Itoa(now.Year()), "123", 400, "IR_16", "Card Expired"})
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			body := withCard(tc.month, tc.year, tc.cvc)
			// On create with confirm, and on confirm: the same checks.
			created := c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true,
				"payment_method": body["payment_method"], "payment_method_data": body["payment_method_data"]}))
			open := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
			confirmed := c.do("POST", "/payments/"+open+"/confirm", c.merchantKey(), body)
			for _, r := range []response{created, confirmed} {
				msg := r.str("error", "message")
				if r.Status != tc.status || r.errCode() != tc.code ||
					(tc.code == "IR_16" && msg != tc.message) || (tc.code == "IR_07" && !strings.Contains(msg, tc.message)) {
					t.Fatalf("got %d %s, want %d %s %q", r.Status, r.Raw, tc.status, tc.code, tc.message)
				}
			}
		})
	}
	t.Run("no payment method", func(t *testing.T) {
		open := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
		for _, r := range []response{
			c.do("POST", "/payments/"+open+"/confirm", c.merchantKey(), map[string]any{}),
			c.do("POST", "/payments", c.merchantKey(), payment(map[string]any{"confirm": true})),
		} {
			if r.Status != 422 || r.errCode() != "IR_06" || r.str("error", "type") != "invalid_request" ||
				r.str("error", "message") != "A payment token or payment method data is required" {
				t.Fatalf("got %d %s", r.Status, r.Raw)
			}
		}
	})
}
