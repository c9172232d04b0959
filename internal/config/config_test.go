package config

import (
	"encoding/base64"
	"encoding/hex"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

const (
	goodAdminKey  = "adm_0123456789abcdefghijABCDEFGHIJ0123456789"
	goodMasterHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
)

// withDir returns environ plus a private SWITCHYARD_DATA_DIR.
func withDir(t *testing.T, environ map[string]string) map[string]string {
	t.Helper()
	m := map[string]string{"SWITCHYARD_DATA_DIR": filepath.Join(t.TempDir(), "data")}
	for k, v := range environ {
		m[k] = v
	}
	return m
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		name    string
		environ map[string]string
		want    string
	}{
		{"bad scheme", map[string]string{"SWITCHYARD_DATABASE_URL": "postgres://u:p@h/db"},
			`SWITCHYARD_DATABASE_URL: unsupported scheme "postgres" (want mysql:// or sqlite://)`},
		{"malformed mysql URL", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://u:s3cret@host:port/db"},
			`SWITCHYARD_DATABASE_URL: malformed URL: invalid port ":port" after host`},
		{"mysql missing db name", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://u:s3cret@host:3306"},
			`SWITCHYARD_DATABASE_URL: missing database name (want mysql://user:pass@host:port/db)`},
		{"mysql missing db name slash", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://u:s3cret@host:3306/"},
			`SWITCHYARD_DATABASE_URL: missing database name (want mysql://user:pass@host:port/db)`},
		{"mysql missing host", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql:///db"},
			`SWITCHYARD_DATABASE_URL: missing host (want mysql://user:pass@host:port/db)`},
		{"mysql bad param", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://u:s3cret@h/db?parseTime=maybe"},
			`SWITCHYARD_DATABASE_URL: bad query parameters: invalid bool value: maybe`},
		{"sqlite no path", map[string]string{"SWITCHYARD_DATABASE_URL": "sqlite://"},
			`SWITCHYARD_DATABASE_URL: missing file path (want sqlite:///abs/path.db or sqlite://relative.db)`},
		{"session idle too short", map[string]string{"SWITCHYARD_SESSION_IDLE_TIMEOUT": "30s"},
			`SWITCHYARD_SESSION_IDLE_TIMEOUT: must be between 1m and 720h, got 30s`},
		{"session idle too long", map[string]string{"SWITCHYARD_SESSION_IDLE_TIMEOUT": "721h", "SWITCHYARD_SESSION_MAX_AGE": "800h"},
			`SWITCHYARD_SESSION_IDLE_TIMEOUT: must be between 1m and 720h, got 721h0m0s`},
		{"session max under idle", map[string]string{"SWITCHYARD_SESSION_IDLE_TIMEOUT": "2h", "SWITCHYARD_SESSION_MAX_AGE": "1h"},
			`SWITCHYARD_SESSION_MAX_AGE: must be at least SWITCHYARD_SESSION_IDLE_TIMEOUT (2h0m0s) and at most 2160h, got 1h0m0s`},
		{"session max too long", map[string]string{"SWITCHYARD_SESSION_MAX_AGE": "2161h"},
			`SWITCHYARD_SESSION_MAX_AGE: must be at least SWITCHYARD_SESSION_IDLE_TIMEOUT (8h0m0s) and at most 2160h, got 2161h0m0s`},
		{"invitation too short", map[string]string{"SWITCHYARD_INVITATION_EXPIRY": "59m"},
			`SWITCHYARD_INVITATION_EXPIRY: must be between 1h and 720h, got 59m0s`},
		{"invitation not a duration", map[string]string{"SWITCHYARD_INVITATION_EXPIRY": "a week"},
			`SWITCHYARD_INVITATION_EXPIRY: want a duration such as 20s or 1m, got "a week"`},
		{"smtp url not smtp", map[string]string{"SWITCHYARD_SMTP_URL": "https://user:hunter2@mail.example"},
			`SWITCHYARD_SMTP_URL: want smtp://[user:password@]host[:port] or smtps://…`},
		{"smtp url without host", map[string]string{"SWITCHYARD_SMTP_URL": "smtp://"},
			`SWITCHYARD_SMTP_URL: want smtp://[user:password@]host[:port] or smtps://…`},
		{"smtp sender not an address", map[string]string{"SWITCHYARD_SMTP_FROM": "Switchyard"},
			`SWITCHYARD_SMTP_FROM: want an address such as Switchyard <no-reply@shop.example>: mail: missing '@' or angle-addr`},
		{"password hashes negative", map[string]string{"SWITCHYARD_PASSWORD_HASHES_AT_ONCE": "-1"},
			`SWITCHYARD_PASSWORD_HASHES_AT_ONCE: must be between 0 (from the processors) and 64, got -1`},
		{"redis bad scheme", map[string]string{"SWITCHYARD_REDIS_URL": "http://localhost:6379"},
			`SWITCHYARD_REDIS_URL: unsupported scheme "http" (want redis:// or rediss://)`},
		{"redis bad db", map[string]string{"SWITCHYARD_REDIS_URL": "redis://localhost:6379/abc"},
			`SWITCHYARD_REDIS_URL: invalid database number: "abc"`},
		{"redis malformed", map[string]string{"SWITCHYARD_REDIS_URL": "redis://:s3cret@host:port"},
			`SWITCHYARD_REDIS_URL: malformed URL: invalid port ":port" after host`},
		{"redis cluster db", map[string]string{"SWITCHYARD_REDIS_URL": "redis://n1:7001/1?addr=n2:7002"},
			`SWITCHYARD_REDIS_URL: a Redis Cluster has database 0 only, not "1"`},
		{"short admin key", map[string]string{"SWITCHYARD_ADMIN_API_KEY": "adm_short"},
			`SWITCHYARD_ADMIN_API_KEY: must be at least 32 characters of [A-Za-z0-9_-]`},
		{"admin key bad chars", map[string]string{"SWITCHYARD_ADMIN_API_KEY": strings.Repeat("a", 40) + "!"},
			`SWITCHYARD_ADMIN_API_KEY: must be at least 32 characters of [A-Za-z0-9_-]`},
		{"master key short hex", map[string]string{"SWITCHYARD_MASTER_KEY": goodMasterHex[:62]},
			`SWITCHYARD_MASTER_KEY: must be 32 bytes as 64 hex characters or base64`},
		{"master key not hex or base64", map[string]string{"SWITCHYARD_MASTER_KEY": strings.Repeat("z!", 32)},
			`SWITCHYARD_MASTER_KEY: must be 32 bytes as 64 hex characters or base64`},
		{"master key 16 bytes base64", map[string]string{"SWITCHYARD_MASTER_KEY": base64.StdEncoding.EncodeToString(make([]byte, 16))},
			`SWITCHYARD_MASTER_KEY: must be 32 bytes as 64 hex characters or base64`},
		{"bad bool", map[string]string{"SWITCHYARD_AUTO_MIGRATE": "maybe"},
			`SWITCHYARD_AUTO_MIGRATE: want true or false, got "maybe"`},
		{"bad duration", map[string]string{"SWITCHYARD_SHUTDOWN_TIMEOUT": "soon"},
			`SWITCHYARD_SHUTDOWN_TIMEOUT: want a duration such as 20s or 1m, got "soon"`},
		{"negative duration", map[string]string{"SWITCHYARD_SHUTDOWN_TIMEOUT": "-1s"},
			`SWITCHYARD_SHUTDOWN_TIMEOUT: must be positive, got -1s`},
		{"bad webhook schedule", map[string]string{"SWITCHYARD_WEBHOOK_RETRY_SCHEDULE": "1m,soon"},
			`SWITCHYARD_WEBHOOK_RETRY_SCHEDULE: entry 2 ("soon") is not a positive Go duration such as 1m or 500ms`},
		{"zero webhook timeout", map[string]string{"SWITCHYARD_WEBHOOK_TIMEOUT": "0s"},
			`SWITCHYARD_WEBHOOK_TIMEOUT: must be positive, got 0s`},
		{"too many webhook workers", map[string]string{"SWITCHYARD_WEBHOOK_WORKERS": "100"},
			`SWITCHYARD_WEBHOOK_WORKERS: must be between 0 and 64, got 100`},
		{"webhook poll too often", map[string]string{"SWITCHYARD_WEBHOOK_POLL_INTERVAL": "1ms"},
			`SWITCHYARD_WEBHOOK_POLL_INTERVAL: must be between 10ms and 1h, got 1ms`},
		{"webhook poll not a duration", map[string]string{"SWITCHYARD_WEBHOOK_POLL_INTERVAL": "soon"},
			`SWITCHYARD_WEBHOOK_POLL_INTERVAL: want a duration such as 20s or 1m, got "soon"`},
		{"no active request", map[string]string{"SWITCHYARD_MAX_ACTIVE_REQUESTS": "0"},
			`SWITCHYARD_MAX_ACTIVE_REQUESTS: must be between 1 and 100000, got 0`},
		{"queue timeout too long", map[string]string{"SWITCHYARD_REQUEST_QUEUE_TIMEOUT": "1h"},
			`SWITCHYARD_REQUEST_QUEUE_TIMEOUT: must be between 1ms and 10m, got 1h0m0s`},
		{"bad log level", map[string]string{"SWITCHYARD_LOG_LEVEL": "loud"},
			`SWITCHYARD_LOG_LEVEL: want debug, info, warn or error, got "loud"`},
		{"production env", map[string]string{"SWITCHYARD_ENV": "production"},
			`SWITCHYARD_ENV: production has no live connector integrations yet; only sandbox can start`},
		{"unknown env", map[string]string{"SWITCHYARD_ENV": "staging"},
			`SWITCHYARD_ENV: unknown environment "staging" (want sandbox or production)`},
		{"bad addr", map[string]string{"SWITCHYARD_ADDR": "8080"},
			`SWITCHYARD_ADDR: want host:port or :port, got "8080"`},
		{"bad sdk url", map[string]string{"SWITCHYARD_SDK_URL": "/HyperLoader.js"},
			`SWITCHYARD_SDK_URL: want an absolute http:// or https:// URL of HyperLoader.js, got "/HyperLoader.js"`},
		{"bad cors origin", map[string]string{"SWITCHYARD_CORS_ORIGINS": "https://shop.example/checkout"},
			`SWITCHYARD_CORS_ORIGINS: entry 1 ("https://shop.example/checkout") is not * or an origin such as https://shop.example`},
		{"bad public url", map[string]string{"SWITCHYARD_PUBLIC_URL": "example.com"},
			`SWITCHYARD_PUBLIC_URL: want an absolute http:// or https:// URL, got "example.com"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			environ := withDir(t, tt.environ)
			c, err := LoadFrom(environ)
			if err == nil {
				t.Fatalf("LoadFrom succeeded: %+v", c)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error\n got: %s\nwant: %s", got, tt.want)
			}
			if strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error leaks the password: %s", err)
			}
			if _, err := os.Stat(environ["SWITCHYARD_DATA_DIR"]); err == nil {
				t.Errorf("data dir created for an invalid config")
			}
		})
	}
}

func TestSeveralErrorsOneLineEach(t *testing.T) {
	_, err := LoadFrom(withDir(t, map[string]string{
		"SWITCHYARD_AUTO_MIGRATE":     "maybe",
		"SWITCHYARD_SHUTDOWN_TIMEOUT": "soon",
	}))
	if err == nil {
		t.Fatal("want error")
	}
	if lines := strings.Split(err.Error(), "\n"); len(lines) != 2 {
		t.Errorf("want 2 lines, got %q", lines)
	}
	_, err = LoadFrom(withDir(t, map[string]string{
		"SWITCHYARD_ENV":       "production",
		"SWITCHYARD_REDIS_URL": "http://x",
	}))
	if lines := strings.Split(err.Error(), "\n"); len(lines) != 2 {
		t.Errorf("want 2 lines, got %q", lines)
	}
}

func TestDefaults(t *testing.T) {
	environ := withDir(t, nil)
	c, err := LoadFrom(environ)
	if err != nil {
		t.Fatal(err)
	}
	dir := environ["SWITCHYARD_DATA_DIR"]
	want := Config{
		Addr:                 "127.0.0.1:8080", // loopback until SWITCHYARD_ADDR says otherwise
		DataDir:              dir,
		AutoMigrate:          true,
		Environment:          EnvSandbox,
		LogLevel:             slog.LevelInfo,
		ShutdownTimeout:      20 * time.Second,
		GraphQLIntrospection: true,
		PublicURL:            "http://127.0.0.1:8080",
		PublicURLDerived:     true,
		WebhookTimeout:       30 * time.Second,
		WebhookAllowPrivate:  true,
		WebhookWorkers:       2,
		WebhookPollInterval:  time.Second,
		RecoveryAfter:        2 * time.Minute,
		RenewalInterval:      time.Minute,
		DunningSchedule:      []time.Duration{24 * time.Hour, 72 * time.Hour, 120 * time.Hour},
		IdempotencyLease:     time.Minute,
		MaxActiveRequests:    100,
		RequestQueueTimeout:  30 * time.Second,
		CORSOrigins:          []string{"*"},
		SDKURL:               "http://localhost:9050/HyperLoader.js",
		SessionIdleTimeout:   8 * time.Hour,
		SessionMaxAge:        7 * 24 * time.Hour,
		InvitationExpiry:     7 * 24 * time.Hour,
		SMTPFrom:             "Switchyard <no-reply@localhost>",
		FileStore:            "dir",
		FileStoreDir:         filepath.Join(dir, "files"),
		S3Region:             "us-east-1",
		Database: Database{
			Driver:   DriverSQLite,
			DSN:      "file:" + filepath.Join(dir, "switchyard.db") + "?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)",
			Embedded: true,
		},
		RedisEmbedded:     true,
		AdminAPIKeySource: Generated,
		MasterKeySource:   Generated,
	}
	got := *c
	got.AdminAPIKey, got.MasterKey, got.MasterKeyBytes = "", "", nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestGiven(t *testing.T) {
	tests := []struct {
		name    string
		environ map[string]string
		check   func(t *testing.T, c *Config)
	}{
		{"mysql", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://app:p%40ss:w@db.example/switchyard?charset=utf8mb4&timeout=5s"},
			func(t *testing.T, c *Config) {
				want := Database{Driver: DriverMySQL, DSN: "app:p@ss:w@tcp(db.example:3306)/switchyard?charset=utf8mb4&parseTime=true&timeout=5s"}
				if c.Database != want {
					t.Errorf("got %+v, want %+v", c.Database, want)
				}
				mc, err := mysql.ParseDSN(c.Database.DSN)
				if err != nil {
					t.Fatal(err)
				}
				if mc.User != "app" || mc.Passwd != "p@ss:w" || mc.DBName != "switchyard" || !mc.ParseTime || mc.Loc != time.UTC || mc.Timeout != 5*time.Second {
					t.Errorf("DSN parses back as %+v", mc)
				}
			}},
		{"mysql overrides parseTime and loc", map[string]string{"SWITCHYARD_DATABASE_URL": "mysql://root@10.0.0.1:3307/sy?parseTime=false&loc=Local"},
			func(t *testing.T, c *Config) {
				if want := "root@tcp(10.0.0.1:3307)/sy?parseTime=true"; c.Database.DSN != want {
					t.Errorf("DSN = %q, want %q", c.Database.DSN, want)
				}
			}},
		{"sqlite absolute", map[string]string{"SWITCHYARD_DATABASE_URL": "sqlite:///var/lib/sy.db"},
			func(t *testing.T, c *Config) {
				want := Database{Driver: DriverSQLite, DSN: "file:/var/lib/sy.db?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)"}
				if c.Database != want {
					t.Errorf("got %+v, want %+v", c.Database, want)
				}
			}},
		{"sqlite relative", map[string]string{"SWITCHYARD_DATABASE_URL": "sqlite://data/sy.db"},
			func(t *testing.T, c *Config) {
				if want := "file:data/sy.db?_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)"; c.Database.DSN != want {
					t.Errorf("DSN = %q, want %q", c.Database.DSN, want)
				}
			}},
		{"redis", map[string]string{"SWITCHYARD_REDIS_URL": "rediss://user:pw@cache:6380/2"},
			func(t *testing.T, c *Config) {
				if c.RedisEmbedded || c.RedisURL != "rediss://user:pw@cache:6380/2" {
					t.Errorf("RedisEmbedded = %v, RedisURL = %q", c.RedisEmbedded, c.RedisURL)
				}
			}},
		{"redis cluster", map[string]string{"SWITCHYARD_REDIS_URL": "redis://n1:7001?addr=n2:7002&addr=n3:7003"},
			func(t *testing.T, c *Config) {
				if c.RedisEmbedded || c.RedisURL != "redis://n1:7001?addr=n2:7002&addr=n3:7003" {
					t.Errorf("RedisEmbedded = %v, RedisURL = %q", c.RedisEmbedded, c.RedisURL)
				}
			}},
		{"addr with host", map[string]string{"SWITCHYARD_ADDR": "127.0.0.1:9000"},
			func(t *testing.T, c *Config) {
				if c.PublicURL != "http://127.0.0.1:9000" {
					t.Errorf("PublicURL = %q", c.PublicURL)
				}
			}},
		{"cors origins", map[string]string{"SWITCHYARD_CORS_ORIGINS": "https://shop.example/, http://localhost:3000"},
			func(t *testing.T, c *Config) {
				if !reflect.DeepEqual(c.CORSOrigins, []string{"https://shop.example", "http://localhost:3000"}) {
					t.Errorf("CORSOrigins = %q", c.CORSOrigins)
				}
			}},
		{"public url", map[string]string{"SWITCHYARD_PUBLIC_URL": "https://pay.example.com/"},
			func(t *testing.T, c *Config) {
				if c.PublicURL != "https://pay.example.com" {
					t.Errorf("PublicURL = %q", c.PublicURL)
				}
			}},
		{"flags", map[string]string{"SWITCHYARD_AUTO_MIGRATE": "false", "SWITCHYARD_GRAPHQL_INTROSPECTION": "0",
			"SWITCHYARD_LOG_LEVEL": "DEBUG", "SWITCHYARD_SHUTDOWN_TIMEOUT": "1m30s"},
			func(t *testing.T, c *Config) {
				if c.AutoMigrate || c.GraphQLIntrospection || c.LogLevel != slog.LevelDebug || c.ShutdownTimeout != 90*time.Second {
					t.Errorf("got %+v", c)
				}
			}},
		{"master key base64 url", map[string]string{"SWITCHYARD_MASTER_KEY": base64.RawURLEncoding.EncodeToString(bytes32(0xfb))},
			func(t *testing.T, c *Config) {
				if string(c.MasterKeyBytes) != string(bytes32(0xfb)) || c.MasterKeySource != FromEnv {
					t.Errorf("MasterKeyBytes = %x (%s)", c.MasterKeyBytes, c.MasterKeySource)
				}
			}},
		{"master key base64 std", map[string]string{"SWITCHYARD_MASTER_KEY": base64.StdEncoding.EncodeToString(bytes32(0xfb))},
			func(t *testing.T, c *Config) {
				if string(c.MasterKeyBytes) != string(bytes32(0xfb)) {
					t.Errorf("MasterKeyBytes = %x", c.MasterKeyBytes)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadFrom(withDir(t, tt.environ))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

func bytes32(b byte) []byte {
	out := make([]byte, 32)
	for i := range out {
		out[i] = b
	}
	return out
}

func TestGeneratedPersistedAndReused(t *testing.T) {
	environ := withDir(t, nil)
	dir := environ["SWITCHYARD_DATA_DIR"]

	first, err := LoadFrom(environ)
	if err != nil {
		t.Fatal(err)
	}
	if first.AdminAPIKeySource != Generated || first.MasterKeySource != Generated {
		t.Errorf("sources = %s, %s; want generated", first.AdminAPIKeySource, first.MasterKeySource)
	}
	if !regexp.MustCompile(`^adm_[0-9A-Za-z]{40}$`).MatchString(first.AdminAPIKey) {
		t.Errorf("admin key %q has the wrong format", first.AdminAPIKey)
	}
	if len(first.MasterKeyBytes) != 32 || first.MasterKey != hex.EncodeToString(first.MasterKeyBytes) {
		t.Errorf("master key %q / %x", first.MasterKey, first.MasterKeyBytes)
	}
	assertMode(t, dir, 0o700|fs.ModeDir)
	assertMode(t, filepath.Join(dir, AdminAPIKeyFile), 0o600)
	assertMode(t, filepath.Join(dir, MasterKeyFile), 0o600)
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("data dir holds %d entries, want 2 (no temp files left)", len(entries))
	}

	second, err := LoadFrom(environ)
	if err != nil {
		t.Fatal(err)
	}
	if second.AdminAPIKey != first.AdminAPIKey || second.MasterKey != first.MasterKey {
		t.Error("second Load generated new values instead of reusing the stored ones")
	}
	if second.AdminAPIKeySource != FromDataDir || second.MasterKeySource != FromDataDir {
		t.Errorf("sources = %s, %s; want data-dir", second.AdminAPIKeySource, second.MasterKeySource)
	}
}

func TestCorruptStoredSecret(t *testing.T) {
	environ := withDir(t, nil)
	dir := environ["SWITCHYARD_DATA_DIR"]
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, MasterKeyFile)
	if err := os.WriteFile(path, []byte("nope\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFrom(environ)
	want := "SWITCHYARD_MASTER_KEY: " + path + ": must be 32 bytes as 64 hex characters or base64"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %s", err, want)
	}
}

func TestGivenValuesNotWritten(t *testing.T) {
	given := map[string]string{
		"SWITCHYARD_ADMIN_API_KEY": goodAdminKey,
		"SWITCHYARD_MASTER_KEY":    goodMasterHex,
	}

	t.Run("external database: no data dir at all", func(t *testing.T) {
		environ := withDir(t, given)
		environ["SWITCHYARD_DATABASE_URL"] = "mysql://u:p@h/db"
		c, err := LoadFrom(environ)
		if err != nil {
			t.Fatal(err)
		}
		if c.AdminAPIKey != goodAdminKey || c.MasterKey != goodMasterHex || c.AdminAPIKeySource != FromEnv || c.MasterKeySource != FromEnv {
			t.Errorf("given values changed: %+v", c)
		}
		if _, err := os.Stat(environ["SWITCHYARD_DATA_DIR"]); !os.IsNotExist(err) {
			t.Errorf("data dir exists (err %v); want not created", err)
		}
	})

	t.Run("embedded database: data dir without key files", func(t *testing.T) {
		environ := withDir(t, given)
		if _, err := LoadFrom(environ); err != nil {
			t.Fatal(err)
		}
		dir := environ["SWITCHYARD_DATA_DIR"]
		assertMode(t, dir, 0o700|fs.ModeDir)
		for _, f := range []string{AdminAPIKeyFile, MasterKeyFile} {
			if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
				t.Errorf("%s written (err %v)", f, err)
			}
		}
	})
}

func TestLoadReadsProcessEnvironment(t *testing.T) {
	t.Setenv("SWITCHYARD_DATA_DIR", t.TempDir())
	t.Setenv("SWITCHYARD_ADDR", ":9999")
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":9999" || c.PublicURL != "http://localhost:9999" {
		t.Errorf("Addr = %q, PublicURL = %q", c.Addr, c.PublicURL)
	}
}

func assertMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode(); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}

// TestDatabaseIdentity: one database is one identity whatever the
// credentials and parameters that reach it, and two databases are two.
func TestDatabaseIdentity(t *testing.T) {
	identity := func(url string) string {
		t.Helper()
		c, err := LoadFrom(withDir(t, map[string]string{"SWITCHYARD_DATABASE_URL": url}))
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		return c.Database.Identity()
	}
	for _, tt := range []struct{ a, b string }{
		{"mysql://root@db.example:3306/shop", "mysql://app:secret@db.example/shop?timeout=5s"},
		{"sqlite:///var/lib/switchyard/shop.db", "sqlite:///var/lib/switchyard/shop.db?_pragma=cache_size(2000)"},
	} {
		if a, b := identity(tt.a), identity(tt.b); a != b {
			t.Errorf("%s is %q but %s is %q", tt.a, a, tt.b, b)
		}
	}
	for _, tt := range []struct{ a, b string }{
		{"mysql://root@db.example:3306/shop", "mysql://root@db.example:3306/staging"},
		{"mysql://root@db.example:3306/shop", "mysql://root@db2.example:3306/shop"},
		{"sqlite:///var/lib/switchyard/shop.db", "sqlite:///tmp/shop.db"},
	} {
		if a := identity(tt.a); a == identity(tt.b) {
			t.Errorf("%s and %s are both %q", tt.a, tt.b, a)
		}
	}
}
