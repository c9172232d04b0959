package graph_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/internal/testenv"
)

// sessionOut is what the tests read of a session.
type sessionOut struct {
	Token, MerchantID, Role string
	User                    struct{ ID, Email string }
}

const sessionFields = `token merchantID role user { id email }`

// signUp signs a new user up (no credentials) and returns their session,
// the merchant's secret key and publishable key.
func signUp(t *testing.T, url, email, merchantName string) (sessionOut, string) {
	t.Helper()
	var out struct {
		SignUp struct {
			Session         sessionOut
			APIKey          string
			PublishableKey  string
			MerchantAccount struct{ ID, MerchantName string }
		}
	}
	newGQL(t, url, "").must(`mutation($e: String!, $p: String!, $m: String!) { signUp(email: $e, password: $p, merchantName: $m) {
		session { `+sessionFields+` } apiKey publishableKey merchantAccount { id merchantName } } }`,
		map[string]any{"e": email, "p": "correct horse battery", "m": merchantName}, &out)
	s := out.SignUp
	if s.Session.Role != "ADMIN" || s.MerchantAccount.ID != s.Session.MerchantID || s.MerchantAccount.MerchantName != merchantName ||
		!strings.HasPrefix(s.APIKey, "snd_") || !strings.HasPrefix(s.PublishableKey, "pk_snd_") {
		t.Fatalf("sign-up made %+v", s)
	}
	return s.Session, s.APIKey
}

// newUsersServer is a server on a Redis of its own: failed sign-ins are
// counted per email and per client address (127.0.0.1 for every test) in
// Redis for 15 minutes, so a test that fails sign-ins must not share its
// counts with the others, nor with its own earlier runs.
func newUsersServer(t *testing.T) *testenv.Server {
	t.Helper()
	redis := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL, cfg.RedisEmbedded = redis.URL(), false
	return testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
}

// twoProcesses are two servers on one database and one Redis of their own,
// as two processes behind a load balancer.
func twoProcesses(t *testing.T) (one, two *testenv.Server) {
	t.Helper()
	redis := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL, cfg.RedisEmbedded = redis.URL(), false
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	one = testenv.NewServerWith(t, cfg, log)
	cfg2 := *cfg
	return one, testenv.NewServerWith(t, &cfg2, log)
}

// bearer is a client that authenticates with a session.
func bearer(t *testing.T, url, token string) gql {
	return newGQL(t, url, "").with("Authorization", "Bearer "+token)
}

func signIn(t *testing.T, url, email, password string) sessionOut {
	t.Helper()
	var out struct{ SignIn sessionOut }
	newGQL(t, url, "").must(`mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { `+sessionFields+` } }`,
		map[string]any{"e": email, "p": password}, &out)
	return out.SignIn
}

