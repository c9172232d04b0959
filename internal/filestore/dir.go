// Package filestore holds the adapters that keep uploaded files' bytes
// (payments/files.Store): a directory on disk, the embedded default, and
// any S3-compatible object store, reached with a small Signature Version 4
// client of its own (PUT, GET and DELETE of one object need no SDK).
package filestore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"switchyard/payments/files"
)

// validKey refuses keys that could leave the store's root: keys are made
// by the service (merchant id / file id), so this is a guard, not a rule.
func validKey(key string) error {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "..") || strings.Contains(key, "\\") {
		return fmt.Errorf("files: invalid key %q", key)
	}
	return nil
}

// DirStore keeps each file as a regular file under Dir (key = relative path).
type DirStore struct{ Dir string }

func (s DirStore) path(key string) (string, error) {
	if err := validKey(key); err != nil {
		return "", err
	}
	return filepath.Join(s.Dir, filepath.FromSlash(key)), nil
}

// Put writes through a temporary file and a rename, so a reader never sees
// half a file.
func (s DirStore) Put(_ context.Context, key string, data []byte, _ string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := io.Copy(tmp, bytes.NewReader(data)); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

func (s DirStore) Get(_ context.Context, key string) ([]byte, error) {
	p, err := s.path(key)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, files.ErrNoObject
	}
	return b, err
}

func (s DirStore) Delete(_ context.Context, key string) error {
	p, err := s.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
