package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"switchyard/graph"
	"switchyard/graph/cursors"
	"switchyard/internal/testenv"
)

// receiveWithin bounds each wait for a message: generous, it only keeps a
// broken test from hanging.
const receiveWithin = 30 * time.Second

// liveClient speaks graphql-transport-ws to /graphql over a real websocket.
type liveClient struct {
	t    testing.TB
	conn *websocket.Conn
	// held are messages read while waiting for another subscription's.
	held []liveMessage
}

// dialLive opens a socket to srv's endpoint with headers (Origin, say).
func dialLive(t testing.TB, url string, headers ...string) (*liveClient, *http.Response, error) {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	ctx, cancel := context.WithTimeout(context.Background(), receiveWithin)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(url, "http")+"/graphql", &websocket.DialOptions{
		Subprotocols: []string{"graphql-transport-ws"}, HTTPHeader: h,
	})
	if err != nil {
		return nil, resp, err
	}
	t.Cleanup(func() { _ = conn.CloseNow() })
	if conn.Subprotocol() != "graphql-transport-ws" {
		t.Fatalf("subprotocol %q", conn.Subprotocol())
	}
	return &liveClient{t: t, conn: conn}, resp, nil
}

type liveMessage struct {
	Type    string          `json:"type"`
	ID      string          `json:"id,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

func (c *liveClient) send(typ, id string, payload any) error {
	m := map[string]any{"type": typ}
	if id != "" {
		m["id"] = id
	}
	if payload != nil {
		m["payload"] = payload
	}
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), receiveWithin)
	defer cancel()
	return c.conn.Write(ctx, websocket.MessageText, b)
}

// next is the next message that is not a ping (a ping is answered),
// within receiveWithin however many pings come first.
func (c *liveClient) next() (liveMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), receiveWithin)
	defer cancel()
	for {
		_, b, err := c.conn.Read(ctx)
		if err != nil {
			return liveMessage{}, err
		}
		var m liveMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return liveMessage{}, fmt.Errorf("%s: %v", b, err)
		}
		if m.Type == "ping" {
			_ = c.send("pong", "", nil)
			continue
		}
		return m, nil
	}
}

// nextFor is the next message of subscription id; the others' are held
// for their own turn.
func (c *liveClient) nextFor(id string) (liveMessage, error) {
	for i, m := range c.held {
		if m.ID == id {
			c.held = append(c.held[:i], c.held[i+1:]...)
			return m, nil
		}
	}
	for {
		m, err := c.next()
		if err != nil || m.ID == id {
			return m, err
		}
		c.held = append(c.held, m)
	}
}

// init sends connection_init with payload and returns the answer: the ack,
// or the error the socket was closed with.
func (c *liveClient) init(payload map[string]any) (liveMessage, error) {
	if err := c.send("connection_init", "", payload); err != nil {
		return liveMessage{}, err
	}
	return c.next()
}

// connect opens a socket authenticated by payload, or fails the test.
func connect(t testing.TB, url string, payload map[string]any) *liveClient {
	t.Helper()
	c, resp, err := dialLive(t, url)
	if err != nil {
		t.Fatalf("dial: %v (%+v)", err, resp)
	}
	if m, err := c.init(payload); err != nil || m.Type != "connection_ack" {
		t.Fatalf("connection_init %v: %+v %v", payload, m, err)
	}
	return c
}

const livePaymentFields = `paymentID merchantID status amount amountCaptured connectorAccount { connectorName }`

type livePayment struct {
	PaymentID, MerchantID, Status string
	Amount                        int
	AmountCaptured                *int
	ConnectorAccount              *struct{ ConnectorName string }
}

// subscribe starts a paymentUpdated subscription on id.
func (c *liveClient) subscribe(id, query string, vars map[string]any) {
	c.t.Helper()
	if err := c.send("subscribe", id, map[string]any{"query": query, "variables": vars}); err != nil {
		c.t.Fatal(err)
	}
}

// payment is the next payment the subscription id is sent.
func (c *liveClient) payment(id string) livePayment {
	c.t.Helper()
	m, err := c.nextFor(id)
	if err != nil {
		c.t.Fatalf("waiting for a payment on %s: %v", id, err)
	}
	if m.Type != "next" {
		c.t.Fatalf("want next on %s, got %s %s %s", id, m.Type, m.ID, m.Payload)
	}
	var out struct {
		Data   struct{ PaymentUpdated livePayment }
		Errors []gqlError
	}
	if err := json.Unmarshal(m.Payload, &out); err != nil || len(out.Errors) > 0 {
		c.t.Fatalf("payload %s: %v", m.Payload, err)
	}
	return out.Data.PaymentUpdated
}

// until reads the subscription's payments until one has status; the ones
// before must be the same payment, on its way there.
func (c *liveClient) until(id, paymentID, status string) livePayment {
	c.t.Helper()
	for {
		p := c.payment(id)
		if p.PaymentID != paymentID {
			c.t.Fatalf("waiting for %s, got another payment: %+v", paymentID, p)
		}
		if p.Status == status {
			return p
		}
	}
}

// restPayment creates a payment over REST (unconfirmed), then confirms it
// with a test card, on the process at url.
func restPayment(t *testing.T, url, key string, amount int) string {
	t.Helper()
	made := restCall(t, url, http.MethodPost, "/payments", key, map[string]any{"amount": amount, "currency": "USD"})
	id, _ := made["payment_id"].(string)
	if id == "" || made["status"] != "requires_payment_method" {
		t.Fatalf("created: %v", made)
	}
	confirmed := restCall(t, url, http.MethodPost, "/payments/"+id+"/confirm", key, map[string]any{
		"payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{"card_number": "4242424242424242",
			"card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123"}},
	})
	if confirmed["status"] != "succeeded" {
		t.Fatalf("confirmed: %v", confirmed)
	}
	return id
}

// TestLivePaymentsAcrossProcesses: a VIEWER's dashboard open on one
// process is told of a payment created and then confirmed over REST on
// another process, each step as a query would read it; another merchant's
// socket on the same process is told nothing of it, only of its own.
func TestLivePaymentsAcrossProcesses(t *testing.T) {
	one, two := twoProcesses(t)
	admin, keyA := signUp(t, one.URL, "admin@live-a.example", "Live A")
	var inv struct{ InviteUser struct{ Token string } }
	bearer(t, one.URL, admin.Token).must(`mutation { inviteUser(email: "viewer@live-a.example", role: VIEWER) { token } }`, nil, &inv)
	var viewer struct{ AcceptInvitation sessionOut }
	newGQL(t, two.URL, "").must(`mutation($t: String!) { acceptInvitation(token: $t, password: "an onlooker's long secret") { `+sessionFields+` } }`,
		map[string]any{"t": inv.InviteUser.Token}, &viewer)
	if viewer.AcceptInvitation.Role != "VIEWER" {
		t.Fatalf("accepted: %+v", viewer)
	}
	merchantB, keyB := signUp(t, one.URL, "admin@live-b.example", "Live B")

	a := connect(t, one.URL, map[string]any{"Authorization": "Bearer " + viewer.AcceptInvitation.Token})
	a.subscribe("all", `subscription { paymentUpdated { `+livePaymentFields+` } }`, nil)
	b := connect(t, one.URL, map[string]any{"api-key": keyB})
	b.subscribe("b", `subscription { paymentUpdated { `+livePaymentFields+` } }`, nil)
	waitFollowing(t, one, admin.MerchantID, 1)
	waitFollowing(t, one, merchantB.MerchantID, 1)

	paymentA := restPayment(t, two.URL, keyA, 4200)
	first := a.payment("all")
	if first.PaymentID != paymentA || first.MerchantID != admin.MerchantID || first.Amount != 4200 {
		t.Fatalf("first update: %+v", first)
	}
	done := a.until("all", paymentA, "succeeded")
	if done.AmountCaptured == nil || *done.AmountCaptured != 4200 || done.ConnectorAccount == nil || done.ConnectorAccount.ConnectorName == "" {
		t.Fatalf("the succeeded payment as read: %+v", done)
	}
	// As the payment query reads it, on either process.
	var q struct{ Payment livePayment }
	newGQL(t, two.URL, keyA).must(`query($id: ID!) { payment(id: $id) { `+livePaymentFields+` } }`, map[string]any{"id": paymentA}, &q)
	if sub, query := jsonOf(done), jsonOf(q.Payment); sub != query {
		t.Fatalf("subscription %s, query %s", sub, query)
	}

	// B was told nothing of A's payment: B's own, made after A's on the
	// same process, is the first thing B hears.
	paymentB := restPayment(t, two.URL, keyB, 700)
	if got := b.payment("b"); got.PaymentID != paymentB || got.MerchantID != merchantB.MerchantID {
		t.Fatalf("merchant B's socket first heard %+v, want its own %s", got, paymentB)
	}
	// And A is told nothing of B's: its next is its own next payment.
	paymentA2 := restPayment(t, two.URL, keyA, 99)
	if got := a.payment("all"); got.PaymentID != paymentA2 {
		t.Fatalf("merchant A's socket heard %+v, want %s", got, paymentA2)
	}
}

// waitFollowing waits until exactly n subscriptions to merchantID's
// payments are in place on srv (Redis has confirmed them): a change made
// before would not be heard, and the test would wait for it in vain; one
// of a socket closed a moment ago may still be counted until it has gone.
func waitFollowing(t *testing.T, srv *testenv.Server, merchantID string, n int) {
	t.Helper()
	deadline := time.Now().Add(receiveWithin)
	for srv.Live.Followers(merchantID) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d subscriptions to %s in place, want %d", srv.Live.Followers(merchantID), merchantID, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestLiveRefusals: connection_init without credentials, with a forged
// session or a wrong key is refused (4403); a page of a foreign origin
// cannot open a socket; a subscription over HTTP and a query over the
// socket are refused; the document limits hold for subscriptions; one
// socket holds a bounded number of subscriptions.
func TestLiveRefusals(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey

	for name, payload := range map[string]map[string]any{
		"no payload":                       nil,
		"no credentials":                   {"hello": "there"},
		"a forged token":                   {"Authorization": "Bearer sys_forged"},
		"a wrong key":                      {"api-key": "snd_wrong"},
		"the admin key without a merchant": {"api-key": srv.Config.AdminAPIKey},
	} {
		t.Run(name, func(t *testing.T) {
			c, resp, err := dialLive(t, srv.URL)
			if err != nil {
				t.Fatalf("dial: %v %+v", err, resp)
			}
			m, err := c.init(payload)
			if code := websocket.CloseStatus(err); code != 4403 {
				t.Fatalf("connection_init %v: %+v, closed with %d (%v), want 4403", payload, m, code, err)
			}
		})
	}

	t.Run("origins", func(t *testing.T) {
		_, resp, err := dialLive(t, srv.URL, "Origin", "https://evil.example")
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Fatalf("a foreign origin: %v %+v", err, resp)
		}
		c, _, err := dialLive(t, srv.URL, "Origin", srv.URL)
		if err != nil {
			t.Fatalf("the server's own origin: %v", err)
		}
		if m, err := c.init(map[string]any{"api-key": key}); err != nil || m.Type != "connection_ack" {
			t.Fatalf("own origin: %+v %v", m, err)
		}
		localhost := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
		if _, _, err := dialLive(t, srv.URL, "Origin", localhost); err != nil {
			t.Fatalf("the playground under localhost on the same port: %v", err)
		}
	})

	t.Run("transports", func(t *testing.T) {
		r := newGQL(t, srv.URL, key).do(`subscription { paymentUpdated { paymentID } }`, nil)
		if r.Status != http.StatusBadRequest || r.code() != "IR_06" || !strings.Contains(r.message(), "websocket") {
			t.Fatalf("a subscription over HTTP: %d %s", r.Status, r.Raw)
		}
		c := connect(t, srv.URL, map[string]any{"api-key": key})
		c.subscribe("q", `{ viewer { merchantID } }`, nil)
		if m, err := c.nextFor("q"); err != nil || !strings.Contains(string(m.Payload), "only subscriptions") {
			t.Fatalf("a query over the socket: %+v %v", m, err)
		}
	})

	t.Run("sockets of one key", func(t *testing.T) {
		_, own := signUp(t, srv.URL, "sockets@live.example", "Many sockets")
		max := 8 // graph.DefaultOptions().LiveSocketsPerCaller
		for range max {
			connect(t, srv.URL, map[string]any{"api-key": own})
		}
		c, _, err := dialLive(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.init(map[string]any{"api-key": own})
		if code := websocket.CloseStatus(err); code != 4429 {
			t.Fatalf("socket %d of one key: %+v, closed with %d (%v), want 4429", max+1, m, code, err)
		}
		// Another caller is not held back by it.
		connect(t, srv.URL, map[string]any{"api-key": key})
	})

	t.Run("a profile's key", func(t *testing.T) {
		w := seedWorld(t, srv, demoTenant(srv))
		c := connect(t, srv.URL, map[string]any{"api-key": w.key, "X-Profile-Id": w.otherProfileID})
		c.subscribe("p", `subscription { paymentUpdated { paymentID } }`, nil)
		waitFollowing(t, srv, srv.Demo.MerchantID, 1)
		restCall(t, srv.URL, http.MethodPost, "/payments", w.key, map[string]any{"amount": 500, "currency": "USD"})
		other := restCall(t, srv.URL, http.MethodPost, "/payments", w.key, map[string]any{"amount": 600, "currency": "USD", "profile_id": w.otherProfileID})
		if got := c.payment("p"); got.PaymentID != other["payment_id"] {
			t.Fatalf("narrowed to %s, the socket first heard %+v, want %v", w.otherProfileID, got, other["payment_id"])
		}
	})

	t.Run("limits", func(t *testing.T) {
		waitFollowing(t, srv, srv.Demo.MerchantID, 0) // the last subtest's have gone
		c := connect(t, srv.URL, map[string]any{"api-key": key})
		deep := `subscription { paymentUpdated { connectorAccount { profile { connectorAccounts(first: 1) { edges { node {
			profile { connectorAccounts(first: 1) { edges { node { profile { connectorAccounts(first: 1) { edges { node { connectorName } } } } } } } } } } } } } } }`
		c.subscribe("deep", deep, nil)
		if m, err := c.nextFor("deep"); err != nil || !strings.Contains(string(m.Payload), "levels deep") {
			t.Fatalf("a subscription past the depth limit: %+v %v", m, err)
		}
		max := 16 // graph.DefaultOptions().LiveSubscriptionsPerSocket
		for i := range max {
			c.subscribe(fmt.Sprint("s", i), `subscription { paymentUpdated { paymentID } }`, nil)
		}
		waitFollowing(t, srv, srv.Demo.MerchantID, max)
		c.subscribe("over", `subscription { paymentUpdated { paymentID } }`, nil)
		m, err := c.nextFor("over")
		if err != nil || !strings.Contains(string(m.Payload), fmt.Sprintf("at most %d subscriptions", max)) {
			t.Fatalf("subscription %d on one socket: %+v %v", max+1, m, err)
		}
		// The subscriptions in place still hear changes.
		id := restPayment(t, srv.URL, key, 1234)
		for i := range max {
			if p := c.payment(fmt.Sprint("s", i)); p.PaymentID != id {
				t.Fatalf("s%d heard %+v", i, p)
			}
		}
	})
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestLiveSocketEndsWithItsSession: a socket authenticated by a session is
// closed once the session is signed out (at the next check of its
// credentials, made often here).
func TestLiveSocketEndsWithItsSession(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	opts := graph.DefaultOptions()
	opts.LiveRecheck = 20 * time.Millisecond
	h := graph.NewHandler(graph.Deps{Client: srv.Store.Client, Cursors: cursors.New(srv.Redis.Client), Auth: srv.Auth,
		Users: srv.Users, Live: srv.Live}, opts)
	checked := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		checked.Close()
	})

	sess, _ := signUp(t, srv.URL, "leaving@live.example", "Leaving")
	c := connect(t, checked.URL, map[string]any{"Authorization": "Bearer " + sess.Token})
	var out struct{ SignOut bool }
	bearer(t, srv.URL, sess.Token).must(`mutation { signOut }`, nil, &out)
	m, err := c.next()
	var ce websocket.CloseError
	if !errors.As(err, &ce) {
		t.Fatalf("after sign-out the socket sent %+v (%v), want it closed", m, err)
	}
}
