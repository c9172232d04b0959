package graph_test

import (
	"net/http"
	"strings"
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// auditRow is what the tests read of an audit entry.
type auditRow struct{ Actor, UserID, UserEmail, Operation, ObjectID string }

const auditFields = `actor userID userEmail operation objectID`

// auditLog reads a merchant's audit log, newest first.
func auditLog(t *testing.T, c gql) []auditRow {
	t.Helper()
	var out struct {
		AuditLog struct {
			Edges []struct{ Node auditRow }
		}
	}
	c.must(`{ auditLog(first: 50) { edges { node { `+auditFields+` } } } }`, nil, &out)
	rows := make([]auditRow, len(out.AuditLog.Edges))
	for i, e := range out.AuditLog.Edges {
		rows[i] = e.Node
	}
	return rows
}

// member invites email with role as the admin c and accepts: the member's session.
func member(t *testing.T, url string, c gql, email, role string) sessionOut {
	t.Helper()
	var inv struct{ InviteUser struct{ Token string } }
	c.must(`mutation($e: String!, $r: Role!) { inviteUser(email: $e, role: $r) { token } }`,
		map[string]any{"e": email, "r": role}, &inv)
	var acc struct{ AcceptInvitation sessionOut }
	newGQL(t, url, "").must(`mutation($t: String!) { acceptInvitation(token: $t, password: "a member's long secret") { `+sessionFields+` } }`,
		map[string]any{"t": inv.InviteUser.Token}, &acc)
	return acc.AcceptInvitation
}

// TestAPIKeyIsNoWayIntoTheDashboard: a merchant's secret key (a server's,
// which may leak) cannot change, remove or invite the merchant's users,
// read them or the audit log, or act on sessions; the admin key cannot
// either once the merchant has an admin. What an admin's session does to
// its people is audited.
func TestAPIKeyIsNoWayIntoTheDashboard(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "admin@leak.example", "Leaky")
	c := bearer(t, srv.URL, admin.Token)
	viewer := member(t, srv.URL, c, "viewer@leak.example", "VIEWER")
	before := auditLog(t, c)

	secret := newGQL(t, srv.URL, apiKey)
	platform := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", admin.MerchantID)
	vars := map[string]any{"u": viewer.User.ID}
	for _, tc := range []struct {
		name  string
		query string
		keys  []gql // the keys refused by the schema
	}{
		{"updateUserRole", `mutation($u: ID!) { updateUserRole(userID: $u, role: ADMIN) { role } }`, []gql{secret, platform}},
		{"removeUser", `mutation($u: ID!) { removeUser(userID: $u) }`, []gql{secret, platform}},
		{"inviteUser", `mutation { inviteUser(email: "mole@leak.example", role: ADMIN) { token } }`, []gql{secret}},
		{"users", `{ users { role } }`, []gql{secret}},
		{"auditLog", `{ auditLog(first: 5) { totalCount } }`, []gql{secret}},
		{"signOut", `mutation { signOut }`, []gql{secret, platform}},
		{"switchMerchant", `mutation($u: ID!) { switchMerchant(merchantID: $u) { token } }`, []gql{secret, platform}},
	} {
		for _, k := range tc.keys {
			r := k.do(tc.query, vars)
			if r.code() != "IR_22" || !strings.Contains(r.message(), "may not run "+tc.name) {
				t.Errorf("%s with an API key: %d %s", tc.name, r.Status, r.Raw)
			}
		}
	}
	// Nor through node(id:): an audit entry is no node a key can fetch.
	var entry struct {
		AuditLog struct {
			Edges []struct{ Node struct{ ID string } }
		}
	}
	c.must(`{ auditLog(first: 1) { edges { node { id } } } }`, nil, &entry)
	var byID struct {
		Node  any
		Nodes []any
	}
	secret.must(`query($id: ID!) { node(id: $id) { id ... on AuditEntry { userEmail } } nodes(ids: [$id]) { id } }`,
		map[string]any{"id": entry.AuditLog.Edges[0].Node.ID}, &byID)
	if byID.Node != nil || len(byID.Nodes) != 1 || byID.Nodes[0] != nil {
		t.Fatalf("a secret key fetched an audit entry by id: %+v", byID)
	}
	// The admin key reaches inviteUser only to make a first admin: this
	// merchant has one.
	platform.fails("IR_22", `mutation { inviteUser(email: "mole@leak.example", role: ADMIN) { token } }`, nil)

	var me struct{ Me struct{ Role string } }
	bearer(t, srv.URL, viewer.Token).must(`{ me { role } }`, nil, &me)
	if me.Me.Role != "VIEWER" {
		t.Fatalf("the viewer's session is %s after the keys' attempts", me.Me.Role)
	}
	if after := auditLog(t, c); len(after) != len(before) {
		t.Fatalf("refused attempts left audit entries: %+v", after[:len(after)-len(before)])
	}

	// An admin's session changes its people, each change audited.
	c.must(`mutation($u: ID!) { updateUserRole(userID: $u, role: OPERATOR) { role } }`, vars, nil)
	c.must(`mutation($u: ID!) { removeUser(userID: $u) }`, vars, nil)
	got := auditLog(t, c)
	want := []auditRow{
		{"user", admin.User.ID, "admin@leak.example", "removeUser", viewer.User.ID},
		{"user", admin.User.ID, "admin@leak.example", "updateUserRole", viewer.User.ID},
	}
	if len(got) != len(before)+2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("audit log %+v, want %+v on top", got, want)
	}
}

