package rest_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"switchyard/payments/connector"
)

// External 3-D Secure as a service: POST /authentication and its steps,
// against the sandbox's 3-D Secure server (docs/sandbox.md, "3-D Secure
// server").

// authenticationProcessor adds an authentication_processor account of
// connector name to the demo merchant's default profile.
func authenticationProcessor(t *testing.T, c *client, name string) string {
	t.Helper()
	r := c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors", c.merchantKey(), map[string]any{
		"connector_type": "authentication_processor", "connector_name": name,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "sk_3ds_test_1234"},
	}).must(t, 200)
	if got := r.str("connector_type"); got != "authentication_processor" {
		t.Fatalf("connector_type = %q", got)
	}
	return r.str("merchant_connector_id")
}

// newAuthentication creates an authentication of 2500 EUR with members.
func newAuthentication(t *testing.T, c *client, members map[string]any) response {
	t.Helper()
	body := map[string]any{"amount": 2500, "currency": "EUR"}
	for k, v := range members {
		body[k] = v
	}
	return c.do("POST", "/authentication", c.merchantKey(), body).must(t, 200)
}

// eligibilityBody gives card number with a billing address and a browser.
func eligibilityBody(number string, members map[string]any) map[string]any {
	body := map[string]any{"payment_method": "card", "payment_method_data": card(number),
		"billing": billingAddress, "email": "jane@example.com",
		"browser_information": map[string]any{"user_agent": "Mozilla/5.0", "language": "en-US", "color_depth": 24}}
	for k, v := range members {
		body[k] = v
	}
	return body
}

func authenticateBody(secret string) map[string]any {
	return map[string]any{"client_secret": secret, "device_channel": "BRW", "threeds_method_comp_ind": "Y"}
}

// authenticated runs create, eligibility and authenticate with card number
// and the secret key; it returns the authentication's id, client secret
// and authenticate's answer.
func authenticated(t *testing.T, c *client, number string, members map[string]any) (string, string, response) {
	t.Helper()
	created := newAuthentication(t, c, members)
	id, secret := created.str("authentication_id"), created.str("client_secret")
	c.do("POST", "/authentication/"+id+"/eligibility", c.merchantKey(), eligibilityBody(number, nil)).must(t, 200)
	return id, secret, c.do("POST", "/authentication/"+id+"/authenticate", c.merchantKey(), authenticateBody(secret)).must(t, 200)
}

// TestAuthenticationFlowByTestCard: each 3-D Secure test card's answer at
// authenticate and at sync, with the ECI and CAVV shown to the secret key
// only.
func TestAuthenticationFlowByTestCard(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "threedsecureio")
	cases := []struct {
		card, status, trans, eci string
		cavv                     bool
		errorCode                string
	}{
		{"4242424242424242", "success", "Y", "05", true, ""},
		{"5555555555554444", "success", "Y", "02", true, ""},
		{"4000000000003022", "failed", "N", "", false, "authentication_failed"},
		{"4000000000003048", "success", "A", "06", true, ""},
		{"4000000000003089", "failed", "U", "", false, "directory_server_unavailable"},
		{"4000000000003063", "pending", "C", "", false, ""},
		{"4000000000003220", "pending", "C", "", false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.card, func(t *testing.T) {
			id, secret, r := authenticated(t, c, tc.card, nil)
			want := connector.SandboxThreeDS(tc.card, id)
			if r.str("status") != tc.status || r.str("trans_status") != tc.trans || r.str("eci") != tc.eci ||
				r.str("error_code") != tc.errorCode {
				t.Fatalf("authenticate: %s", r.Raw)
			}
			if got := r.str("authentication_value"); (got != "") != tc.cavv || (tc.cavv && got != want.CAVV) {
				t.Fatalf("authentication_value = %q, want the sandbox's CAVV %v", got, tc.cavv)
			}
			if tc.trans == "C" && !strings.Contains(r.str("acs_url"), "/sandbox/authentication/"+id+"?token=") {
				t.Fatalf("a challenge's acs_url = %q", r.str("acs_url"))
			}
			synced := c.do("POST", "/authentication/"+id+"/sync", c.merchantKey(), map[string]any{"client_secret": secret}).must(t, 200)
			if synced.str("status") != tc.status || synced.str("trans_status") != tc.trans ||
				synced.str("threeds_server_transaction_id") != want.ServerTransID {
				t.Fatalf("sync: %s", synced.Raw)
			}
			cavv := synced.str("authentication_details", "three_ds_data", "authentication_cryptogram", "cavv", "authentication_cryptogram")
			if (cavv != "") != tc.cavv || (tc.cavv && cavv != want.CAVV) {
				t.Fatalf("sync's cryptogram = %q: %s", cavv, synced.Raw)
			}
			byClient := c.do("POST", "/authentication/"+id+"/sync", c.srv.Demo.PublishableKey, map[string]any{"client_secret": secret}).must(t, 200)
			if byClient.obj()["eci"] != nil || byClient.obj()["authentication_details"] != nil {
				t.Fatalf("the publishable key sees the values: %s", byClient.Raw)
			}
		})
	}
	// A forced challenge turns a frictionless card into a challenge.
	_, _, forced := authenticated(t, c, "4242424242424242", map[string]any{"force_3ds_challenge": true})
	if forced.str("status") != "pending" || forced.str("trans_status") != "C" {
		t.Fatalf("forced challenge: %s", forced.Raw)
	}
}

