package redisconn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// The embedded Redis keeps nothing by itself. So that what it holds
// (Idempotency-Key records above all: a retry after a restart must replay,
// never charge again) survives a restart, and a kill -9 with at most the
// last second lost, its keys are written to a snapshot file in the data
// directory every second and on Close, and read back at Open. Expiries are
// kept as wall-clock times, so a key also expires while the process is down.

// snapshotEvery is how much a kill -9 may lose.
const snapshotEvery = time.Second

type snapshot struct {
	SavedAt time.Time     `json:"saved_at"`
	Keys    []snapshotKey `json:"keys"`
}

type snapshotKey struct {
	Key  string             `json:"key"`
	Type string             `json:"type"`
	Str  []byte             `json:"str,omitempty"`
	Hash map[string][]byte  `json:"hash,omitempty"`
	Set  [][]byte           `json:"set,omitempty"`
	List [][]byte           `json:"list,omitempty"`
	ZSet map[string]float64 `json:"zset,omitempty"`
	// ExpiresAt is when the key expires; zero for never.
	ExpiresAt time.Time `json:"expires_at,omitzero"`
}

// take reads every key of the server (its types the ones Switchyard uses),
// except those transient says to leave out.
func take(m *miniredis.Miniredis, now time.Time, transient func(string) bool) snapshot {
	out := snapshot{SavedAt: now.UTC()}
	for _, k := range m.Keys() {
		if transient != nil && transient(k) {
			continue
		}
		sk := snapshotKey{Key: k, Type: m.Type(k)}
		if ttl := m.TTL(k); ttl > 0 {
			sk.ExpiresAt = now.Add(ttl).UTC()
		}
		switch sk.Type {
		case "string":
			v, err := m.Get(k)
			if err != nil {
				continue // gone since Keys
			}
			sk.Str = []byte(v)
		case "hash":
			fields, err := m.HKeys(k)
			if err != nil {
				continue
			}
			sk.Hash = make(map[string][]byte, len(fields))
			for _, f := range fields {
				sk.Hash[f] = []byte(m.HGet(k, f))
			}
		case "set":
			var err error
			if sk.Set, err = asBytes(m.Members(k)); err != nil {
				continue
			}
		case "list":
			var err error
			if sk.List, err = asBytes(m.List(k)); err != nil {
				continue
			}
		case "zset":
			z, err := m.SortedSet(k)
			if err != nil {
				continue
			}
			sk.ZSet = z
		default:
			continue // a type no part of Switchyard writes
		}
		out.Keys = append(out.Keys, sk)
	}
	return out
}

// asBytes is a read of a set's members or a list's items, as kept.
func asBytes(values []string, err error) ([][]byte, error) {
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(values))
	for i, v := range values {
		out[i] = []byte(v)
	}
	return out, nil
}

// restore puts a snapshot's keys back, those not expired by now.
func restore(m *miniredis.Miniredis, s snapshot, now time.Time) error {
	for _, k := range s.Keys {
		var ttl time.Duration
		if !k.ExpiresAt.IsZero() {
			if ttl = k.ExpiresAt.Sub(now); ttl <= 0 {
				continue
			}
		}
		var err error
		switch k.Type {
		case "string":
			err = m.Set(k.Key, string(k.Str))
		case "hash":
			for f, v := range k.Hash {
				m.HSet(k.Key, f, string(v))
			}
		case "set":
			for _, v := range k.Set {
				if _, err = m.SetAdd(k.Key, string(v)); err != nil {
					break
				}
			}
		case "list":
			for _, v := range k.List {
				if _, err = m.Push(k.Key, string(v)); err != nil {
					break
				}
			}
		case "zset":
			for member, score := range k.ZSet {
				if _, err = m.ZAdd(k.Key, score, member); err != nil {
					break
				}
			}
		}
		if err != nil {
			return fmt.Errorf("restore %s: %w", k.Key, err)
		}
		if ttl > 0 {
			m.SetTTL(k.Key, ttl)
		}
	}
	return nil
}

// readSnapshot reads path; a missing file is an empty snapshot.
func readSnapshot(path string) (snapshot, error) {
	var s snapshot
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("%s is not a snapshot: %w", path, err)
	}
	return s, nil
}

// writeSnapshot writes s to path atomically (a whole new file or none),
// readable by the owner only, and synced before it replaces the old one.
func writeSnapshot(path string, s snapshot) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // gone after the rename; cleans up a failure
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
