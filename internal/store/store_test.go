package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"switchyard/internal/config"
	"switchyard/internal/store"
	"switchyard/internal/testenv"
)

// TestMigrateTwiceIsIdempotent applies the versioned migrations to an empty
// MariaDB database, then again: the second run applies nothing and fails on
// nothing.
func TestMigrateTwiceIsIdempotent(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, testenv.MySQLDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	files, err := store.MigrationFiles()
	if err != nil {
		t.Fatal(err)
	}
	first, err := st.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != len(files) || len(first) == 0 {
		t.Fatalf("first run applied %v, want all %d files", first, len(files))
	}
	second, err := st.Migrate(ctx)
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	if len(second) != 0 {
		t.Fatalf("second run applied %v, want nothing", second)
	}
	if n := count(t, st.DB, "SELECT COUNT(*) FROM switchyard_schema_revisions"); n != len(files) {
		t.Fatalf("revision table has %d rows, want %d", n, len(files))
	}
	if n := count(t, st.DB, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'payment_intents'"); n != 1 {
		t.Fatal("payment_intents table missing")
	}
}

// TestMigrationsMatchSchema fails when ent/schema changed without a new
// migration: after applying the files, ent must find nothing left to do.
func TestMigrationsMatchSchema(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, testenv.MySQLDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	var plan bytes.Buffer
	if err := st.Client.Schema.WriteTo(ctx, &plan, store.SchemaOptions()...); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(plan.String(), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line == "BEGIN;" || line == "COMMIT;" || strings.HasPrefix(line, "--") {
			continue
		}
		t.Errorf("schema drift; run `go tool task migrate:diff -- <name>`:\n%s", plan.String())
		break
	}
}

// TestSQLiteAutoMigrates creates the embedded schema, twice.
func TestSQLiteAutoMigrates(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, testenv.SQLiteDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < 2; i++ {
		if _, err := st.Migrate(ctx); err != nil {
			t.Fatalf("run %d: %v", i+1, err)
		}
	}
	if n := count(t, st.DB, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'payment_intents'"); n != 1 {
		t.Fatal("payment_intents table missing")
	}
}

func count(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestEmbeddedFilesAreOwnerOnly: the embedded default's database, its WAL
// and shared-memory files are readable by their owner only (they hold
// password hashes and customers), in a data directory of the owner's only:
// on a first start, and for the files an earlier version left 0644.
func TestEmbeddedFilesAreOwnerOnly(t *testing.T) {
	ctx := context.Background()
	for _, earlier := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "data")
		cfg, err := config.LoadFrom(map[string]string{"SWITCHYARD_DATA_DIR": dir})
		if err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, config.SQLiteFile)
		if earlier { // an empty database file, as SQLite creates it, left 0644 whatever the umask
			if err := os.WriteFile(db, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(db, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		st, err := store.Open(ctx, cfg.Database)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DB.ExecContext(ctx, "CREATE TABLE written (x INTEGER); INSERT INTO written VALUES (1)"); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{db, db + "-wal", db + "-shm"} {
			fi, err := os.Stat(name)
			if err != nil {
				t.Fatalf("earlier=%v: %v", earlier, err)
			}
			if mode := fi.Mode().Perm(); mode != 0o600 {
				t.Errorf("earlier=%v: %s is %o, want 600", earlier, filepath.Base(name), mode)
			}
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("earlier=%v: the data directory: %v %v", earlier, fi.Mode(), err)
		}
		_ = st.Close()
	}
}