// TestAuthenticationCreate: the answer, the account chosen, and the
// validation of the body.
func TestAuthenticationCreate(t *testing.T) {
	c := newClient(t)
	r := c.do("POST", "/authentication", c.merchantKey(), map[string]any{"amount": 100, "currency": "USD"})
	if r.Status != 422 || r.errCode() != "IR_29" {
		t.Fatalf("no authentication processor: %d %s", r.Status, r.Raw)
	}
	netcetera := authenticationProcessor(t, c, "netcetera")
	authenticationProcessor(t, c, "gpayments")
	first := newAuthentication(t, c, map[string]any{"return_url": "https://shop.example/back",
		"acquirer_details": map[string]any{"acquirer_bin": "438309"}, "psd2_sca_exemption_type": "low_value"})
	if first.str("status") != "started" || first.str("authentication_connector") != "netcetera" ||
		first.str("merchant_id") != c.srv.Demo.MerchantID || first.str("profile_id") != c.srv.Demo.ProfileID ||
		!strings.HasPrefix(first.str("authentication_id"), "authn_") ||
		!strings.HasPrefix(first.str("client_secret"), first.str("authentication_id")+"_secret_") ||
		first.num("amount") != 2500 || first.str("currency") != "EUR" || first.str("acquirer_details", "acquirer_bin") != "438309" {
		t.Fatalf("create: %s", first.Raw)
	}
	_ = netcetera
	named := newAuthentication(t, c, map[string]any{"authentication_connector": "gpayments"})
	if named.str("authentication_connector") != "gpayments" {
		t.Fatalf("named connector: %s", named.Raw)
	}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		key    string
		status int
		code   string
	}{
		{"missing amount", map[string]any{"currency": "USD"}, c.merchantKey(), 400, "IR_04"},
		{"missing currency", map[string]any{"amount": 100}, c.merchantKey(), 400, "IR_04"},
		{"unknown currency", map[string]any{"amount": 100, "currency": "XXX"}, c.merchantKey(), 400, "IR_07"},
		{"negative amount", map[string]any{"amount": -1, "currency": "USD"}, c.merchantKey(), 400, "IR_07"},
		{"unknown connector", map[string]any{"amount": 100, "currency": "USD", "authentication_connector": "stripe"}, c.merchantKey(), 400, "IR_07"},
		{"connector without an account", map[string]any{"amount": 100, "currency": "USD", "authentication_connector": "cardinal"}, c.merchantKey(), 404, "HE_02"},
		{"bad exemption", map[string]any{"amount": 100, "currency": "USD", "psd2_sca_exemption_type": "none"}, c.merchantKey(), 400, "IR_07"},
		{"bad return_url", map[string]any{"amount": 100, "currency": "USD", "return_url": "not a url"}, c.merchantKey(), 400, "IR_07"},
		{"unknown member", map[string]any{"amount": 100, "currency": "USD", "colour": "red"}, c.merchantKey(), 400, "IR_06"},
		{"foreign profile", map[string]any{"amount": 100, "currency": "USD", "profile_id": "pro_nobody"}, c.merchantKey(), 404, "HE_02"},
		{"publishable key", map[string]any{"amount": 100, "currency": "USD"}, c.srv.Demo.PublishableKey, 401, "IR_01"},
		{"no key", map[string]any{"amount": 100, "currency": "USD"}, "", 401, "IR_01"},
	} {
		r := c.do("POST", "/authentication", tc.key, tc.body)
		if r.Status != tc.status || r.errCode() != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
}

