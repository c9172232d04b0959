// Package app assembles the process from its configuration: it opens the
// database and Redis, migrates, bootstraps the demo merchant where asked,
// wires the domain core to the REST and GraphQL surfaces, and serves them
// with health, metrics, logging and graceful shutdown. Each domain service
// is built here once, with all of its dependencies; the package holds no
// business rule of its own.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"entgo.io/ent/dialect"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/redis/go-redis/v9"
	"github.com/rs/cors"

	"switchyard/graph"
	"switchyard/graph/cursors"
	"switchyard/graph/playground"
	"switchyard/internal/auth"
	"switchyard/internal/config"
	"switchyard/internal/filestore"
	"switchyard/internal/idempotency"
	"switchyard/internal/mailer"
	"switchyard/internal/redisconn"
	"switchyard/internal/redisstore"
	"switchyard/internal/secrets"
	"switchyard/internal/store"
	"switchyard/payments"
	"switchyard/payments/acquirers"
	"switchyard/payments/analytics"
	"switchyard/payments/authentication"
	"switchyard/payments/blocklist"
	"switchyard/payments/cardissuers"
	"switchyard/payments/connector"
	"switchyard/payments/customer"
	"switchyard/payments/events"
	"switchyard/payments/files"
	"switchyard/payments/gsm"
	"switchyard/payments/inbound"
	"switchyard/payments/merchant"
	"switchyard/payments/payouts"
	"switchyard/payments/relay"
	"switchyard/payments/routing"
	"switchyard/payments/subscriptions"
	"switchyard/payments/threedsdecision"
	"switchyard/payments/txn"
	"switchyard/payments/users"
	"switchyard/rest"
	"switchyard/web"
	"switchyard/webhooks"
)

// App is a running Switchyard: its stores, domain core and HTTP handler.
type App struct {
	Config *config.Config
	Store  *store.Store
	Redis  *redisconn.Conn
	// Box seals and hashes with subkeys of the master key.
	Box  *secrets.Box
	Auth *auth.Authenticator
	// The domain services, each with its dependencies given once.
	Payments *payments.Service
	Payouts  *payouts.Service
	// Files are uploaded files (dispute evidence).
	Files *files.Service
	// Subscriptions is billing: subscriptions, invoices, renewals.
	Subscriptions *subscriptions.Service
	Merchants     *merchant.Service
	Connectors    *connector.Service
	Customers     *customer.Service
	Routing       *routing.Service
	Analytics     *analytics.Service
	GSM           *gsm.Service
	Blocklist     *blocklist.Service
	// CardIssuers, Acquirers and ThreeDSDecision serve /card_issuers,
	// /profile_acquirers and /three_ds_decision/execute.
	CardIssuers     *cardissuers.Service
	Acquirers       *acquirers.Service
	ThreeDSDecision *threedsdecision.Service
	Events          *events.Service
	Users           *users.Service
	Log             *slog.Logger

	// Authentications is external 3-D Secure as a service (/authentication).
	Authentications *authentication.Service
	// Inbound receives connectors' webhooks (/webhooks/…).
	Inbound *inbound.Service
	// Relay sends refunds for payments made outside Switchyard (/relay).
	Relay *relay.Service
	// simWebhooks is the sandbox connector's outbox of webhooks, which
	// sendSandboxWebhooks delivers.
	simWebhooks *redisstore.SimulatorWebhooks

	// Demo is set when the demo merchant was bootstrapped on start.
	Demo *DemoKeys
	// Webhooks delivers outgoing events (Serve runs it).
	Webhooks *webhooks.Worker
	// Live carries payment changes between processes to GraphQL
	// subscriptions (Redis pub/sub).
	Live *redisstore.PaymentFeed

	handler http.Handler
	metrics *metrics
	// closeLive ends the GraphQL websockets, which Shutdown leaves open.
	closeLive func()
}

// Options change how Open starts the app.
type Options struct {
	// Bootstrap creates (or reuses) the demo merchant. The embedded default
	// always does.
	Bootstrap bool
	// Registry receives the metrics; nil means a fresh registry.
	Registry *prometheus.Registry
	// WrapDriver, when set, wraps the database driver of the ent client.
	// Production leaves it nil; tests count SQL statements through it.
	WrapDriver func(dialect.Driver) dialect.Driver
	// ExportBatch is how many payments an export reads at a time (0: the
	// default); tests make it small to walk many batches.
	ExportBatch int
	// Now is the clock of the domain and of the embedded Redis's TTLs; nil
	// is the wall clock. Tests move it forward past an expiry instead of
	// sleeping.
	Now func() time.Time
}

