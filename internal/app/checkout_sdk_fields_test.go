package app_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"switchyard/internal/testenv"
)

// checkoutHarness is Switchyard and a shop serving Hyperswitch's SDK
// build, on the addresses the build allows, and a headless Chromium that
// records every call the SDK makes to Switchyard.
type checkoutHarness struct {
	srv *testenv.Server
	ctx context.Context

	mu      sync.Mutex
	methods map[network.RequestID]string
	calls   []sdkCall
}

// startCheckout starts the harness for one test (see TestCheckoutSDKInChromium).
func startCheckout(t *testing.T) *checkoutHarness {
	t.Helper()
	archive := checkoutSDKArchive(t)
	exe := testenv.Chromium(t)
	files := unpack(t, archive)

	h := &checkoutHarness{methods: map[network.RequestID]string{}}
	cfg := testenv.Config(t, testenv.Database(t))
	h.srv = testenv.NewServerAt(t, backendAddr, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))

	shop := http.NewServeMux()
	shop.HandleFunc("/shop/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, merchantPage)
	})
	shop.Handle("/", http.FileServer(http.Dir(files)))
	ln, err := net.Listen("tcp", sdkAddr)
	if err != nil {
		t.Fatalf("the SDK build must be served on %s: %v", sdkAddr, err)
	}
	shopSrv := &http.Server{Handler: shop, ReadHeaderTimeout: 10 * time.Second}
	go shopSrv.Serve(ln)
	t.Cleanup(func() { shopSrv.Close() })

	h.ctx = testenv.Browser(t, exe, 4*time.Minute)
	err = chromedp.Listen(h.ctx, func(ev any) {
		h.mu.Lock()
		defer h.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			h.methods[ev.RequestID] = ev.Request.Method
		case *network.EventResponseReceived:
			if strings.HasPrefix(ev.Response.URL, "http://"+backendAddr+"/") && !strings.Contains(ev.Response.URL, "/sandbox/") {
				h.calls = append(h.calls, sdkCall{h.methods[ev.RequestID], ev.Response.URL, ev.Response.Status})
			}
		}
	})
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	return h
}

func (h *checkoutHarness) callLog() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return formatCalls(h.calls)
}

