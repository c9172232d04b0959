package graph_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"switchyard/internal/config"
	"switchyard/internal/testenv"
	"switchyard/payments/users"
)

const signInDoc = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token role } }`

// isolatedServer is a server whose sign-in counters no other test shares:
// on a Redis of its own when the tests share one, else on the embedded
// Redis each server has. edit, if any, changes its configuration first.
func isolatedServer(t *testing.T, edit func(*config.Config)) *testenv.Server {
	t.Helper()
	cfg := testenv.Config(t, testenv.Database(t))
	if !cfg.RedisEmbedded {
		cfg.RedisURL = testenv.StartRedis(t).URL()
	}
	if edit != nil {
		edit(cfg)
	}
	return testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
}

// burst sends every operation at once (each from its own goroutine,
// released together) and returns the answers in the order given.
func burst(t *testing.T, c gql, query string, vars []map[string]any) []gqlResponse {
	t.Helper()
	out := make([]gqlResponse, len(vars))
	errs := make([]error, len(vars))
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i, v := range vars {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			out[i], errs[i] = c.send(query, v)
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	return out
}

// answerCodes counts the answers by code ("ok" for a success).
func answerCodes(rs []gqlResponse) map[string]int {
	n := map[string]int{}
	for _, r := range rs {
		if r.code() == "" {
			n["ok"]++
		} else {
			n[r.code()]++
		}
	}
	return n
}

// noWaits makes the throttle's waits instant: what is checked is who gets
// through, not how long they wait.
func noWaits(srv *testenv.Server) {
	srv.Users.WithSleep(func(context.Context, time.Duration) error { return nil })
}

// TestSignInBurst: a burst of concurrent sign-ins for one email reaches
// the password check no more often than the policy allows, each attempt
// being counted before its password is checked; the rest are refused
// (RL_01, with Retry-After), the right password among them. The same holds
// per client address across many emails.
func TestSignInBurst(t *testing.T) {
	policy := users.DefaultPolicy
	wrong := func(email string) map[string]any { return map[string]any{"e": email, "p": "not the password"} }

	// ownerBurst fires 60 sign-ins at once for one user, wrong but for
	// the one at rightAt (none when it is -1), and returns the answers.
	ownerBurst := func(t *testing.T, rightAt int) (*testenv.Server, []gqlResponse) {
		srv := isolatedServer(t, nil)
		noWaits(srv)
		signUp(t, srv.URL, "owner@burst.example", "Burst")
		vars := make([]map[string]any, 60)
		for i := range vars {
			vars[i] = wrong("owner@burst.example")
		}
		if rightAt >= 0 {
			vars[rightAt] = map[string]any{"e": "owner@burst.example", "p": "correct horse battery"}
		}
		return srv, burst(t, newGQL(t, srv.URL, ""), signInDoc, vars)
	}

	t.Run("one email, every password wrong", func(t *testing.T) {
		srv, rs := ownerBurst(t, -1)
		got := answerCodes(rs)
		t.Logf("60 wrong passwords at once: %v", got)
		// Every attempt gets a count of its own: exactly the policy's
		// number reach the password check.
		if got["UR_01"] != int(policy.EmailRefuseAfter) || got["RL_01"] != 60-int(policy.EmailRefuseAfter) {
			t.Fatalf("answers %v, want %d UR_01 and the rest RL_01", got, policy.EmailRefuseAfter)
		}
		for _, r := range rs {
			if r.code() == "RL_01" && (r.Header.Get("Retry-After") == "" || r.Errors[0].Extensions["retryAfter"] == nil) {
				t.Fatalf("a refusal without Retry-After: %v %s", r.Header, r.Raw)
			}
		}
		// The email stays refused, even with the right password.
		r := newGQL(t, srv.URL, "").do(signInDoc, map[string]any{"e": "owner@burst.example", "p": "correct horse battery"})
		if r.code() != "RL_01" {
			t.Fatalf("the right password after the burst: %d %s", r.Status, r.Raw)
		}
	})

	t.Run("one email, the right password at position 53", func(t *testing.T) {
		_, rs := ownerBurst(t, 52)
		got := answerCodes(rs)
		t.Logf("59 wrong passwords and the right one at once: %v", got)
		checked := got["UR_01"] + got["ok"]
		switch {
		case got["UR_01"]+got["RL_01"]+got["ok"] != 60 || got["ok"] > 1:
			t.Fatalf("answers %v: want only UR_01, RL_01 and at most one success", got)
		case got["ok"] == 0 && checked != int(policy.EmailRefuseAfter):
			t.Fatalf("answers %v: %d reached the password check, want %d", got, checked, policy.EmailRefuseAfter)
		case got["ok"] == 1 && checked > 2*int(policy.EmailRefuseAfter):
			// The right password got through among the first of the window
			// and cleared it (a success does): a new window starts.
			t.Fatalf("answers %v: %d reached the password check, want at most %d", got, checked, 2*policy.EmailRefuseAfter)
		}
	})

	t.Run("one address, many emails", func(t *testing.T) {
		srv := isolatedServer(t, nil)
		noWaits(srv)
		// Twelve unknown emails, ten wrong attempts each: no email reaches
		// its own limit, the address does.
		var vars []map[string]any
		for i := range 12 {
			for range policy.EmailRefuseAfter {
				vars = append(vars, wrong(fmt.Sprintf("nobody%02d@burst.example", i)))
			}
		}
		got := answerCodes(burst(t, newGQL(t, srv.URL, ""), signInDoc, vars))
		t.Logf("%d wrong attempts at once from one address: %v", len(vars), got)
		// RL_02 (no hashing slot in time) checked nothing and took its
		// count back; every other attempt past the address's limit is RL_01.
		if got["UR_01"] > int(policy.AddrRefuseAfter) || got["UR_01"]+got["RL_01"]+got["RL_02"] != len(vars) ||
			got["RL_01"] < len(vars)-int(policy.AddrRefuseAfter) {
			t.Fatalf("answers %v: want at most %d UR_01, the rest RL_01 (or RL_02)", got, policy.AddrRefuseAfter)
		}
	})
}

// TestPasswordHashingBound: sign-ups and sign-ins at once never compute
// more password hashes at the same time than the configured slots, and
// each one is answered with a success or RL_02 (503's kind, Retry-After).
func TestPasswordHashingBound(t *testing.T) {
	const slots, n = 2, 24
	srv := isolatedServer(t, func(cfg *config.Config) { cfg.PasswordHashesAtOnce = slots })
	noWaits(srv)
	check := func(what string, rs []gqlResponse) {
		t.Helper()
		got := answerCodes(rs)
		t.Logf("%d %s at once: %v, hashing %+v", n, what, got, srv.Users.Hashing())
		if got["ok"]+got["RL_02"] != n || got["ok"] == 0 {
			t.Fatalf("%s: answers %v, want successes and RL_02 only", what, got)
		}
		for _, r := range rs {
			if r.code() == "RL_02" && (r.Header.Get("Retry-After") != "1" || r.Errors[0].Extensions["retryAfter"] != float64(1)) {
				t.Fatalf("%s: a refusal without Retry-After: %v %s", what, r.Header, r.Raw)
			}
		}
		if h := srv.Users.Hashing(); h.Slots != slots || h.Peak > slots || h.Peak < 1 || h.Active != 0 {
			t.Fatalf("%s: hashing %+v, want at most %d at once", what, h, slots)
		}
	}
	const up = `mutation($e: String!, $p: String!) { signUp(email: $e, password: $p, merchantName: "Bound") { session { token } } }`
	vars := make([]map[string]any, n)
	for i := range vars {
		vars[i] = map[string]any{"e": fmt.Sprintf("user%02d@bound.example", i), "p": "correct horse battery"}
	}
	check("sign-ups", burst(t, newGQL(t, srv.URL, ""), up, vars))
	check("sign-ins", burst(t, newGQL(t, srv.URL, ""), signInDoc, vars))
}

// TestMemberSessionsEndForGood: removing a member ends their sessions on
// the merchant for good (an invitation accepted again, even with a higher
// role, does not revive them), and so does a role change, on every process
// sharing the database and Redis; signing in again gives the new role.
func TestMemberSessionsEndForGood(t *testing.T) {
	one, two := twoProcesses(t)
	servers := map[string]*testenv.Server{"one": one, "two": two}

	admin, _ := signUp(t, one.URL, "admin@revoke.example", "Revoking shop")
	boss := bearer(t, two.URL, admin.Token) // the admin works on the other process
	const password = "operator's long secret"
	accept := func(role string) sessionOut {
		t.Helper()
		var inv struct{ InviteUser struct{ Token string } }
		boss.must(`mutation($r: Role!) { inviteUser(email: "ops@revoke.example", role: $r) { token } }`, map[string]any{"r": role}, &inv)
		var out struct{ AcceptInvitation sessionOut }
		newGQL(t, one.URL, "").must(`mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { `+sessionFields+` } }`,
			map[string]any{"t": inv.InviteUser.Token, "p": password}, &out)
		if out.AcceptInvitation.Role != role {
			t.Fatalf("accepted as %s, want %s", out.AcceptInvitation.Role, role)
		}
		return out.AcceptInvitation
	}
	works := func(token, role string) {
		t.Helper()
		for name, srv := range servers {
			var me struct{ Me struct{ Role string } }
			bearer(t, srv.URL, token).must(`{ me { role } }`, nil, &me)
			if me.Me.Role != role {
				t.Fatalf("on process %s the session acts as %s, want %s", name, me.Me.Role, role)
			}
		}
	}
	refused := func(token, why string) {
		t.Helper()
		for name, srv := range servers {
			if r := bearer(t, srv.URL, token).do(`{ me { role } }`, nil); r.Status != http.StatusUnauthorized || r.code() != "IR_01" {
				t.Fatalf("%s: on process %s the old session answers %d %s", why, name, r.Status, r.Raw)
			}
		}
	}

	ops := accept("OPERATOR")
	old := ops.Token
	works(old, "OPERATOR")
	boss.must(`mutation($u: ID!) { removeUser(userID: $u) }`, map[string]any{"u": ops.User.ID}, nil)
	refused(old, "removed")
	again := accept("ADMIN") // the same user, their own password
	if again.User.ID != ops.User.ID {
		t.Fatalf("re-invited as another user: %+v", again)
	}
	refused(old, "removed, then invited again as ADMIN")
	works(again.Token, "ADMIN")

	// A role change ends the sessions on the merchant; the same role again
	// changes nothing.
	boss.must(`mutation($u: ID!) { updateUserRole(userID: $u, role: ADMIN) { role } }`, map[string]any{"u": ops.User.ID}, nil)
	works(again.Token, "ADMIN")
	boss.must(`mutation($u: ID!) { updateUserRole(userID: $u, role: VIEWER) { role } }`, map[string]any{"u": ops.User.ID}, nil)
	refused(again.Token, "demoted to VIEWER")
	viewer := signIn(t, two.URL, "ops@revoke.example", password)
	if viewer.Role != "VIEWER" {
		t.Fatalf("signed in again as %s, want VIEWER", viewer.Role)
	}
	works(viewer.Token, "VIEWER")
	bearer(t, one.URL, viewer.Token).fails("IR_22", `mutation { inviteUser(email: "x@revoke.example", role: ADMIN) { token } }`, nil)
	// Promoted back: the viewer's session ends too, not promoted with it.
	boss.must(`mutation($u: ID!) { updateUserRole(userID: $u, role: ADMIN) { role } }`, map[string]any{"u": ops.User.ID}, nil)
	refused(viewer.Token, "promoted to ADMIN")
	refused(old, "after every change")
	works(signIn(t, one.URL, "ops@revoke.example", password).Token, "ADMIN")
}
