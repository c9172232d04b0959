package config

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"switchyard/internal/ids"
)

const minAdminAPIKeyLen = 32

func checkAdminAPIKey(key string) error {
	ok := len(key) >= minAdminAPIKeyLen
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("must be at least %d characters of [A-Za-z0-9_-]", minAdminAPIKeyLen)
	}
	return nil
}

// decodeMasterKey accepts 32 bytes as 64 hex characters or as standard or
// URL-safe base64, padded or not.
func decodeMasterKey(s string) ([]byte, error) {
	if len(s) == 64 {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == 32 {
			return b, nil
		}
	}
	return nil, errors.New("must be 32 bytes as 64 hex characters or base64")
}

func generateAdminAPIKey() string { return "adm_" + ids.Base62(40) }

func generateMasterKey() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand crashes the program instead)
	return hex.EncodeToString(b)
}

// fillGenerated generates (or reads back) the secrets that were not given and
// creates DataDir when it is needed: for a generated secret or for embedded
// SQLite. Given secrets are never written to disk.
func (c *Config) fillGenerated() error {
	c.AdminAPIKeySource, c.MasterKeySource = FromEnv, FromEnv
	if !c.Database.Embedded && c.AdminAPIKey != "" && c.MasterKey != "" {
		return nil
	}
	if err := os.MkdirAll(c.DataDir, 0o700); err != nil {
		return fmt.Errorf("SWITCHYARD_DATA_DIR: %v", err)
	}
	if c.AdminAPIKey == "" {
		key, src, err := loadOrCreate(filepath.Join(c.DataDir, AdminAPIKeyFile), generateAdminAPIKey, checkAdminAPIKey)
		if err != nil {
			return fmt.Errorf("SWITCHYARD_ADMIN_API_KEY: %v", err)
		}
		c.AdminAPIKey, c.AdminAPIKeySource = key, src
	}
	if c.MasterKey == "" {
		check := func(s string) error { _, err := decodeMasterKey(s); return err }
		key, src, err := loadOrCreate(filepath.Join(c.DataDir, MasterKeyFile), generateMasterKey, check)
		if err != nil {
			return fmt.Errorf("SWITCHYARD_MASTER_KEY: %v", err)
		}
		c.MasterKey, c.MasterKeySource = key, src
		c.MasterKeyBytes, _ = decodeMasterKey(key)
	}
	return nil
}

// loadOrCreate returns the value stored at path, or generates one and stores
// it with mode 0600. The file appears atomically with its full content (temp
// file + link), so two processes starting at once agree on one value.
func loadOrCreate(path string, generate func() string, check func(string) error) (string, Source, error) {
	if v, err := readSecret(path, check); !errors.Is(err, fs.ErrNotExist) {
		return v, FromDataDir, err
	}
	v := generate()
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*") // mode 0600
	if err != nil {
		return "", "", err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.WriteString(v + "\n")
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", "", err
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		v, err := readSecret(path, check) // another process won the race
		return v, FromDataDir, err
	} else if err != nil {
		return "", "", err
	}
	return v, Generated, nil
}

func readSecret(path string, check func(string) error) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	v := strings.TrimSpace(string(b))
	if err := check(v); err != nil {
		return "", fmt.Errorf("%s: %v", path, err)
	}
	return v, nil
}