// TestSignUpToFirstPayment: a newcomer signs up and takes a payment over
// GraphQL only, with the session the sign-up gave.
func TestSignUpToFirstPayment(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	sess, apiKey := signUp(t, srv.URL, "Founder@Shop.example", "Founder's shop")
	c := bearer(t, srv.URL, sess.Token)

	var me struct {
		Me struct {
			User        struct{ Email string }
			MerchantID  string
			Role        string
			Memberships []struct{ MerchantID, Role string }
		}
		MerchantAccount struct {
			ConnectorAccounts struct {
				Edges []struct {
					Node struct{ ConnectorName string }
				}
			}
		}
	}
	c.must(`{ me { user { email } merchantID role memberships { merchantID role } }
		merchantAccount { connectorAccounts(first: 5) { edges { node { connectorName } } } } }`, nil, &me)
	if me.Me.User.Email != "Founder@Shop.example" || me.Me.MerchantID != sess.MerchantID || me.Me.Role != "ADMIN" ||
		len(me.Me.Memberships) != 1 || len(me.MerchantAccount.ConnectorAccounts.Edges) != 1 {
		t.Fatalf("after sign-up: %+v", me)
	}

	var paid struct {
		CreatePayment struct {
			Payment struct{ Status, PaymentID string }
		}
	}
	c.must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 1250, currency: "USD", confirm: true,
		paymentMethod: "card", paymentMethodData: $pm}) { payment { status paymentID } } }`,
		map[string]any{"pm": cardInput("4242424242424242")}, &paid)
	if paid.CreatePayment.Payment.Status != "succeeded" {
		t.Fatalf("first payment: %+v", paid)
	}
	// The API key sign-up showed works too, for the same merchant.
	var viewer struct{ Viewer struct{ MerchantID string } }
	newGQL(t, srv.URL, apiKey).must(`{ viewer { merchantID } }`, nil, &viewer)
	if viewer.Viewer.MerchantID != sess.MerchantID {
		t.Fatalf("the sign-up's API key acts for %q, want %q", viewer.Viewer.MerchantID, sess.MerchantID)
	}

	// One email signs up once, whatever its case; the rules hold.
	anon := newGQL(t, srv.URL, "")
	const up = `mutation($e: String!, $p: String!) { signUp(email: $e, password: $p, merchantName: "Shop") { apiKey } }`
	for _, tc := range []struct{ email, password, code, field string }{
		{"founder@shop.EXAMPLE", "correct horse battery", "UR_03", "email"},
		{"not-an-email", "correct horse battery", "UR_07", "email"},
		{"a@localhost", "correct horse battery", "UR_07", "email"},
		{"Name <n@shop.example>", "correct horse battery", "UR_07", "email"},
		{"new@shop.example", "short", "UR_09", "password"},
		{"new@shop.example", "Password123", "UR_09", "password"},
		{"new@shop.example", "aaaaaaaaaaaaaa", "UR_09", "password"},
		{"longname@shop.example", "my longname secret", "UR_09", "password"},
	} {
		e := anon.fails(tc.code, up, map[string]any{"e": tc.email, "p": tc.password})
		if e.Extensions["field"] != tc.field {
			t.Errorf("%s / %s: field %v, want %s", tc.email, tc.password, e.Extensions["field"], tc.field)
		}
	}
	// Without credentials, nothing but the public operations runs.
	if r := anon.do(`{ payments(first: 1) { totalCount } }`, nil); r.Status != http.StatusUnauthorized || r.code() != "IR_01" {
		t.Fatalf("anonymous read: %d %s", r.Status, r.Raw)
	}
	if r := anon.do(`mutation { signIn(email: "founder@shop.example", password: "correct horse battery") { token } payments(first: 1) { totalCount } }`, nil); r.code() != "IR_06" && r.code() != "IR_01" {
		t.Fatalf("a public field beside a private one: %d %s", r.Status, r.Raw)
	}
}

// TestSignOutEndsTheSessionEverywhere: a session works on every process,
// and signing out on one ends it on the other at once.
func TestSignOutEndsTheSessionEverywhere(t *testing.T) {
	one, two := twoProcesses(t)

	signUp(t, one.URL, "ops@two.example", "Two processes")
	sess := signIn(t, two.URL, "OPS@two.example", "correct horse battery")
	on := func(srv *testenv.Server) gql { return bearer(t, srv.URL, sess.Token) }
	on(one).must(`{ me { role } }`, nil, nil)
	on(two).must(`{ me { role } }`, nil, nil)
	var out struct{ SignOut bool }
	on(one).must(`mutation { signOut }`, nil, &out)
	if !out.SignOut {
		t.Fatal("signOut answered false")
	}
	for name, srv := range map[string]*testenv.Server{"the other process": two, "the same process": one} {
		if r := on(srv).do(`{ me { role } }`, nil); r.Status != http.StatusUnauthorized || r.code() != "IR_01" {
			t.Fatalf("a signed-out session on %s: %d %s", name, r.Status, r.Raw)
		}
	}
	if r := bearer(t, one.URL, "sys_forged").do(`{ me { role } }`, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a forged token: %d %s", r.Status, r.Raw)
	}
}

// TestSignInThrottling: failures for one email are slowed, then refused;
// an unknown email and a wrong password get the same answer.
func TestSignInThrottling(t *testing.T) {
	srv := newUsersServer(t)
	var mu sync.Mutex
	var waits []time.Duration
	srv.Users.WithSleep(func(_ context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return nil
	})
	signUp(t, srv.URL, "owner@throttle.example", "Throttled")
	anon := newGQL(t, srv.URL, "")
	const in = `mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }`
	wrong := anon.fails("UR_01", in, map[string]any{"e": "owner@throttle.example", "p": "not the password"})
	unknown := anon.fails("UR_01", in, map[string]any{"e": "nobody@throttle.example", "p": "not the password"})
	if wrong.Message != unknown.Message {
		t.Fatalf("a wrong password says %q, an unknown email %q", wrong.Message, unknown.Message)
	}
	// Failures 2 to 9 for the email (the first was above).
	for i := 2; i <= 9; i++ {
		anon.fails("UR_01", in, map[string]any{"e": "Owner@throttle.example", "p": "not the password"})
	}
	mu.Lock()
	got := append([]time.Duration(nil), waits...)
	mu.Unlock()
	// Attempts after the 3rd failure wait 250 ms, doubling: the 4th to
	// the 9th attempt came after 3 to 8 failures.
	want := []time.Duration{250 * time.Millisecond, 500 * time.Millisecond, time.Second, 2 * time.Second,
		4 * time.Second, 4 * time.Second}
	if len(got) != len(want) {
		t.Fatalf("waits %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("waits %v, want %v", got, want)
		}
	}
	// The 10th failure refuses the email for a while, even the right password.
	anon.fails("UR_01", in, map[string]any{"e": "owner@throttle.example", "p": "not the password"})
	r := anon.do(in, map[string]any{"e": "owner@throttle.example", "p": "correct horse battery"})
	if r.code() != "RL_01" || r.Status != http.StatusOK && r.Status != http.StatusTooManyRequests {
		t.Fatalf("after 10 failures: %d %s", r.Status, r.Raw)
	}
	// Another email from the same address is not refused by the email's count.
	signUp(t, srv.URL, "other@throttle.example", "Other")
	signIn(t, srv.URL, "other@throttle.example", "correct horse battery")
}

// TestInvitations: an admin invites by email with a role; the link works
// once; a user already signed up joins a second merchant with their own
// password and switches between the two.
func TestInvitations(t *testing.T) {
	srv := newUsersServer(t)
	admin, _ := signUp(t, srv.URL, "admin@invite.example", "Inviting shop")
	c := bearer(t, srv.URL, admin.Token)
	invite := func(email, role string) string {
		t.Helper()
		var out struct {
			InviteUser struct{ Token, Email, Role, Link string }
		}
		c.must(`mutation($e: String!, $r: Role!) { inviteUser(email: $e, role: $r) { token email role link } }`,
			map[string]any{"e": email, "r": role}, &out)
		if out.InviteUser.Role != role || !strings.HasPrefix(out.InviteUser.Token, "inv_tok_") ||
			out.InviteUser.Link != srv.Config.PublicURL+"/dashboard/invite#"+out.InviteUser.Token {
			t.Fatalf("invitation: %+v", out)
		}
		return out.InviteUser.Token
	}
	anon := newGQL(t, srv.URL, "")
	const accept = `mutation($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { ` + sessionFields + ` } }`
	// What the link's page shows before it is accepted, to anyone holding it.
	type pending struct {
		Email, Role, MerchantID, MerchantName string
		ExistingUser                          bool
	}
	preview := func(token string) pending {
		t.Helper()
		var out struct{ Invitation pending }
		anon.must(`query($t: String!) { invitation(token: $t) { email role merchantID merchantName existingUser } }`,
			map[string]any{"t": token}, &out)
		return out.Invitation
	}
	const previewQuery = `query($t: String!) { invitation(token: $t) { email } }`

	token := invite("new.dev@invite.example", "DEVELOPER")
	if got := preview(token); got != (pending{Email: "new.dev@invite.example", Role: "DEVELOPER", MerchantID: admin.MerchantID,
		MerchantName: "Inviting shop", ExistingUser: false}) {
		t.Fatalf("the link shows %+v", got)
	}
	anon.fails("UR_09", accept, map[string]any{"t": token, "p": "short"})
	var joined struct{ AcceptInvitation sessionOut }
	anon.must(accept, map[string]any{"t": token, "p": "developer's own secret"}, &joined)
	if joined.AcceptInvitation.Role != "DEVELOPER" || joined.AcceptInvitation.MerchantID != admin.MerchantID {
		t.Fatalf("accepted: %+v", joined)
	}
	dev := joined.AcceptInvitation
	anon.fails("UR_04", accept, map[string]any{"t": token, "p": "developer's own secret"})
	anon.fails("UR_04", accept, map[string]any{"t": "inv_tok_unknown", "p": "developer's own secret"})
	anon.fails("UR_04", previewQuery, map[string]any{"t": token}) // used
	anon.fails("UR_04", previewQuery, map[string]any{"t": "inv_tok_unknown"})
	c.fails("UR_03", `mutation { inviteUser(email: "NEW.dev@invite.example", role: VIEWER) { token } }`, nil)

	// Someone with a user already: their password, not a new one.
	other, _ := signUp(t, srv.URL, "owner@elsewhere.example", "Elsewhere")
	token = invite("owner@elsewhere.example", "OPERATOR")
	if got := preview(token); !got.ExistingUser || got.MerchantName != "Inviting shop" {
		t.Fatalf("the link of an existing user shows %+v", got)
	}
	anon.fails("UR_01", accept, map[string]any{"t": token, "p": "a different password"})
	anon.must(accept, map[string]any{"t": token, "p": "correct horse battery"}, &joined)
	if joined.AcceptInvitation.Role != "OPERATOR" || joined.AcceptInvitation.User.ID != other.User.ID {
		t.Fatalf("an existing user accepted: %+v", joined)
	}
	var me struct {
		Me struct {
			MerchantID, MerchantName string
			Memberships              []struct{ MerchantID, Role string }
		}
	}
	op := bearer(t, srv.URL, joined.AcceptInvitation.Token)
	op.must(`{ me { merchantID merchantName memberships { merchantID role } } }`, nil, &me)
	if me.Me.MerchantID != admin.MerchantID || me.Me.MerchantName != "Inviting shop" || len(me.Me.Memberships) != 2 {
		t.Fatalf("member of two merchants: %+v", me)
	}
	var switched struct{ SwitchMerchant sessionOut }
	op.must(`mutation($m: ID!) { switchMerchant(merchantID: $m) { `+sessionFields+` } }`, map[string]any{"m": other.MerchantID}, &switched)
	if switched.SwitchMerchant.MerchantID != other.MerchantID || switched.SwitchMerchant.Role != "ADMIN" {
		t.Fatalf("switched: %+v", switched)
	}
	// me names the merchant the session now acts for.
	bearer(t, srv.URL, switched.SwitchMerchant.Token).must(`{ me { merchantID merchantName memberships { merchantID role } } }`, nil, &me)
	if me.Me.MerchantID != other.MerchantID || me.Me.MerchantName != "Elsewhere" {
		t.Fatalf("after the switch, me is %+v", me)
	}
	if r := op.do(`{ me { role } }`, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("the session switched away from still works: %d %s", r.Status, r.Raw)
	}
	bearer(t, srv.URL, switched.SwitchMerchant.Token).fails("HE_02", `mutation { switchMerchant(merchantID: "merchant_foreign") { token } }`, nil)

	// Roles change at once; a merchant keeps an admin; a removed member's
	// session stops working.
	var members struct {
		Users []struct {
			Role string
			User struct{ ID, Email string }
		}
	}
	c.must(`{ users { role user { id email } } }`, nil, &members)
	if len(members.Users) != 3 {
		t.Fatalf("members: %+v", members)
	}
	c.fails("UR_24", `mutation($u: ID!) { updateUserRole(userID: $u, role: VIEWER) { role } }`, map[string]any{"u": admin.User.ID})
	c.must(`mutation($u: ID!) { updateUserRole(userID: $u, role: VIEWER) { role } }`, map[string]any{"u": other.User.ID}, nil)
	devClient := bearer(t, srv.URL, dev.Token)
	devClient.must(`{ me { role } }`, nil, nil)
	c.must(`mutation($u: ID!) { removeUser(userID: $u) }`, map[string]any{"u": dev.User.ID}, nil)
	if r := devClient.do(`{ me { role } }`, nil); r.Status != http.StatusUnauthorized {
		t.Fatalf("a removed member's session: %d %s", r.Status, r.Raw)
	}
	c.fails("HE_02", `mutation($u: ID!) { removeUser(userID: $u) }`, map[string]any{"u": dev.User.ID})
}

// TestAuditLog: each change a user makes leaves one entry, written with
// the change; a refused or failed mutation and a read leave none; an
// admin reads them newest first.
func TestAuditLog(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "admin@audit.example", "Audited")
	c := bearer(t, srv.URL, admin.Token)
	var inv struct{ InviteUser struct{ Token string } }
	c.with("X-Request-Id", "req-invite-1").must(`mutation { inviteUser(email: "ops@audit.example", role: OPERATOR) { token } }`, nil, &inv)
	var ops struct{ AcceptInvitation sessionOut }
	newGQL(t, srv.URL, "").must(`mutation($t: String!) { acceptInvitation(token: $t, password: "operator's long secret") { `+sessionFields+` } }`,
		map[string]any{"t": inv.InviteUser.Token}, &ops)
	op := bearer(t, srv.URL, ops.AcceptInvitation.Token)

	var paid struct {
		CreatePayment struct{ Payment struct{ PaymentID string } }
	}
	op.with("X-Request-Id", "req-pay-1").must(`mutation($pm: PaymentMethodDataInput) { createPayment(input: {amount: 900, currency: "EUR",
		confirm: true, captureMethod: "manual", paymentMethod: "card", paymentMethodData: $pm}) { payment { paymentID } } }`,
		map[string]any{"pm": cardInput("4242424242424242")}, &paid)
	payID := paid.CreatePayment.Payment.PaymentID
	op.must(`mutation($id: ID!) { capturePayment(id: $id) { payment { status } } }`, map[string]any{"id": payID}, nil)
	// Refused, failed and read: nothing recorded.
	op.fails("IR_22", `mutation { createApiKey(input: {name: "nope", expiration: "never"}) { key } }`, nil)
	op.fails("HE_02", `mutation { capturePayment(id: "pay_unknown") { payment { status } } }`, nil)
	op.must(`{ payments(first: 5) { totalCount } }`, nil, nil)
	// An API key's changes are not a user's.
	newGQL(t, srv.URL, apiKey).must(`mutation { createCustomer(input: {name: "By key"}) { customer { customerID } } }`, nil, nil)
	var ref struct {
		CreateRefund struct{ Refund struct{ RefundID string } }
	}
	op.must(`mutation($p: ID!) { createRefund(input: {paymentID: $p, amount: 100}) { refund { refundID } } }`, map[string]any{"p": payID}, &ref)

	type entry struct{ UserID, UserEmail, Operation, ObjectID, RequestID string }
	var log struct {
		AuditLog struct {
			TotalCount int
			Edges      []struct{ Node entry }
		}
	}
	c.must(`{ auditLog(first: 20) { totalCount edges { node { userID userEmail operation objectID requestID } } } }`, nil, &log)
	want := []entry{
		{ops.AcceptInvitation.User.ID, "ops@audit.example", "createRefund", ref.CreateRefund.Refund.RefundID, ""},
		{ops.AcceptInvitation.User.ID, "ops@audit.example", "capturePayment", payID, ""},
		{ops.AcceptInvitation.User.ID, "ops@audit.example", "createPayment", payID, "req-pay-1"},
		{admin.User.ID, "admin@audit.example", "inviteUser", "", "req-invite-1"},
	}
	if log.AuditLog.TotalCount != len(want) {
		t.Fatalf("audit log: %+v, want %d entries", log.AuditLog, len(want))
	}
	for i, w := range want {
		got := log.AuditLog.Edges[i].Node
		if w.Operation == "inviteUser" {
			w.ObjectID = got.ObjectID // the invitation's id, which no answer showed
			if !strings.HasPrefix(got.ObjectID, "inv_") {
				t.Errorf("inviteUser's object: %q", got.ObjectID)
			}
		}
		if w.RequestID == "" {
			w.RequestID = got.RequestID // made by the server
		}
		if got != w || got.RequestID == "" {
			t.Errorf("entry %d: %+v, want %+v", i, got, w)
		}
	}
	// The log is the admin's to read.
	op.fails("IR_22", `{ auditLog(first: 5) { totalCount } }`, nil)
}

// TestConfiguredLifetimes: SWITCHYARD_SESSION_IDLE_TIMEOUT,
// SWITCHYARD_SESSION_MAX_AGE and SWITCHYARD_INVITATION_EXPIRY reach the
// sessions Redis keeps, the expiry a session reports and an invitation's.
func TestConfiguredLifetimes(t *testing.T) {
	private := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL, cfg.RedisEmbedded = private.URL(), false
	cfg.SessionIdleTimeout, cfg.SessionMaxAge, cfg.InvitationExpiry = 15*time.Minute, time.Hour, 2*time.Hour
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	near := func(what string, got time.Time, want time.Duration) {
		t.Helper()
		if d := time.Until(got); d > want || d < want-time.Minute {
			t.Errorf("%s ends in %v, want %v", what, d, want)
		}
	}

	signUp(t, srv.URL, "admin@lifetimes.example", "Short sessions")
	var in struct {
		SignIn struct{ Token, ExpiresAt string }
	}
	newGQL(t, srv.URL, "").must(`mutation { signIn(email: "admin@lifetimes.example", password: "correct horse battery") { token expiresAt } }`,
		nil, &in)
	expires, err := time.Parse(time.RFC3339, in.SignIn.ExpiresAt)
	if err != nil {
		t.Fatal(err)
	}
	near("the session", expires, 15*time.Minute)
	keys, err := srv.Redis.Client.Keys(context.Background(), "session:*").Result()
	if err != nil || len(keys) != 2 { // the sign-up's session and the sign-in's
		t.Fatalf("sessions in Redis: %v %v", keys, err)
	}
	for _, k := range keys {
		if ttl := srv.Redis.Client.TTL(context.Background(), k).Val(); ttl > 15*time.Minute || ttl < 14*time.Minute {
			t.Errorf("Redis keeps %s for %v, want 15m", k, ttl)
		}
	}

	var inv struct{ InviteUser struct{ ExpiresAt string } }
	bearer(t, srv.URL, in.SignIn.Token).must(`mutation { inviteUser(email: "dev@lifetimes.example", role: DEVELOPER) { expiresAt } }`,
		nil, &inv)
	invExpires, err := time.Parse(time.RFC3339, inv.InviteUser.ExpiresAt)
	if err != nil {
		t.Fatal(err)
	}
	near("the invitation", invExpires, 2*time.Hour)
}

// TestInvitationEmails: with SWITCHYARD_SMTP_URL set, an invitation's
// link is e-mailed to the invited address, naming the merchant and the
// role, and inviteUser says so; an SMTP server that is down leaves the
// invitation made, with its link to pass on by hand; without SMTP nothing
// is sent.
func TestInvitationEmails(t *testing.T) {
	smtp := testenv.StartSMTP(t, "", "")
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.SMTPURL = smtp.URL
	srv := testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	admin, _ := signUp(t, srv.URL, "owner@mail.example", "Mail shop")
	var out struct {
		InviteUser struct {
			Link    string
			Emailed bool
		}
	}
	bearer(t, srv.URL, admin.Token).must(`mutation { inviteUser(email: "new.operator@mail.example", role: OPERATOR) { link emailed } }`, nil, &out)
	if !out.InviteUser.Emailed || !strings.Contains(out.InviteUser.Link, "/dashboard/invite#inv_tok_") {
		t.Fatalf("inviteUser: %+v", out)
	}
	msg := smtp.Wait(t, 1, 10*time.Second)[0]
	if len(msg.To) != 1 || msg.To[0] != "new.operator@mail.example" {
		t.Fatalf("sent to %v", msg.To)
	}
	for _, want := range []string{"Subject: Your invitation to Mail shop on Switchyard", "join Mail shop on Switchyard as an operator",
		out.InviteUser.Link + "\r\n"} {
		if !strings.Contains(msg.Data, want) {
			t.Errorf("the e-mail lacks %q:\n%s", want, msg.Data)
		}
	}

	// SMTP down: the invitation is made all the same.
	down := testenv.Config(t, testenv.Database(t))
	down.SMTPURL = "smtp://" + testenv.FreeAddr(t)
	srv2 := testenv.NewServerWith(t, down, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	admin2, _ := signUp(t, srv2.URL, "owner@down.example", "Down shop")
	bearer(t, srv2.URL, admin2.Token).must(`mutation { inviteUser(email: "someone@down.example", role: VIEWER) { link emailed } }`, nil, &out)
	if out.InviteUser.Emailed || out.InviteUser.Link == "" {
		t.Fatalf("with SMTP down: %+v", out)
	}
	// No SMTP: nothing sent, the link answered.
	plain := testenv.NewServer(t, testenv.Database(t))
	admin3, _ := signUp(t, plain.URL, "owner@nomail.example", "No mail shop")
	bearer(t, plain.URL, admin3.Token).must(`mutation { inviteUser(email: "someone@nomail.example", role: VIEWER) { link emailed } }`, nil, &out)
	if out.InviteUser.Emailed || len(smtp.Messages()) != 1 {
		t.Fatalf("without SMTP: %+v, %d messages", out, len(smtp.Messages()))
	}
}