// Open starts everything but the listener. Every failure is one clear error.
func Open(ctx context.Context, cfg *config.Config, log *slog.Logger, opts Options) (_ *App, err error) {
	a := &App{Config: cfg, Log: log}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if a.Store, err = store.OpenWith(ctx, cfg.Database, opts.WrapDriver); err != nil {
		return nil, err
	}
	if cfg.AutoMigrate || cfg.Database.Driver == config.DriverSQLite {
		applied, err := a.Store.Migrate(ctx)
		if err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
		if len(applied) > 0 {
			log.Info("applied migrations", "versions", applied)
		}
	}
	if a.Redis, err = redisconn.Open(ctx, cfg.RedisURL, redisconn.Embedded{
		SnapshotPath: filepath.Join(cfg.DataDir, "redis.snapshot"),
		Transient:    redisstore.IsVaultKey,
		Now:          opts.Now,
	}); err != nil {
		return nil, err
	}
	a.Live = redisstore.NewPaymentFeed(a.Redis.Client, log)
	a.Box, err = secrets.NewBox(cfg.MasterKeyBytes)
	if err != nil {
		return nil, fmt.Errorf("SWITCHYARD_MASTER_KEY: %w", err)
	}
	a.wireDomain(a.Box, opts)
	a.Auth = auth.New(a.Merchants, cfg.AdminAPIKey).WithEphemeralKeys(a.Customers)
	schedule, err := webhooks.ParseSchedule(cfg.WebhookRetrySchedule)
	if err != nil {
		return nil, fmt.Errorf("SWITCHYARD_WEBHOOK_RETRY_SCHEDULE: %w", err)
	}
	a.Webhooks = webhooks.NewWorker(a.Store.Client, webhooks.Options{
		Schedule:     schedule,
		Timeout:      cfg.WebhookTimeout,
		AllowPrivate: cfg.WebhookAllowPrivate,
		RowLocks:     a.Store.Dialect == dialect.MySQL,
		PollInterval: cfg.WebhookPollInterval,
		Version:      Version,
		HashKey:      a.Merchants.ProfileHashKey,
		Now:          opts.Now,
		Log:          log,
	})
	if opts.Bootstrap || cfg.Database.Embedded {
		if a.Demo, err = a.Bootstrap(ctx); err != nil {
			return nil, fmt.Errorf("bootstrap: %w", err)
		}
	}
	reg := opts.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	a.handler = a.routes(reg)
	return a, nil
}

