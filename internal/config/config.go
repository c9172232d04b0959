// Package config owns the process configuration: it reads the SWITCHYARD_*
// environment variables, validates them with one clear line per bad variable,
// derives the database and Redis settings, and generates (then persists in the
// data directory) the admin API key and master key when they are not given.
package config

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
	"github.com/go-sql-driver/mysql"

	"switchyard/internal/redisconn"
	"switchyard/internal/secrets"
)

// Environment names accepted in SWITCHYARD_ENV.
const (
	EnvSandbox    = "sandbox"
	EnvProduction = "production"
)

// Driver names used in Database.Driver (the database/sql driver names).
const (
	DriverMySQL  = "mysql"
	DriverSQLite = "sqlite"
)

// Files written to DataDir for generated secrets, and the embedded database.
const (
	AdminAPIKeyFile = "admin_api_key"
	MasterKeyFile   = "master_key"
	SQLiteFile      = "switchyard.db"
)

// Source records where a secret value came from, so the binary can say so.
type Source string

const (
	// FromEnv: the value was given in the environment; nothing was written.
	FromEnv Source = "env"
	// Generated: the value was generated on this start and written to DataDir.
	Generated Source = "generated"
	// FromDataDir: the value was generated on an earlier start and read back.
	FromDataDir Source = "data-dir"
)

