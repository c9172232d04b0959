package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"strings"
	"testing"

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
