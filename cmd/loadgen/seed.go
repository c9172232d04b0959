package main

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// seedStats counts what seed wrote.
type seedStats struct {
	payments, attempts, captures, refunds, disputes, customers int
	took, indexes                                              time.Duration
}

func (s seedStats) rows() int {
	return s.payments + s.attempts + s.captures + s.refunds + s.disputes + s.customers
}

// Columns written, by table: the real columns of the migrated schema; the
// others keep their defaults (or NULL).
var (
	intentCols = []string{"id", "merchant_id", "created_at", "modified_at", "payment_id", "profile_id", "status",
		"amount", "currency", "amount_captured", "amount_capturable", "capture_method", "authentication_type",
		"customer_id", "client_secret", "session_expiry", "expires_on", "description", "return_url", "metadata",
		"billing", "statement_descriptor", "active_attempt_id", "attempt_count", "connector", "merchant_connector_id",
		"payment_method", "payment_method_type", "card_network", "version"}
	attemptCols = []string{"id", "merchant_id", "created_at", "modified_at", "payment_intent_id", "status", "amount",
		"net_amount", "amount_capturable", "currency", "connector", "merchant_connector_id", "connector_transaction_id",
		"capture_method", "authentication_type", "payment_method", "payment_method_type", "card", "error_code",
		"error_message", "network_transaction_id", "connector_metadata"}
	captureCols = []string{"id", "merchant_id", "created_at", "modified_at", "payment_intent_id", "authorized_attempt_id",
		"status", "amount", "currency", "connector", "capture_sequence", "connector_capture_id"}
	refundCols = []string{"id", "merchant_id", "created_at", "modified_at", "refund_id", "payment_intent_id", "attempt_id",
		"profile_id", "merchant_connector_id", "connector", "connector_refund_id", "amount", "currency", "status", "reason"}
	disputeCols = []string{"id", "merchant_id", "created_at", "modified_at", "payment_intent_id", "attempt_id", "profile_id",
		"merchant_connector_id", "amount", "currency", "connector", "connector_status", "connector_dispute_id",
		"connector_reason", "dispute_status"}
	customerCols = []string{"id", "merchant_id", "created_at", "modified_at", "customer_id", "name", "email", "phone",
		"phone_country_code"}
)

// Payment kinds of the seed, by share: 15% never confirmed, 10% declined,
// 5% authorized and waiting for a manual capture, 70% succeeded. A share of
// the succeeded ones (-nested overall) were captured in two parts, partly
// refunded, and one in twenty of those disputed.
const (
	kindOpen = iota
	kindFailed
	kindAuthorized
	kindSucceeded
)

// plannedPayment is one seeded payment, decided before anything is written.
type plannedPayment struct {
	id, attempt       string
	at                time.Time
	amount            int64
	currency, network string
	customer          string // customers row id, or ""
	kind              uint8
	nested, disputed  bool
	described, linked bool
	billed            bool
	account, method   uint8 // indexes into env.accounts and methods
	refund, dispute   uint8 // indexes into refundStatuses and disputeStatuses
}

// What the analytics mode (env.varied) mixes; the list mode seeds the first
// of each.
var (
	methods         = []struct{ method, kind string }{{"card", "credit"}, {"card", "debit"}, {"wallet", "apple_pay"}, {"upi", "upi_collect"}}
	refundStatuses  = []string{"succeeded", "succeeded", "succeeded", "pending", "failed"}
	disputeStatuses = []string{"dispute_opened", "dispute_won", "dispute_lost", "dispute_challenged", "dispute_accepted"}
)

// child is a nested row to write: its id and the payment it belongs to.
type child struct {
	id  string
	pay int32
	seq int8
}