// TestAuthenticationStepsInOrder: each step refused in a status that does
// not allow it, with Hyperswitch's 422 IR_29, and eligibility's checks.
func TestAuthenticationStepsInOrder(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "juspaythreedsserver")
	created := newAuthentication(t, c, nil)
	id, secret := created.str("authentication_id"), created.str("client_secret")
	path := "/authentication/" + id
	r := c.do("POST", path+"/authenticate", c.merchantKey(), authenticateBody(secret))
	if r.Status != 422 || r.errCode() != "IR_29" {
		t.Fatalf("authenticate before eligibility: %d %s", r.Status, r.Raw)
	}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
	}{
		{"not a card", eligibilityBody("4242424242424242", map[string]any{"payment_method": "wallet"}), 400, "IR_19"},
		{"no card", map[string]any{"payment_method": "card", "payment_method_data": map[string]any{}}, 400, "IR_04"},
		{"bad card number", eligibilityBody("4242424242424241", nil), 400, "IR_06"},
		{"bad email", eligibilityBody("4242424242424242", map[string]any{"email": "nope"}), 400, "IR_07"},
		{"missing payment_method", map[string]any{"payment_method_data": card("4242424242424242")}, 400, "IR_04"},
	} {
		r := c.do("POST", path+"/eligibility", c.merchantKey(), tc.body)
		if r.Status != tc.status || r.errCode() != tc.code {
			t.Errorf("eligibility, %s: %d %s, want %d %s", tc.name, r.Status, r.Raw, tc.status, tc.code)
		}
	}
	el := c.do("POST", path+"/eligibility", c.merchantKey(), eligibilityBody("4242424242424242", nil)).must(t, 200)
	if el.str("status") != "pending" || el.str("next_action", "http_method") != "POST" ||
		!strings.HasSuffix(el.str("next_action", "url"), path+"/authenticate") ||
		el.str("eligibility_response_params", "ThreeDsData", "message_version") != connector.ThreeDSMessageVersion ||
		el.str("billing", "address", "zip") != "94105" || el.str("email") != "jane@example.com" {
		t.Fatalf("eligibility: %s", el.Raw)
	}
	for _, tc := range []struct{ name, field string }{{"device_channel", "device_channel"}, {"threeds_method_comp_ind", "threeds_method_comp_ind"}} {
		body := authenticateBody(secret)
		delete(body, tc.field)
		if r := c.do("POST", path+"/authenticate", c.merchantKey(), body); r.Status != 400 || r.errCode() != "IR_04" {
			t.Errorf("authenticate without %s: %d %s", tc.name, r.Status, r.Raw)
		}
	}
	bad := authenticateBody(secret)
	bad["device_channel"] = "TV"
	if r := c.do("POST", path+"/authenticate", c.merchantKey(), bad); r.Status != 400 || r.errCode() != "IR_07" {
		t.Errorf("authenticate with device_channel TV: %d %s", r.Status, r.Raw)
	}
	c.do("POST", path+"/authenticate", c.merchantKey(), authenticateBody(secret)).must(t, 200)
	for _, step := range []struct {
		path string
		body map[string]any
	}{{"/authenticate", authenticateBody(secret)}, {"/eligibility", eligibilityBody("4242424242424242", nil)}} {
		r := c.do("POST", path+step.path, c.merchantKey(), step.body)
		if r.Status != 422 || r.errCode() != "IR_29" || !strings.Contains(r.str("error", "message"), "already in success") {
			t.Errorf("%s after success: %d %s", step.path, r.Status, r.Raw)
		}
	}
}

