package app_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestCheckoutSDKExternalThreeDS pays with Hyperswitch's web checkout on a
// profile whose authentication connector is the sandbox's 3-D Secure
// server: a challenge card gets next_action three_ds_invoke, the checkout
// calls POST /payments/{id}/3ds/authentication and shows the sandbox's
// challenge page in its frame, the shopper approves there, and the
// checkout polls GET /poll/status/{poll_id} and shows the payment
// succeeded.
//
// The build's Content-Security-Policy frames pages over https (any ACS) and
// Hyperswitch's development ports only; the sandbox's challenge page is
// served over http by Switchyard on backendAddr here, so the test serves
// the build with that origin added to its frame-src (sdkFramingBackend).
func TestCheckoutSDKExternalThreeDS(t *testing.T) {
	t.Setenv("SWITCHYARD_TEST_CHECKOUT_SDK", sdkFramingBackend(t, checkoutSDKArchive(t)))
	rig := startCheckout(t, 3*time.Minute)
	srv := rig.srv
	m, key := srv.Demo.MerchantID, srv.Demo.SecretKey
	prof := call(t, srv.URL, http.MethodPost, "/account/"+m+"/business_profile", key, map[string]any{
		"profile_name": "external 3ds",
		"authentication_connector_details": map[string]any{
			"authentication_connectors": []string{"juspaythreedsserver"}, "three_ds_requestor_url": "http://" + sdkAddr},
	})
	profile := prof["profile_id"].(string)
	call(t, srv.URL, http.MethodPost, "/account/"+m+"/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "stripe", "profile_id": profile,
		"connector_account_details": map[string]any{"auth_type": "HeaderKey", "api_key": "key_for_stripe"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit", "card_networks": []string{"Visa", "Mastercard"}},
			map[string]any{"payment_method_type": "debit", "card_networks": []string{"Visa", "Mastercard"}}}}},
	})
	call(t, srv.URL, http.MethodPost, "/account/"+m+"/connectors", key, map[string]any{
		"connector_type": "authentication_processor", "connector_name": "juspaythreedsserver", "profile_id": profile,
		"connector_account_details": map[string]any{"auth_type": "NoKey"},
	})
	pay := call(t, srv.URL, http.MethodPost, "/payments", key, map[string]any{"amount": 6540, "currency": "USD",
		"profile_id": profile, "authentication_type": "three_ds", "request_external_three_ds_authentication": true})
	id, secret := pay["payment_id"].(string), pay["client_secret"].(string)

	rig.fillCard(t, rig.mount(t, secret), "4000000000003063")
	rig.pay(t)
	rig.approveInFrames(t)
	result := rig.result(t)
	if !strings.Contains(result, `"status":"succeeded"`) {
		t.Fatalf("the SDK answered %s\ncalls:\n%s", result, rig.callLog())
	}
	got := call(t, srv.URL, http.MethodGet, "/payments/"+id, key, nil)
	details, _ := got["external_authentication_details"].(map[string]any)
	if got["status"] != "succeeded" || details["status"] != "success" || details["authentication_flow"] != "challenge" {
		t.Fatalf("payment %s server-side: %v, external_authentication_details %v\ncalls:\n%s", id, got["status"], details, rig.callLog())
	}
	rig.checkCalls(t, "POST /payments/"+id+"/confirm", "POST /payments/"+id+"/3ds/authentication",
		"GET /poll/status/external_authentication_"+id)
}

// approveInFrames clicks Approve on the sandbox's challenge page where the
// checkout shows it: in the frame of its 3-D Secure step, inside its
// full-screen frame. The page is on Switchyard's origin, so Chromium runs
// it out of the shop's process, a target of its own; it is looked for until
// the checkout has posted the challenge request to it, and the button's
// own click runs there, as a shopper's submits its form.
func (r *checkoutRig) approveInFrames(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, 60*time.Second)
	defer cancel()
	var last error
	for ctx.Err() == nil {
		targets, err := chromedp.Targets(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if tg.Type != "iframe" || !strings.Contains(tg.URL, "/sandbox/authenticate/") {
				continue
			}
			// Ending this context would close the frame's target: it lasts
			// as long as the tab.
			frame, done := chromedp.NewContext(r.ctx, chromedp.WithTargetID(tg.TargetID))
			t.Cleanup(done)
			clicked, err := chromedp.Run(frame, chromedp.Evaluate[bool](`(() => {
				const b = document.querySelector("button.approve");
				if (!b) return false;
				b.click();
				return true; })()`))
			if clicked {
				return
			}
			last = err
		}
		_ = chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond))
	}
	t.Fatalf("the checkout never showed the challenge page (%v)\ncalls:\n%s", last, r.callLog())
}

// sdkFramingBackend writes a copy of the SDK's build (archive) whose pages
// may frame backendAddr, and returns its path.
func sdkFramingBackend(t *testing.T, archive string) string {
	t.Helper()
	in, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	gz, err := gzip.NewReader(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sdk-dist.tgz")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	zw := gzip.NewWriter(out)
	tw := tar.NewWriter(zw)
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(h.Name, ".html") {
			body = []byte(strings.ReplaceAll(string(body), "frame-src 'self' https:", "frame-src 'self' https: http://"+backendAddr))
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