// wireDomain builds the domain services over the store and Redis, each
// constructor given all of its dependencies once: the shared kernel first,
// then the contexts, then the payment that calls them.
func (a *App) wireDomain(box *secrets.Box, opts Options) {
	db := txn.New(a.Store.Client, a.Store.Dialect)
	if opts.Now != nil {
		db.Now = func() time.Time { return opts.Now().UTC() }
	}
	db.UseConfigVersions(redisstore.NewConfigVersions(a.Redis.Client))
	// a.Webhooks is set after this, before any request is served.
	a.Events = events.New(events.Deps{DB: db, DeliveriesQueued: func() { a.Webhooks.Wake() }, PaymentChanged: a.Live.Changed})
	a.Merchants = merchant.New(merchant.Deps{DB: db, Box: box, KeyCache: redisstore.NewKeyCache(a.Redis.Client)})
	// The simulator keeps what it decided in Redis, as a real connector
	// keeps its transactions: a crash here does not make it forget.
	a.simWebhooks = redisstore.NewSimulatorWebhooks(a.Redis.Client, a.Config.Database.Identity(), opts.Now)
	sandbox := &connector.Simulator{Ledger: redisstore.NewSimulatorLedger(a.Redis.Client), Now: opts.Now,
		Webhooks: a.simWebhooks}
	a.Connectors = connector.New(connector.Deps{DB: db, Box: box, Registry: connector.NewRegistry(sandbox)})
	render := rest.Renderer{}
	a.Customers = customer.New(customer.Deps{DB: db, Box: box, Vault: redisstore.NewVault(a.Redis.Client),
		Events: a.Events, Render: render, EphemeralKeys: redisstore.NewEphemeralKeys(a.Redis.Client)})
	a.GSM = gsm.New(db, connector.Known)
	a.Blocklist = blocklist.New(db)
	a.CardIssuers, a.Acquirers, a.ThreeDSDecision = cardissuers.New(db), acquirers.New(db), threedsdecision.New(db)
	a.Routing = routing.New(db).WithOutcomes(redisstore.NewRoutingOutcomes(a.Redis.Client))
	a.Analytics = analytics.New(db)
	a.Files = files.New(files.Deps{DB: db, Store: a.fileStore()})
	a.Payments = payments.New(payments.Deps{Files: a.Files, DB: db, Box: box, Connectors: a.Connectors, Customers: a.Customers,
		Routing: a.Routing, GSM: a.GSM, Blocklist: a.Blocklist, Events: a.Events, PublicURL: strings.TrimRight(a.Config.PublicURL, "/"), Render: render,
		RecoveryAfter: a.Config.RecoveryAfter, ResponseHashKey: a.Merchants.ProfileHashKey, ExportBatch: opts.ExportBatch})
	a.Payouts = payouts.New(payouts.Deps{DB: db, Box: box, Vault: redisstore.NewVault(a.Redis.Client), Customers: a.Customers,
		Connectors: a.Connectors, Routing: a.Routing, GSM: a.GSM, Events: a.Events, Render: render, RecoveryAfter: a.Config.RecoveryAfter})
	a.Subscriptions = subscriptions.New(subscriptions.Deps{DB: db, Payments: a.Payments, Customers: a.Customers,
		Events: a.Events, Render: render, Dunning: a.Config.DunningSchedule, ClaimFor: a.Config.RecoveryAfter})
	a.Inbound = inbound.New(inbound.Deps{DB: db, Connectors: a.Connectors, Payments: a.Payments, Payouts: a.Payouts})
	a.Relay = relay.New(relay.Deps{DB: db, Connectors: a.Connectors, RecoveryAfter: a.Config.RecoveryAfter})
	a.Authentications = authentication.New(authentication.Deps{DB: db, Box: box, Customers: a.Customers,
		PublicURL: strings.TrimRight(a.Config.PublicURL, "/")})
	a.Users = users.New(users.Deps{DB: db, Box: box, Sessions: redisstore.NewSessions(a.Redis.Client),
		Failures: redisstore.NewSignInFailures(a.Redis.Client), Provisioner: a, Policy: a.userPolicy(),
		InviteURL: strings.TrimRight(a.Config.PublicURL, "/") + web.Path + "/invite#", Mailer: a.invitationMailer()})
}

// fileStore is where uploaded files' bytes go (SWITCHYARD_FILE_STORE,
// checked by the configuration).
func (a *App) fileStore() files.Store {
	c := a.Config
	if c.FileStore == "s3" {
		return &filestore.S3Store{Endpoint: c.S3Endpoint, Bucket: c.S3Bucket, Region: c.S3Region,
			AccessKeyID: c.S3AccessKeyID, SecretAccessKey: c.S3SecretAccessKey}
	}
	return filestore.DirStore{Dir: c.FileStoreDir}
}

// invitationMailer sends invitations' links when SWITCHYARD_SMTP_URL is
// set (the configuration checked it); nil sends none.
func (a *App) invitationMailer() users.Mailer {
	if a.Config.SMTPURL == "" {
		return nil
	}
	m, err := mailer.New(a.Config.SMTPURL, a.Config.SMTPFrom)
	if err != nil {
		a.Log.Warn("invitations are not e-mailed", "err", err)
		return nil
	}
	return m
}

// userPolicy is users.DefaultPolicy with the configured session and
// invitation lifetimes and password hashing slots.
func (a *App) userPolicy() users.Policy {
	p := users.DefaultPolicy
	p.SessionIdle, p.SessionMax, p.InvitationFor = a.Config.SessionIdleTimeout, a.Config.SessionMaxAge, a.Config.InvitationExpiry
	p.HashSlots = a.Config.PasswordHashesAtOnce
	return p
}