// Config is the process configuration. The env-tagged fields are read from
// the environment; the fields after them are derived by Load.
type Config struct {
	Addr                 string        `env:"SWITCHYARD_ADDR" envDefault:"127.0.0.1:8080"`
	DatabaseURL          string        `env:"SWITCHYARD_DATABASE_URL"`
	RedisURL             string        `env:"SWITCHYARD_REDIS_URL"`
	DataDir              string        `env:"SWITCHYARD_DATA_DIR" envDefault:"./.switchyard"`
	AdminAPIKey          string        `env:"SWITCHYARD_ADMIN_API_KEY"`
	MasterKey            string        `env:"SWITCHYARD_MASTER_KEY"`
	AutoMigrate          bool          `env:"SWITCHYARD_AUTO_MIGRATE" envDefault:"true"`
	Environment          string        `env:"SWITCHYARD_ENV" envDefault:"sandbox"`
	LogLevel             slog.Level    `env:"SWITCHYARD_LOG_LEVEL" envDefault:"info"`
	ShutdownTimeout      time.Duration `env:"SWITCHYARD_SHUTDOWN_TIMEOUT" envDefault:"20s"`
	GraphQLIntrospection bool          `env:"SWITCHYARD_GRAPHQL_INTROSPECTION" envDefault:"true"`
	PublicURL            string        `env:"SWITCHYARD_PUBLIC_URL"`
	// MaxActiveRequests bounds the requests worked on at once; the others
	// wait their turn, at most RequestQueueTimeout, holding only their
	// headers, so memory follows the work, not the number of clients.
	MaxActiveRequests   int           `env:"SWITCHYARD_MAX_ACTIVE_REQUESTS" envDefault:"100"`
	RequestQueueTimeout time.Duration `env:"SWITCHYARD_REQUEST_QUEUE_TIMEOUT" envDefault:"30s"`
	// PublicURLDerived is true when PublicURL was not given but made from
	// the listen address.
	PublicURLDerived bool `env:"-"`
	// Webhook delivery: the retry schedule (comma-separated Go durations;
	// empty = Hyperswitch's), the per-delivery timeout, whether private and
	// loopback targets may be reached (sandbox default), and the number of
	// workers in this process (0 turns delivery off here).
	WebhookRetrySchedule string `env:"SWITCHYARD_WEBHOOK_RETRY_SCHEDULE"`
	// RecoveryAfter is how long a payment attempt may stay pending before
	// the recovery pass asks its connector what became of it.
	RecoveryAfter time.Duration `env:"SWITCHYARD_RECOVERY_AFTER" envDefault:"2m"`
	// RenewalInterval is how often the renewal worker looks for due
	// subscription invoices (docs/subscriptions.md).
	RenewalInterval time.Duration `env:"SWITCHYARD_RENEWAL_INTERVAL" envDefault:"1m"`
	// DunningSchedule is how long after each failed renewal try the next
	// is made; after the last the subscription is cancelled.
	DunningSchedule []time.Duration `env:"SWITCHYARD_DUNNING_SCHEDULE" envSeparator:"," envDefault:"24h,72h,120h"`
	// IdempotencyLease is how long a request holds its Idempotency-Key: a
	// retry meanwhile is 409; a process that dies holding one frees it then.
	IdempotencyLease    time.Duration `env:"SWITCHYARD_IDEMPOTENCY_LEASE" envDefault:"60s"`
	WebhookTimeout      time.Duration `env:"SWITCHYARD_WEBHOOK_TIMEOUT" envDefault:"30s"`
	WebhookAllowPrivate bool          `env:"SWITCHYARD_WEBHOOK_ALLOW_PRIVATE" envDefault:"true"`
	WebhookWorkers      int           `env:"SWITCHYARD_WEBHOOK_WORKERS" envDefault:"2"`
	// WebhookPollInterval is how often idle workers look for due retries
	// and for events other processes queued; this process's own events
	// wake them at once.
	WebhookPollInterval time.Duration `env:"SWITCHYARD_WEBHOOK_POLL_INTERVAL" envDefault:"1s"`

	// CORSOrigins are the web origins whose pages may call the API from a
	// browser (Hyperswitch's checkout SDK does, with the publishable key):
	// "*" (the sandbox default, so a local checkout page works at once) or
	// a list of origins such as https://shop.example. A production
	// deployment lists its shops' origins.
	CORSOrigins []string `env:"SWITCHYARD_CORS_ORIGINS" envSeparator:"," envDefault:"*"`
	// SDKURL is where payment link pages load Hyperswitch's checkout SDK
	// (HyperLoader.js) from: the merchant serves their build. The default
	// is where Hyperswitch's own development setup serves it.
	SDKURL string `env:"SWITCHYARD_SDK_URL" envDefault:"http://localhost:9050/HyperLoader.js"`

	// Dashboard users: a session ends SessionIdleTimeout after its last
	// request and SessionMaxAge after sign-in, however used (a compliance
	// regime may ask for less: PCI DSS asks for 15 minutes idle on consoles
	// that reach card data); an invitation's link works for
	// InvitationExpiry.
	SessionIdleTimeout time.Duration `env:"SWITCHYARD_SESSION_IDLE_TIMEOUT" envDefault:"8h"`
	SessionMaxAge      time.Duration `env:"SWITCHYARD_SESSION_MAX_AGE" envDefault:"168h"`
	InvitationExpiry   time.Duration `env:"SWITCHYARD_INVITATION_EXPIRY" envDefault:"168h"`
	// PasswordHashesAtOnce bounds the password hashes (argon2id, 19 MiB
	// each) computed at once; 0 sizes it from the processors, at most
	// three (users.DefaultHashSlots).
	PasswordHashesAtOnce int `env:"SWITCHYARD_PASSWORD_HASHES_AT_ONCE" envDefault:"0"`
	// SMTPURL, when set, sends each invitation's link by e-mail from
	// SMTPFrom: smtp://[user:password@]host[:587] (STARTTLS when the server
	// offers it) or smtps://…[:465] (TLS from the start).
	SMTPURL  string `env:"SWITCHYARD_SMTP_URL"`
	SMTPFrom string `env:"SWITCHYARD_SMTP_FROM" envDefault:"Switchyard <no-reply@localhost>"`

	// FileStore is where uploaded files' bytes live: "dir" (FileStoreDir,
	// by default "files" under the data directory) or "s3", any
	// S3-compatible object store (path-style requests, SigV4).
	FileStore         string `env:"SWITCHYARD_FILE_STORE" envDefault:"dir"`
	FileStoreDir      string `env:"SWITCHYARD_FILE_STORE_DIR"`
	S3Endpoint        string `env:"SWITCHYARD_S3_ENDPOINT"`
	S3Bucket          string `env:"SWITCHYARD_S3_BUCKET"`
	S3Region          string `env:"SWITCHYARD_S3_REGION" envDefault:"us-east-1"`
	S3AccessKeyID     string `env:"SWITCHYARD_S3_ACCESS_KEY_ID"`
	S3SecretAccessKey string `env:"SWITCHYARD_S3_SECRET_ACCESS_KEY"`

	Database          Database `env:"-"`
	MasterKeyBytes    []byte   `env:"-"` // 32 bytes
	RedisEmbedded     bool     `env:"-"` // RedisURL was empty: use in-process Redis
	AdminAPIKeySource Source   `env:"-"`
	MasterKeySource   Source   `env:"-"`
}

