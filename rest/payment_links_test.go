package rest_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// linkPayment creates a payment with a link and returns its answer.
func linkPayment(t *testing.T, c *client, members map[string]any) response {
	t.Helper()
	body := payment(map[string]any{"payment_link": true, "return_url": "https://shop.example/return"})
	for k, v := range members {
		body[k] = v
	}
	return c.pay("POST", "/payments", body).must(t, 200)
}

// openLink opens a link page as a customer's browser does, with no key
// (and the headers given, in pairs).
func openLink(t *testing.T, c *client, url string, headers ...string) (int, http.Header, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(raw)
}

// linkMember is the payment's payment_link member.
func linkMember(r response) map[string]any {
	m, _ := r.obj()["payment_link"].(map[string]any)
	return m
}

// TestPaymentLinkCreateAndRetrieve: payment_link: true answers the link;
// GET /payment_link/{id} answers its record; the secret key and the
// publishable key both read it.
func TestPaymentLinkCreateAndRetrieve(t *testing.T) {
	c := newClient(t)
	created := linkPayment(t, c, map[string]any{"session_expiry": 600, "description": "Two tickets",
		"payment_link_config": map[string]any{"theme": "#4E6ADD", "seller_name": "Ticket shop", "sdk_layout": "accordion",
			"display_sdk_only": false, "enabled_saved_payment_method": true,
			"transaction_details": []any{map[string]any{"key": "Event", "value": "Concert",
				"ui_configuration": map[string]any{"position": 1, "is_key_bold": true}}},
			"background_image": map[string]any{"url": "https://cdn.example/bg.png", "position": "center"}}})
	pid := created.str("payment_id")
	link := linkMember(created)
	linkID, _ := link["payment_link_id"].(string)
	if want := c.srv.URL + "/payment_link/" + c.srv.Demo.MerchantID + "/" + pid + "?locale=en"; link["link"] != want ||
		!strings.HasPrefix(linkID, "plink_") || link["secure_link"] != nil {
		t.Fatalf("payment_link %v, want link %s, a plink_ id and no secure link (the profile has no allowed_domains)", link, want)
	}
	if got := linkMember(c.pay("GET", "/payments/"+pid, nil).must(t, 200)); got["payment_link_id"] != linkID {
		t.Errorf("GET /payments shows payment_link %v", got)
	}

	rec := c.do("GET", "/payment_link/"+linkID, c.merchantKey(), nil).must(t, 200)
	createdAt, _ := time.Parse(time.RFC3339, rec.str("created_at"))
	expiry, _ := time.Parse(time.RFC3339, rec.str("expiry"))
	if rec.str("payment_link_id") != linkID || rec.str("merchant_id") != c.srv.Demo.MerchantID ||
		rec.str("link_to_pay") != link["link"] || rec.num("amount") != 10000 || rec.str("currency") != "USD" ||
		rec.str("status") != "active" || rec.str("description") != "Two tickets" || expiry.Sub(createdAt) != 600*time.Second {
		t.Errorf("GET /payment_link: %s", rec.Raw)
	}
	c.do("GET", "/payment_link/"+linkID, c.srv.Demo.PublishableKey, nil).must(t, 200)
	if r := c.do("GET", "/payment_link/plink_unknown", c.merchantKey(), nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Errorf("an unknown link: %d %s", r.Status, r.Raw)
	}

	// A payment without a link shows none; a link cannot be confirmed by its create.
	if plain := c.pay("POST", "/payments", payment(nil)).must(t, 200); plain.obj()["payment_link"] != nil {
		t.Errorf("a payment without a link shows payment_link %v", plain.obj()["payment_link"])
	}
	confirmed := c.pay("POST", "/payments", payment(map[string]any{"payment_link": true, "confirm": true,
		"payment_method": "card", "payment_method_data": card("4242424242424242")}))
	if confirmed.errCode() != "IR_06" || !strings.Contains(string(confirmed.Raw), "cannot confirm a payment while creating a payment link") {
		t.Errorf("confirm with payment_link: %d %s", confirmed.Status, confirmed.Raw)
	}
	if r := c.pay("POST", "/payments", payment(map[string]any{"payment_link": true,
		"payment_link_config": map[string]any{"display_sdk_only": "yes"}})); r.Status != 400 {
		t.Errorf("a payment_link_config member of the wrong type: %d %s", r.Status, r.Raw)
	}

	// The page: the merchant's branding, the order, and the SDK mounted
	// with the payment's client secret and the publishable key.
	status, _, html := openLink(t, c, link["link"].(string))
	for _, want := range []string{`data-page="checkout"`, "Ticket shop", "100.00 USD", "Two tickets", "Concert",
		`<dt class="bold">Event</dt>`, "--primary: #4E6ADD", `url("https://cdn.example/bg.png")`,
		`<script src="http://localhost:9050/HyperLoader.js">`, created.str("client_secret"), c.srv.Demo.PublishableKey,
		`"layout":"accordion"`, `"savedMethods":true`} {
		if !strings.Contains(html, want) {
			t.Errorf("the link page (%d) lacks %q:\n%s", status, want, html)
		}
	}
	// The status page of a payment still to be paid is the checkout.
	if status, h, _ := openLink(t, c, c.srv.URL+"/payment_link/status/"+c.srv.Demo.MerchantID+"/"+pid); status != 303 ||
		h.Get("Location") != "/payment_link/"+c.srv.Demo.MerchantID+"/"+pid {
		t.Errorf("the status page of an unpaid link: %d %s", status, h.Get("Location"))
	}
}

