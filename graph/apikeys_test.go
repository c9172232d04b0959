package graph_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// keyClock is a clock the tests advance past a key's expiry rather than
// wait for it: every process of a test reads the same one.
type keyClock struct{ offset atomic.Int64 }

func (c *keyClock) now() time.Time            { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *keyClock) advance(d time.Duration)   { c.offset.Add(int64(d)) }
func (c *keyClock) in(d time.Duration) string { return c.now().Add(d).UTC().Format(time.RFC3339) }

type keyOut struct {
	APIKey struct {
		ID, Name, Prefix string
		ExpiresAt        *string
		RevokedAt        *string
	}
	Key      string
	Previous struct {
		ID        string
		ExpiresAt *string
	}
	Replayed bool
}

const keyFields = `apiKey { id name prefix expiresAt revokedAt } key replayed`

// works reports whether a secret key authenticates now, failing the test
// on any answer but success or IR_01.
func works(t *testing.T, url, key string) bool {
	t.Helper()
	r := newGQL(t, url, key).do(`{ viewer { keyID } }`, nil)
	switch {
	case r.Status == http.StatusOK && len(r.Errors) == 0:
		return true
	case r.Status == http.StatusUnauthorized && r.code() == "IR_01":
		return false
	}
	t.Fatalf("key %s…: %d %s", key[:8], r.Status, r.Raw)
	return false
}