// seed writes env.n payments for the demo merchant, with their attempts,
// captures, refunds and disputes, and the customers they name.
//
// created_at steps by an exponential gap averaging 30 s, so a million
// payments span about a year, and one in fifty shares the previous
// payment's exact time, so pages split ties. Ids are real random ids, as the
// API makes them, so time order and id order are unrelated, as in
// production. To load that fast without changing what is loaded, each table
// is written in primary-key order (appending to the clustered index instead
// of splitting random pages) with its secondary indexes dropped, and the
// indexes are then rebuilt, sorted, exactly as the migration defined them
// (checked against information_schema before and after).
func seed(ctx context.Context, env *runEnv) (seedStats, error) {
	start := time.Now()
	var st seedStats
	rng := rand.New(rand.NewPCG(uint64(env.n), 42))
	now := time.Now().UTC().Truncate(time.Microsecond)

	// Customers: one per hundred payments (at least 100), written as usual.
	customers := make([]string, max(100, env.n/100))
	var custRows [][]any
	for i := range customers {
		customers[i] = ids.New(ids.Customer)
		at := now.Add(-400 * 24 * time.Hour)
		custRows = append(custRows, []any{customers[i], env.merchant, at, at, fmt.Sprintf("cus_loadgen_%07d", i),
			fmt.Sprintf("Customer %d", i), fmt.Sprintf("customer%d@example.com", i), "5551234567", "+1"})
	}
	for i := 0; i < len(custRows); i += env.o.batch {
		if err := insertRows(ctx, env.seedDB, "customers", customerCols, custRows[i:min(i+env.o.batch, len(custRows))]); err != nil {
			return st, err
		}
	}
	st.customers = len(customers)

	// Plan every payment, oldest first.
	currencies := []string{"USD", "USD", "USD", "EUR", "EUR", "GBP", "INR"}
	networks := []string{"Visa", "Mastercard", "AmericanExpress"}
	pays := make([]plannedPayment, env.n)
	var attempts, captures, refunds, disputes []child
	gap := 30 * float64(time.Second)
	if env.spread > 0 {
		gap = float64(env.spread) / float64(env.n)
	}
	at := now.Add(-time.Duration(float64(env.n) * gap))
	for i := range pays {
		if rng.IntN(50) != 0 {
			at = at.Add(time.Duration(rng.ExpFloat64() * gap)).Truncate(time.Microsecond)
		}
		p := plannedPayment{id: ids.New(ids.Payment), at: at, amount: int64(100 + rng.IntN(200_000)),
			currency: currencies[rng.IntN(len(currencies))], network: networks[rng.IntN(len(networks))],
			described: rng.IntN(2) == 0, linked: rng.IntN(3) == 0, billed: rng.IntN(5) == 0}
		if env.varied {
			p.account, p.method = uint8(rng.IntN(len(env.accounts))), uint8(rng.IntN(len(methods)))
			p.refund, p.dispute = uint8(rng.IntN(len(refundStatuses))), uint8(rng.IntN(len(disputeStatuses)))
		}
		if rng.IntN(2) == 0 {
			p.customer = customers[rng.IntN(len(customers))]
		}
		switch k := rng.Float64(); {
		case k < 0.15:
			p.kind = kindOpen
		case k < 0.25:
			p.kind = kindFailed
		case k < 0.30:
			p.kind = kindAuthorized
		default:
			p.kind = kindSucceeded
			p.nested = rng.Float64() < env.o.nested/0.70
			p.disputed = p.nested && rng.IntN(20) == 0
		}
		if p.kind != kindOpen {
			p.attempt = ids.New(ids.Attempt)
			attempts = append(attempts, child{id: p.attempt, pay: int32(i)})
		}
		if p.nested {
			captures = append(captures, child{id: ids.New(ids.Capture), pay: int32(i), seq: 1},
				child{id: ids.New(ids.Capture), pay: int32(i), seq: 2})
			refunds = append(refunds, child{id: ids.New(ids.Refund), pay: int32(i)})
		}
		if p.disputed {
			disputes = append(disputes, child{id: ids.New(ids.Dispute), pay: int32(i)})
		}
		pays[i] = p
	}
	order := make([]int32, len(pays))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(pays[a].id, pays[b].id) })
	for _, c := range [][]child{attempts, captures, refunds, disputes} {
		slices.SortFunc(c, func(a, b child) int { return cmp.Compare(a.id, b.id) })
	}
	st.payments, st.attempts, st.captures, st.refunds, st.disputes = len(pays), len(attempts), len(captures), len(refunds), len(disputes)

	// Row builders.
	card := func(network string) string {
		s := func(v string) *string { return &v }
		last4 := map[string]string{"Visa": "4242", "Mastercard": "4444", "AmericanExpress": "0005"}[network]
		b, _ := json.Marshal(schematype.CardDetails{Last4: last4, CardISIN: "424242", CardExtendedBIN: s("42424242"),
			CardNetwork: s(network), CardType: s("credit"), CardIssuer: s("Stripe Test Bank"), CardIssuingCntry: s("US"),
			CardExpMonth: "12", CardExpYear: "2035", CardHolderName: s("Jane Doe"),
			PaymentChecks: map[string]string{"cvc_check": "pass", "address_line1_check": "pass", "address_postal_code_check": "pass"}})
		return string(b)
	}
	cards := map[string]string{}
	for _, n := range networks {
		cards[n] = card(n)
	}
	billing := func() string {
		s := func(v string) *string { return &v }
		b, _ := json.Marshal(schematype.AddressWrapper{
			Address: &schematype.Address{Line1: s("1 Main St"), City: s("San Francisco"), Zip: s("94105"), Country: s("US"),
				FirstName: s("Jane"), LastName: s("Doe")},
			Phone: &schematype.Phone{Number: s("5551234567"), CountryCode: s("+1")}, Email: s("jane@example.com")})
		return string(b)
	}()
	status := func(p *plannedPayment) (intent, attempt, captureMethod string) {
		switch p.kind {
		case kindOpen:
			return "requires_payment_method", "", "automatic"
		case kindFailed:
			return "failed", "failure", "automatic"
		case kindAuthorized:
			return "requires_capture", "authorized", "manual"
		}
		if p.nested {
			return "succeeded", "charged", "manual_multiple"
		}
		return "succeeded", "charged", "automatic"
	}
	intentRow := func(i int32) []any {
		p := &pays[i]
		intentStatus, _, captureMethod := status(p)
		var captured, capturable int64
		switch p.kind {
		case kindSucceeded:
			captured = p.amount
		case kindAuthorized:
			capturable = p.amount
		}
		row := []any{p.id, env.merchant, p.at, p.at, p.id, env.profile, intentStatus, p.amount, p.currency, captured, capturable,
			captureMethod, nil, nil, ids.ClientSecret(p.id), 900, p.at.Add(15 * time.Minute), nil, nil, nil, nil, nil,
			nil, 0, nil, nil, nil, nil, nil, 0}
		set := func(col string, v any) { row[slices.Index(intentCols, col)] = v }
		if p.customer != "" {
			set("customer_id", p.customer)
		}
		if p.described {
			set("description", fmt.Sprintf("Order #%d", 100000+i))
		}
		if p.linked {
			set("return_url", "https://shop.example/return")
			set("metadata", fmt.Sprintf(`{"order_id":"ord_%d","channel":"web"}`, i))
		}
		if p.billed {
			set("billing", billing)
			set("statement_descriptor", "SHOP EXAMPLE")
		}
		if p.attempt != "" {
			set("authentication_type", "no_three_ds")
			set("active_attempt_id", p.attempt)
			set("attempt_count", 1)
			set("connector", env.accounts[p.account].name)
			set("merchant_connector_id", env.accounts[p.account].id)
			set("payment_method", methods[p.method].method)
			set("payment_method_type", methods[p.method].kind)
			set("card_network", p.network)
			set("modified_at", p.at.Add(400*time.Millisecond))
		}
		return row
	}
	attemptRow := func(c child) []any {
		p := &pays[c.pay]
		_, attemptStatus, captureMethod := status(p)
		var capturable int64
		var errCode, errMsg any
		switch p.kind {
		case kindAuthorized:
			capturable = p.amount
		case kindFailed:
			errCode, errMsg = "card_declined", "Your card was declined (insufficient_funds)"
		}
		aAt := p.at.Add(10 * time.Millisecond)
		return []any{c.id, env.merchant, aAt, aAt.Add(300 * time.Millisecond), p.id, attemptStatus, p.amount, p.amount, capturable,
			p.currency, env.accounts[p.account].name, env.accounts[p.account].id, "sim_" + c.id, captureMethod, "no_three_ds",
			methods[p.method].method, methods[p.method].kind,
			cards[p.network], errCode, errMsg, "sim_nti_" + c.id, `{"simulator":"switchyard_sandbox_v1","card_behaviour":"ok"}`}
	}
	captureRow := func(c child) []any {
		p := &pays[c.pay]
		part := p.amount * 6 / 10
		if c.seq == 2 {
			part = p.amount - part
		}
		cAt := p.at.Add(time.Duration(c.seq) * time.Minute)
		return []any{c.id, env.merchant, cAt, cAt, p.id, p.attempt, "charged", part, p.currency, "stripe_test",
			int(c.seq), "sim_cap_" + c.id}
	}
	refundRow := func(c child) []any {
		p := &pays[c.pay]
		rAt := p.at.Add(time.Hour)
		return []any{c.id, env.merchant, rAt, rAt, c.id, p.id, p.attempt, env.profile, env.connector, "stripe_test",
			"sim_ref_" + c.id, p.amount / 4, p.currency, refundStatuses[p.refund], "customer returned an item"}
	}
	disputeRow := func(c child) []any {
		p := &pays[c.pay]
		dAt := p.at.Add(72 * time.Hour)
		return []any{c.id, env.merchant, dAt, dAt, p.id, p.attempt, env.profile, env.connector, p.amount, p.currency,
			"stripe_test", "needs_response", "sim_dp_" + p.attempt, "fraudulent", disputeStatuses[p.dispute]}
	}

	type load struct {
		table string
		cols  []string
		n     int
		row   func(int) []any
	}
	loads := []load{
		{"payment_intents", intentCols, len(order), func(k int) []any { return intentRow(order[k]) }},
		{"payment_attempts", attemptCols, len(attempts), func(k int) []any { return attemptRow(attempts[k]) }},
		{"captures", captureCols, len(captures), func(k int) []any { return captureRow(captures[k]) }},
		{"refunds", refundCols, len(refunds), func(k int) []any { return refundRow(refunds[k]) }},
		{"disputes", disputeCols, len(disputes), func(k int) []any { return disputeRow(disputes[k]) }},
	}
	indexes := map[string][]indexDef{}
	for _, l := range loads {
		defs, err := secondaryIndexes(ctx, env.seedDB, l.table)
		if err != nil {
			return st, err
		}
		indexes[l.table] = defs
		if err := alterIndexes(ctx, env.seedDB, l.table, defs, "DROP INDEX"); err != nil {
			return st, err
		}
	}

	// Two connections write; each batch is a contiguous run of keys, so
	// both append.
	type job struct {
		l        load
		from, to int
	}
	jobs := make(chan job)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	written := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				rows := make([][]any, 0, j.to-j.from)
				for k := j.from; k < j.to; k++ {
					rows = append(rows, j.l.row(k))
				}
				if err := insertRows(ctx, env.seedDB, j.l.table, j.l.cols, rows); err != nil {
					errs <- err
					return
				}
				mu.Lock()
				written += len(rows)
				if env.o.verbose && written%(env.o.batch*40) < len(rows) {
					fmt.Fprintf(env.out, "  seeded %s rows (%s)\n", human(written), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}
	var sendErr error
send:
	for _, l := range loads {
		for from := 0; from < l.n; from += env.o.batch {
			select {
			case jobs <- job{l, from, min(from+env.o.batch, l.n)}:
			case err := <-errs:
				sendErr = err
				break send
			case <-ctx.Done():
				sendErr = ctx.Err()
				break send
			}
		}
	}
	close(jobs)
	wg.Wait()
	close(errs)
	if sendErr == nil {
		sendErr = <-errs // nil when no worker failed
	}
	if sendErr != nil {
		return st, sendErr
	}

	indexStart := time.Now()
	for _, l := range loads {
		if err := alterIndexes(ctx, env.seedDB, l.table, indexes[l.table], "ADD"); err != nil {
			return st, err
		}
		after, err := secondaryIndexes(ctx, env.seedDB, l.table)
		if err != nil {
			return st, err
		}
		if !slices.EqualFunc(indexes[l.table], after, func(a, b indexDef) bool { return a.sql() == b.sql() }) {
			return st, fmt.Errorf("%s: the rebuilt indexes differ from the migration's", l.table)
		}
	}
	st.indexes = time.Since(indexStart)
	st.took = time.Since(start)
	return st, ctx.Err()
}