// Database is the parsed form of SWITCHYARD_DATABASE_URL.
type Database struct {
	Driver   string // DriverMySQL or DriverSQLite
	DSN      string // data source name for sql.Open(Driver, DSN)
	Embedded bool   // DatabaseURL was empty: SQLite at <DataDir>/switchyard.db
}

// Identity names the database itself, whatever the credentials and
// parameters used to reach it: the MySQL server's address and database
// name, or the SQLite file. Processes that share it are one deployment.
func (d Database) Identity() string {
	if d.Driver == DriverMySQL {
		if c, err := mysql.ParseDSN(d.DSN); err == nil {
			return "mysql://" + c.Addr + "/" + c.DBName
		}
	}
	path, _, _ := strings.Cut(strings.TrimPrefix(d.DSN, "file:"), "?")
	if d.Driver == DriverSQLite {
		return "sqlite:" + path
	}
	return d.Driver + ":" + d.DSN
}

// Load reads the configuration from the process environment.
func Load() (*Config, error) {
	return LoadFrom(envMap(os.Environ()))
}

// LoadFrom reads the configuration from environ instead of the process
// environment. It may create DataDir and write generated secrets into it.
func LoadFrom(environ map[string]string) (*Config, error) {
	if environ == nil {
		environ = map[string]string{} // nil would make env read os.Environ
	}
	var c Config
	if err := env.ParseWithOptions(&c, env.Options{Environment: environ}); err != nil {
		return nil, parseErrors(err, environ)
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	if err := c.fillGenerated(); err != nil {
		return nil, err
	}
	return &c, nil
}

// validate checks the parsed values and fills the derived fields. It touches
// no files. All problems are reported, one line each.
func (c *Config) validate() error {
	var errs []error
	bad := func(key, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", key, fmt.Sprintf(format, args...)))
	}

	port := ""
	if host, p, err := net.SplitHostPort(c.Addr); err != nil {
		bad("SWITCHYARD_ADDR", "want host:port or :port, got %q", c.Addr)
	} else if n, err := strconv.Atoi(p); err != nil || n < 0 || n > 65535 {
		bad("SWITCHYARD_ADDR", "invalid port %q", p)
	} else {
		port = p
		if c.PublicURL == "" {
			c.PublicURL = "http://" + net.JoinHostPort(publicHost(host), port)
			c.PublicURLDerived = true
		}
	}

	if c.WebhookTimeout <= 0 {
		bad("SWITCHYARD_WEBHOOK_TIMEOUT", "must be positive, got %s", c.WebhookTimeout)
	}
	if c.WebhookPollInterval < 10*time.Millisecond || c.WebhookPollInterval > time.Hour {
		bad("SWITCHYARD_WEBHOOK_POLL_INTERVAL", "must be between 10ms and 1h, got %s", c.WebhookPollInterval)
	}
	if c.IdempotencyLease < time.Second || c.IdempotencyLease > time.Hour {
		bad("SWITCHYARD_IDEMPOTENCY_LEASE", "must be between 1s and 1h, got %s", c.IdempotencyLease)
	}
	switch c.FileStore {
	case "dir":
		if c.FileStoreDir == "" {
			c.FileStoreDir = filepath.Join(c.DataDir, "files")
		}
	case "s3":
		for _, v := range [][2]string{{"SWITCHYARD_S3_ENDPOINT", c.S3Endpoint}, {"SWITCHYARD_S3_BUCKET", c.S3Bucket},
			{"SWITCHYARD_S3_ACCESS_KEY_ID", c.S3AccessKeyID}, {"SWITCHYARD_S3_SECRET_ACCESS_KEY", c.S3SecretAccessKey}} {
			if v[1] == "" {
				bad(v[0], "is required with SWITCHYARD_FILE_STORE=s3")
			}
		}
		if u, err := url.Parse(c.S3Endpoint); c.S3Endpoint != "" && (err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "") {
			bad("SWITCHYARD_S3_ENDPOINT", "want an http(s) URL, got %q", c.S3Endpoint)
		}
	default:
		bad("SWITCHYARD_FILE_STORE", "want dir or s3, got %q", c.FileStore)
	}
	if c.RecoveryAfter < 100*time.Millisecond || c.RecoveryAfter > 24*time.Hour {
		bad("SWITCHYARD_RECOVERY_AFTER", "must be between 100ms and 24h, got %s", c.RecoveryAfter)
	}
	if c.RenewalInterval < 100*time.Millisecond || c.RenewalInterval > time.Hour {
		bad("SWITCHYARD_RENEWAL_INTERVAL", "must be between 100ms and 1h, got %s", c.RenewalInterval)
	}
	if len(c.DunningSchedule) > 10 {
		bad("SWITCHYARD_DUNNING_SCHEDULE", "must list at most 10 retries, got %d", len(c.DunningSchedule))
	}
	for _, d := range c.DunningSchedule {
		if d < time.Second || d > 90*24*time.Hour {
			bad("SWITCHYARD_DUNNING_SCHEDULE", "each retry must come between 1s and 90 days after the try before, got %s", d)
		}
	}
	if c.MaxActiveRequests < 1 || c.MaxActiveRequests > 100_000 {
		bad("SWITCHYARD_MAX_ACTIVE_REQUESTS", "must be between 1 and 100000, got %d", c.MaxActiveRequests)
	}
	if c.RequestQueueTimeout < time.Millisecond || c.RequestQueueTimeout > 10*time.Minute {
		bad("SWITCHYARD_REQUEST_QUEUE_TIMEOUT", "must be between 1ms and 10m, got %s", c.RequestQueueTimeout)
	}
	if c.WebhookWorkers < 0 || c.WebhookWorkers > 64 {
		bad("SWITCHYARD_WEBHOOK_WORKERS", "must be between 0 and 64, got %d", c.WebhookWorkers)
	}
	for i, part := range strings.Split(c.WebhookRetrySchedule, ",") {
		part = strings.TrimSpace(part)
		if c.WebhookRetrySchedule == "" {
			break
		}
		if d, err := time.ParseDuration(part); err != nil || d <= 0 {
			bad("SWITCHYARD_WEBHOOK_RETRY_SCHEDULE", "entry %d (%q) is not a positive Go duration such as 1m or 500ms", i+1, part)
			break
		}
	}

	if c.PublicURL != "" {
		u, err := url.Parse(c.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			bad("SWITCHYARD_PUBLIC_URL", "want an absolute http:// or https:// URL, got %q", c.PublicURL)
		} else {
			c.PublicURL = strings.TrimRight(c.PublicURL, "/")
		}
	}

	if u, err := url.Parse(c.SDKURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad("SWITCHYARD_SDK_URL", "want an absolute http:// or https:// URL of HyperLoader.js, got %q", c.SDKURL)
	}

	for i, o := range c.CORSOrigins {
		o = strings.TrimSpace(o)
		c.CORSOrigins[i] = o
		if o == "*" {
			continue
		}
		u, err := url.Parse(o)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") ||
			u.RawQuery != "" || u.User != nil {
			bad("SWITCHYARD_CORS_ORIGINS", "entry %d (%q) is not * or an origin such as https://shop.example", i+1, o)
			continue
		}
		c.CORSOrigins[i] = u.Scheme + "://" + u.Host
	}

	if c.DatabaseURL == "" {
		c.Database = Database{
			Driver:   DriverSQLite,
			DSN:      sqliteDSN(filepath.Join(c.DataDir, SQLiteFile), ""),
			Embedded: true,
		}
	} else if db, err := parseDatabaseURL(c.DatabaseURL); err != nil {
		bad("SWITCHYARD_DATABASE_URL", "%v", err)
	} else {
		c.Database = db
	}

	c.RedisEmbedded = c.RedisURL == ""
	if !c.RedisEmbedded {
		if err := redisconn.CheckURL(c.RedisURL); err != nil {
			bad("SWITCHYARD_REDIS_URL", "%v", err)
		}
	}

	if c.AdminAPIKey != "" {
		if err := checkAdminAPIKey(c.AdminAPIKey); err != nil {
			bad("SWITCHYARD_ADMIN_API_KEY", "%v", err)
		}
	}

	if c.MasterKey != "" {
		key, err := decodeMasterKey(c.MasterKey)
		if err != nil {
			bad("SWITCHYARD_MASTER_KEY", "%v", err)
		}
		c.MasterKeyBytes = key
	}

	switch c.Environment {
	case EnvSandbox:
	case EnvProduction:
		bad("SWITCHYARD_ENV", "production has no live connector integrations yet; only sandbox can start")
	default:
		bad("SWITCHYARD_ENV", "unknown environment %q (want sandbox or production)", c.Environment)
	}

	if c.SessionIdleTimeout < time.Minute || c.SessionIdleTimeout > 30*24*time.Hour {
		bad("SWITCHYARD_SESSION_IDLE_TIMEOUT", "must be between 1m and 720h, got %s", c.SessionIdleTimeout)
	}
	if c.SessionMaxAge < c.SessionIdleTimeout || c.SessionMaxAge > 90*24*time.Hour {
		bad("SWITCHYARD_SESSION_MAX_AGE", "must be at least SWITCHYARD_SESSION_IDLE_TIMEOUT (%s) and at most 2160h, got %s",
			c.SessionIdleTimeout, c.SessionMaxAge)
	}
	if c.InvitationExpiry < time.Hour || c.InvitationExpiry > 30*24*time.Hour {
		bad("SWITCHYARD_INVITATION_EXPIRY", "must be between 1h and 720h, got %s", c.InvitationExpiry)
	}

	if c.SMTPURL != "" {
		if u, err := url.Parse(c.SMTPURL); err != nil || (u.Scheme != "smtp" && u.Scheme != "smtps") || u.Hostname() == "" {
			// Never echo the URL: it may hold a password.
			bad("SWITCHYARD_SMTP_URL", "want smtp://[user:password@]host[:port] or smtps://…")
		}
	}
	if _, err := mail.ParseAddress(c.SMTPFrom); err != nil {
		bad("SWITCHYARD_SMTP_FROM", "want an address such as Switchyard <no-reply@shop.example>: %v", err)
	}

	if c.PasswordHashesAtOnce < 0 || c.PasswordHashesAtOnce > 64 {
		bad("SWITCHYARD_PASSWORD_HASHES_AT_ONCE", "must be between 0 (from the processors) and 64, got %d", c.PasswordHashesAtOnce)
	}

	if c.ShutdownTimeout <= 0 {
		bad("SWITCHYARD_SHUTDOWN_TIMEOUT", "must be positive, got %s", c.ShutdownTimeout)
	}

	return errors.Join(errs...)
}

// publicHost maps a listen host to the host users should type.
func publicHost(host string) string {
	if host == "" || host == "0.0.0.0" || host == "::" {
		return "localhost"
	}
	return host
}

func parseDatabaseURL(raw string) (Database, error) {
	u, err := secrets.ParseURL(raw)
	if err != nil {
		return Database{}, err
	}
	switch u.Scheme {
	case "mysql":
		dsn, err := mysqlDSN(u)
		if err != nil {
			return Database{}, err
		}
		return Database{Driver: DriverMySQL, DSN: dsn}, nil
	case "sqlite":
		path := u.Opaque // sqlite:relative.db
		if path == "" {
			path = u.Host + u.Path // sqlite:///abs.db or sqlite://rel/dir.db
		}
		if path == "" {
			return Database{}, errors.New("missing file path (want sqlite:///abs/path.db or sqlite://relative.db)")
		}
		return Database{Driver: DriverSQLite, DSN: sqliteDSN(path, u.RawQuery)}, nil
	default:
		return Database{}, fmt.Errorf("unsupported scheme %q (want mysql:// or sqlite://)", u.Scheme)
	}
}

// mysqlDSN turns mysql://user:pass@host:port/db?params into a go-sql-driver
// DSN with parseTime=true and loc=UTC. Query parameters are parsed by the
// driver itself, so known ones (charset, tls, timeout…) keep their meaning.
func mysqlDSN(u *url.URL) (string, error) {
	if u.Host == "" || u.Hostname() == "" {
		return "", errors.New("missing host (want mysql://user:pass@host:port/db)")
	}
	db := strings.TrimPrefix(u.Path, "/")
	if db == "" || strings.Contains(db, "/") {
		return "", errors.New("missing database name (want mysql://user:pass@host:port/db)")
	}
	cfg, err := mysql.ParseDSN("/?" + u.RawQuery)
	if err != nil {
		return "", fmt.Errorf("bad query parameters: %v", err)
	}
	port := u.Port()
	if port == "" {
		port = "3306"
	}
	if u.User != nil {
		cfg.User = u.User.Username()
		cfg.Passwd, _ = u.User.Password()
	}
	cfg.Net = "tcp"
	cfg.Addr = net.JoinHostPort(u.Hostname(), port)
	cfg.DBName = db
	cfg.ParseTime = true
	cfg.Loc = time.UTC
	return cfg.FormatDSN(), nil
}

// sqliteDSN builds a modernc.org/sqlite DSN with the pragmas Switchyard needs.
func sqliteDSN(path, extra string) string {
	dsn := "file:" + path + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)"
	if extra != "" {
		dsn += "&" + extra
	}
	return dsn
}

