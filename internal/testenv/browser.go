package testenv

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// Chromium finds the browser: $SWITCHYARD_TEST_CHROMIUM, else Debian's
// chromium on the PATH. Outside CI a machine without one skips the browser
// tests; in CI (where .ci/run installs it) a missing browser is a failure.
func Chromium(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("SWITCHYARD_TEST_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if InCI() {
		t.Fatal("no Chromium on the PATH: .ci/run installs Debian's chromium (apt-get install -y chromium)")
	}
	Skip(t, "no Chromium", "none on the PATH (apt-get install -y chromium, or set SWITCHYARD_TEST_CHROMIUM); CI runs this test")
	return ""
}

// Browser starts headless Chromium (exe) for one test and returns a tab's
// context, cancelled after timeout or when the test ends; extra adds to its
// flags.
func Browser(t testing.TB, exe string, timeout time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	opts := append([]chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // CI runs as root
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1400, 1000),
	}, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancel()
		cancelTab()
		cancelAlloc()
	})
	return ctx
}

// PageWatch records what a browser tab reports as an error (an uncaught
// exception, console.error, a log entry at error level: Content-Security-
// Policy violations and failed loads land there) and every URL it requests.
type PageWatch struct {
	mu       sync.Mutex
	problems []string
	requests []string
}

// WatchPage starts recording for the tab of ctx (from Browser).
func WatchPage(ctx context.Context) (*PageWatch, error) {
	w := &PageWatch{}
	err := chromedp.Listen(ctx, func(ev any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			d := ev.ExceptionDetails
			text := d.Text
			if d.Exception != nil {
				text += " " + d.Exception.Description
			}
			w.problems = append(w.problems, "exception: "+text)
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				var parts []string
				for _, a := range ev.Args {
					parts = append(parts, string(a.Value)+a.Description)
				}
				w.problems = append(w.problems, "console.error: "+strings.Join(parts, " "))
			}
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError {
				w.problems = append(w.problems, fmt.Sprintf("log (%s): %s %s", ev.Entry.Source, ev.Entry.Text, ev.Entry.URL))
			}
		case *network.EventRequestWillBeSent:
			w.requests = append(w.requests, ev.Request.URL)
		}
	})
	return w, err
}

// Problems is what the page has reported as an error so far.
func (w *PageWatch) Problems() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.problems)
}

// Requests is every URL the page has requested so far.
func (w *PageWatch) Requests() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

// String is both, for a failing test's message.
func (w *PageWatch) String() string {
	return fmt.Sprintf("problems: %q\nrequests: %q", w.Problems(), w.Requests())
}
