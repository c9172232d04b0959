package testenv

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

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
	t.Skip("no Chromium on the PATH (apt-get install -y chromium, or set SWITCHYARD_TEST_CHROMIUM); CI runs this test")
	return ""
}

// Browser starts headless Chromium (exe) for one test and returns a tab's
// context, cancelled after timeout or when the test ends.
func Browser(t testing.TB, exe string, timeout time.Duration) context.Context {
	t.Helper()
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
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
	)
	ctx, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithLogf(t.Logf))
	ctx, cancel := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancel()
		cancelTab()
		cancelAlloc()
	})
	return ctx
}