// TestAuthenticationClientSecret: the publishable key is held to the
// client secret (missing IR_08, wrong IR_09, expired IR_08); a secret key
// that sends a wrong one is refused too.
func TestAuthenticationClientSecret(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "threedsecureio")
	created := newAuthentication(t, c, nil)
	id, secret := created.str("authentication_id"), created.str("client_secret")
	pk := c.srv.Demo.PublishableKey
	path := "/authentication/" + id + "/eligibility"
	for _, tc := range []struct {
		name, key string
		secret    any
		status    int
		code      string
	}{
		{"publishable key, none", pk, nil, 400, "IR_08"},
		{"publishable key, wrong", pk, id + "_secret_wrong", 400, "IR_09"},
		{"secret key, wrong", c.merchantKey(), id + "_secret_wrong", 400, "IR_09"},
	} {
		body := eligibilityBody("4242424242424242", nil)
		if tc.secret != nil {
			body["client_secret"] = tc.secret
		}
		if r := c.do("POST", path, tc.key, body); r.Status != tc.status || r.errCode() != tc.code {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.Raw)
		}
	}
	c.do("POST", path, pk, eligibilityBody("4242424242424242", map[string]any{"client_secret": secret})).must(t, 200)
	client := c.do("POST", "/authentication/"+id+"/authenticate", pk, authenticateBody(secret)).must(t, 200)
	if client.str("status") != "success" || client.str("authentication_value") != "" || client.str("eci") != "" {
		t.Fatalf("authenticate with the publishable key shows the values: %s", client.Raw)
	}
	c.srv.Clock.Advance(16 * time.Minute)
	r := c.do("POST", "/authentication/"+id+"/sync", pk, map[string]any{"client_secret": secret})
	if r.Status != 400 || r.errCode() != "IR_08" {
		t.Fatalf("sync with an expired client secret: %d %s", r.Status, r.Raw)
	}
}

// TestAuthenticationTenancy: an unknown id and another merchant's are 404
// on every route.
func TestAuthenticationTenancy(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "threedsecureio")
	created := newAuthentication(t, c, nil)
	id, secret := created.str("authentication_id"), created.str("client_secret")
	_, otherKey, _ := otherMerchant(t, c, "merchant_authn_other")
	routes := []struct {
		method, path string
		body         map[string]any
	}{
		{"POST", "/eligibility", eligibilityBody("4242424242424242", nil)},
		{"POST", "/authenticate", authenticateBody(secret)},
		{"POST", "/sync", map[string]any{"client_secret": secret}},
		{"POST", "/enabled_authn_methods_token", map[string]any{"client_secret": secret}},
		{"GET", "/eligibility-check", nil},
	}
	for _, who := range []struct{ name, id, key string }{
		{"unknown id", "authn_doesnotexist0000000000", c.merchantKey()},
		{"another merchant's id", id, otherKey},
	} {
		for _, rt := range routes {
			var body any
			if rt.body != nil {
				body = rt.body
			}
			r := c.do(rt.method, "/authentication/"+who.id+rt.path, who.key, body)
			if r.Status != 404 || r.errCode() != "HE_02" {
				t.Errorf("%s, %s %s: %d %s", who.name, rt.method, rt.path, r.Status, r.Raw)
			}
		}
	}
	// The merchant's own still stands.
	c.do("POST", "/authentication/"+id+"/sync", c.merchantKey(), map[string]any{"client_secret": secret}).must(t, 200)
}

