package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
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

// checkoutRig is what a browser test of Hyperswitch's checkout SDK runs
// on: Switchyard on backendAddr, the SDK's build and the shop's page on
// sdkAddr, and a headless Chromium tab that records every call the SDK
// makes to Switchyard.
type checkoutRig struct {
	srv *testenv.Server
	ctx context.Context

	mu       sync.Mutex
	methods  map[network.RequestID]string
	calls    []sdkCall
	confirms int // POST …/confirm requests the SDK has sent
}

// startCheckout starts the rig for one test, its tab cancelled after
// timeout, Chromium started with flags besides its own. It skips (outside
// CI) without Chromium or the SDK build.
func startCheckout(t *testing.T, timeout time.Duration, flags ...chromedp.ExecAllocatorOption) *checkoutRig {
	t.Helper()
	archive := checkoutSDKArchive(t)
	exe := testenv.Chromium(t)
	files := unpack(t, archive)

	cfg := testenv.Config(t, testenv.Database(t))
	rig := &checkoutRig{srv: testenv.NewServerAt(t, backendAddr, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil))),
		methods: map[network.RequestID]string{}}

	shop := http.NewServeMux()
	shop.HandleFunc("/shop/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.Method == http.MethodPost { // a return the profile sends as a form
			if err := r.ParseForm(); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			posted, _ := json.Marshal(r.PostForm)
			io.WriteString(w, `<!doctype html><pre id="result">posted:`+html.EscapeString(string(posted))+`</pre>`)
			return
		}
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

	rig.ctx = testenv.Browser(t, exe, timeout, flags...)
	err = chromedp.Listen(rig.ctx, func(ev any) {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			rig.methods[ev.RequestID] = ev.Request.Method
			if ev.Request.Method == http.MethodPost && strings.HasSuffix(ev.Request.URL, "/confirm") {
				rig.confirms++
			}
		case *network.EventResponseReceived:
			if strings.HasPrefix(ev.Response.URL, "http://"+backendAddr+"/") && !strings.Contains(ev.Response.URL, "/sandbox/") {
				rig.calls = append(rig.calls, sdkCall{rig.methods[ev.RequestID], ev.Response.URL, ev.Response.Status})
			}
		}
	})
	if err != nil {
		t.Fatalf("start Chromium (%s): %v", exe, err)
	}
	return rig
}

// callLog lists the SDK's calls so far, for a failure's message.
func (r *checkoutRig) callLog() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return formatCalls(r.calls)
}

// mount opens the shop's checkout page for a payment (its client secret)
// and waits for the card form: the answer selects inside the checkout's
// frame.
func (r *checkoutRig) mount(t *testing.T, secret string) chromedp.QueryOption {
	t.Helper()
	return r.mountPage(t, fmt.Sprintf("http://%s/shop/pay?pk=%s&secret=%s", sdkAddr, r.srv.Demo.PublishableKey, secret))
}

// mountPage opens a page that mounts the checkout (the shop's, or a
// payment link) and waits for the card form.
func (r *checkoutRig) mountPage(t *testing.T, page string) chromedp.QueryOption {
	t.Helper()
	frame := chromedp.CSS("#orca-payment-element-iframeRef-unified-checkout")
	err := chromedp.Do(r.ctx, chromedp.Navigate(page), chromedp.WaitVisible(frame))
	var frames []*chromedp.Node
	if err == nil {
		frames, err = chromedp.Run(r.ctx, chromedp.Nodes(frame))
	}
	if err != nil {
		t.Fatalf("the checkout did not mount: %v\ncalls:\n%s", err, r.callLog())
	}
	return chromedp.FromNode(frames[0])
}

