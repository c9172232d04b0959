package graph_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/connector"
	"switchyard/payments/merchant"
)

// restCall sends a REST request with key and decodes the JSON answer.
func restCall(t *testing.T, url, method, path, key string, body any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return out
}

// failFirst answers 500 to the first delivery of each event, 200 after.
type failFirst struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (f *failFirst) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var body struct {
		EventID string `json:"event_id"`
	}
	_ = json.NewDecoder(r.Body).Decode(&body)
	f.mu.Lock()
	first := !f.seen[body.EventID]
	f.seen[body.EventID] = true
	f.mu.Unlock()
	if first {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// eventMerchant is a merchant whose default profile posts events to a loopback receiver.
type eventMerchant struct {
	id, key string
}

func webhookMerchant(t *testing.T, srv *testenv.Server, merchantID, key, profileID, receiverURL string) eventMerchant {
	t.Helper()
	url := receiverURL + "/hooks"
	if _, err := srv.Store.Client.Profile.UpdateOneID(profileID).
		SetWebhookDetails(&schematype.WebhookDetails{HyperswitchWebhookDetails: schematype.HyperswitchWebhookDetails{WebhookURL: &url}}).Save(tenancy.System(context.Background())); err != nil {
		t.Fatal(err)
	}
	return eventMerchant{id: merchantID, key: key}
}

// otherMerchant creates a second merchant with a key, a sandbox connector
// and a webhook receiver.
func otherMerchant(t *testing.T, srv *testenv.Server, receiverURL string) eventMerchant {
	t.Helper()
	admin := tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin})
	acct, err := srv.Merchants.CreateMerchantAccount(admin, merchant.MerchantAccountInput{MerchantID: "merchant_events_other"})
	if err != nil {
		t.Fatal(err)
	}
	mctx := tenancy.ForMerchant(tenancy.System(context.Background()), acct.Merchant.ID)
	_, key, err := srv.Merchants.CreateAPIKey(mctx, merchant.APIKeyInput{Name: "k"})
	if err != nil {
		t.Fatal(err)
	}
	prof, err := srv.Store.Client.Profile.Query().First(mctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Connectors.CreateSandboxAccount(mctx, connector.SandboxAccountInput{
		ProfileID: prof.ID, ConnectorName: "stripe_test", Label: "other_stripe_test",
		Credentials: map[string]any{"auth_type": "HeaderKey", "api_key": "sandbox_simulator"},
	}); err != nil {
		t.Fatal(err)
	}
	return webhookMerchant(t, srv, acct.Merchant.ID, key, prof.ID, receiverURL)
}

func (m eventMerchant) pay(t *testing.T, srv *testenv.Server) string {
	t.Helper()
	out := restCall(t, srv.URL, "POST", "/payments", m.key, map[string]any{
		"amount": 10000, "currency": "USD", "confirm": true, "payment_method": "card",
		"payment_method_data": map[string]any{"card": map[string]any{
			"card_number": "4242424242424242", "card_exp_month": "12", "card_exp_year": fmt.Sprint(time.Now().Year() + 3),
			"card_holder_name": "Jane Doe", "card_cvc": "123",
		}},
	})
	if out["status"] != "succeeded" {
		t.Fatalf("payment %v", out)
	}
	return out["payment_id"].(string)
}

// deliverEvents runs the worker (every first delivery fails) and then a
// manual retry of every event, so each event has two attempts.
func deliverEvents(t *testing.T, srv *testenv.Server) {
	t.Helper()
	sys := tenancy.System(context.Background())
	for {
		n, err := srv.Webhooks.RunOnce(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
	}
	evs, err := srv.Store.Client.Event.Query().All(sys)
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if _, err := srv.Webhooks.Retry(tenancy.ForMerchant(sys, ev.MerchantID), ev.ID); err != nil {
			t.Fatal(err)
		}
	}
}

type gqlEvent struct {
	id, eventType, objectID, merchantID string
	delivered                           bool
	attempts                            []string // deliveryAttempt kinds, newest first
	attemptsTotal                       int
}

