package rest_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// External 3-D Secure in a payment (docs/sandbox.md): the profile's
// authentication connector (the sandbox 3-D Secure server) authenticates
// the card before the authorization, or the merchant gives the result as
// three_ds_data.

// threeDSProfile makes a profile of the demo merchant with a payment
// connector and an authentication connector its
// authentication_connector_details names; it returns the profile's id.
func threeDSProfile(t *testing.T, c *client) string {
	t.Helper()
	m := c.srv.Demo.MerchantID
	prof := c.do("POST", "/account/"+m+"/business_profile", c.merchantKey(), map[string]any{
		"profile_name": "external 3ds",
		"authentication_connector_details": map[string]any{
			"authentication_connectors": []string{"juspaythreedsserver"}, "three_ds_requestor_url": "https://shop.example"},
	}).must(t, 200)
	id := prof.str("profile_id")
	if got := prof.str("authentication_connector_details", "three_ds_requestor_url"); got != "https://shop.example" {
		t.Fatalf("the profile keeps authentication_connector_details as %q: %s", got, prof.Raw)
	}
	c.do("POST", "/account/"+m+"/connectors", c.merchantKey(), map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe", "profile_id": id,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "key_for_stripe"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit"}, map[string]any{"payment_method_type": "debit"}}}},
	}).must(t, 200)
	c.do("POST", "/account/"+m+"/connectors", c.merchantKey(), map[string]any{
		"connector_type": "authentication_processor", "connector_name": "juspaythreedsserver", "profile_id": id,
		"connector_account_details": map[string]any{"auth_type": "NoKey"},
	}).must(t, 200)
	return id
}

// externalThreeDSPayment is a confirmed card payment asking for external
// 3-D Secure on profile.
func externalThreeDSPayment(profile, number string) map[string]any {
	return payment(map[string]any{"profile_id": profile, "confirm": true, "payment_method": "card",
		"payment_method_data": card(number), "authentication_type": "three_ds",
		"request_external_three_ds_authentication": true, "return_url": "https://shop.example/return"})
}

// externalAuth checks the payment's external_authentication_details.
func externalAuth(t *testing.T, r response, status, flow, eci string) {
	t.Helper()
	if r.obj()["external_3ds_authentication_attempted"] != true {
		t.Fatalf("external_3ds_authentication_attempted is not true: %s", r.Raw)
	}
	for member, want := range map[string]string{"status": status, "authentication_flow": flow,
		"electronic_commerce_indicator": eci, "version": "2.2.0"} {
		if got := r.str("external_authentication_details", member); got != want {
			t.Errorf("external_authentication_details.%s = %q, want %q: %s", member, got, want, r.Raw)
		}
	}
	if r.str("external_authentication_details", "ds_transaction_id") == "" {
		t.Errorf("no ds_transaction_id: %s", r.Raw)
	}
}

// TestExternalThreeDSByTestCard runs each answer of the sandbox 3-D Secure
// server through a payment: authenticated (Y) and attempted (A) authorize,
// not authenticated (N) and unavailable (U) fail as Hyperswitch fails them
// without asking the payment connector.
func TestExternalThreeDSByTestCard(t *testing.T) {
	c := newClient(t)
	profile := threeDSProfile(t, c)
	for _, tc := range []struct {
		name, number, status, authStatus, eci, authError string
	}{
		{"Y", "4242424242424242", "succeeded", "success", "05", ""},
		{"Y mastercard", "5555555555554444", "succeeded", "success", "02", ""},
		{"A", "4000000000003048", "succeeded", "success", "06", ""},
		{"N", "4000000000003022", "failed", "failed", "07", "authentication_failed"},
		{"U", "4000000000003089", "failed", "failed", "07", "directory_server_unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", externalThreeDSPayment(profile, tc.number)).must(t, 200)
			if r.str("status") != tc.status {
				t.Fatalf("status %s, want %s: %s", r.str("status"), tc.status, r.Raw)
			}
			externalAuth(t, r, tc.authStatus, "frictionless", tc.eci)
			if got := r.str("external_authentication_details", "error_code"); got != tc.authError {
				t.Errorf("external_authentication_details.error_code = %q, want %q", got, tc.authError)
			}
			if tc.status == "failed" {
				if r.str("error_code") != "EXTERNAL_AUTHENTICATION_FAILURE" || r.str("error_message") != "external authentication failure" {
					t.Errorf("error %s %q, want Hyperswitch's EXTERNAL_AUTHENTICATION_FAILURE: %s", r.str("error_code"), r.str("error_message"), r.Raw)
				}
				if r.str("connector_transaction_id") != "" {
					t.Errorf("the payment connector was asked: %s", r.Raw)
				}
			}
			got := c.pay("GET", "/payments/"+r.str("payment_id"), nil).must(t, 200)
			externalAuth(t, got, tc.authStatus, "frictionless", tc.eci)
		})
	}
	t.Run("confirmed after its create", func(t *testing.T) {
		body := externalThreeDSPayment(profile, "4000000000003048")
		delete(body, "confirm")
		created := c.pay("POST", "/payments", body).must(t, 200)
		r := c.pay("POST", "/payments/"+created.str("payment_id")+"/confirm", map[string]any{}).must(t, 200)
		if r.str("status") != "succeeded" {
			t.Fatalf("status %s: %s", r.str("status"), r.Raw)
		}
		externalAuth(t, r, "success", "frictionless", "06")
	})
	t.Run("without three_ds", func(t *testing.T) {
		body := externalThreeDSPayment(profile, "4242424242424242")
		body["authentication_type"] = "no_three_ds"
		r := c.pay("POST", "/payments", body).must(t, 200)
		if r.str("status") != "succeeded" || r.obj()["external_authentication_details"] != nil {
			t.Fatalf("a no_three_ds payment was authenticated: %s", r.Raw)
		}
	})
}

