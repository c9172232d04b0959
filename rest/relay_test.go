package rest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/relay"
	"switchyard/internal/tenancy"
)

func relayHeaders(profileID, key string) map[string]string {
	h := map[string]string{}
	if profileID != "" {
		h["X-Profile-Id"] = profileID
	}
	if key != "" {
		h["X-Idempotency-Key"] = key
	}
	return h
}

func relayRefund(mca, resource string, amount int) map[string]any {
	return map[string]any{"connector_id": mca, "connector_resource_id": resource, "type": "refund",
		"data": map[string]any{"refund": map[string]any{"amount": amount, "currency": "USD", "reason": "returned"}}}
}

// TestRelayRefund: a relayed refund is sent to the profile's connector
// account and answers success with the connector's refund id; GET reads it
// back; the same X-Idempotency-Key returns the same relay; an outage on the
// account fails the relay with the connector's error.
func TestRelayRefund(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	r := c.doWith("POST", "/relay", d.SecretKey, relayRefund(d.ConnectorAccount, "ch_outside_1", 6540),
		relayHeaders(d.ProfileID, "relay-key-1")).must(t, 200)
	id := r.str("id")
	if r.str("status") != "success" || r.str("connector_reference_id") != "sim_ref_"+id || r.str("profile_id") != d.ProfileID ||
		r.str("connector_id") != d.ConnectorAccount || r.str("connector_resource_id") != "ch_outside_1" || r.str("type") != "refund" {
		t.Fatalf("relay: %s", r.Raw)
	}
	if amount, _ := r.obj()["data"].(map[string]any)["refund"].(map[string]any)["amount"].(float64); amount != 6540 {
		t.Fatalf("data: %s", r.Raw)
	}
	got := c.doWith("GET", "/relay/"+id, d.SecretKey, nil, relayHeaders(d.ProfileID, "")).must(t, 200)
	if got.str("id") != id || got.str("status") != "success" {
		t.Fatalf("read back: %s", got.Raw)
	}
	again := c.doWith("POST", "/relay", d.SecretKey, relayRefund(d.ConnectorAccount, "ch_outside_2", 1),
		relayHeaders(d.ProfileID, "relay-key-1")).must(t, 200)
	if again.str("id") != id || again.str("connector_resource_id") != "ch_outside_1" {
		t.Fatalf("the same key made another relay: %s", again.Raw)
	}

	m := newSandboxMerchant(t, c, "merchant_relay_outage", map[string]any{"sandbox": map[string]any{"outage": true}})
	profile := c.do("GET", "/account/"+m.id+"/connectors/"+m.mcaID, m.key, nil).must(t, 200).str("profile_id")
	failed := c.doWith("POST", "/relay", m.key, relayRefund(m.mcaID, "ch_outside_3", 100),
		relayHeaders(profile, "relay-key-1")).must(t, 200)
	if failed.str("status") != "failure" || failed.str("error", "code") != "service_unavailable" || failed.str("id") == id {
		t.Fatalf("relay on an outage: %s", failed.Raw)
	}
}

// TestRelayRefusals: the headers the document requires, the types the
// sandbox does not relay, bad amounts, and other profiles' or merchants'
// accounts and relays.
func TestRelayRefusals(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	other := newSandboxMerchant(t, c, "merchant_relay_other", nil)
	otherProfile := c.do("GET", "/account/"+other.id+"/connectors/"+other.mcaID, other.key, nil).must(t, 200).str("profile_id")
	ok := relayRefund(d.ConnectorAccount, "ch_x", 100)
	capture := map[string]any{"connector_id": d.ConnectorAccount, "connector_resource_id": "ch_x", "type": "capture",
		"data": map[string]any{"capture": map[string]any{"amount_to_capture": 100, "currency": "USD", "authorized_amount": 100}}}
	noData := map[string]any{"connector_id": d.ConnectorAccount, "connector_resource_id": "ch_x", "type": "refund"}
	tests := []struct {
		name    string
		key     string
		headers map[string]string
		body    map[string]any
		status  int
		code    string
	}{
		{"no profile header", d.SecretKey, relayHeaders("", "k1"), ok, 400, "IR_04"},
		{"no idempotency key", d.SecretKey, relayHeaders(d.ProfileID, ""), ok, 400, "IR_04"},
		{"capture", d.SecretKey, relayHeaders(d.ProfileID, "k2"), capture, 400, "IR_20"},
		{"refund without data", d.SecretKey, relayHeaders(d.ProfileID, "k3"), noData, 400, "IR_04"},
		{"zero amount", d.SecretKey, relayHeaders(d.ProfileID, "k4"), relayRefund(d.ConnectorAccount, "ch_x", 0), 400, "IR_07"},
		{"unknown account", d.SecretKey, relayHeaders(d.ProfileID, "k5"), relayRefund("mca_nothing", "ch_x", 100), 404, "HE_02"},
		{"another merchant's account", d.SecretKey, relayHeaders(d.ProfileID, "k6"), relayRefund(other.mcaID, "ch_x", 100), 404, "HE_02"},
		{"another merchant's profile", d.SecretKey, relayHeaders(otherProfile, "k7"), ok, 404, "HE_02"},
		{"unknown member", d.SecretKey, relayHeaders(d.ProfileID, "k8"), map[string]any{"connector_id": d.ConnectorAccount,
			"connector_resource_id": "ch_x", "type": "refund", "amount": 1}, 400, "IR_06"},
		{"no key", "", relayHeaders(d.ProfileID, "k9"), ok, 401, "IR_01"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.doWith("POST", "/relay", tt.key, tt.body, tt.headers).must(t, tt.status)
			if r.errCode() != tt.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tt.code, r.Raw)
			}
		})
	}

	theirs := c.doWith("POST", "/relay", other.key, relayRefund(other.mcaID, "ch_y", 100),
		relayHeaders(otherProfile, "theirs")).must(t, 200).str("id")
	for name, r := range map[string]response{
		"another merchant's relay": c.doWith("GET", "/relay/"+theirs, d.SecretKey, nil, relayHeaders(d.ProfileID, "")),
		"unknown relay":            c.doWith("GET", "/relay/relay_nothing", d.SecretKey, nil, relayHeaders(d.ProfileID, "")),
	} {
		if r.Status != 404 || r.errCode() != "HE_02" {
			t.Errorf("%s: %d %s", name, r.Status, r.Raw)
		}
	}
	if r := c.doWith("GET", "/relay/"+theirs, other.key, nil, nil); r.Status != 400 || r.errCode() != "IR_04" {
		t.Errorf("read without X-Profile-Id: %d %s", r.Status, r.Raw)
	}
}