func decodeEvents(t *testing.T, conn map[string]any) ([]gqlEvent, string, bool, int) {
	t.Helper()
	var out []gqlEvent
	for _, e := range conn["edges"].([]any) {
		n := e.(map[string]any)["node"].(map[string]any)
		ev := gqlEvent{id: n["id"].(string), eventType: n["eventType"].(string), objectID: n["objectID"].(string),
			merchantID: n["merchantID"].(string), delivered: n["isDelivered"].(bool)}
		atts := n["deliveryAttempts"].(map[string]any)
		ev.attemptsTotal = int(atts["totalCount"].(float64))
		for _, a := range atts["edges"].([]any) {
			an := a.(map[string]any)["node"].(map[string]any)
			ev.attempts = append(ev.attempts, fmt.Sprintf("%s:%v", an["deliveryAttempt"], an["isDeliverySuccessful"]))
		}
		out = append(out, ev)
	}
	pi := conn["pageInfo"].(map[string]any)
	end, _ := pi["endCursor"].(string)
	return out, end, pi["hasNextPage"].(bool), int(conn["totalCount"].(float64))
}

const eventFields = `totalCount pageInfo { hasNextPage endCursor }
	edges { node { id eventType objectID merchantID isDelivered
		deliveryAttempts(first: 5) { totalCount edges { node { deliveryAttempt isDeliverySuccessful responseStatusCode eventID } } } } }`