// challenge starts the checkout's step of a payment waiting in
// three_ds_invoke: POST /payments/{id}/3ds/authentication with the
// publishable key, as the web SDK sends it. It returns the answer.
func challenge(t *testing.T, c *client, r response) response {
	t.Helper()
	id := r.str("payment_id")
	if r.str("status") != "requires_customer_action" || r.str("next_action", "type") != "three_ds_invoke" {
		t.Fatalf("no three_ds_invoke next_action: %s", r.Raw)
	}
	data := func(path ...string) string {
		return r.str(append([]string{"next_action", "three_ds_data"}, path...)...)
	}
	if !strings.HasSuffix(data("three_ds_authentication_url"), "/payments/"+id+"/3ds/authentication") ||
		data("poll_config", "poll_id") != "external_authentication_"+id || data("message_version") != "2.2.0" ||
		!strings.Contains(data("three_ds_authorize_url"), "/payments/"+id+"/"+c.srv.Demo.MerchantID+"/authorize/stripe") ||
		data("three_ds_connector") != "juspaythreedsserver" || data("directory_server_id") == "" {
		t.Fatalf("three_ds_data is not what the web SDK reads: %s", r.Raw)
	}
	return c.do("POST", "/payments/"+id+"/3ds/authentication", c.srv.Demo.PublishableKey, map[string]any{
		"client_secret": r.str("client_secret"), "device_channel": "BRW", "threeds_method_comp_ind": "U"}).must(t, 200)
}

// poll is GET /poll/status/{poll_id} of a payment, with the publishable key.
func poll(t *testing.T, c *client, paymentID string) string {
	t.Helper()
	r := c.do("GET", "/poll/status/external_authentication_"+paymentID, c.srv.Demo.PublishableKey, nil).must(t, 200)
	return r.str("status")
}

// answerChallenge posts the challenge request to the ACS page, as the web
// SDK does, presses button there, follows the page on to the authorize
// page and returns what that page says.
func answerChallenge(t *testing.T, auth response, button string) string {
	t.Helper()
	acs := auth.str("acs_url")
	resp, err := http.PostForm(acs, url.Values{auth.str("challenge_request_key"): {auth.str("challenge_request")}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), button) {
		t.Fatalf("the ACS page %s: %d\n%s", acs, resp.StatusCode, body)
	}
	p := getPage(t, acs)
	for _, f := range p.forms {
		if f.button != button {
			continue
		}
		answer := submit(t, acs, f)
		next := answer.Header.Get("Location")
		if answer.StatusCode != http.StatusSeeOther || !strings.Contains(next, "/authorize/") {
			t.Fatalf("after %s: %d to %q, want the authorize page", button, answer.StatusCode, next)
		}
		base, _ := url.Parse(acs)
		u, _ := base.Parse(next)
		page := getPage(t, u.String())
		if page.status != 200 {
			t.Fatalf("the authorize page: %d\n%s", page.status, page.body)
		}
		return page.body
	}
	t.Fatalf("no %s button on the ACS page:\n%s", button, p.body)
	return ""
}

