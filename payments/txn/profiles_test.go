package txn_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"switchyard/internal/testenv"
	"switchyard/payments/txn"
)

// memoryVersions is a merchant configuration version store in memory.
type memoryVersions struct {
	mu sync.Mutex
	v  map[string]int64
}

func (m *memoryVersions) Version(_ context.Context, merchantID string) (int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.v[merchantID], nil
}

func (m *memoryVersions) Bump(_ context.Context, merchantID string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.v[merchantID]++
	return nil
}

// TestConfigCacheRenewsAfterItsBound: a profile's configuration is read
// once, served from memory until a minute has passed since that read, then
// read again and served from memory for another minute; a change read from
// the version store (another process's) makes the next read go to the
// database. A read from the database gives a new *ProfileConfig, one from
// memory the one kept.
func TestConfigCacheRenewsAfterItsBound(t *testing.T) {
	for _, b := range testenv.Backends(t) {
		t.Run(b.Name, func(t *testing.T) {
			ctx, db, _ := merchantDB(t, b, "m_cfg")
			db.Client.Profile.Create().SetID("pro_cfg").SetProfileName("default").SetIsDefault(true).
				SetPaymentResponseHashKeySealed([]byte("x")).SaveX(ctx)
			versions := &memoryVersions{v: map[string]int64{}}
			db.UseConfigVersions(versions)
			now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
			db.Now = func() time.Time { return now }
			read := func() *txn.ProfileConfig {
				t.Helper()
				pc, err := db.ProfileConfig(ctx, db.Client, "")
				if err != nil || pc.Profile.ID != "pro_cfg" {
					t.Fatalf("profile config: %v %v", pc, err)
				}
				return pc
			}
			steps := []struct {
				name    string
				advance time.Duration
				bump    bool
				fresh   bool // read from the database
			}{
				{"the first read", 0, false, true},
				{"at once", 0, false, false},
				{"59 s later", 59 * time.Second, false, false},
				{"past the minute", 2 * time.Second, false, true},
				{"just after", time.Second, false, false},
				{"59 s after the second read", 58 * time.Second, false, false},
				{"past the second minute", time.Second, false, true},
				{"a change elsewhere", 0, true, true},
				{"after the change", time.Second, false, false},
			}
			var last *txn.ProfileConfig
			for _, st := range steps {
				now = now.Add(st.advance)
				if st.bump {
					_ = versions.Bump(ctx, "m_cfg")
				}
				pc := read()
				if fresh := pc != last; fresh != st.fresh {
					t.Fatalf("%s: read from the database %v, want %v", st.name, fresh, st.fresh)
				}
				last = pc
			}
		})
	}
}
