package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// seedNested writes n payments of the merchant, each captured twice,
// refunded once and disputed once, with a customer and a connector
// account, as a captured, partly refunded payment has; one minute apart,
// the newest a minute ago. Batched through ent: no HTTP.
func seedNested(t testing.TB, srv *testenv.Server, tn tenant, n int) []string {
	t.Helper()
	ctx := merchantCtx(tn.merchantID)
	c := srv.Store.Client
	cust, err := c.Customer.Create().SetCustomerID("cus_nested_" + tn.merchantID).SetName("Nested").Save(ctx)
	if err != nil {
		t.Fatal(err)
	}
	mca, err := c.MerchantConnectorAccount.Query().First(ctx)
	if ent.IsNotFound(err) {
		mca, err = c.MerchantConnectorAccount.Create().SetProfileID(tn.profileID).SetConnectorType("payment_processor").
			SetConnectorName("stripe_test").SetConnectorLabel("nested").Save(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	usd := schematype.Currency("USD")
	base := time.Now().UTC().Add(-time.Duration(n+1) * time.Minute).Truncate(time.Second)
	out := make([]string, 0, n)
	const batch = 200
	for start := 0; start < n; start += batch {
		var (
			intents  []*ent.PaymentIntentCreate
			attempts []*ent.PaymentAttemptCreate
			captures []*ent.CaptureCreate
			refunds  []*ent.RefundCreate
			disputes []*ent.DisputeCreate
		)
		for i := start; i < min(start+batch, n); i++ {
			at := base.Add(time.Duration(i) * time.Minute)
			id, att, ref := ids.New(ids.Payment), ids.New(ids.Attempt), ids.New(ids.Refund)
			out = append(out, id)
			intents = append(intents, c.PaymentIntent.Create().SetID(id).SetPaymentID(id).SetProfileID(tn.profileID).
				SetAmount(10000).SetCurrency(usd).SetClientSecret(ids.ClientSecret(id)).SetExpiresOn(at.Add(15*time.Minute)).
				SetStatus(paymentintent.StatusSucceeded).SetAmountCaptured(10000).SetAttemptCount(1).SetActiveAttemptID(att).
				SetCaptureMethod(paymentintent.CaptureMethodManualMultiple).SetConnector(mca.ConnectorName).
				SetMerchantConnectorID(mca.ID).SetPaymentMethod("card").SetCardNetwork("Visa").SetCustomerID(cust.ID).
				SetCreatedAt(at).SetModifiedAt(at))
			attempts = append(attempts, c.PaymentAttempt.Create().SetID(att).SetPaymentIntentID(id).SetStatus("charged").
				SetAmount(10000).SetNetAmount(10000).SetCurrency(usd).SetConnector(mca.ConnectorName).SetPaymentMethod("card").
				SetCreatedAt(at).SetModifiedAt(at))
			for seq, amount := range []int64{6000, 4000} {
				captures = append(captures, c.Capture.Create().SetPaymentIntentID(id).SetAuthorizedAttemptID(att).
					SetStatus("charged").SetAmount(amount).SetCurrency(usd).SetConnector(mca.ConnectorName).
					SetCaptureSequence(seq+1).SetCreatedAt(at.Add(time.Duration(seq+1)*time.Second)).SetModifiedAt(at))
			}
			refunds = append(refunds, c.Refund.Create().SetID(ref).SetRefundID(ref).SetPaymentIntentID(id).SetAttemptID(att).
				SetProfileID(tn.profileID).SetConnector(mca.ConnectorName).SetAmount(1500).SetCurrency(usd).
				SetStatus("succeeded").SetCreatedAt(at.Add(10*time.Second)).SetModifiedAt(at))
			disputes = append(disputes, c.Dispute.Create().SetPaymentIntentID(id).SetAttemptID(att).SetProfileID(tn.profileID).
				SetAmount(10000).SetCurrency(usd).SetConnector(mca.ConnectorName).SetConnectorStatus("needs_response").
				SetConnectorDisputeID("dp_conn_"+id[4:]).SetCreatedAt(at.Add(20*time.Second)).SetModifiedAt(at))
		}
		for _, err := range []error{
			c.PaymentIntent.CreateBulk(intents...).Exec(ctx), c.PaymentAttempt.CreateBulk(attempts...).Exec(ctx),
			c.Capture.CreateBulk(captures...).Exec(ctx), c.Refund.CreateBulk(refunds...).Exec(ctx),
			c.Dispute.CreateBulk(disputes...).Exec(ctx),
		} {
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// nestedPage is the dashboard's payment list: a page of payments, each
// with its attempts, captures, refunds and disputes.
const nestedPage = `query($n: Int!, $after: Cursor) { payments(first: $n, after: $after) { edges { cursor node {
	id paymentID status amount amountCaptured currency displayAmount createdAt connector paymentMethod cardNetwork
	attempts { id status amount connector }
	captures { id status amount captureSequence }
	refunds(first: 5) { edges { node { id refundID status amount displayAmount } } }
	disputes { id disputeStatus amount connectorStatus }
} } } }`

// postCounted sends a query under a request id of its own and returns the
// decoded response and the SQL statements it cost.
func postCounted(t *testing.T, srv *testenv.Server, counter *testenv.StatementCounter, key, query string, vars map[string]any) (gqlResponse, []string) {
	t.Helper()
	reqID := "gql-" + ids.Base62(12)
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", key)
	req.Header.Set("X-Request-Id", reqID)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := gqlResponse{Status: resp.StatusCode, Raw: string(raw)}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return out, counter.Statements(reqID)
}

// TestNestedPageStatements: a page of payments with their attempts,
// captures, refunds and disputes costs the same few SQL statements (at most
// 6: the page, and one per nested kind; the API key comes from the key
// cache after the first request, and costs one more before) whatever its size, and
// the customer and connector account add one statement each, not one per
// payment.
func TestNestedPageStatements(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	seedNested(t, srv, tn, 120)
	cost := func(query string, n int, after string) int {
		t.Helper()
		vars := map[string]any{"n": n}
		if after != "" {
			vars["after"] = after
		}
		r, stmts := postCounted(t, srv, counter, tn.key, query, vars)
		if len(r.Errors) > 0 {
			t.Fatalf("%s", r.Raw)
		}
		var data struct {
			Payments struct {
				Edges []struct {
					Node struct {
						Attempts, Captures, Disputes []any
						Refunds                      struct{ Edges []any }
					}
				}
			}
		}
		r.decode(t, &data)
		if len(data.Payments.Edges) != n {
			t.Fatalf("%d payments, asked for %d", len(data.Payments.Edges), n)
		}
		for _, e := range data.Payments.Edges {
			if len(e.Node.Attempts) != 1 || len(e.Node.Captures) != 2 || len(e.Node.Refunds.Edges) != 1 || len(e.Node.Disputes) != 1 {
				t.Fatalf("nested rows missing: %+v", e.Node)
			}
		}
		if testing.Verbose() {
			t.Logf("first: %d → %d statements:\n  %s", n, len(stmts), strings.Join(stmts, "\n  "))
		}
		return len(stmts)
	}
	if cold, warm := cost(nestedPage, 1, ""), cost(nestedPage, 1, ""); cold != warm+1 {
		t.Errorf("the first request costs %d statements, the next %d: want one more for the key", cold, warm)
	}
	small := cost(nestedPage, 1, "")
	for _, n := range []int{10, 50, 100} {
		if got := cost(nestedPage, n, ""); got != small {
			t.Errorf("first: %d costs %d statements, first: 1 costs %d", n, got, small)
		}
	}
	if small > 6 {
		t.Errorf("a nested page costs %d statements, want at most 6", small)
	}
	// Paging on with a cursor costs the same (the cursor lives in Redis).
	var first struct {
		Payments struct{ Edges []struct{ Cursor string } }
	}
	r, _ := postCounted(t, srv, counter, tn.key, nestedPage, map[string]any{"n": 50})
	r.decode(t, &first)
	if got := cost(nestedPage, 50, first.Payments.Edges[49].Cursor); got != small {
		t.Errorf("the next page costs %d statements, the first %d", got, small)
	}
	// The customer (an ent edge) and the connector account (a hand-written
	// field, batched per request) cost one statement each for the page.
	withMore := strings.Replace(nestedPage, "disputes {", "customer { customerID } connectorAccount { id connectorName } disputes {", 1)
	more1, more50 := cost(withMore, 1, ""), cost(withMore, 50, "")
	if more1 != small+2 || more50 != small+2 {
		t.Errorf("with customer and connector account: %d and %d statements, want %d", more1, more50, small+2)
	}
	// customerID, the merchant's id of each payment's customer (a
	// hand-written field), costs one statement for the page, and none more
	// beside customer { … }, whose row has it.
	withRef := strings.Replace(nestedPage, "disputes {", "customerID disputes {", 1)
	if ref1, ref50 := cost(withRef, 1, ""), cost(withRef, 50, ""); ref1 != small+1 || ref50 != small+1 {
		t.Errorf("with customerID: %d and %d statements, want %d", ref1, ref50, small+1)
	}
	withBoth := strings.Replace(withMore, "disputes {", "customerID disputes {", 1)
	if both := cost(withBoth, 50, ""); both != small+2 {
		t.Errorf("with customerID and customer: %d statements, want %d", both, small+2)
	}
}

// TestAbuse: hostile queries are refused with a clear error, quickly, and
// without touching the database: the limits run before the caller's key is
// even looked up, and another merchant's cursor is refused before any data
// is read (the caller's key comes from the Redis key cache, filled by its
// earlier requests).
func TestAbuse(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	other := newTenant(t, srv, "merchant_abuse_other")
	seedNested(t, srv, other, 3)

	deep := `{ payments(first: 1) { edges { node { ` + strings.Repeat(`refunds(first: 1) { edges { node { payment { `, 12) +
		`id` + strings.Repeat(` } } } }`, 12) + ` } } } }`
	var aliases strings.Builder
	aliases.WriteString("{ ")
	for i := 0; i < 10000; i++ {
		fmt.Fprintf(&aliases, "a%d: viewer { merchantID } ", i)
	}
	aliases.WriteString("}")

	var page struct {
		Payments struct{ Edges []struct{ Cursor string } }
	}
	newGQL(t, srv.URL, other.key).must(`{ payments(first: 1) { edges { cursor } } }`, nil, &page)
	foreignCursor := page.Payments.Edges[0].Cursor
	newGQL(t, srv.URL, tn.key).must(`{ viewer { merchantID } }`, nil, nil) // the caller's key is now cached

	for _, tc := range []struct {
		name, query string
		want        []string // the error mentions one of these
	}{
		{"26 fragments each spreading the next twice", fanOut(26), []string{"complexity"}},
		{"14,000 repeated fields", "{ viewer { " + strings.Repeat("merchantID ", 14000) + "} }", []string{"fields"}},
		{"1,000 fragment spreads", "{ viewer { " + strings.Repeat("...V ", 1000) + "} } fragment V on Viewer { merchantID }", []string{"spreads"}},
		{"an argument nested 30 levels", `{ payments(first: 1, where: ` + strings.Repeat(`{and: [`, 15) + `{}` + strings.Repeat(`]}`, 15) + `) { totalCount } }`, []string{"deeper"}},
		{"depth 50", deep, []string{"levels deep"}},
		{"10,000 aliases", aliases.String(), []string{"aliases", "token limit"}},
		{"first: 100000", `{ payments(first: 100000) { edges { node { id } } } }`, []string{"between 0 and 100"}},
		{"last: 100000 nested", `{ payments(first: 1) { edges { node { refunds(last: 100000) { totalCount } } } } }`, []string{"between 0 and 100"}},
		{"no page size", `{ refunds { totalCount } }`, []string{"needs `first` or `last`"}},
		{"another merchant's cursor", fmt.Sprintf(`{ payments(first: 10, after: %q) { edges { node { id } } } }`, foreignCursor),
			[]string{"another merchant"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			r, stmts := postCounted(t, srv, counter, tn.key, tc.query, nil)
			elapsed := time.Since(start)
			msg := r.message()
			if len(r.Errors) == 0 || !containsAny(msg, tc.want) || r.code() != "IR_06" {
				t.Fatalf("want an IR_06 error mentioning %q, got %d %.300s", tc.want, r.Status, r.Raw)
			}
			if string(r.Data) != "" && string(r.Data) != "null" {
				t.Fatalf("refused query returned data: %s", r.Data)
			}
			if len(stmts) != 0 {
				t.Fatalf("%d statements, want none:\n%s", len(stmts), strings.Join(stmts, "\n"))
			}
			if elapsed > 5*time.Second {
				t.Fatalf("refused after %v", elapsed)
			}
		})
	}
}

// fanOut is a document of n fragments, each spreading the next twice: as
// written it is small (about 40 bytes a fragment), expanded it is 2^n
// fields.
func fanOut(n int) string {
	var b strings.Builder
	b.WriteString("{ payments(first: 100) { edges { node { ...F0 } } } }\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "fragment F%d on PaymentIntent { ...F%d ...F%d }\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "fragment F%d on PaymentIntent { id }\n", n)
	return b.String()
}

// TestAbuseWithAWrongKey: with a key that is not one, no hostile document
// is even read: the answer is 401 IR_01, without a statement beyond the
// key's lookup.
func TestAbuseWithAWrongKey(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	for _, q := range []string{fanOut(26), "{ viewer { " + strings.Repeat("merchantID ", 14000) + "} }"} {
		r, stmts := postCounted(t, srv, counter, "snd_not_a_key", q, nil)
		if r.Status != 401 || r.code() != "IR_01" {
			t.Fatalf("got %d %.300s", r.Status, r.Raw)
		}
		if len(stmts) > 1 {
			t.Fatalf("%d statements for a refused key, want at most the key lookup:\n%s", len(stmts), strings.Join(stmts, "\n"))
		}
	}
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TestPageSelectsOnlyItsColumns: a page reads only the columns its fields
// need, also when it asks for fields the resolvers work out (displayAmount
// from amount and currency, connectorAccount from merchant_connector_id):
// a payment's JSON columns are most of what a wide page costs to read.
func TestPageSelectsOnlyItsColumns(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	seedNested(t, srv, tn, 3)
	const query = `{ payments(first: 3) { edges { node { paymentID displayAmount connectorAccount { connectorName }
		refunds(first: 5) { edges { node { refundID displayAmount } } } } } } }`
	r, stmts := postCounted(t, srv, counter, tn.key, query, nil)
	if len(r.Errors) > 0 {
		t.Fatalf("%s", r.Raw)
	}
	var data struct {
		Payments struct {
			Edges []struct {
				Node struct {
					PaymentID, DisplayAmount string
					ConnectorAccount         *struct{ ConnectorName string }
					Refunds                  struct {
						Edges []struct {
							Node struct{ RefundID, DisplayAmount string }
						}
					}
				}
			}
		}
	}
	r.decode(t, &data)
	if len(data.Payments.Edges) != 3 {
		t.Fatalf("%d payments, want 3", len(data.Payments.Edges))
	}
	for _, e := range data.Payments.Edges {
		n := e.Node
		if n.DisplayAmount != "USD 100.00" || n.ConnectorAccount == nil || n.ConnectorAccount.ConnectorName != "stripe_test" ||
			len(n.Refunds.Edges) != 1 || n.Refunds.Edges[0].Node.DisplayAmount != "USD 15.00" {
			t.Fatalf("derived fields wrong: %+v", n)
		}
	}
	var read []string
	for _, s := range stmts {
		for _, table := range []string{"payment_intents", "refunds"} {
			if strings.Contains(s, "FROM `"+table+"`") && !strings.Contains(s, "COUNT(") {
				read = append(read, s)
				if strings.Contains(s, "`metadata`") || strings.Contains(s, "`"+table+"`.*") {
					t.Errorf("%s read every column: %s", table, s)
				}
				if !strings.Contains(s, "`currency`") || !strings.Contains(s, "`amount`") {
					t.Errorf("%s did not read amount and currency: %s", table, s)
				}
			}
		}
	}
	if len(read) != 2 {
		t.Fatalf("want one read of payments and one of refunds, got:\n%s", strings.Join(stmts, "\n"))
	}
}