// TestAdminKeyBootstrapsFirstAdmin: the admin key (with X-Merchant-Id)
// invites the first admin of a merchant that has none, audited as the
// admin key's; once the merchant has an admin, its admins invite, and an
// earlier invitation of the admin key no longer works.
func TestAdminKeyBootstrapsFirstAdmin(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	merchantID := "merchant_boot_" + strings.ToLower(ids.Base62(6))
	status, body, err := testenv.Call(srv.URL, http.MethodPost, "/accounts", srv.Config.AdminAPIKey,
		map[string]any{"merchant_id": merchantID, "merchant_name": "Bootstrapped"})
	if err != nil || status != http.StatusOK {
		t.Fatalf("create merchant: %d %s %v", status, body, err)
	}
	platform := newGQL(t, srv.URL, srv.Config.AdminAPIKey).with("X-Merchant-Id", merchantID)
	const invite = `mutation($e: String!, $r: Role!) { inviteUser(email: $e, role: $r) { token role } }`
	platform.fails("IR_22", invite, map[string]any{"e": "viewer@boot.example", "r": "VIEWER"}) // the first member is an admin
	newGQL(t, srv.URL, srv.Config.AdminAPIKey).fails("IR_04", invite, map[string]any{"e": "first@boot.example", "r": "ADMIN"})
	var first, second struct{ InviteUser struct{ Token, Role string } }
	platform.must(invite, map[string]any{"e": "first@boot.example", "r": "ADMIN"}, &first)
	platform.must(invite, map[string]any{"e": "second@boot.example", "r": "ADMIN"}, &second)

	const accept = `mutation($t: String!) { acceptInvitation(token: $t, password: "a long admin passphrase") { ` + sessionFields + ` } }`
	var joined struct{ AcceptInvitation sessionOut }
	newGQL(t, srv.URL, "").must(accept, map[string]any{"t": first.InviteUser.Token}, &joined)
	if joined.AcceptInvitation.Role != "ADMIN" || joined.AcceptInvitation.MerchantID != merchantID {
		t.Fatalf("accepted: %+v", joined)
	}
	// The merchant has its admin now: the admin key's other link is spent,
	// and the admin key invites no more.
	newGQL(t, srv.URL, "").fails("UR_04", accept, map[string]any{"t": second.InviteUser.Token})
	platform.fails("IR_22", invite, map[string]any{"e": "third@boot.example", "r": "ADMIN"})
	c := bearer(t, srv.URL, joined.AcceptInvitation.Token)
	c.must(invite, map[string]any{"e": "third@boot.example", "r": "ADMIN"}, nil)

	got := auditLog(t, c)
	if len(got) != 3 || got[0].Actor != "user" || got[0].UserID != joined.AcceptInvitation.User.ID {
		t.Fatalf("audit log: %+v", got)
	}
	for _, e := range got[1:] {
		if e.Actor != "admin_key" || e.UserID != "" || e.UserEmail != "" || e.Operation != "inviteUser" || !strings.HasPrefix(e.ObjectID, "inv_") {
			t.Errorf("the admin key's invitation is audited as %+v", e)
		}
	}
	// The admin key reads the log too, filtered by actor.
	var byKey struct{ AuditLog struct{ TotalCount int } }
	platform.must(`{ auditLog(first: 5, where: {actor: admin_key}) { totalCount } }`, nil, &byKey)
	if byKey.AuditLog.TotalCount != 2 {
		t.Fatalf("the admin key's entries: %+v", byKey)
	}
}