// TestSessionsManageAndRollAPIKeys: admins' and developers' sessions
// create, revoke and roll the merchant's keys, audited; operators and
// viewers may not. A rolled key keeps working for the grace period the
// caller chose, and no longer (with 0, not at all), on every process, while
// the new key works at once.
func TestSessionsManageAndRollAPIKeys(t *testing.T) {
	one, two := twoProcesses(t)
	clock := &keyClock{}
	one.Merchants.WithClock(clock.now)
	two.Merchants.WithClock(clock.now)

	admin, _ := signUp(t, one.URL, "admin@keys.example", "Keys")
	c := bearer(t, one.URL, admin.Token)
	sessions := map[string]gql{"ADMIN": c}
	for _, role := range []string{"DEVELOPER", "OPERATOR", "VIEWER"} {
		sessions[role] = bearer(t, one.URL, member(t, one.URL, c, strings.ToLower(role)+"@keys.example", role).Token)
	}
	create := func(who gql, name, expiration string) keyOut {
		t.Helper()
		var out struct{ CreateAPIKey keyOut }
		who.must(`mutation($n: String!, $e: String!) { createApiKey(input: {name: $n, expiration: $e}) { `+keyFields+` } }`,
			map[string]any{"n": name, "e": expiration}, &out)
		return out.CreateAPIKey
	}
	const roll = `mutation($id: ID!, $g: Int!, $k: String) { rollApiKey(id: $id, gracePeriodSeconds: $g, idempotencyKey: $k) {
		` + keyFields + ` previous { id expiresAt } } }`
	rollKey := func(who gql, id string, grace int, idem string) keyOut {
		t.Helper()
		var out struct{ RollAPIKey keyOut }
		vars := map[string]any{"id": id, "g": grace}
		if idem != "" {
			vars["k"] = idem
		}
		who.must(roll, vars, &out)
		return out.RollAPIKey
	}

	t.Run("admins and developers create and revoke", func(t *testing.T) {
		for _, role := range []string{"ADMIN", "DEVELOPER"} {
			k := create(sessions[role].on(t), "by "+role, "never")
			if !strings.HasPrefix(k.Key, "snd_") || !works(t, one.URL, k.Key) || !works(t, two.URL, k.Key) {
				t.Fatalf("%s created %+v, which does not work", role, k)
			}
			var rev struct{ RevokeAPIKey keyOut }
			sessions[role].on(t).must(`mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { id revokedAt } } }`, map[string]any{"id": k.APIKey.ID}, &rev)
			if rev.RevokeAPIKey.APIKey.RevokedAt == nil || works(t, one.URL, k.Key) || works(t, two.URL, k.Key) {
				t.Fatalf("%s revoked %+v, which still works", role, rev)
			}
		}
	})

	t.Run("operators and viewers may not", func(t *testing.T) {
		k := create(c.on(t), "kept", "never")
		for _, role := range []string{"OPERATOR", "VIEWER"} {
			s := sessions[role].on(t)
			s.fails("IR_22", `mutation { createApiKey(input: {name: "x", expiration: "never"}) { key } }`, nil)
			s.fails("IR_22", `mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { id } } }`, map[string]any{"id": k.APIKey.ID})
			s.fails("IR_22", roll, map[string]any{"id": k.APIKey.ID, "g": 60})
		}
		if !works(t, one.URL, k.Key) {
			t.Fatal("a refused revoke or roll ended the key")
		}
	})

	t.Run("a rolled key works for its grace period", func(t *testing.T) {
		old := create(c.on(t), "backend", "never")
		if !works(t, one.URL, old.Key) || !works(t, two.URL, old.Key) { // each process caches it
			t.Fatal("a new key does not work")
		}
		idem := "roll-" + ids.Base62(10)
		rolled := rollKey(sessions["DEVELOPER"].on(t), old.APIKey.ID, 3600, idem)
		again := rollKey(sessions["DEVELOPER"].on(t), old.APIKey.ID, 3600, idem)
		ends, err := time.Parse(time.RFC3339, *rolled.Previous.ExpiresAt)
		if err != nil || rolled.Previous.ID != old.APIKey.ID || rolled.APIKey.Name != "backend" || rolled.APIKey.ExpiresAt != nil ||
			ends.Sub(clock.now()) > time.Hour || ends.Sub(clock.now()) < time.Hour-time.Minute ||
			!again.Replayed || again.Key != rolled.Key || again.APIKey.ID != rolled.APIKey.ID {
			t.Fatalf("rolled %+v (%v), replayed %+v", rolled, err, again)
		}
		for _, srv := range []*testenv.Server{one, two} {
			if !works(t, srv.URL, old.Key) || !works(t, srv.URL, rolled.Key) {
				t.Fatal("within the grace period both keys work")
			}
		}
		clock.advance(59 * time.Minute)
		if !works(t, two.URL, old.Key) {
			t.Fatal("the old key ended before its grace period did")
		}
		clock.advance(time.Minute + time.Second)
		for _, srv := range []*testenv.Server{one, two} {
			if works(t, srv.URL, old.Key) || !works(t, srv.URL, rolled.Key) {
				t.Fatal("after the grace period only the new key works")
			}
		}
		// A revoked key is not rolled (it is not found, as for revoking it again).
		c.on(t).must(`mutation($id: ID!) { revokeApiKey(id: $id) { apiKey { id } } }`, map[string]any{"id": old.APIKey.ID}, nil)
		c.on(t).fails("HE_02", roll, map[string]any{"id": old.APIKey.ID, "g": 0})

		// Grace 0: the old key ends at once, on every process.
		now := rollKey(c.on(t), rolled.APIKey.ID, 0, "")
		for _, srv := range []*testenv.Server{one, two} {
			if works(t, srv.URL, rolled.Key) || !works(t, srv.URL, now.Key) {
				t.Fatal("with no grace the old key ends at once and the new one works")
			}
		}
	})

	t.Run("a roll never extends an expiry", func(t *testing.T) {
		soon := create(c.on(t), "short-lived", clock.in(10*time.Minute))
		rolled := rollKey(c.on(t), soon.APIKey.ID, 86400, "")
		if *rolled.Previous.ExpiresAt != *soon.APIKey.ExpiresAt {
			t.Fatalf("the roll moved the old key's expiry from %s to %s", *soon.APIKey.ExpiresAt, *rolled.Previous.ExpiresAt)
		}
	})

	t.Run("the grace period is 0 to 24 hours", func(t *testing.T) {
		k := create(c.on(t), "bounded", "never")
		for _, g := range []int{-1, 86401, 7 * 86400} {
			e := c.on(t).fails("IR_07", roll, map[string]any{"id": k.APIKey.ID, "g": g})
			if e.Extensions["field"] != "gracePeriodSeconds" {
				t.Errorf("grace %d: %+v", g, e)
			}
		}
		if !works(t, one.URL, k.Key) {
			t.Fatal("a refused roll ended the key")
		}
	})

	t.Run("audited", func(t *testing.T) {
		counts := map[string]int{}
		for _, e := range auditLog(t, c.on(t)) {
			if e.Actor == "user" && strings.Contains(e.Operation, "ApiKey") && strings.HasPrefix(e.ObjectID, "key_") {
				counts[e.Operation]++
			}
		}
		// Created: 2, kept, backend, short-lived, bounded; revoked: 2 and
		// backend; rolled: backend (once: the replay is not a change),
		// its successor, short-lived.
		if counts["createApiKey"] != 6 || counts["revokeApiKey"] != 3 || counts["rollApiKey"] != 3 {
			t.Fatalf("audited key changes: %v", counts)
		}
	})
}