// parseErrors rewrites env's aggregate error into one line per variable.
func parseErrors(err error, environ map[string]string) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return err
	}
	var errs []error
	for _, e := range agg.Errors {
		var pe env.ParseError
		if !errors.As(e, &pe) {
			errs = append(errs, e)
			continue
		}
		key := envKey(pe.Name)
		val := environ[key]
		switch pe.Type {
		case reflect.TypeFor[bool]():
			errs = append(errs, fmt.Errorf("%s: want true or false, got %q", key, val))
		case reflect.TypeFor[time.Duration]():
			errs = append(errs, fmt.Errorf("%s: want a duration such as 20s or 1m, got %q", key, val))
		case reflect.TypeFor[slog.Level]():
			errs = append(errs, fmt.Errorf("%s: want debug, info, warn or error, got %q", key, val))
		default:
			errs = append(errs, fmt.Errorf("%s: invalid value %q", key, val))
		}
	}
	return errors.Join(errs...)
}

// envKey returns the variable name of a Config field.
func envKey(field string) string {
	f, ok := reflect.TypeFor[Config]().FieldByName(field)
	if !ok {
		return field
	}
	key, _, _ := strings.Cut(f.Tag.Get("env"), ",")
	return key
}

func envMap(environ []string) map[string]string {
	m := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