// TestAuthenticationSessionAndEligibilityCheck: the session tokens, and
// the click-to-pay eligibility check the SDK posts and the merchant reads.
func TestAuthenticationSessionAndEligibilityCheck(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "ctp_mastercard")
	created := newAuthentication(t, c, nil)
	id, secret := created.str("authentication_id"), created.str("client_secret")
	path := "/authentication/" + id
	s := c.do("POST", path+"/enabled_authn_methods_token", c.srv.Demo.PublishableKey, map[string]any{"client_secret": secret}).must(t, 200)
	if tokens := s.list("session_token"); s.str("authentication_id") != id || len(tokens) != 1 ||
		tokens[0]["wallet_name"] != "no_session_token_received" {
		t.Fatalf("session tokens: %s", s.Raw)
	}
	if r := c.do("GET", path+"/eligibility-check", c.merchantKey(), nil); r.Status != 404 || r.errCode() != "IR_37" {
		t.Fatalf("eligibility check before one: %d %s", r.Status, r.Raw)
	}
	check := map[string]any{"client_secret": secret, "eligibility_check_data": map[string]any{"click_to_pay": map[string]any{
		"visa": map[string]any{"consumerPresent": true}, "mastercard": map[string]any{"consumerPresent": false}}}}
	if r := c.do("POST", path+"/eligibility-check", c.merchantKey(), check); r.Status != 401 {
		t.Fatalf("eligibility check with the secret key: %d %s", r.Status, r.Raw)
	}
	ec := c.do("POST", path+"/eligibility-check", c.srv.Demo.PublishableKey, check).must(t, 200)
	if ec.str("authentication_id") != id || ec.str("sdk_next_action") != "proceed" {
		t.Fatalf("eligibility check: %s", ec.Raw)
	}
	got := c.do("GET", path+"/eligibility-check", c.merchantKey(), nil).must(t, 200)
	status, _ := got.obj()["eligibility_check_data"].(map[string]any)["click_to_pay_enrollment_status"].(map[string]any)
	if status["visa"] != true || status["mastercard"] != false {
		t.Fatalf("eligibility check read back: %s", got.Raw)
	}
}

// browser is an HTTP client that does not follow redirects, as a test of
// the customer's pages needs.
var browser = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func browse(t *testing.T, method, target string, form url.Values) (int, http.Header, string) {
	t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := browser.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

var challengeToken = regexp.MustCompile(`name="token" value="([^"]+)"`)

// TestAuthenticationChallengePage: a challenge card's acs_url is the
// sandbox's page; approving records Y with its ECI and CAVV and sends the
// browser to the return_url, declining records N; a wrong token is 404,
// a second answer 409.
func TestAuthenticationChallengePage(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "threedsecureio")
	for _, tc := range []struct {
		approve                  string
		status, trans, eci, cavv string
	}{
		{"true", "success", "Y", "05", "set"},
		{"false", "failed", "N", "", ""},
	} {
		id, secret, r := authenticated(t, c, "4000000000003063", map[string]any{"return_url": "https://shop.example/done?order=9"})
		acs := r.str("acs_url")
		code, _, page := browse(t, "GET", acs, nil)
		m := challengeToken.FindStringSubmatch(page)
		if code != 200 || !strings.Contains(page, "Approve") || !strings.Contains(page, "Decline") || m == nil {
			t.Fatalf("challenge page: %d %s", code, page)
		}
		if code, _, _ := browse(t, "GET", strings.Replace(acs, "token=", "token=x", 1), nil); code != 404 {
			t.Fatalf("a wrong token: %d", code)
		}
		complete := c.srv.URL + "/sandbox/authentication/" + id + "/complete"
		if code, _, _ := browse(t, "POST", complete, url.Values{"token": {"wrong"}, "approve": {tc.approve}}); code != 404 {
			t.Fatalf("complete with a wrong token: %d", code)
		}
		code, h, _ := browse(t, "POST", complete, url.Values{"token": {m[1]}, "approve": {tc.approve}})
		want := "https://shop.example/done?order=9&authentication_id=" + id + "&status=" + tc.status + "&trans_status=" + tc.trans
		if code != http.StatusSeeOther || h.Get("Location") != want {
			t.Fatalf("approve=%s: %d to %q, want %q", tc.approve, code, h.Get("Location"), want)
		}
		if code, _, _ := browse(t, "POST", complete, url.Values{"token": {m[1]}, "approve": {"true"}}); code != http.StatusConflict {
			t.Fatalf("a second answer: %d", code)
		}
		synced := c.do("POST", "/authentication/"+id+"/sync", c.merchantKey(), map[string]any{"client_secret": secret}).must(t, 200)
		data := synced.obj()["authentication_details"]
		if synced.str("status") != tc.status || synced.str("trans_status") != tc.trans || synced.str("eci") != tc.eci ||
			(tc.cavv != "") != (data != nil) {
			t.Fatalf("sync after approve=%s: %s", tc.approve, synced.Raw)
		}
		if tc.cavv != "" && synced.str("authentication_details", "three_ds_data", "authentication_cryptogram", "cavv",
			"authentication_cryptogram") != connector.SandboxThreeDSChallenge("4000000000003063", id, true).CAVV {
			t.Fatalf("the CAVV: %s", synced.Raw)
		}
	}
	// Without a return_url the page shows the result.
	_, _, r := authenticated(t, c, "4000000000003220", nil)
	_, _, page := browse(t, "GET", r.str("acs_url"), nil)
	m := challengeToken.FindStringSubmatch(page)
	u, _ := url.Parse(r.str("acs_url"))
	code, _, result := browse(t, "POST", c.srv.URL+u.Path+"/complete", url.Values{"token": {m[1]}, "approve": {"true"}})
	if code != 200 || !strings.Contains(result, "Card authenticated") {
		t.Fatalf("no return_url: %d %s", code, result)
	}
}

