// Command migratediff writes a new versioned MySQL migration to
// ent/migrate/migrations: the difference between the files already there and
// the ent schema, computed on a throwaway database of a dev MySQL/MariaDB
// server (SWITCHYARD_DEV_DATABASE_URL, default mysql://root@127.0.0.1:3306/).
//
//	go tool task migrate:diff -- add_refund_reason
//
// With -rehash it only rewrites atlas.sum, after a merge of two branches
// that each added a migration.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"net/url"
	"os"
	"time"

	atlas "ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/go-sql-driver/mysql"

	"switchyard/ent/migrate"
	"switchyard/internal/store"
)

func main() {
	name := flag.String("name", "", "name of the migration, e.g. add_refund_reason")
	dirPath := flag.String("dir", "ent/migrate/migrations", "migration directory")
	rehash := flag.Bool("rehash", false, "only rewrite atlas.sum for the files there (after merging two branches' migrations)")
	flag.Parse()
	if *rehash {
		if err := rewriteSum(*dirPath); err != nil {
			log.Fatalf("migratediff: %v", err)
		}
		return
	}
	if *name == "" && flag.NArg() > 0 {
		*name = flag.Arg(0)
	}
	if *name == "" {
		log.Fatal("migratediff: a migration name is required")
	}
	devURL := os.Getenv("SWITCHYARD_DEV_DATABASE_URL")
	if devURL == "" {
		devURL = "mysql://root@127.0.0.1:3306/"
	}
	if err := run(context.Background(), devURL, *dirPath, *name); err != nil {
		log.Fatalf("migratediff: %v", err)
	}
}

func run(ctx context.Context, devURL, dirPath, name string) error {
	u, err := url.Parse(devURL)
	if err != nil {
		return err
	}
	// A throwaway database keeps the diff independent of whatever the dev server holds.
	scratch := fmt.Sprintf("switchyard_migratediff_%d", time.Now().UnixNano())
	server := mysql.NewConfig()
	server.Net, server.Addr = "tcp", u.Host
	server.User = u.User.Username()
	server.Passwd, _ = u.User.Password()
	db, err := sql.Open("mysql", server.FormatDSN())
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+scratch+" CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"); err != nil {
		return fmt.Errorf("create scratch database: %w", err)
	}
	defer db.ExecContext(context.WithoutCancel(ctx), "DROP DATABASE "+scratch) //nolint:errcheck

	dir, err := atlas.NewLocalDir(dirPath)
	if err != nil {
		return err
	}
	u.Path = "/" + scratch
	opts := append(store.SchemaOptions(),
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(dialect.MySQL),
		schema.WithFormatter(atlas.DefaultFormatter),
	)
	return migrate.NamedDiff(ctx, u.String(), name, opts...)
}

// rewriteSum writes atlas.sum anew for the migration files in dirPath:
// two branches that each added a migration conflict only there.
func rewriteSum(dirPath string) error {
	dir, err := atlas.NewLocalDir(dirPath)
	if err != nil {
		return err
	}
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	return atlas.WriteSumFile(dir, sum)
}
