// Package files owns uploaded files (Hyperswitch's /files): their metadata
// rows (ent File, merchant-scoped), their rules (types, size, no deletion
// once submitted as dispute evidence) and the Store interface their bytes
// go through, never the database. The stores themselves (a directory, an
// S3-compatible bucket) are adapters in internal/filestore.
package files

import (
	"context"
	"errors"
)

// Store keeps files' bytes under keys the service chooses.
type Store interface {
	// Put stores data under key, replacing what was there.
	Put(ctx context.Context, key string, data []byte, contentType string) error
	// Get returns the bytes under key; ErrNoObject when there are none.
	Get(ctx context.Context, key string) ([]byte, error)
	// Delete removes key; removing a missing key is not an error.
	Delete(ctx context.Context, key string) error
}

// ErrNoObject is a Store's answer for a key that holds nothing.
var ErrNoObject = errors.New("files: no object under this key")