// TestAuthenticationRedirect: the 3-D Secure server's notification sends
// the browser to the return_url; without one it answers the
// authentication; an unknown id is 404.
func TestAuthenticationRedirect(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "juspaythreedsserver")
	id, _, _ := authenticated(t, c, "4242424242424242", map[string]any{"return_url": "https://shop.example/r"})
	code, h, _ := browse(t, "POST", c.srv.URL+"/authentication/"+id+"/redirect", url.Values{})
	if code != http.StatusSeeOther || h.Get("Location") != "https://shop.example/r?authentication_id="+id+"&status=success&trans_status=Y" {
		t.Fatalf("redirect: %d %q", code, h.Get("Location"))
	}
	bare, _, _ := authenticated(t, c, "4000000000003022", nil)
	r := c.do("POST", "/authentication/"+bare+"/redirect", "", map[string]any{}).must(t, 200)
	if r.str("status") != "failed" || r.obj()["authentication_details"] != nil {
		t.Fatalf("redirect without a return_url: %s", r.Raw)
	}
	if r := c.do("POST", "/authentication/authn_doesnotexist0000000000/redirect", "", map[string]any{}); r.Status != 404 || r.errCode() != "HE_02" {
		t.Fatalf("redirect of an unknown id: %d %s", r.Status, r.Raw)
	}
}

// TestAuthenticationKeepsNoCardData: no column of any row holds the card
// number, its CVC member or a CAVV, in plain.
func TestAuthenticationKeepsNoCardData(t *testing.T) {
	c := newClient(t)
	authenticationProcessor(t, c, "threedsecureio")
	var cavvs []string
	for _, number := range []string{"4242424242424242", "4000000000003048", "5555555555554444"} {
		id, secret, r := authenticated(t, c, number, nil)
		cavvs = append(cavvs, r.str("authentication_value"))
		c.do("POST", "/authentication/"+id+"/sync", c.merchantKey(), map[string]any{"client_secret": secret}).must(t, 200)
	}
	id, _, r := authenticated(t, c, "4000000000003063", nil)
	_, _, page := browse(t, "GET", r.str("acs_url"), nil)
	m := challengeToken.FindStringSubmatch(page)
	browse(t, "POST", c.srv.URL+"/sandbox/authentication/"+id+"/complete", url.Values{"token": {m[1]}, "approve": {"true"}})
	cavvs = append(cavvs, connector.SandboxThreeDSChallenge("4000000000003063", id, true).CAVV)
	secrets := append([]string{"4242424242424242", "4000000000003048", "5555555555554444", "4000000000003063", `"card_cvc"`}, cavvs...)
	sawRow, sawMasked := false, false
	for _, v := range dumpDatabase(t, c) {
		for _, s := range secrets {
			if s != "" && strings.Contains(string(v.value), s) {
				t.Errorf("%s.%s holds %q", v.table, v.column, s)
			}
		}
		sawRow = sawRow || (v.table == "authentications" && v.column == "cavv_sealed" && len(v.value) > 0)
		sawMasked = sawMasked || (v.table == "authentications" && v.column == "card_last4" && string(v.value) == "4444")
	}
	if !sawRow || !sawMasked {
		t.Fatalf("the dump holds no authentication with a sealed CAVV (%v) or a masked card (%v)", sawRow, sawMasked)
	}
}
