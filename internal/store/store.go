// Package store opens the database behind the ent client: embedded SQLite
// (pure Go) or MySQL/MariaDB. It owns schema migration for both: SQLite is
// migrated automatically from the ent schema, MySQL by applying the
// versioned migrations in ent/migrate/migrations and recording each in a
// revision table. Observe shows a caller every statement sent (the tests
// count them, loadgen EXPLAINs them).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/go-sql-driver/mysql"
	_ "modernc.org/sqlite" // pure-Go SQLite driver

	"switchyard/ent"
	_ "switchyard/ent/runtime" // hooks and interceptors (tenancy) of the schema
	"switchyard/internal/config"
)

// Store is an open database and the ent client over it.
type Store struct {
	Client  *ent.Client
	DB      *sql.DB
	Dialect string
}

// Open connects to the database cfg names and checks it answers within a
// few seconds, so a wrong DSN or an unreachable server fails fast.
func Open(ctx context.Context, cfg config.Database) (*Store, error) {
	return OpenWith(ctx, cfg, nil)
}

// OpenWith is Open with the ent client's driver passed through wrap (nil:
// none). Tests use it to observe the SQL statements the client sends
// (internal/testenv counts them); the raw DB is not wrapped.
func OpenWith(ctx context.Context, cfg config.Database, wrap func(dialect.Driver) dialect.Driver) (*Store, error) {
	var dialectName, driverName string
	switch cfg.Driver {
	case config.DriverMySQL:
		dialectName, driverName = dialect.MySQL, "mysql"
	case config.DriverSQLite:
		dialectName, driverName = dialect.SQLite, "sqlite"
	default:
		return nil, fmt.Errorf("store: unsupported driver %q", cfg.Driver)
	}
	dsn := cfg.DSN
	if dialectName == dialect.MySQL {
		var err error
		if dsn, err = DriverDSN(dsn); err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
	}
	if dialectName == dialect.SQLite {
		if err := ownerOnly(dsn); err != nil {
			return nil, fmt.Errorf("database: %w", err)
		}
	}
	db, err := sql.Open(driverName, dsn)
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	if dialectName == dialect.SQLite {
		// One writer at a time; WAL lets readers go on beside it.
		db.SetMaxOpenConns(1)
	} else {
		SizePool(db)
	}
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("database unreachable: %w", err)
	}
	var drv dialect.Driver = entsql.OpenDB(dialectName, db)
	if wrap != nil {
		drv = wrap(drv)
	}
	return &Store{Client: ent.NewClient(ent.Driver(drv)), DB: db, Dialect: dialectName}, nil
}

// ownerOnly makes the SQLite database a DSN names readable by its owner
// only: it holds password hashes, customers and sealed card data. The file
// is created 0600 before SQLite opens it, since SQLite gives its -wal and
// -shm files the database file's mode, and the files of an earlier run are
// narrowed to 0600. A directory it has to make is 0700.
func ownerOnly(dsn string) error {
	path, _, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	if path == "" || path == ":memory:" || strings.Contains(dsn, "mode=memory") {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	for _, name := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Chmod(name, 0o600); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// DriverDSN is the MySQL DSN the store opens: the driver interpolates query
// arguments itself, unless the DSN says otherwise. Without it every
// statement with arguments is three round trips (prepare, execute, close),
// and a payment sends dozens. It is safe with the utf8mb4 connections used
// here (the driver refuses it for the multibyte charsets where it is not).
// Benchmarks open their baselines with it, to compare like with like.
func DriverDSN(dsn string) (string, error) {
	if strings.Contains(dsn, "interpolateParams=") {
		return dsn, nil
	}
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return "", err
	}
	cfg.InterpolateParams = true
	return cfg.FormatDSN(), nil
}

// Close closes the client and the database.
func (s *Store) Close() error { return s.Client.Close() }

// Ping checks the database answers; readiness uses it.
func (s *Store) Ping(ctx context.Context) error { return s.DB.PingContext(ctx) }

// Migrate brings the schema up to date: SQLite from the ent schema, MySQL
// from the versioned migration files.
func (s *Store) Migrate(ctx context.Context) (applied []string, err error) {
	switch s.Dialect {
	case dialect.SQLite:
		return nil, s.Client.Schema.Create(ctx, SchemaOptions()...)
	case dialect.MySQL:
		return ApplyMigrations(ctx, s.DB)
	}
	return nil, errors.New("store: unknown dialect")
}

// SchemaOptions are the options every schema diff and auto-migration uses.
// There are no foreign keys, so the schema also fits engines without them
// (Vitess); the domain transactions keep rows consistent. Columns and
// indexes are never dropped automatically: a drop is a deliberate migration.
func SchemaOptions() []schema.MigrateOption {
	return []schema.MigrateOption{schema.WithForeignKeys(false)}
}

// SizePool gives a MySQL pool the app's sizes: up to 64 connections, all
// kept idle between requests (a pool that keeps fewer idle than its
// concurrent requests closes and reopens connections under load), each
// renewed after 5 minutes. Baselines measured against the app use it too.
func SizePool(db *sql.DB) {
	db.SetMaxOpenConns(64)
	db.SetMaxIdleConns(64)
	db.SetConnMaxLifetime(5 * time.Minute)
}
