package web_test

import (
	"bytes"
	"flag"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

var writeScreenshots = flag.Bool("screenshots", false, "write the dashboard's screenshots into docs/images")

// TestDashboardScreenshots takes the pictures docs/dashboard.md shows, of a
// merchant with payments of each outcome: the home page, the payments list
// and a payment's page, at 1280 px wide. Each must be a whole picture of
// the page drawn (a JPEG 1280 px wide and taller than the window); with
// -screenshots they are written into docs/images:
//
//	go test ./web -run TestDashboardScreenshots -screenshots
func TestDashboardScreenshots(t *testing.T) {
	d := newDashTab(t)
	paid := d.pay("4242424242424242", 12500, "USD", nil)
	d.pay("4000000000000002", 4200, "EUR", nil)
	d.pay("4242424242424242", 990, "KWD", map[string]any{"capture_method": "manual"})
	d.pay("4242424242424242", 120000, "JPY", nil)
	if err := chromedp.Do(d.ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		d.fail("viewport: %v", err)
	}
	for _, shot := range []struct{ name, path, ready string }{
		{"dashboard-home.jpg", "/home", `[data-testid="home-totals"]`},
		{"dashboard-payments.jpg", "/payments", `[data-testid="payments"] tbody tr`},
		{"dashboard-payment.jpg", "/payments/" + paid, `#payment-title`},
	} {
		d.open(shot.path, shot.ready)
		d.poll("the page settled", `!document.querySelector('[aria-busy="true"]')`)
		img, err := chromedp.Run(d.ctx, chromedp.FullScreenshot(80)) // JPEG below 100
		if err != nil {
			d.fail("%s: %v", shot.name, err)
		}
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(img))
		if err != nil || cfg.Width != 1280 || cfg.Height < 400 {
			d.fail("%s: %v, %dx%d", shot.name, err, cfg.Width, cfg.Height)
		}
		if *writeScreenshots {
			if err := os.WriteFile(filepath.Join("..", "docs", "images", shot.name), img, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}
