package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// TestBadConfigFailsWithOneClearLine: every wrong setting stops the binary
// with one line that names the variable, before it serves anything.
func TestBadConfigFailsWithOneClearLine(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unsupported database scheme", map[string]string{"SWITCHYARD_DATABASE_URL": "postgres://u@h/db"}, "SWITCHYARD_DATABASE_URL"},
		{"malformed database url", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://%zz"}, "SWITCHYARD_DATABASE_URL"},
		{"unreachable database", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://root@127.0.0.1:1/switchyard"}, "database unreachable"},
		{"malformed master key", map[string]string{"SWITCHYARD_MASTER_KEY": "not-a-key"}, "SWITCHYARD_MASTER_KEY"},
		{"short admin key", map[string]string{"SWITCHYARD_ADMIN_API_KEY": "short"}, "SWITCHYARD_ADMIN_API_KEY"},
		{"bad redis url", map[string]string{"SWITCHYARD_REDIS_URL": "http://localhost:6379"}, "SWITCHYARD_REDIS_URL"},
		{"unreachable redis", map[string]string{"SWITCHYARD_REDIS_URL": "redis://127.0.0.1:1/0"}, "redis"},
		{"bad listen address", map[string]string{"SWITCHYARD_ADDR": "127.0.0.1:99999"}, "SWITCHYARD_ADDR"},
		{"production without live connectors", map[string]string{"SWITCHYARD_ENV": "production"}, "SWITCHYARD_ENV"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("SWITCHYARD_DATA_DIR", t.TempDir())
			t.Setenv("SWITCHYARD_ADDR", "127.0.0.1:0")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			var out bytes.Buffer
			err := run(context.Background(), nil, &out, io.Discard)
			if err == nil {
				t.Fatal("want an error")
			}
			line := oneLine(err)
			if strings.Contains(line, "\n") || !strings.Contains(line, tc.want) {
				t.Fatalf("error %q should be one line naming %q", line, tc.want)
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	err := run(context.Background(), []string{"frobnicate"}, &bytes.Buffer{}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Fatalf("got %v", err)
	}
}

// TestMigrateCommandTwice runs `switchyard migrate` against an empty
// MariaDB database twice: it applies the files, then has nothing to do.
func TestMigrateCommandTwice(t *testing.T) {
	t.Setenv("SWITCHYARD_DATABASE_URL", testenv.MySQLURL(t))
	t.Setenv("SWITCHYARD_DATA_DIR", t.TempDir())
	var out bytes.Buffer
	if err := run(context.Background(), []string{"migrate"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "migrate: applied") {
		t.Fatalf("first run: %q", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"migrate"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "already up to date") {
		t.Fatalf("second run: %q", out.String())
	}
}

// TestBootstrapCommandPrintsKeys creates the demo merchant on MariaDB and
// prints the keys a newcomer needs; a second run reuses them.
func TestBootstrapCommandPrintsKeys(t *testing.T) {
	t.Setenv("SWITCHYARD_DATABASE_URL", testenv.MySQLURL(t))
	t.Setenv("SWITCHYARD_DATA_DIR", t.TempDir())
	if u := testenv.RedisURL(t); u != "" {
		t.Setenv("SWITCHYARD_REDIS_URL", u)
	}
	var first, second bytes.Buffer
	if err := run(context.Background(), []string{"bootstrap"}, &first, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Admin key", "adm_", "Secret key", "snd_", "pk_snd_", "merchant_demo", "mca_"} {
		if !strings.Contains(first.String(), want) {
			t.Fatalf("bootstrap output lacks %q:\n%s", want, first.String())
		}
	}
	if err := run(context.Background(), []string{"bootstrap"}, &second, io.Discard); err != nil {
		t.Fatal(err)
	}
	for _, label := range []string{"Demo merchant", "Secret key", "Publishable", "Connector"} {
		if a, b := lineWith(first.String(), label), lineWith(second.String(), label); a == "" || a != b {
			t.Fatalf("second bootstrap changed %q: %q != %q", label, a, b)
		}
	}
}

func lineWith(s, label string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, label) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// TestBannerNamesTheListenAddress: with SWITCHYARD_ADDR on 127.0.0.1, the
// banner's URLs and the 3-D Secure page a payment sends the customer to
// name the address the server listens on, not localhost.
func TestBannerNamesTheListenAddress(t *testing.T) {
	c := testenv.NewCluster(t, nil)
	p := c.Serve() // on 127.0.0.1:<free port>
	banner := p.Stderr()
	if !strings.Contains(banner, "REST API       "+p.URL+"\n") || strings.Contains(banner, "localhost") {
		t.Fatalf("the banner does not name %s:\n%s", p.URL, banner)
	}
	status, body, err := testenv.Call(p.URL, "POST", "/payments", c.Keys.SecretKey, map[string]any{
		"amount": 100, "currency": "USD", "confirm": true, "payment_method": "card", "return_url": "https://shop.example/done",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": "4000000000003220", "card_exp_month": "12",
			"card_exp_year": "2035", "card_cvc": "123"}}})
	if err != nil || status != 200 || !strings.Contains(string(body), `"redirect_to_url":"`+p.URL+`/sandbox/authenticate/`) {
		t.Fatalf("the 3-D Secure page is not on %s: %d %s %v", p.URL, status, body, err)
	}
}