// fillCard types a card (its number, an expiry three years ahead and CVC
// 123) into the checkout's form, as a shopper does. The checkout can still
// redraw its form just after it shows (once its calls for the payment
// answer), emptying a field already typed; so the form is read again after
// a moment, and a field that lost its value is typed again.
func (r *checkoutRig) fillCard(t *testing.T, in chromedp.QueryOption, number string) {
	t.Helper()
	year := fmt.Sprint(time.Now().Year() + 3)
	fields := []struct{ testID, keys string }{{"cardNoInput", number}, {"expiryInput", "12" + year[2:]}, {"cvvInput", "123"}}
	err := chromedp.Do(r.ctx, chromedp.WaitVisible(chromedp.CSS(`[data-testid=cardNoInput]`), in))
	for round := 0; err == nil && round < 3; round++ {
		kept := true
		for _, f := range fields {
			field := chromedp.CSS(`[data-testid=` + f.testID + `]`)
			var got string
			if got, err = chromedp.Run(r.ctx, chromedp.Value(field, in)); err != nil {
				break
			}
			if digits(got) != f.keys {
				kept = false
				if err = typeInto(r.ctx, field, f.keys, in); err != nil {
					break
				}
			}
		}
		if err == nil && kept {
			return
		}
		if err == nil {
			err = chromedp.Do(r.ctx, chromedp.Sleep(500*time.Millisecond))
		}
	}
	if err == nil {
		err = fmt.Errorf("the form kept losing what was typed")
	}
	t.Fatalf("filling the card form: %v\ncalls:\n%s", err, r.callLog())
}

// pay clicks the shop's Pay button until the SDK sends its confirm. The
// click is the button's own, not the mouse's at where it was: the
// checkout's frame grows as the shopper fills it in (a nickname field
// after "save card", say), moving the button while a mouse click is aimed.
// A click the SDK drops (now and then on a loaded machine, while its frame
// is still passing the form's state to the page) sends nothing, so a shop
// would see no answer; the shopper clicks again.
func (r *checkoutRig) pay(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	before := r.confirms
	r.mu.Unlock()
	for try := 0; try < 3; try++ {
		if err := chromedp.Do(r.ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("pay").click()`)); err != nil {
			t.Fatalf("clicking Pay: %v\ncalls:\n%s", err, r.callLog())
		}
		for wait := 0; wait < 50; wait++ {
			r.mu.Lock()
			sent := r.confirms > before
			r.mu.Unlock()
			if sent {
				return
			}
			if err := chromedp.Do(r.ctx, chromedp.Sleep(200*time.Millisecond)); err != nil {
				t.Fatal(err)
			}
		}
	}
	page, _ := chromedp.Run(r.ctx, chromedp.Evaluate[string](`document.getElementById("result").textContent + " | " +
		document.getElementById("orca-payment-element-iframeRef-unified-checkout").contentDocument.body.innerText`))
	t.Fatalf("three clicks on Pay sent no confirm; the page shows %q\ncalls:\n%s", page, r.callLog())
}

// result waits for what the SDK answered the shop's page (#result).
// After a challenge the page goes to the sandbox and back to the shop's
// return page (through a page that posts a form, for some shops): a poll
// cut short by a navigation runs again.
func (r *checkoutRig) result(t *testing.T) string {
	t.Helper()
	var (
		result string
		err    error
	)
	for try := 0; try < 5; try++ {
		result, err = chromedp.Run(r.ctx, chromedp.Poll[string](`(() => { const r = document.getElementById("result");
			return r && r.textContent ? r.textContent : false; })()`, chromedp.WithPollingTimeout(45*time.Second)))
		if err == nil || !(strings.Contains(err.Error(), "navigated or closed") || strings.Contains(err.Error(), "Cannot find context")) {
			break
		}
	}
	if err != nil {
		t.Fatalf("the page got no answer from the SDK: %v\ncalls:\n%s", err, r.callLog())
	}
	return result
}

// approveChallenge clicks Approve on the sandbox's challenge page.
func (r *checkoutRig) approveChallenge(t *testing.T) {
	t.Helper()
	approve := `//button[normalize-space()="Approve"]`
	ctx, cancel := context.WithTimeout(r.ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitVisible(approve), chromedp.Click(approve)); err != nil {
		t.Fatalf("the challenge page: %v\ncalls:\n%s", err, r.callLog())
	}
}

// checkCalls fails the test for every SDK call that was not answered with
// a success, and for each of want ("METHOD /path") the SDK never made.
func (r *checkoutRig) checkCalls(t *testing.T, want ...string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	seen := map[string]bool{}
	for _, c := range r.calls {
		if c.status < 200 || c.status > 299 {
			t.Errorf("the SDK's %s %s was answered %d", c.method, c.url, c.status)
		}
		u := c.url[:strings.IndexAny(c.url+"?", "?")]
		seen[c.method+" "+strings.TrimPrefix(u, "http://"+backendAddr)] = true
	}
	for _, w := range want {
		if !seen[w] {
			t.Errorf("the SDK never called %s; it called:\n%s", w, formatCalls(r.calls))
		}
	}
}