// mount opens the shop's checkout page for a payment's client secret and
// answers the SDK's frame, once its card form shows.
func (h *checkoutHarness) mount(t *testing.T, secret string) chromedp.QueryOption {
	t.Helper()
	page := fmt.Sprintf("http://%s/shop/pay?pk=%s&secret=%s", sdkAddr, h.srv.Demo.PublishableKey, secret)
	frame := chromedp.CSS("#orca-payment-element-iframeRef-unified-checkout")
	err := chromedp.Do(h.ctx, chromedp.Navigate(page), chromedp.WaitVisible(frame))
	var frames []*chromedp.Node
	if err == nil {
		frames, err = chromedp.Run(h.ctx, chromedp.Nodes(frame))
	}
	if err == nil {
		err = chromedp.Do(h.ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid=cardNoInput]`), chromedp.FromNode(frames[0])))
	}
	if err != nil {
		t.Fatalf("the checkout did not mount: %v\ncalls:\n%s", err, h.callLog())
	}
	return chromedp.FromNode(frames[0])
}

// typeText types text into a field of the checkout, as typeInto does for
// digits, until the field holds it.
func typeText(ctx context.Context, field chromedp.CSS, text string, in chromedp.QueryOption) error {
	for try := 0; ; try++ {
		err := chromedp.Do(ctx, chromedp.Clear(field, in), chromedp.SendKeys(field, text, in))
		if err != nil {
			return err
		}
		got, err := chromedp.Run(ctx, chromedp.Value(field, in))
		if err != nil {
			return err
		}
		if got == text {
			return nil
		}
		if try == 4 {
			return fmt.Errorf("%s holds %q after typing %q", field, got, text)
		}
		if err := chromedp.Do(ctx, chromedp.Sleep(300*time.Millisecond)); err != nil {
			return err
		}
	}
}

// TestCheckoutSDKAsksForRequiredBillingFields: a sandbox connector account
// that needs billing details for cards (Cybersource, whose Hyperswitch
// configuration asks for the card holder's name, the billing email and the
// billing address) makes Hyperswitch's own checkout show those fields under
// the card form; the shopper fills them and pays, and the payment on the
// server carries what was asked, from the name to the country the form
// chose.
func TestCheckoutSDKAsksForRequiredBillingFields(t *testing.T) {
	h := startCheckout(t)
	srv, ctx := h.srv, h.ctx
	m, key := srv.Demo.MerchantID, srv.Demo.SecretKey
	prof := call(t, srv.URL, http.MethodPost, "/account/"+m+"/business_profile", key, map[string]any{"profile_name": "cybersource shop"})
	networks := []string{"Visa", "Mastercard"}
	call(t, srv.URL, http.MethodPost, "/account/"+m+"/connectors", key, map[string]any{
		"connector_type": "payment_processor", "connector_name": "cybersource", "profile_id": prof["profile_id"],
		"connector_account_details": map[string]any{"auth_type": "SignatureKey", "api_key": "cyb_key", "key1": "cyb_merchant", "api_secret": "cyb_secret"},
		"payment_methods_enabled": []any{map[string]any{"payment_method": "card", "payment_method_types": []any{
			map[string]any{"payment_method_type": "credit", "card_networks": networks},
			map[string]any{"payment_method_type": "debit", "card_networks": networks}}}},
	})
	pay := call(t, srv.URL, http.MethodPost, "/payments", key, map[string]any{"amount": 6540, "currency": "USD", "profile_id": prof["profile_id"]})
	id, secret := pay["payment_id"].(string), pay["client_secret"].(string)

	in := h.mount(t, secret)
	// The billing fields show beside the card form: the card holder's name
	// (one input the checkout splits), the email and the address lines.
	shown, cancel := context.WithTimeout(ctx, 45*time.Second)
	err := chromedp.Do(shown, chromedp.WaitVisible(chromedp.CSS(`input[name=line1]`), in))
	cancel()
	if err != nil {
		t.Fatalf("the checkout shows no billing address: %v\ncalls:\n%s", err, h.callLog())
	}
	year := fmt.Sprint(time.Now().Year() + 3)
	for _, f := range []struct{ testID, keys string }{{"cardNoInput", "4242424242424242"}, {"expiryInput", "12" + year[2:]}, {"cvvInput", "123"}} {
		if err == nil {
			err = typeInto(ctx, chromedp.CSS(`[data-testid=`+f.testID+`]`), f.keys, in)
		}
	}
	for _, f := range []struct{ name, text string }{
		{"first_name", "Sam Shopper"}, {"email", "sam@shop.example"}, {"line1", "9 Elm Street"}, {"city", "Springfield"}, {"zip", "62704"},
	} {
		if err == nil {
			err = typeText(ctx, chromedp.CSS(`input[name=`+f.name+`]`), f.text, in)
		}
	}
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#pay")))
	}
	if err != nil {
		t.Fatalf("filling the checkout: %v\ncalls:\n%s", err, h.callLog())
	}
	result, err := chromedp.Run(ctx, chromedp.Poll[string](`(() => { const r = document.getElementById("result");
		return r && r.textContent ? r.textContent : false; })()`, chromedp.WithPollingTimeout(45*time.Second)))
	if err != nil || !strings.Contains(result, `"status":"succeeded"`) {
		t.Fatalf("the SDK answered %q (%v), want the payment succeeded\ncalls:\n%s", result, err, h.callLog())
	}

	got := call(t, srv.URL, http.MethodGet, "/payments/"+id, key, nil)
	pmd, _ := got["payment_method_data"].(map[string]any)
	billing, _ := pmd["billing"].(map[string]any)
	address, _ := billing["address"].(map[string]any)
	if got["status"] != "succeeded" || billing["email"] != "sam@shop.example" {
		t.Fatalf("payment %s server-side: %v, billing %v", id, got["status"], billing)
	}
	for k, want := range map[string]string{"first_name": "Sam", "last_name": "Shopper", "line1": "9 Elm Street", "city": "Springfield", "zip": "62704"} {
		if address[k] != want {
			t.Fatalf("the payment's billing address.%s is %v, want %s: %v", k, address[k], want, billing)
		}
	}
	for _, k := range []string{"country", "state"} {
		if v, _ := address[k].(string); v == "" {
			t.Fatalf("the payment's billing has no %s, which the checkout's drop-down chose: %v", k, billing)
		}
	}

	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.calls {
		if c.status < 200 || c.status > 299 {
			t.Errorf("the SDK's %s %s was answered %d", c.method, c.url, c.status)
		}
	}
}