// TestPaymentLinkTenancy: another merchant's link is a 404, by id and by
// page; a payment without a link has no page.
func TestPaymentLinkTenancy(t *testing.T) {
	c := newClient(t)
	created := linkPayment(t, c, nil)
	pid, linkID := created.str("payment_id"), linkMember(created)["payment_link_id"].(string)
	other, otherKey, _ := otherMerchant(t, c, "merchant_other")

	if r := c.do("GET", "/payment_link/"+linkID, otherKey, nil); r.Status != 404 || r.errCode() != "HE_02" {
		t.Errorf("another merchant's link by id: %d %s", r.Status, r.Raw)
	}
	for _, path := range []string{"/payment_link/" + other + "/" + pid, "/payment_link/s/" + other + "/" + pid,
		"/payment_link/status/" + other + "/" + pid, "/payment_link/" + c.srv.Demo.MerchantID + "/pay_unknown",
		"/payment_link/s/" + c.srv.Demo.MerchantID + "/" + pid, // no allowed_domains: no secure link
	} {
		if status, _, html := openLink(t, c, c.srv.URL+path); status != 404 || strings.Contains(html, created.str("client_secret")) {
			t.Errorf("GET %s: %d, want 404 showing nothing of the payment", path, status)
		}
	}
	plain := c.pay("POST", "/payments", payment(nil)).must(t, 200)
	if status, _, _ := openLink(t, c, c.srv.URL+"/payment_link/"+c.srv.Demo.MerchantID+"/"+plain.str("payment_id")); status != 404 {
		t.Errorf("the page of a payment without a link: %d", status)
	}
}

// TestPaymentLinkExpiry: past created + session_expiry the link is expired,
// its page says so and offers nothing to pay, and the checkout's confirm
// is refused; a link paid before its expiry shows the receipt after it.
func TestPaymentLinkExpiry(t *testing.T) {
	c := newClient(t)
	open := linkPayment(t, c, map[string]any{"session_expiry": 300})
	paid := linkPayment(t, c, map[string]any{"session_expiry": 300})
	c.pay("POST", "/payments/"+paid.str("payment_id")+"/confirm", map[string]any{"payment_method": "card",
		"payment_method_data": card("4242424242424242")}).must(t, 200)

	c.srv.Clock.Advance(301 * time.Second)
	rec := c.do("GET", "/payment_link/"+linkMember(open)["payment_link_id"].(string), c.merchantKey(), nil).must(t, 200)
	if rec.str("status") != "expired" {
		t.Errorf("status %q past the expiry, want expired", rec.str("status"))
	}
	_, _, html := openLink(t, c, linkMember(open)["link"].(string))
	if !strings.Contains(html, `data-page="expired"`) || strings.Contains(html, open.str("client_secret")) ||
		strings.Contains(html, "HyperLoader.js") {
		t.Errorf("an expired link's page:\n%s", html)
	}
	confirm := c.do("POST", "/payments/"+open.str("payment_id")+"/confirm", c.srv.Demo.PublishableKey,
		map[string]any{"client_secret": open.str("client_secret"), "payment_method": "card",
			"payment_method_data": card("4242424242424242")})
	if confirm.Status == 200 {
		t.Errorf("an expired link's payment was confirmed: %s", confirm.Raw)
	}
	_, _, html = openLink(t, c, linkMember(paid)["link"].(string))
	for _, want := range []string{`data-page="paid"`, "Payment successful", paid.str("payment_id"), "100.00 USD",
		`href="https://shop.example/return"`} {
		if !strings.Contains(html, want) {
			t.Errorf("a paid link's page lacks %q:\n%s", want, html)
		}
	}
}

