package app_test

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// The addresses Hyperswitch's SDK build allows: its own files, and the one
// backend its Content-Security-Policy lets it call.
const (
	sdkAddr     = "localhost:9050"
	backendAddr = "127.0.0.1:8081"
)

// checkoutSDKArchive finds the build of Hyperswitch's web SDK:
// $SWITCHYARD_TEST_CHECKOUT_SDK, else ../shared/hyperswitch-web/sdk-dist.tgz
// beside the repository. Outside CI a machine without it skips.
func checkoutSDKArchive(t *testing.T) string {
	t.Helper()
	path := os.Getenv("SWITCHYARD_TEST_CHECKOUT_SDK")
	if path == "" {
		path = filepath.Join("..", "..", "..", "shared", "hyperswitch-web", "sdk-dist.tgz")
	}
	if _, err := os.Stat(path); err != nil {
		if testenv.InCI() {
			t.Fatalf("the checkout SDK build is missing (%v): .ci/run sets SWITCHYARD_TEST_CHECKOUT_SDK", err)
		}
		testenv.Skip(t, "no checkout SDK build", fmt.Sprintf("none at %s (set SWITCHYARD_TEST_CHECKOUT_SDK); CI runs this test", path))
	}
	return path
}

// unpack extracts a .tgz into a new directory.
func unpack(t *testing.T, archive string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(name, dir+string(filepath.Separator)) {
			continue // a path outside the directory
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = os.MkdirAll(name, 0o755)
		case tar.TypeReg:
			if err = os.MkdirAll(filepath.Dir(name), 0o755); err == nil {
				var out *os.File
				if out, err = os.Create(name); err == nil {
					_, err = io.Copy(out, tr)
					out.Close()
				}
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// merchantPage is a shop's checkout page as Hyperswitch's docs show it: it
// mounts the unified checkout with the publishable key and the payment's
// client secret, pays on a button, and on the return page reads the
// payment back. What the SDK answers lands in #result.
const merchantPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>Shop</title>
<script src="/HyperLoader.js"></script></head>
<body>
<div id="unified-checkout"></div>
<button id="pay">Pay</button>
<pre id="result"></pre>
<script>
const q = new URLSearchParams(location.search);
const pk = q.get("pk"), secret = q.get("secret");
const hyper = Hyper(pk, { customBackendUrl: "http://` + backendAddr + `" });
const show = (kind, v) => { document.getElementById("result").textContent = kind + ":" + JSON.stringify(v); };
if (location.pathname === "/shop/return") {
  hyper.retrievePaymentIntent(secret).then(r => show("retrieved", r), e => show("error", String(e)));
} else {
  const widgets = hyper.widgets({ clientSecret: secret });
  widgets.create("payment", { layout: "tabs" }).mount("#unified-checkout");
  document.getElementById("pay").onclick = () => hyper.confirmPayment({
      widgets, redirect: "if_required",
      confirmParams: { return_url: location.origin + "/shop/return?pk=" + pk + "&secret=" + secret },
    }).then(r => show("confirmed", r), e => show("error", String(e)));
}
</script></body></html>`

// sdkCall is one request the SDK made to the backend, and its answer.
type sdkCall struct {
	method, url string
	status      int64
}

// TestCheckoutSDKInChromium drives Hyperswitch's own web checkout, unchanged,
// against Switchyard in headless Chromium: a card payment, a 3-D Secure
// payment approved on the sandbox's challenge page, and a decline. Every
// call the SDK makes to Switchyard must succeed.
func TestCheckoutSDKInChromium(t *testing.T) {
	rig := startCheckout(t, 4*time.Minute)
	srv := rig.srv
	for _, tc := range []struct {
		name, card   string
		challenge    bool
		final        string
		resultHolds  string
		declineShown bool
	}{
		{name: "card", card: "4242424242424242", final: "succeeded", resultHolds: `"status":"succeeded"`},
		{name: "3-D Secure", card: "4000000000003220", challenge: true, final: "succeeded", resultHolds: `"status":"succeeded"`},
		{name: "decline", card: "4000000000000002", final: "failed", declineShown: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pay := call(t, srv.URL, http.MethodPost, "/payments", srv.Demo.SecretKey, map[string]any{"amount": 6540, "currency": "USD"})
			id, secret := pay["payment_id"].(string), pay["client_secret"].(string)
			rig.fillCard(t, rig.mount(t, secret), tc.card)
			rig.pay(t)
			if tc.challenge {
				rig.approveChallenge(t)
			}
			result := rig.result(t)
			if tc.resultHolds != "" && !strings.Contains(result, tc.resultHolds) {
				t.Fatalf("the SDK answered %s, want it to hold %s\ncalls:\n%s", result, tc.resultHolds, rig.callLog())
			}
			if tc.declineShown && !strings.Contains(strings.ToLower(result), "declined") {
				t.Fatalf("the SDK did not show the decline: %s\ncalls:\n%s", result, rig.callLog())
			}
			got := call(t, srv.URL, http.MethodGet, "/payments/"+id, srv.Demo.SecretKey, nil)
			if got["status"] != tc.final {
				t.Fatalf("payment %s is %v server-side, want %s\ncalls:\n%s", id, got["status"], tc.final, rig.callLog())
			}
		})
	}
	rig.checkCalls(t, "POST /payments/session_tokens", "GET /v1/sdk/configs/web/sdk_config.json")
}

func formatCalls(calls []sdkCall) string {
	var b strings.Builder
	for _, c := range calls {
		fmt.Fprintf(&b, "  %s %s -> %d\n", c.method, c.url, c.status)
	}
	return b.String()
}

// call sends a REST request with key and decodes its 200 answer.
func call(t *testing.T, base, method, path, key string, body any) map[string]any {
	t.Helper()
	status, raw, err := testenv.Call(base, method, path, key, body)
	if err != nil || status != http.StatusOK {
		t.Fatalf("%s %s: %d %s %v", method, path, status, raw, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// typeInto types keys into a field of the checkout key by key, as a
// shopper does, until the field holds them (a card field's formatting
// aside): while the SDK is still settling after mount it can drop keys,
// so a short field is cleared and typed again.
func typeInto(ctx context.Context, field chromedp.CSS, keys string, in chromedp.QueryOption) error {
	for try := 0; ; try++ {
		err := chromedp.Do(ctx, chromedp.Clear(field, in), chromedp.SendKeys(field, keys, in))
		if err != nil {
			return err
		}
		got, err := chromedp.Run(ctx, chromedp.Value(field, in))
		if err != nil {
			return err
		}
		if got == keys || digits(got) == keys {
			return nil
		}
		if try == 4 {
			return fmt.Errorf("%s holds %q after typing %q", field, got, keys)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			return err
		}
	}
}

// digits is s without its formatting (spaces, slashes).
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