// TestExternalThreeDSChallenge runs a challenge card (C) through the
// checkout's calls: three_ds_invoke, the authentication call (trans_status
// C, the sandbox's ACS page), the poll, the customer's answer and the
// authorize page that hands the poll to the checkout. Approved, the
// payment connector authorizes without a challenge of its own; declined,
// the payment fails; a card the issuer declines after the challenge is
// declined by the payment connector.
func TestExternalThreeDSChallenge(t *testing.T) {
	c := newClient(t)
	profile := threeDSProfile(t, c)
	for _, tc := range []struct {
		name, number, button, status, authStatus, errorCode string
	}{
		{"approve", "4000000000003063", "Approve", "succeeded", "success", ""},
		{"decline", "4000000000003220", "Decline", "failed", "failed", "EXTERNAL_AUTHENTICATION_FAILURE"},
		{"approve then insufficient funds", "4000008260003178", "Approve", "failed", "success", "card_declined"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := c.pay("POST", "/payments", externalThreeDSPayment(profile, tc.number)).must(t, 200)
			id := r.str("payment_id")
			auth := challenge(t, c, r)
			if auth.str("trans_status") != "C" || auth.str("challenge_request") == "" || auth.str("challenge_request_key") != "creq" {
				t.Fatalf("the authentication call: %s", auth.Raw)
			}
			if got := poll(t, c, id); got != "pending" {
				t.Fatalf("poll before the answer: %s", got)
			}
			waiting := c.pay("GET", "/payments/"+id, nil).must(t, 200)
			if waiting.str("external_authentication_details", "status") != "pending" ||
				waiting.str("external_authentication_details", "authentication_flow") != "challenge" {
				t.Fatalf("a waiting challenge: %s", waiting.Raw)
			}
			page := answerChallenge(t, auth, tc.button)
			if !strings.Contains(page, `"poll_id":"external_authentication_`+id+`"`) || !strings.Contains(page, `"frequency":"5"`) {
				t.Fatalf("the authorize page does not hand the poll to the checkout:\n%s", page)
			}
			if got := poll(t, c, id); got != "completed" {
				t.Fatalf("poll after the answer: %s", got)
			}
			got := c.pay("GET", "/payments/"+id, nil).must(t, 200)
			if got.str("status") != tc.status || got.str("error_code") != tc.errorCode {
				t.Fatalf("payment %s (%s), want %s (%s): %s", got.str("status"), got.str("error_code"), tc.status, tc.errorCode, got.Raw)
			}
			if got.obj()["next_action"] != nil {
				t.Errorf("a next_action after the answer: %s", got.Raw)
			}
			eci := "05"
			if tc.authStatus == "failed" {
				eci = "07"
			}
			externalAuth(t, got, tc.authStatus, "challenge", eci)
			// The page again changes nothing (a double click).
			c.do("POST", "/payments/"+id+"/3ds/authentication", c.srv.Demo.PublishableKey, map[string]any{
				"client_secret": got.str("client_secret"), "device_channel": "BRW", "threeds_method_comp_ind": "U"}).must(t, 400)
		})
	}
	if r := c.do("GET", "/poll/status/external_authentication_pay_unknown", c.srv.Demo.PublishableKey, nil); r.Status != 404 {
		t.Fatalf("the poll of no payment: %d %s", r.Status, r.Raw)
	}
}

// TestThreeDSDataCarried: the merchant's own authentication result
// (three_ds_data) goes to the connector with the authorization, so a
// challenge card authorizes without its challenge, given at confirm or
// kept (sealed) from the create; one still waiting for its challenge is
// refused.
func TestThreeDSDataCarried(t *testing.T) {
	c := newClient(t)
	threeDSData := func(status string) map[string]any {
		return map[string]any{"transaction_status": status, "eci": "05", "version": "2.2.0",
			"ds_trans_id":               "f25084f0-5b16-4c0a-ae5d-b24808a95e4b",
			"authentication_cryptogram": map[string]any{"cavv": map[string]any{"authentication_cryptogram": "AAABBBCCCDDDEEEFFF0123456789="}}}
	}
	body := func(members map[string]any) map[string]any {
		b := payment(map[string]any{"payment_method": "card", "payment_method_data": card("4000000000003063"),
			"authentication_type": "three_ds"})
		for k, v := range members {
			b[k] = v
		}
		return b
	}
	without := c.pay("POST", "/payments", body(map[string]any{"confirm": true})).must(t, 200)
	if without.str("status") != "requires_customer_action" {
		t.Fatalf("the challenge card without three_ds_data: %s", without.Raw)
	}
	with := c.pay("POST", "/payments", body(map[string]any{"confirm": true, "three_ds_data": threeDSData("Y")})).must(t, 200)
	if with.str("status") != "succeeded" || with.str("external_authentication_details", "status") != "success" ||
		with.str("external_authentication_details", "electronic_commerce_indicator") != "05" {
		t.Fatalf("the challenge card with three_ds_data Y: %s", with.Raw)
	}
	if strings.Contains(string(with.Raw), "AAABBBCCCDDDEEEFFF") {
		t.Fatalf("the cryptogram is shown: %s", with.Raw)
	}
	created := c.pay("POST", "/payments", body(map[string]any{"three_ds_data": threeDSData("A")})).must(t, 200)
	confirmed := c.pay("POST", "/payments/"+created.str("payment_id")+"/confirm", map[string]any{}).must(t, 200)
	if confirmed.str("status") != "succeeded" || confirmed.str("external_authentication_details", "status") != "success" {
		t.Fatalf("three_ds_data kept from the create: %s", confirmed.Raw)
	}
	failed := c.pay("POST", "/payments", body(map[string]any{"confirm": true, "three_ds_data": threeDSData("N")})).must(t, 200)
	if failed.str("status") != "failed" || failed.str("error_code") != "EXTERNAL_AUTHENTICATION_FAILURE" {
		t.Fatalf("three_ds_data N: %s", failed.Raw)
	}
	refused := c.pay("POST", "/payments", body(map[string]any{"confirm": true, "three_ds_data": threeDSData("C")}))
	if refused.Status != 400 || !strings.Contains(string(refused.Raw), "three_ds_data.transaction_status") {
		t.Fatalf("three_ds_data C: %d %s", refused.Status, refused.Raw)
	}
}