// TestPaymentLinkProfileDefaults: the profile's payment_link_config gives
// every link its defaults, a payment's own members win, a
// payment_link_config_id picks a business_specific_configs entry, and
// allowed_domains makes the secure link, framed by those domains only.
func TestPaymentLinkProfileDefaults(t *testing.T) {
	c := newClient(t)
	profilePath := "/account/" + c.srv.Demo.MerchantID + "/business_profile/" + c.srv.Demo.ProfileID
	config := map[string]any{"theme": "#112233", "logo": "https://cdn.example/logo.png", "seller_name": "Profile shop",
		"sdk_layout": "accordion", "allowed_domains": []any{"shop.example", "*.shop.example", "bad;script-src *"},
		"business_specific_configs": map[string]any{"summer": map[string]any{"theme": "#ffaa00", "seller_name": "Summer sale"}}}
	prof := c.do("POST", profilePath, c.merchantKey(), map[string]any{"payment_link_config": config}).must(t, 200)
	if got, _ := prof.obj()["payment_link_config"].(map[string]any); got["theme"] != "#112233" {
		t.Errorf("the profile echoes payment_link_config %v", prof.obj()["payment_link_config"])
	}
	if r := c.do("POST", profilePath, c.merchantKey(), map[string]any{"payment_link_config": map[string]any{
		"allowed_domains": "shop.example"}}); r.Status != 400 {
		t.Errorf("allowed_domains not a list: %d %s", r.Status, r.Raw)
	}

	own := linkPayment(t, c, map[string]any{"payment_link_config": map[string]any{"seller_name": "This payment's name"}})
	secure, _ := linkMember(own)["secure_link"].(string)
	if want := c.srv.URL + "/payment_link/s/" + c.srv.Demo.MerchantID + "/" + own.str("payment_id") + "?locale=en"; secure != want {
		t.Fatalf("secure_link %q, want %q", secure, want)
	}
	_, _, html := openLink(t, c, linkMember(own)["link"].(string))
	for _, want := range []string{"This payment&#39;s name", "--primary: #112233", `src="https://cdn.example/logo.png"`, `"layout":"accordion"`} {
		if !strings.Contains(html, want) {
			t.Errorf("the link page lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "Profile shop") {
		t.Error("the profile's seller_name shows over the payment's")
	}
	// The secure link opens only in a frame of an allowed domain, and says
	// so to the browser too.
	for _, tc := range []struct {
		name    string
		headers []string
		want    int
	}{
		{"a frame of an allowed domain", []string{"Sec-Fetch-Dest", "iframe", "Referer", "https://shop.example/cart"}, 200},
		{"a frame of a domain the glob allows", []string{"Sec-Fetch-Dest", "iframe", "Origin", "https://pay.shop.example"}, 200},
		{"a frame of another site", []string{"Sec-Fetch-Dest", "iframe", "Referer", "https://evil.example/"}, 403},
		{"a frame of a look-alike", []string{"Sec-Fetch-Dest", "iframe", "Referer", "https://shop.example.evil.example/"}, 403},
		{"opened as a page", []string{"Sec-Fetch-Dest", "document", "Referer", "https://shop.example/cart"}, 403},
		{"no frame nor referrer", nil, 403},
	} {
		status, h, html := openLink(t, c, secure, tc.headers...)
		csp := h.Get("Content-Security-Policy")
		if status != tc.want || (status == 200 && csp != "frame-ancestors shop.example *.shop.example") ||
			(status == 403 && (csp != "frame-ancestors 'none'" || strings.Contains(html, own.str("client_secret")))) {
			t.Errorf("the secure link, %s: %d, Content-Security-Policy %q", tc.name, status, csp)
		}
	}
	if _, h, _ := openLink(t, c, linkMember(own)["link"].(string)); h.Get("Content-Security-Policy") != "" {
		t.Errorf("the open link is framed by %q", h.Get("Content-Security-Policy"))
	}

	summer := linkPayment(t, c, map[string]any{"payment_link_config_id": "summer"})
	_, _, html = openLink(t, c, linkMember(summer)["link"].(string))
	if !strings.Contains(html, "--primary: #ffaa00") || !strings.Contains(html, "Summer sale") {
		t.Errorf("payment_link_config_id summer is not shown:\n%s", html)
	}
}

// TestPaymentLinkEscapesMerchantValues: whatever the merchant put in the
// config is text, a CSS value or a URL on the page, never markup or script.
func TestPaymentLinkEscapesMerchantValues(t *testing.T) {
	c := newClient(t)
	created := linkPayment(t, c, map[string]any{"description": "</p><script>alert('d')</script>",
		"payment_link_config": map[string]any{
			"seller_name": "<script>alert('s')</script>", "theme": "red;}</style><script>alert('t')</script>",
			"logo": "javascript:alert('l')", "payment_button_colour": "expression(alert('c'))",
			"transaction_details": []any{map[string]any{"key": "<img src=x onerror=alert('k')>", "value": "\"><script>alert('v')</script>"}},
			"background_image":    map[string]any{"url": "\");}</style><script>alert('b')</script>"}}})
	_, _, html := openLink(t, c, linkMember(created)["link"].(string))
	for _, banned := range []string{"<script>alert", "</style><script>", "<img src=x", `src="javascript:`, "expression(",
		`"><script>`, "</p><script>"} {
		if strings.Contains(html, banned) {
			t.Errorf("a merchant value reached the page unescaped (%q):\n%s", banned, html)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(&#39;s&#39;)&lt;/script&gt;", "ZgotmplZ"} {
		if !strings.Contains(html, want) {
			t.Errorf("the page lacks %q:\n%s", want, html)
		}
	}
}