func (a *App) routes(reg *prometheus.Registry) http.Handler {
	mux := http.NewServeMux()
	gqlOpts := graph.DefaultOptions()
	gqlOpts.Introspection = a.Config.GraphQLIntrospection
	if a.Demo != nil && a.Config.Database.Embedded {
		gqlOpts.PlaygroundHeaders = map[string]string{auth.HeaderAPIKey: a.Demo.SecretKey}
	}
	gqlOpts.LiveOrigins = liveOrigins(a.Config)
	// A payment's lease also reads its merchant's configuration version: one
	// round trip to Redis for both.
	versions := redisstore.NewConfigVersions(a.Redis.Client)
	idem := idempotency.New(a.Redis.Client, a.Box).WithTTLs(a.Config.IdempotencyLease, idempotency.DefaultKeepFor).
		WithPrefetch(func(ctx context.Context, p redis.Pipeliner, merchantID string) func(context.Context) context.Context {
			version := versions.Queue(ctx, p, merchantID)
			return func(ctx context.Context) context.Context {
				if v, ok := version(); ok {
					return txn.WithConfigVersion(ctx, merchantID, v)
				}
				return ctx
			}
		})
	exportGrants := redisstore.NewExportGrants(a.Redis.Client)
	gql := graph.NewHandler(graph.Deps{
		Client: a.Store.Client, Cursors: cursors.New(a.Redis.Client), Auth: a.Auth,
		Payments: a.Payments, Payouts: a.Payouts, Subscriptions: a.Subscriptions, Merchants: a.Merchants, Connectors: a.Connectors, Customers: a.Customers, Events: a.Events, Routing: a.Routing, GSM: a.GSM, Blocklist: a.Blocklist,
		Users: a.Users, Analytics: a.Analytics, Idempotency: idem, Webhooks: a.Webhooks, Live: a.Live,
		PublicURL: strings.TrimRight(a.Config.PublicURL, "/"), Exports: exportGrants,
	}, gqlOpts)
	a.closeLive = gql.Close
	mux.Handle(graph.Endpoint, gql)
	mux.Handle(playground.AssetsPath(graph.Endpoint), gql)
	mux.Handle("GET "+graph.ExportPath, graph.ExportHandler(a.Payments, exportGrants, a.Log))
	dashboard := web.Handler()
	mux.Handle(web.Path, dashboard)
	mux.Handle(web.Path+"/", dashboard)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	rest.Register(mux, rest.Deps{
		Payments:        a.Payments,
		Payouts:         a.Payouts,
		Billing:         a.Subscriptions,
		Merchants:       a.Merchants,
		Connectors:      a.Connectors,
		Customers:       a.Customers,
		Routing:         a.Routing,
		GSM:             a.GSM,
		Blocklist:       a.Blocklist,
		CardIssuers:     a.CardIssuers,
		Acquirers:       a.Acquirers,
		ThreeDSDecision: a.ThreeDSDecision,
		Events:          a.Events,
		Auth:            a.Auth,
		Idempotency:     idem,
		Files:           a.Files,
		Webhooks:        a.Webhooks,
		SDKURL:          a.Config.SDKURL,
		Ready: map[string]rest.Checker{
			"database": a.Store,
			"redis":    a.Redis,
		},

		Authentications: a.Authentications,
		Inbound:         a.Inbound,
		Relay:           a.Relay,
	})
	a.metrics = newMetrics(reg)
	held := newAdmission(a.Config.MaxActiveRequests, a.Config.RequestQueueTimeout, reg).wrap(browserAccess(a.Config.CORSOrigins, mux))
	return instrument(held, a.Log, a.metrics)
}

// browserAccess is the CORS policy of the API: pages on the configured
// origins may call every API route from a browser (Hyperswitch's checkout
// SDK does, with the publishable key and custom headers, so the browser
// asks first with a preflight). No cookies or credentials are involved:
// every route authenticates by header, so any header may be sent. The
// GraphQL playground's page and files are not the API: they get no CORS
// headers, so another origin's script cannot read them (the page may hold
// the demo key). Nor do the dashboard's: it calls the API from this origin.
func browserAccess(origins []string, next http.Handler) http.Handler {
	api := cors.New(cors.Options{
		AllowedOrigins: origins,
		AllowedMethods: []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete},
		AllowedHeaders: []string{"*"},
		ExposedHeaders: []string{rest.HeaderIdempotentReplayed, "X-Request-Id"},
		MaxAge:         600,
	}).Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if graph.IsPlaygroundRequest(r) || r.URL.Path == web.Path || strings.HasPrefix(r.URL.Path, web.Path+"/") {
			next.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// liveOrigins are the pages, besides the server's own origin, that may
// open the live updates' websocket: the public URL's (behind a proxy the
// Host may differ) and the CORS origins named one by one ("*" lets any
// page call the API with a key it holds, not hold a socket open).
func liveOrigins(cfg *config.Config) []string {
	var out []string
	if cfg.PublicURL != "" {
		out = append(out, cfg.PublicURL)
	}
	for _, o := range cfg.CORSOrigins {
		if !strings.Contains(o, "*") {
			out = append(out, o)
		}
	}
	return out
}

// Handler is the whole HTTP surface.
func (a *App) Handler() http.Handler { return a.handler }

// Serve listens on ln until ctx is done, then shuts down gracefully: it
// stops accepting, lets in-flight requests finish within the shutdown
// timeout, and returns.
func (a *App) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{
		Handler:           a.handler,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ErrorLog:          slog.NewLogLogger(a.Log.Handler(), slog.LevelWarn),
		ConnState:         a.metrics.connState,
	}
	srv.RegisterOnShutdown(a.closeLive)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(envelopeListener{ln}) }()
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	for i := 0; i < a.Config.WebhookWorkers; i++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			a.Webhooks.Run(workCtx)
		}()
	}
	workers.Go(func() { a.recoverStranded(workCtx) })
	workers.Go(func() { a.sendSandboxWebhooks(workCtx) })
	workers.Go(func() { a.renewSubscriptions(workCtx) })
	defer func() {
		stopWork() // a delivery cut short stays leased and is retried later
		workers.Wait()
	}()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.Log.Info("shutting down", "timeout", a.Config.ShutdownTimeout.String())
	sctx, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// recoverStranded settles, until ctx ends, the payment attempts a crash
