// Command switchyard is the one binary: `serve` (the default) runs the REST
// and GraphQL API, `migrate` applies the database migrations, and
// `bootstrap` creates the demo merchant. Configuration comes from the
// environment (see internal/config and docs/configuration.md).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"switchyard/internal/app"
	"switchyard/internal/config"
	"switchyard/internal/redisconn"
	"switchyard/internal/store"
	"switchyard/web"
)

const usage = `usage: switchyard [serve|migrate|bootstrap|help]

  serve      run the API (default)
  migrate    apply the database migrations and exit
  bootstrap  create (or reuse) the demo merchant, print its keys and exit

Configuration is read from SWITCHYARD_* environment variables; see docs/configuration.md.`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "switchyard: "+oneLine(err))
		os.Exit(1)
	}
}

// run runs one command. serve writes only JSON log lines to out, and its
// banner (keys and URLs, for a person) to banner; migrate and bootstrap
// write what they did to out.
func run(ctx context.Context, args []string, out, banner io.Writer) error {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "help", "-h", "--help":
		fmt.Fprintln(out, usage)
		return nil
	case "serve", "migrate", "bootstrap":
	default:
		return fmt.Errorf("unknown command %q (want serve, migrate or bootstrap)", cmd)
	}

	cfg, err := config.Load()
	if err != nil {
		return err
	}
	log := app.NewLogger(out, cfg.LogLevel)
	// Every line the process writes is JSON: records made through the
	// default logger, and the standard library's log package, go through
	// the same handler (with the request id when a request's context
	// carries one).
	slog.SetDefault(log)
	redisconn.UseLogger(log)

	switch cmd {
	case "migrate":
		return migrate(ctx, cfg, out)
	case "bootstrap":
		a, err := app.Open(ctx, cfg, log, app.Options{Bootstrap: true})
		if err != nil {
			return err
		}
		defer a.Close()
		printBanner(out, cfg, a.Demo, "")
		return nil
	}

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("SWITCHYARD_ADDR: cannot listen on %s: %w", cfg.Addr, err)
	}
	cfg.PublicURL = baseURL(cfg, ln)
	a, err := app.Open(ctx, cfg, log, app.Options{})
	if err != nil {
		_ = ln.Close()
		return err
	}
	defer a.Close()
	printBanner(banner, cfg, a.Demo, cfg.PublicURL)
	log.Info("serving", "addr", ln.Addr().String(), "database", cfg.Database.Driver,
		"embedded_redis", cfg.RedisEmbedded, "environment", cfg.Environment)
	return a.Serve(ctx, ln)
}

func migrate(ctx context.Context, cfg *config.Config, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	st, err := store.Open(ctx, cfg.Database)
	if err != nil {
		return err
	}
	defer st.Close()
	applied, err := st.Migrate(ctx)
	if err != nil {
		return err
	}
	switch {
	case cfg.Database.Driver == config.DriverSQLite:
		fmt.Fprintln(out, "migrate: SQLite schema is up to date")
	case len(applied) == 0:
		fmt.Fprintln(out, "migrate: already up to date")
	default:
		fmt.Fprintf(out, "migrate: applied %s\n", strings.Join(applied, ", "))
	}
	return nil
}

// baseURL is where a newcomer reaches the server: SWITCHYARD_PUBLIC_URL,
// or the host SWITCHYARD_ADDR names (localhost for every interface) with
// the port it listens on, which :0 picks only now.
func baseURL(cfg *config.Config, ln net.Listener) string {
	if cfg.PublicURL != "" && !cfg.PublicURLDerived {
		return strings.TrimRight(cfg.PublicURL, "/")
	}
	host := "localhost"
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	port := "8080"
	if addr, ok := ln.Addr().(*net.TCPAddr); ok {
		port = fmt.Sprint(addr.Port)
	}
	return "http://" + net.JoinHostPort(host, port)
}

func printBanner(out io.Writer, cfg *config.Config, demo *app.DemoKeys, base string) {
	var b strings.Builder
	b.WriteString("\nSwitchyard (" + cfg.Environment + ")")
	if cfg.Database.Embedded {
		b.WriteString(" on embedded SQLite")
	} else {
		b.WriteString(" on " + cfg.Database.Driver)
	}
	if cfg.RedisEmbedded {
		b.WriteString(" + in-process Redis")
	}
	b.WriteString("\n")
	if base != "" {
		fmt.Fprintf(&b, "  REST API       %s\n", base)
		fmt.Fprintf(&b, "  Dashboard      %s%s   (sign up, or sign in)\n", base, web.Path)
		fmt.Fprintf(&b, "  GraphQL        %s/graphql   (open it in a browser for GraphiQL)\n", base)
		fmt.Fprintf(&b, "  Health         %s/health/ready   Metrics %s/metrics\n", base, base)
	}
	fmt.Fprintf(&b, "  Admin key      %s   (%s)\n", cfg.AdminAPIKey, describe(cfg.AdminAPIKeySource))
	if demo != nil {
		fmt.Fprintf(&b, "  Demo merchant  %s   profile %s\n", demo.MerchantID, demo.ProfileID)
		fmt.Fprintf(&b, "  Secret key     %s   (header api-key)\n", demo.SecretKey)
		fmt.Fprintf(&b, "  Publishable    %s\n", demo.PublishableKey)
		fmt.Fprintf(&b, "  Connector      %s (sandbox simulator)\n", demo.ConnectorAccount)
		if base != "" {
			fmt.Fprintf(&b, "\n  curl -s %s/graphql -H 'api-key: %s' -H 'content-type: application/json' \\\n", base, demo.SecretKey)
			b.WriteString(`    -d '{"query":"{ paymentIntents(first: 5) { totalCount edges { node { id status amount currency } } } }"}'` + "\n")
		}
	}
	fmt.Fprintln(out, b.String())
}

func describe(s config.Source) string {
	switch s {
	case config.FromEnv:
		return "from SWITCHYARD_ADMIN_API_KEY"
	case config.Generated:
		return "generated now, kept in " + "the data directory"
	default:
		return "kept in the data directory"
	}
}

// oneLine keeps a startup error to one line, as operators read it.
func oneLine(err error) string {
	for errors.Unwrap(err) != nil && strings.Contains(err.Error(), "\n") {
		err = errors.Unwrap(err)
	}
	return strings.Join(strings.Fields(err.Error()), " ")
}