// indexDef is a secondary index as information_schema describes it.
type indexDef struct {
	name   string
	unique bool
	cols   []string // `col`, `col`(n) or `col` DESC
}

func (d indexDef) sql() string {
	kind := "INDEX"
	if d.unique {
		kind = "UNIQUE INDEX"
	}
	return kind + " `" + d.name + "` (" + strings.Join(d.cols, ", ") + ")"
}

// secondaryIndexes lists a table's indexes other than the primary key, by
// name.
func secondaryIndexes(ctx context.Context, db *sql.DB, table string) ([]indexDef, error) {
	rows, err := db.QueryContext(ctx, "SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART, COLLATION "+
		"FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND INDEX_NAME <> 'PRIMARY' "+
		"ORDER BY INDEX_NAME, SEQ_IN_INDEX", table)
	if err != nil {
		return nil, fmt.Errorf("%s indexes: %w", table, err)
	}
	defer rows.Close()
	var out []indexDef
	for rows.Next() {
		var name, col string
		var nonUnique int
		var sub sql.NullInt64
		var collation sql.NullString
		if err := rows.Scan(&name, &nonUnique, &col, &sub, &collation); err != nil {
			return nil, err
		}
		if len(out) == 0 || out[len(out)-1].name != name {
			out = append(out, indexDef{name: name, unique: nonUnique == 0})
		}
		c := "`" + col + "`"
		if sub.Valid {
			c += fmt.Sprintf("(%d)", sub.Int64)
		}
		if collation.String == "D" {
			c += " DESC"
		}
		out[len(out)-1].cols = append(out[len(out)-1].cols, c)
	}
	return out, rows.Err()
}