// left pending (payments.RecoverStranded), the payout attempts and relays
// left the same way, and expires the payouts whose session passed while
// they waited (payouts.ExpireDue), looking a few times per recovery window.
func (a *App) recoverStranded(ctx context.Context) {
	every := min(max(a.Config.RecoveryAfter/4, 250*time.Millisecond), 30*time.Second)
	runEvery(ctx, every, func(ctx context.Context) {
		n, err := a.Payments.RecoverStranded(ctx, a.Config.RecoveryAfter, 100)
		m, perr := a.Payouts.RecoverStranded(ctx, a.Config.RecoveryAfter, 100)
		r, rerr := a.Relay.RecoverStranded(ctx, a.Config.RecoveryAfter, 100)
		n, err = n+m+r, errors.Join(err, perr, rerr)
		if n > 0 {
			a.Log.InfoContext(ctx, "recovered stranded payment attempts", "settled", n)
		}
		expired, eerr := a.Payouts.ExpireDue(ctx, 100)
		err = errors.Join(err, eerr)
		if expired > 0 {
			a.Log.InfoContext(ctx, "expired payouts past their session", "expired", expired)
		}
		// The dispute worker: pending evidence submissions, then decisions.
		disputes, derr := a.Payments.DecideDisputes(ctx, a.Config.RecoveryAfter, 100)
		err = errors.Join(err, derr)
		if disputes > 0 {
			a.Log.InfoContext(ctx, "settled or decided disputes", "disputes", disputes)
		}
		a.warnPass(ctx, "recovery of stranded payment attempts", err)
	})
}

// renewSubscriptions runs the renewal worker until ctx ends: every
// SWITCHYARD_RENEWAL_INTERVAL passes charge the subscription invoices
// that fell due and applies the scheduled changes (subscriptions.RenewDue);
// several processes share the work through the invoices' claims.
func (a *App) renewSubscriptions(ctx context.Context) {
	runEvery(ctx, a.Config.RenewalInterval, func(ctx context.Context) {
		// A tick drains the backlog: passes follow each other while they
		// settle something, so a process charges far more than one pass a
		// tick when many invoices fall due at once.
		for ctx.Err() == nil {
			n, err := a.Subscriptions.RenewDue(ctx, renewalPass)
			if n > 0 {
				a.Log.InfoContext(ctx, "renewed subscription invoices", "settled", n)
			}
			a.warnPass(ctx, "subscription renewals", err)
			if n == 0 || err != nil {
				break
			}
		}
	})
}

// runEvery is a background worker's loop: it runs pass once every
// interval until ctx ends (the first one interval after the start). A pass
// that takes longer than the interval delays the next; ticks missed
// meanwhile are dropped, not queued.
func runEvery(ctx context.Context, every time.Duration, pass func(context.Context)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		pass(ctx)
	}
}

// warnPass logs a worker pass's error, unless the pass failed only
// because the process is stopping.
func (a *App) warnPass(ctx context.Context, what string, err error) {
	if err != nil && ctx.Err() == nil {
		a.Log.WarnContext(ctx, what, "err", err)
	}
}

// renewalPass is how many due invoices one renewal pass claims.
const renewalPass = 100

// Version is the build's version, sent in the webhook User-Agent.
var Version = "0.1.0"

// Close releases the stores.
func (a *App) Close() {
	if a.closeLive != nil {
		a.closeLive()
	}
	if a.Live != nil {
		a.Live.Close()
	}
	if a.Redis != nil {
		_ = a.Redis.Close()
	}
	if a.Store != nil {
		_ = a.Store.Close()
	}
}