// strandRelay puts a relay back where a crash between its connector call
// and the record of the answer leaves it: pending, no connector reference,
// recorded an hour ago when aged. With forget, the sandbox connector
// forgets it was sent (the crash came before the call).
func strandRelay(t *testing.T, c *client, id string, forget, aged bool) {
	t.Helper()
	ctx := tenancy.System(context.Background())
	modified := time.Now().UTC()
	if aged {
		modified = modified.Add(-time.Hour)
	}
	if err := c.srv.Store.Client.Relay.UpdateOneID(id).SetStatus(relay.StatusPending).ClearConnectorReferenceID().
		ClearErrorCode().ClearErrorMessage().SetModifiedAt(modified).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if forget {
		if err := c.srv.Redis.Client.Del(context.Background(), "simledger:{"+id+"}").Err(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelayRecovery: relays a crash left pending are settled by the
// recovery pass, with no read: one the connector refunded succeeds with
// its refund id, one it never saw fails; a young one it never saw is left
// pending (its call may be on its way). Two passes at once settle each
// relay exactly once, and a later pass finds nothing.
func TestRelayRecovery(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	made := func(key string) string {
		return c.doWith("POST", "/relay", d.SecretKey, relayRefund(d.ConnectorAccount, "ch_"+key, 500),
			relayHeaders(d.ProfileID, key)).must(t, 200).str("id")
	}
	refunded, lost, young := made("crash-after-call"), made("crash-before-call"), made("young")
	strandRelay(t, c, refunded, false, true)
	strandRelay(t, c, lost, true, true)
	strandRelay(t, c, young, true, false)

	ctx := tenancy.System(context.Background())
	counts := make(chan int, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			n, err := c.srv.Relay.RecoverStranded(ctx, 2*time.Minute, 100)
			if err != nil {
				t.Error(err)
			}
			counts <- n
		})
	}
	wg.Wait()
	if n := <-counts + <-counts; n != 2 {
		t.Fatalf("two passes at once settled %d relays, want each of the two old ones once", n)
	}
	if n, err := c.srv.Relay.RecoverStranded(ctx, 2*time.Minute, 100); err != nil || n != 0 {
		t.Fatalf("a later pass settled %d (%v)", n, err)
	}
	rows := map[string]*ent.Relay{}
	for _, id := range []string{refunded, lost, young} {
		row, err := c.srv.Store.Client.Relay.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		rows[id] = row
	}
	if r := rows[refunded]; r.Status != relay.StatusSuccess || r.ConnectorReferenceID == nil || *r.ConnectorReferenceID != "sim_ref_"+refunded {
		t.Errorf("refunded before the crash: %+v", r)
	}
	if r := rows[lost]; r.Status != relay.StatusFailure || r.ErrorCode == nil || *r.ErrorCode != "transaction_not_found" {
		t.Errorf("never sent: %+v", r)
	}
	if r := rows[young]; r.Status != relay.StatusPending {
		t.Errorf("young and unknown to the connector: %+v", r)
	}
	if got := c.doWith("GET", "/relay/"+young, d.SecretKey, nil, relayHeaders(d.ProfileID, "")).must(t, 200); got.str("status") != "pending" {
		t.Errorf("a read of the young relay failed it: %s", got.Raw)
	}
	got := c.doWith("GET", "/relay/"+lost, d.SecretKey, nil, relayHeaders(d.ProfileID, "")).must(t, 200)
	if got.str("status") != "failure" || got.str("error", "code") != "transaction_not_found" {
		t.Errorf("read after recovery: %s", got.Raw)
	}
}