// alterIndexes drops ("DROP INDEX") or adds ("ADD") the indexes in one
// ALTER TABLE.
func alterIndexes(ctx context.Context, db *sql.DB, table string, defs []indexDef, op string) error {
	if len(defs) == 0 {
		return nil
	}
	var clauses []string
	for _, d := range defs {
		if op == "ADD" {
			clauses = append(clauses, "ADD "+d.sql())
		} else {
			clauses = append(clauses, "DROP INDEX `"+d.name+"`")
		}
	}
	if _, err := db.ExecContext(ctx, "ALTER TABLE `"+table+"` "+strings.Join(clauses, ", ")); err != nil {
		return fmt.Errorf("%s: %s indexes: %w", table, strings.ToLower(op), err)
	}
	return nil
}

// insertRows writes rows with one multi-row INSERT.
func insertRows(ctx context.Context, db *sql.DB, table string, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	var q strings.Builder
	q.WriteString("INSERT INTO `" + table + "` (`" + strings.Join(cols, "`, `") + "`) VALUES ")
	tuple := "(" + strings.Repeat("?, ", len(cols)-1) + "?)"
	args := make([]any, 0, len(rows)*len(cols))
	for i, r := range rows {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString(tuple)
		args = append(args, r...)
	}
	if _, err := db.ExecContext(ctx, q.String(), args...); err != nil {
		return fmt.Errorf("insert into %s: %w", table, err)
	}
	return nil
}
