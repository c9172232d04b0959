package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"ariga.io/atlas/sql/migrate"

	"switchyard/ent/migrate/migrations"
)

// revisionTable records which migration files have been applied.
const revisionTable = "switchyard_schema_revisions"

// migrationLock serialises concurrent migrators (several processes starting).
const migrationLock = "switchyard_migrate"

// MigrationFiles returns the embedded migration files in version order,
// after checking them against atlas.sum so an edited file is refused.
func MigrationFiles() ([]migrate.File, error) {
	dir := migrate.OpenMemDir("switchyard-migrations")
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || (path.Ext(e.Name()) != ".sql" && e.Name() != migrate.HashFileName) {
			continue
		}
		b, err := fs.ReadFile(migrations.FS, e.Name())
		if err != nil {
			return nil, err
		}
		if err := dir.WriteFile(e.Name(), b); err != nil {
			return nil, err
		}
	}
	if err := migrate.Validate(dir); err != nil {
		return nil, fmt.Errorf("migrations: checksum mismatch (regenerate with task migrate:diff): %w", err)
	}
	files, err := dir.Files()
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Version() < files[j].Version() })
	return files, nil
}

// ApplyMigrations applies every migration file not yet recorded in the
// revision table, in order, and returns the versions it applied. Running it
// again is a no-op. MySQL DDL is not transactional, so each file is recorded
// as soon as it has run; a failure names the file and statement.
func ApplyMigrations(ctx context.Context, db *sql.DB) ([]string, error) {
	files, err := MigrationFiles()
	if err != nil {
		return nil, err
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 60)", migrationLock).Scan(&got); err != nil {
		return nil, fmt.Errorf("migrations: lock: %w", err)
	}
	if !got.Valid || got.Int64 != 1 {
		return nil, errors.New("migrations: another migrator holds the lock")
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT RELEASE_LOCK(?)", migrationLock) //nolint:errcheck

	if _, err := conn.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+revisionTable+
		" (version VARCHAR(64) NOT NULL PRIMARY KEY, description VARCHAR(255) NOT NULL,"+
		" applied_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))"); err != nil {
		return nil, fmt.Errorf("migrations: revision table: %w", err)
	}
	done := map[string]bool{}
	rows, err := conn.QueryContext(ctx, "SELECT version FROM "+revisionTable)
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return nil, err
		}
		done[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	var applied []string
	for _, f := range files {
		if done[f.Version()] {
			continue
		}
		stmts, err := f.Stmts()
		if err != nil {
			return applied, fmt.Errorf("migrations: %s: %w", f.Name(), err)
		}
		for _, stmt := range stmts {
			if _, err := conn.ExecContext(ctx, stmt); err != nil {
				return applied, fmt.Errorf("migrations: %s: %q: %w", f.Name(), abbreviate(stmt), err)
			}
		}
		if _, err := conn.ExecContext(ctx, "INSERT INTO "+revisionTable+" (version, description) VALUES (?, ?)",
			f.Version(), f.Desc()); err != nil {
			return applied, fmt.Errorf("migrations: record %s: %w", f.Name(), err)
		}
		applied = append(applied, f.Version())
	}
	return applied, nil
}

func abbreviate(stmt string) string {
	stmt = strings.Join(strings.Fields(stmt), " ")
	if len(stmt) > 120 {
		return stmt[:120] + "…"
	}
	return stmt
}
