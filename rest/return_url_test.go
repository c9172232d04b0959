package rest_test

import (
	"crypto/hmac"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
)

// TestRedirectReturnURLQuery: after the sandbox's redirect page (3-D
// Secure, or a payment method's own page), the customer goes back to the
// return_url with the merchant's own query first, then what Hyperswitch
// adds, in its order (make_merchant_url_with_response): status, payment_id,
// payment_intent_client_secret, amount and manual_retry_allowed, which is
// the payment's own.
func TestRedirectReturnURLQuery(t *testing.T) {
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	// Unsigned here; TestRedirectReturnSignedOrPosted signs it.
	setDefaultProfile(t, c, map[string]any{"enable_payment_response_hash": false})
	const returnURL = "https://shop.example/checkout/done?order=42&lang=en%20GB"
	klarna := map[string]any{"payment_method": "pay_later", "payment_method_type": "klarna", "payment_method_data": map[string]any{
		"pay_later": map[string]any{"klarna_redirect": map[string]any{"billing_email": "a@b.c", "billing_country": "SE"}}}}
	for _, tc := range []struct {
		name, button, status, retry string
		confirm                     map[string]any // the SDK's confirm; nil: a card 3-D Secure confirm
	}{
		{name: "3-D Secure approved", button: "Approve", status: "succeeded", retry: "false"},
		{name: "3-D Secure declined", button: "Decline", status: "failed", retry: "true"},
		{name: "Klarna approved", button: "Approve", status: "succeeded", retry: "false", confirm: klarna},
		{name: "Klarna declined", button: "Decline", status: "failed", retry: "true", confirm: klarna},
	} {
		t.Run(tc.name, func(t *testing.T) {
			created := c.pay("POST", "/payments", payment(map[string]any{"amount": 6540, "return_url": returnURL})).must(t, 200)
			id, secret := created.str("payment_id"), created.str("client_secret")
			body := sdkCardConfirm(secret, "4000000000003220", nil)
			if tc.confirm != nil {
				body = map[string]any{"client_secret": secret}
				for k, v := range tc.confirm {
					body[k] = v
				}
			}
			delete(body, "return_url") // the payment's own
			r := c.do("POST", "/payments/"+id+"/confirm", pk, body).must(t, 200)
			if r.obj()["manual_retry_allowed"] != nil {
				t.Fatalf("waiting for the customer, manual_retry_allowed is %v, want null", r.obj()["manual_retry_allowed"])
			}
			back := authenticate(t, r, tc.button)
			if back.StatusCode != http.StatusSeeOther {
				t.Fatalf("the page answered %d, want 303", back.StatusCode)
			}
			want := "https://shop.example/checkout/done?order=42&lang=en%20GB&status=" + tc.status + "&payment_id=" + id +
				"&payment_intent_client_secret=" + secret + "&amount=6540&manual_retry_allowed=" + tc.retry
			if got := back.Header.Get("Location"); got != want {
				t.Fatalf("back to\n%s\nwant\n%s", got, want)
			}
			got := c.do("GET", "/payments/"+id+"?client_secret="+secret, pk, nil).must(t, 200)
			if got.str("status") != tc.status || got.obj()["manual_retry_allowed"] != (tc.retry == "true") {
				t.Fatalf("the payment after %s: %s", tc.button, got.Raw)
			}
			// The page again, once the payment no longer waits, links to the same place.
			p := getPage(t, r.str("next_action", "redirect_to_url"))
			if !strings.Contains(p.body, `href="`+strings.ReplaceAll(want, "&", "&amp;")+`"`) {
				t.Fatalf("the page after completion does not link back to %s:\n%s", want, p.body)
			}
		})
	}
}

// setDefaultProfile updates the demo merchant's default profile.
func setDefaultProfile(t *testing.T, c *client, members map[string]any) {
	t.Helper()
	m := c.srv.Demo.MerchantID
	profiles := c.do("GET", "/account/"+m+"/business_profile", c.merchantKey(), nil).must(t, 200)
	var id string
	list, _ := profiles.Body.([]any)
	for _, p := range list {
		if p, _ := p.(map[string]any); p["is_default"] == true || id == "" {
			id, _ = p["profile_id"].(string)
		}
	}
	c.do("POST", "/account/"+m+"/business_profile/"+id, c.merchantKey(), members).must(t, 200)
}

// hyperswitchSignature is Hyperswitch's hmac_sha512_sorted_query_params,
// written again here from its definition: the decoded members sorted,
// joined as name=value with "&", HMAC-SHA512 in hex.
func hyperswitchSignature(pairs [][2]string, key string) string {
	sorted := append([][2]string(nil), pairs...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i][0] != sorted[j][0] {
			return sorted[i][0] < sorted[j][0]
		}
		return sorted[i][1] < sorted[j][1]
	})
	parts := make([]string, len(sorted))
	for i, kv := range sorted {
		parts[i] = kv[0] + "=" + kv[1]
	}
	mac := hmac.New(sha512.New, []byte(key))
	mac.Write([]byte(strings.Join(parts, "&")))
	return hex.EncodeToString(mac.Sum(nil))
}

