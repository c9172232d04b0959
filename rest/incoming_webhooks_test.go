package rest_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"entgo.io/ent/dialect"

	"switchyard/ent/incomingwebhook"
	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments/connector"
)

const webhookSecret = "whsec_sandbox_inbound_secret"

// webhookMerchant is a merchant whose stripe_test account has a webhook
// secret (and the metadata given).
func webhookMerchant(t *testing.T, c *client, id string, metadata map[string]any) sandboxMerchant {
	t.Helper()
	m := newSandboxMerchant(t, c, id, metadata)
	c.do("POST", "/account/"+m.id+"/connectors/"+m.mcaID, m.key, map[string]any{"connector_type": "payment_processor",
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	return m
}

// webhookBody is a sandbox connector event about the object reference.
func webhookBody(t *testing.T, eventID, object, reference string) []byte {
	t.Helper()
	b, err := json.Marshal(connector.WebhookEvent{ID: eventID, Type: object + "_updated",
		Object: connector.WebhookObject(object), Reference: reference})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// sendWebhook posts body to the merchant's account with signature.
func sendWebhook(c *client, merchantID, mcaID string, body []byte, signature string) response {
	return c.doWith("POST", "/webhooks/"+merchantID+"/"+mcaID, "", body,
		map[string]string{connector.WebhookSignatureHeader: signature})
}

// processingPayment is a payment the sandbox timed out on (processing),
// and the id of its attempt.
func processingPayment(t *testing.T, c *client, m sandboxMerchant) (string, string) {
	t.Helper()
	r := m.pay(t, c, "4242424242424242", nil)
	if r.str("status") != "processing" {
		t.Fatalf("want processing: %s", r.Raw)
	}
	id := r.str("payment_id")
	got := c.do("GET", "/payments/"+id+"?expand_attempts=true", m.key, nil).must(t, 200)
	attempts := got.list("attempts")
	if len(attempts) != 1 {
		t.Fatalf("attempts: %s", got.Raw)
	}
	return id, attempts[0]["attempt_id"].(string)
}

func paymentStatus(t *testing.T, c *client, m sandboxMerchant, id string) response {
	t.Helper()
	return c.do("GET", "/payments/"+id, m.key, nil).must(t, 200)
}

func receivedWebhooks(t *testing.T, c *client, mcaID string) int {
	t.Helper()
	n, err := c.srv.Store.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorAccountID(mcaID)).
		Count(tenancy.System(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestIncomingWebhookSyncsThePayment: a signed webhook naming a payment the
// connector left processing settles it as the connector's sync answers
// (the sandbox timed out, so failed with timeout), with no sync by the
// client; it is answered with the connector's acknowledgement and recorded
// once; the same event id again changes nothing, even when it names another
// payment.
func TestIncomingWebhookSyncsThePayment(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_inbound_sync", map[string]any{"sandbox": map[string]any{"timeout": true}})
	id, attempt := processingPayment(t, c, m)
	body := webhookBody(t, "evt_sim_1", "payment", attempt)
	r := sendWebhook(c, m.id, m.mcaID, body, connector.SignWebhook(webhookSecret, body)).must(t, 200)
	if string(r.Raw) != "{\"received\":true}\n" {
		t.Fatalf("ack: %q", r.Raw)
	}
	wantFailed(t, paymentStatus(t, c, m, id), "timeout")
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("recorded %d webhooks, want 1", n)
	}

	// A replay: the same event id, this time naming another processing
	// payment, is acknowledged and changes nothing.
	other, otherAttempt := processingPayment(t, c, m)
	replay := webhookBody(t, "evt_sim_1", "payment", otherAttempt)
	sendWebhook(c, m.id, m.mcaID, replay, connector.SignWebhook(webhookSecret, replay)).must(t, 200)
	if s := paymentStatus(t, c, m, other).str("status"); s != "processing" {
		t.Fatalf("a replayed event settled a payment: %s", s)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 1 {
		t.Fatalf("recorded %d webhooks after a replay, want 1", n)
	}
	// A new event id for it settles it.
	fresh := webhookBody(t, "evt_sim_2", "payment", otherAttempt)
	sendWebhook(c, m.id, m.mcaID, fresh, connector.SignWebhook(webhookSecret, fresh)).must(t, 200)
	wantFailed(t, paymentStatus(t, c, m, other), "timeout")
}

// TestIncomingWebhookRefusals: a webhook whose source is not verified
// (tampered body, wrong or missing signature, an account with no webhook
// secret) is 401 WE_01 and changes nothing; a verified body that names no
// object is 400 WE_02; an unknown merchant or connector account, or another
// merchant's account, is 404; a reference that names nothing of the
// account is acknowledged and recorded not_found.
func TestIncomingWebhookRefusals(t *testing.T) {
	c := newClient(t)
	m := webhookMerchant(t, c, "merchant_inbound_refusals", map[string]any{"sandbox": map[string]any{"timeout": true}})
	bare := newSandboxMerchant(t, c, "merchant_inbound_bare", nil)
	id, attempt := processingPayment(t, c, m)
	body := webhookBody(t, "evt_refused", "payment", attempt)
	sig := connector.SignWebhook(webhookSecret, body)
	tampered := webhookBody(t, "evt_refused", "payment", attempt+"x")
	notJSON := []byte("not json")
	noObject := []byte(`{"id":"evt_x","type":"t","object":"invoice","reference":"r"}`)
	tests := []struct {
		name, merchant, mca string
		body                []byte
		signature           string
		status              int
		code                string
	}{
		{"tampered body", m.id, m.mcaID, tampered, sig, 401, "WE_01"},
		{"wrong secret", m.id, m.mcaID, body, connector.SignWebhook("another", body), 401, "WE_01"},
		{"no signature", m.id, m.mcaID, body, "", 401, "WE_01"},
		{"account without a secret", bare.id, bare.mcaID, body, sig, 401, "WE_01"},
		{"not json", m.id, m.mcaID, notJSON, connector.SignWebhook(webhookSecret, notJSON), 400, "WE_02"},
		{"unknown object", m.id, m.mcaID, noObject, connector.SignWebhook(webhookSecret, noObject), 400, "WE_02"},
		{"unknown merchant", "merchant_inbound_nobody", m.mcaID, body, sig, 404, "HE_02"},
		{"unknown account", m.id, "mca_nothing", body, sig, 404, "HE_02"},
		{"another merchant's account", bare.id, m.mcaID, body, sig, 404, "HE_02"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := sendWebhook(c, tt.merchant, tt.mca, tt.body, tt.signature).must(t, tt.status)
			if r.errCode() != tt.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tt.code, r.Raw)
			}
		})
	}
	if s := paymentStatus(t, c, m, id).str("status"); s != "processing" {
		t.Fatalf("a refused webhook settled the payment: %s", s)
	}
	if n := receivedWebhooks(t, c, m.mcaID); n != 0 {
		t.Fatalf("refused webhooks were recorded: %d", n)
	}

	unknown := webhookBody(t, "evt_unknown_ref", "refund", "sim_ref_nothing")
	sendWebhook(c, m.id, m.mcaID, unknown, connector.SignWebhook(webhookSecret, unknown)).must(t, 200)
	row, err := c.srv.Store.Client.IncomingWebhook.Query().Where(incomingwebhook.ConnectorEventID("evt_unknown_ref")).
		Only(tenancy.System(context.Background()))
	if err != nil || row.Outcome != incomingwebhook.OutcomeNotFound || row.ObjectID != nil || row.MerchantID != m.id {
		t.Fatalf("recorded %+v (%v)", row, err)
	}
}

// TestIncomingWebhookSyncsThePayout: a webhook naming a payout the sandbox
// left pending syncs it to success, as force_sync would.
func TestIncomingWebhookSyncsThePayout(t *testing.T) {
	c := newClient(t)
	mca := payoutProcessor(t, c, "adyen")
	c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors/"+mca, c.merchantKey(), map[string]any{
		"connector_type":            "payout_processor",
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	p := createPayout(t, c, map[string]any{"payout_type": "card", "payout_method_data": payoutCard("4000000000000259"),
		"confirm": true, "auto_fulfill": true})
	if p.str("status") != "pending" || p.str("connector_transaction_id") == "" {
		t.Fatalf("want pending: %s", p.Raw)
	}
	body := webhookBody(t, "evt_payout_1", "payout", p.str("connector_transaction_id"))
	sendWebhook(c, c.srv.Demo.MerchantID, mca, body, connector.SignWebhook(webhookSecret, body)).must(t, 200)
	if s := payoutStatus(t, c, p.str("payout_id")); s != "success" {
		t.Fatalf("payout after the webhook: %s", s)
	}
}

// TestSandboxSendsItsWebhooks: an account whose sandbox object asks for
// webhooks gets one from the simulator when a payout it left pending
// settles; delivered to Switchyard's own route, signed with the account's
// secret, it settles the payout with no sync by the client. Delivered
// webhooks leave the outbox.
func TestSandboxSendsItsWebhooks(t *testing.T) {
	c := newClient(t)
	mca := payoutProcessorWith(t, c, "adyen", map[string]any{"sandbox": map[string]any{"webhooks": true}})
	c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors/"+mca, c.merchantKey(), map[string]any{
		"connector_type": "payout_processor", "metadata": map[string]any{"sandbox": map[string]any{"webhooks": true}},
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	p := createPayout(t, c, map[string]any{"payout_type": "card", "payout_method_data": payoutCard("4000000000000259"),
		"confirm": true, "auto_fulfill": true})
	if p.str("status") != "pending" {
		t.Fatalf("want pending: %s", p.Raw)
	}
	ctx := context.Background()
	if n, err := c.srv.DeliverSandboxWebhooks(ctx); err != nil || n != 1 {
		t.Fatalf("delivered %d (%v), want 1", n, err)
	}
	if s := payoutStatus(t, c, p.str("payout_id")); s != "success" {
		t.Fatalf("payout after the sandbox's webhook: %s", s)
	}
	if n := receivedWebhooks(t, c, mca); n != 1 {
		t.Fatalf("recorded %d webhooks, want 1", n)
	}
	if n, err := c.srv.DeliverSandboxWebhooks(ctx); err != nil || n != 0 {
		t.Fatalf("a second pass delivered %d (%v)", n, err)
	}
}

// TestIncomingWebhookLookupsUseIndexes: on MariaDB, the statement that
// finds a webhook's payment attempt, refund or payout attempt by the
// connector's reference, among many of the merchant's, reads it through
// the merchant's index on that reference (EXPLAIN names it), not through
// all of the merchant's rows or the whole table.
func TestIncomingWebhookLookupsUseIndexes(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	if srv.Store.Dialect != dialect.MySQL {
		testenv.Skip(t, "no "+testenv.EnvMySQLDSN, "the plan checked is MariaDB's")
	}
	c := &client{t: t, srv: srv}
	m := webhookMerchant(t, c, "merchant_inbound_plans", nil)
	paid := m.pay(t, c, "4242424242424242", nil)
	refunded := c.do("POST", "/refunds", m.key, map[string]any{"payment_id": paid.str("payment_id"), "amount": 100}).must(t, 200)
	payoutMCA := payoutProcessor(t, c, "adyen")
	c.do("POST", "/account/"+c.srv.Demo.MerchantID+"/connectors/"+payoutMCA, c.merchantKey(), map[string]any{
		"connector_type":            "payout_processor",
		"connector_webhook_details": map[string]any{"merchant_secret": webhookSecret, "additional_secret": "unused"}}).must(t, 200)
	paidOut := createPayout(t, c, map[string]any{"confirm": true, "auto_fulfill": true})
	m.pay(t, c, "4000000000000259", nil) // the dispute card
	disputes := c.do("GET", "/disputes/list", m.key, nil).must(t, 200).items()
	if len(disputes) != 1 {
		t.Fatalf("the dispute card made %v", disputes)
	}
	connectorDisputeID, _ := disputes[0]["connector_dispute_id"].(string)
	// Many more rows of the same merchants, so that reading all of a
	// merchant's costs more than the index on the reference.
	crowd(t, srv, "payment_attempts", "connector_transaction_id", paid.str("connector_transaction_id"), "id")
	crowd(t, srv, "refunds", "connector_refund_id", refunded.str("connector_refund_id"), "id", "refund_id")
	crowd(t, srv, "payout_attempts", "connector_transaction_id", paidOut.str("connector_transaction_id"), "id")
	crowd(t, srv, "disputes", "connector_dispute_id", connectorDisputeID, "id")
	for _, tt := range []struct{ object, merchant, mca, reference, table, column, index string }{
		{"payment", m.id, m.mcaID, paid.str("connector_transaction_id"), "payment_attempts", "connector_transaction_id",
			"paymentattempt_merchant_id_connector_transaction_id"},
		{"refund", m.id, m.mcaID, refunded.str("connector_refund_id"), "refunds", "connector_refund_id",
			"refund_merchant_id_connector_refund_id"},
		{"payout", c.srv.Demo.MerchantID, payoutMCA, paidOut.str("connector_transaction_id"), "payout_attempts",
			"connector_transaction_id", "payoutattempt_merchant_id_connector_transaction_id"},
		{"dispute", m.id, m.mcaID, connectorDisputeID, "disputes", "connector_dispute_id",
			"dispute_merchant_id_connector_dispute_id"},
	} {
		t.Run(tt.object, func(t *testing.T) {
			reqID := "plan-" + ids.Base62(12)
			body := webhookBody(t, "evt_plan_"+tt.object, tt.object, tt.reference)
			c.doWith("POST", "/webhooks/"+tt.merchant+"/"+tt.mca, "", body, map[string]string{"X-Request-Id": reqID,
				connector.WebhookSignatureHeader: connector.SignWebhook(webhookSecret, body)}).must(t, 200)
			lookup := "FROM `" + tt.table + "` WHERE"
			statements, args := counter.Statements(reqID), counter.Args(reqID)
			for i, q := range statements {
				if !strings.Contains(q, lookup) || !strings.Contains(q, "`"+tt.column+"` = ?") {
					continue
				}
				for _, plan := range explain(t, srv, q, args[i]) {
					if plan["type"] == "ALL" || !strings.Contains(plan["key"], tt.index) {
						t.Fatalf("the %s lookup does not use %s: %v\n%s", tt.object, tt.index, plan, q)
					}
					t.Logf("%s: %s %s (%s rows) %s", tt.object, plan["type"], plan["key"], plan["rows"], plan["Extra"])
				}
				return
			}
			t.Fatalf("no lookup of %s by %s among %v", tt.table, tt.column, statements)
		})
	}
}

// crowd copies table's row whose column is value 400 times, each copy's
// column and distinct columns suffixed to keep them apart.
func crowd(t *testing.T, srv *testenv.Server, table, column, value string, distinct ...string) {
	t.Helper()
	rows, err := srv.Store.DB.Query("SELECT column_name FROM information_schema.columns "+
		"WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position", table)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var cols, exprs []string
	for rows.Next() {
		var col string
		if err := rows.Scan(&col); err != nil {
			t.Fatal(err)
		}
		expr := "`" + col + "`"
		if col == column || slices.Contains(distinct, col) {
			expr = "CONCAT(" + expr + ", '_', seq)"
		}
		cols, exprs = append(cols, "`"+col+"`"), append(exprs, expr)
	}
	q := "INSERT INTO `" + table + "` (" + strings.Join(cols, ", ") + ") SELECT " + strings.Join(exprs, ", ") +
		" FROM `" + table + "`, seq_1_to_400 WHERE `" + column + "` = ?"
	if res, err := srv.Store.DB.Exec(q, value); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 400 {
		t.Fatalf("crowded %s with %d rows", table, n)
	}
}

// explain is MariaDB's plan of query q with args, a row per table.
func explain(t *testing.T, srv *testenv.Server, q string, args []any) []map[string]string {
	t.Helper()
	rows, err := srv.Store.DB.Query("EXPLAIN "+q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var plans []map[string]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for j := range vals {
			ptrs[j] = &vals[j]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		plan := map[string]string{}
		for j, col := range cols {
			plan[col] = vals[j].String
		}
		plans = append(plans, plan)
	}
	if err := rows.Err(); err != nil || len(plans) == 0 {
		t.Fatalf("EXPLAIN gave %d rows (%v)", len(plans), err)
	}
	return plans
}