// merchantEvents pages the merchant's events connection, two at a time.
func merchantEvents(t *testing.T, srv *testenv.Server, key string) ([]gqlEvent, string) {
	t.Helper()
	var all []gqlEvent
	var firstCursor string
	args := "first: 2"
	for page := 0; page < 20; page++ {
		_, out := post(t, srv.URL, key, `{ merchantAccounts(first: 1) { edges { node { id events(`+args+`) { `+eventFields+` } } } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
		edges := out["data"].(map[string]any)["merchantAccounts"].(map[string]any)["edges"].([]any)
		if len(edges) != 1 {
			t.Fatalf("%d merchant accounts visible", len(edges))
		}
		evs, end, next, total := decodeEvents(t, edges[0].(map[string]any)["node"].(map[string]any)["events"].(map[string]any))
		if page == 0 {
			firstCursor = end
		}
		all = append(all, evs...)
		if total < len(all) {
			t.Fatalf("totalCount %d, already paged %d", total, len(all))
		}
		if !next {
			if total != len(all) {
				t.Fatalf("totalCount %d, paged %d", total, len(all))
			}
			return all, firstCursor
		}
		args = `first: 2, after: "` + end + `"`
	}
	t.Fatal("events never ended")
	return nil, ""
}

// TestEventsConnections: a merchant pages its events, each with its
// delivery attempts, on the merchant and on each payment, and sees no
// other merchant's events; cursors are Redis tokens bound to the merchant.
func TestEventsConnections(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	recv := httptest.NewServer(&failFirst{seen: map[string]bool{}})
	t.Cleanup(recv.Close)
	demo := webhookMerchant(t, srv, srv.Demo.MerchantID, srv.Demo.SecretKey, srv.Demo.ProfileID, recv.URL)
	other := otherMerchant(t, srv, recv.URL)

	var paid []string
	for i := 0; i < 3; i++ {
		paid = append(paid, demo.pay(t, srv))
	}
	refunded := paid[1]
	refund := restCall(t, srv.URL, "POST", "/refunds", demo.key, map[string]any{"payment_id": refunded, "amount": 2500})
	otherPaid := other.pay(t, srv)
	deliverEvents(t, srv)

	// On the merchant: 4 events (3 payments, 1 refund), newest first, two per page.
	evs, firstCursor := merchantEvents(t, srv, demo.key)
	if len(evs) != 4 {
		t.Fatalf("%d events, want 4: %+v", len(evs), evs)
	}
	wantObjects := []string{refund["refund_id"].(string), paid[2], paid[1], paid[0]}
	for i, ev := range evs {
		if ev.objectID != wantObjects[i] || ev.merchantID != demo.id || !ev.delivered {
			t.Fatalf("event %d: %+v, want object %s of %s, delivered", i, ev, wantObjects[i], demo.id)
		}
		if want := []string{"manual_retry:true", "initial_attempt:false"}; ev.attemptsTotal != 2 || !slices.Equal(ev.attempts, want) {
			t.Fatalf("event %s attempts %v (total %d), want %v", ev.id, ev.attempts, ev.attemptsTotal, want)
		}
	}
	if evs[0].eventType != "refund_succeeded" || evs[1].eventType != "payment_succeeded" {
		t.Fatalf("event types %s, %s", evs[0].eventType, evs[1].eventType)
	}

	// The other merchant sees only its own event, and cannot use our cursor.
	otherEvs, _ := merchantEvents(t, srv, other.key)
	if len(otherEvs) != 1 || otherEvs[0].objectID != otherPaid || otherEvs[0].merchantID != other.id {
		t.Fatalf("other merchant's events %+v", otherEvs)
	}
	_, out := post(t, srv.URL, other.key, `{ merchantAccounts(first: 1) { edges { node { events(first: 2, after: "`+firstCursor+`") { totalCount } } } } }`)
	if msg := firstError(out); !strings.Contains(msg, "another merchant") {
		t.Fatalf("foreign cursor: %q", msg)
	}

	// On each payment: the refunded one has two events, paged one at a time.
	query := func(key, args string) map[string]any {
		_, out := post(t, srv.URL, key, `{ paymentIntents(first: 10) { edges { node { paymentID events(`+args+`) { `+eventFields+` } } } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
		byPayment := map[string]any{}
		for _, e := range out["data"].(map[string]any)["paymentIntents"].(map[string]any)["edges"].([]any) {
			n := e.(map[string]any)["node"].(map[string]any)
			byPayment[n["paymentID"].(string)] = n["events"]
		}
		return byPayment
	}
	pages := query(demo.key, "first: 1")
	if len(pages) != 3 {
		t.Fatalf("%d payments visible, want 3", len(pages))
	}
	for _, id := range paid {
		evs, end, next, total := decodeEvents(t, pages[id].(map[string]any))
		wantTotal := 1
		if id == refunded {
			wantTotal = 2
		}
		if total != wantTotal || len(evs) != 1 || next != (wantTotal == 2) || evs[0].attemptsTotal != 2 {
			t.Fatalf("payment %s: %d of %d events (next %v): %+v", id, len(evs), total, next, evs)
		}
		if id != refunded {
			if evs[0].eventType != "payment_succeeded" || evs[0].objectID != id {
				t.Fatalf("payment %s event %+v", id, evs[0])
			}
			continue
		}
		if evs[0].eventType != "refund_succeeded" {
			t.Fatalf("newest event of the refunded payment: %+v", evs[0])
		}
		// The next page, through the payment's own cursor.
		_, out := post(t, srv.URL, demo.key, `{ paymentIntents(first: 10, where: {paymentID: "`+id+`"}) { edges { node { events(first: 1, after: "`+end+`") { `+eventFields+` } } } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
		edges := out["data"].(map[string]any)["paymentIntents"].(map[string]any)["edges"].([]any)
		rest, _, next, _ := decodeEvents(t, edges[0].(map[string]any)["node"].(map[string]any)["events"].(map[string]any))
		if len(rest) != 1 || next || rest[0].eventType != "payment_succeeded" || rest[0].objectID != id {
			t.Fatalf("second page of the refunded payment's events: %+v (next %v)", rest, next)
		}
		// That cursor belongs to this payment's events, not to the merchant's.
		_, out = post(t, srv.URL, demo.key, `{ merchantAccounts(first: 1) { edges { node { events(first: 1, after: "`+end+`") { totalCount } } } } }`)
		if msg := firstError(out); !strings.Contains(msg, "different query") {
			t.Fatalf("payment cursor on the merchant's events: %q", msg)
		}
	}
	if otherPages := query(other.key, "first: 5"); len(otherPages) != 1 || otherPages[otherPaid] == nil {
		t.Fatalf("other merchant's payments %v", otherPages)
	}
}
