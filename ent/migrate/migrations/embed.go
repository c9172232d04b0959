// Package migrations embeds the versioned MySQL/MariaDB migrations (Atlas
// format) that `switchyard migrate` applies. The .sql files and atlas.sum are
// written by `go tool task migrate:diff`, never by hand.
package migrations

import "embed"

// FS holds the migration files and their atlas.sum checksum file.
//
//go:embed *
var FS embed.FS