// TestRedirectReturnSignedOrPosted: a profile with
// enable_payment_response_hash (Hyperswitch's default) signs the members
// the shopper comes back with, under its payment_response_hash_key, as
// Hyperswitch's make_url_with_signature does (signature and
// signature_algorithm last); with redirect_to_merchant_with_http_post the
// members, signature included, are POSTed to the return_url without its
// query by a form the page sends at once.
func TestRedirectReturnSignedOrPosted(t *testing.T) {
	// The signature's definition, held to a vector computed apart from Go
	// (Python's hmac over the sorted members).
	if got := hyperswitchSignature([][2]string{{"order", "42"}, {"lang", "en GB"}, {"status", "succeeded"}, {"payment_id", "pay_abc"},
		{"payment_intent_client_secret", "pay_abc_secret_xyz"}, {"amount", "6540"}, {"manual_retry_allowed", "false"}}, "shop-hash-key"); got !=
		"bf818920fc95c637805f351a1f85f4476da875cd0bc7a29d155d89328ce258142ac4aba7381b31760e51d56ca9d34ed967c009706fbaf8c5b547a44aa3a29571" {
		t.Fatalf("the test's signature is %s", got)
	}
	c := newClient(t)
	pk := c.srv.Demo.PublishableKey
	const key = "shop-hash-key"
	const returnURL = "https://shop.example/checkout/done?order=42&lang=en%20GB"
	var challenge string // the last payment's challenge page
	threeDS := func(t *testing.T, button string) (id, secret string, back *http.Response) {
		created := c.pay("POST", "/payments", payment(map[string]any{"amount": 6540, "return_url": returnURL})).must(t, 200)
		id, secret = created.str("payment_id"), created.str("client_secret")
		body := sdkCardConfirm(secret, "4000000000003220", nil)
		delete(body, "return_url")
		r := c.do("POST", "/payments/"+id+"/confirm", pk, body).must(t, 200)
		challenge = r.str("next_action", "redirect_to_url")
		return id, secret, authenticate(t, r, button)
	}
	members := func(id, secret, status, retry string) [][2]string {
		return [][2]string{{"order", "42"}, {"lang", "en GB"}, {"status", status}, {"payment_id", id},
			{"payment_intent_client_secret", secret}, {"amount", "6540"}, {"manual_retry_allowed", retry}}
	}

	t.Run("signed by default", func(t *testing.T) {
		setDefaultProfile(t, c, map[string]any{"payment_response_hash_key": key})
		for _, tc := range []struct{ button, status, retry string }{{"Approve", "succeeded", "false"}, {"Decline", "failed", "true"}} {
			id, secret, back := threeDS(t, tc.button)
			if back.StatusCode != http.StatusSeeOther {
				t.Fatalf("the page answered %d, want 303", back.StatusCode)
			}
			sig := hyperswitchSignature(members(id, secret, tc.status, tc.retry), key)
			want := returnURL + "&status=" + tc.status + "&payment_id=" + id + "&payment_intent_client_secret=" + secret +
				"&amount=6540&manual_retry_allowed=" + tc.retry + "&signature=" + sig + "&signature_algorithm=HMAC-SHA512"
			if got := back.Header.Get("Location"); got != want {
				t.Fatalf("%s: back to\n%s\nwant\n%s", tc.button, got, want)
			}
		}
	})

	t.Run("another key signs otherwise", func(t *testing.T) {
		setDefaultProfile(t, c, map[string]any{"payment_response_hash_key": "another-key"})
		id, secret, back := threeDS(t, "Approve")
		u, err := url.Parse(back.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		pairs := members(id, secret, "succeeded", "false")
		if got := u.Query().Get("signature"); got != hyperswitchSignature(pairs, "another-key") || got == hyperswitchSignature(pairs, key) {
			t.Fatalf("signature %s is not the new key's", got)
		}
	})

	t.Run("posted", func(t *testing.T) {
		setDefaultProfile(t, c, map[string]any{"payment_response_hash_key": key, "redirect_to_merchant_with_http_post": true})
		id, secret, back := threeDS(t, "Approve")
		defer back.Body.Close()
		var page strings.Builder
		if _, err := io.Copy(&page, back.Body); err != nil {
			t.Fatal(err)
		}
		if back.StatusCode != http.StatusOK {
			t.Fatalf("the page answered %d, want 200 with the form", back.StatusCode)
		}
		forms := formRe.FindAllStringSubmatch(page.String(), -1)
		if len(forms) != 1 || html.UnescapeString(forms[0][1]) != "https://shop.example/checkout/done" {
			t.Fatalf("want one form to the return_url without its query:\n%s", page.String())
		}
		var got [][2]string
		for _, in := range hiddenRe.FindAllStringSubmatch(forms[0][2], -1) {
			got = append(got, [2]string{html.UnescapeString(in[1]), html.UnescapeString(in[2])})
		}
		want := append(members(id, secret, "succeeded", "false"),
			[2]string{"signature", hyperswitchSignature(members(id, secret, "succeeded", "false"), key)},
			[2]string{"signature_algorithm", "HMAC-SHA512"})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("the form posts\n%v\nwant\n%v", got, want)
		}
		// The page sends the form by itself, with the one script its policy allows.
		csp := back.Header.Get("Content-Security-Policy")
		nonce := strings.TrimSuffix(csp[strings.Index(csp, "'nonce-")+len("'nonce-"):], "'")
		if !strings.Contains(csp, "script-src 'nonce-") || !strings.Contains(page.String(), `<script nonce="`+nonce+`">`) {
			t.Fatalf("the form is not sent by itself: CSP %q\n%s", csp, page.String())
		}
		// Opened again, the page offers the same form without sending it.
		again := getPage(t, challenge)
		if len(again.forms) != 1 || again.forms[0].action != "https://shop.example/checkout/done" ||
			again.forms[0].fields.Get("signature") != want[len(want)-2][1] || strings.Contains(again.body, "<script") {
			t.Fatalf("the page opened again:\n%s", again.body)
		}
	})
}
