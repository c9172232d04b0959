package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"switchyard/ent/schema/schematype"
	"switchyard/internal/ids"
)

// seedStats counts what seed wrote.
type seedStats struct {
	payments, attempts, captures, refunds, disputes, customers int
	took                                                       time.Duration
}

func (s seedStats) rows() int {
	return s.payments + s.attempts + s.captures + s.refunds + s.disputes + s.customers
}

// seedBatch is the rows of one batch of payments, per table.
type seedBatch struct {
	intents, attempts, captures, refunds, disputes [][]any
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
		"connector_reason"}
	customerCols = []string{"id", "merchant_id", "created_at", "modified_at", "customer_id", "name", "email", "phone",
		"phone_country_code"}
)

// seed writes env.n payments for the demo merchant, oldest first (the order
// they would have arrived in), one multi-row INSERT per table and batch, on
// two connections at once. created_at steps by an exponential gap averaging
// 30 s, so a million payments span about a year; one in fifty shares the
// previous payment's exact time, so pages split ties. Ids are real random
// ids, as the API makes them.
func seed(ctx context.Context, env *runEnv) (seedStats, error) {
	start := time.Now()
	var st seedStats
	rng := rand.New(rand.NewPCG(uint64(env.n), 42))
	now := time.Now().UTC().Truncate(time.Microsecond)

	// Customers: a thousand per hundred thousand payments (at least 100).
	nCustomers := max(100, env.n/100)
	customers := make([]string, nCustomers)
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
	st.customers = nCustomers

	card := func(network, last4 string) string {
		s := func(v string) *string { return &v }
		b, _ := json.Marshal(schematype.CardDetails{Last4: last4, CardISIN: "424242", CardExtendedBIN: s("42424242"),
			CardNetwork: s(network), CardType: s("credit"), CardIssuer: s("Stripe Test Bank"), CardIssuingCntry: s("US"),
			CardExpMonth: "12", CardExpYear: "2035", CardHolderName: s("Jane Doe"),
			PaymentChecks: map[string]string{"cvc_check": "pass", "address_line1_check": "pass", "address_postal_code_check": "pass"}})
		return string(b)
	}
	cards := []string{card("Visa", "4242"), card("Mastercard", "4444"), card("AmericanExpress", "0005")}
	networks := []string{"Visa", "Mastercard", "AmericanExpress"}
	billing := func() string {
		s := func(v string) *string { return &v }
		b, _ := json.Marshal(schematype.AddressWrapper{
			Address: &schematype.Address{Line1: s("1 Main St"), City: s("San Francisco"), Zip: s("94105"), Country: s("US"),
				FirstName: s("Jane"), LastName: s("Doe")},
			Phone: &schematype.Phone{Number: s("5551234567"), CountryCode: s("+1")}, Email: s("jane@example.com")})
		return string(b)
	}()
	currencies := []string{"USD", "USD", "USD", "EUR", "EUR", "GBP", "INR"}

	batches := make(chan seedBatch, 2)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range batches {
				for _, t := range []struct {
					table string
					cols  []string
					rows  [][]any
				}{{"payment_intents", intentCols, b.intents}, {"payment_attempts", attemptCols, b.attempts},
					{"captures", captureCols, b.captures}, {"refunds", refundCols, b.refunds}, {"disputes", disputeCols, b.disputes}} {
					if err := insertRows(ctx, env.seedDB, t.table, t.cols, t.rows); err != nil {
						errs <- err
						return
					}
				}
				mu.Lock()
				done += len(b.intents)
				if env.o.verbose && done%(env.o.batch*20) < len(b.intents) {
					fmt.Fprintf(env.out, "  seeded %s/%s payments (%s)\n", human(done), human(env.n), time.Since(start).Round(time.Second))
				}
				mu.Unlock()
			}
		}()
	}

	at := now.Add(-time.Duration(float64(env.n) * 30 * float64(time.Second)))
	b := seedBatch{}
	var sendErr error
	flush := func() bool {
		select {
		case batches <- b:
			b = seedBatch{}
			return true
		case err := <-errs:
			sendErr = err
			return false
		case <-ctx.Done():
			sendErr = ctx.Err()
			return false
		}
	}
	for i := 0; i < env.n; i++ {
		if rng.IntN(50) != 0 {
			at = at.Add(time.Duration(rng.ExpFloat64() * 30 * float64(time.Second))).Truncate(time.Microsecond)
		}
		id := ids.New(ids.Payment)
		amount := int64(100 + rng.IntN(200_000))
		currency := currencies[rng.IntN(len(currencies))]
		row := map[string]any{
			"id": id, "merchant_id": env.merchant, "created_at": at, "modified_at": at, "payment_id": id,
			"profile_id": env.profile, "status": "requires_payment_method", "amount": amount, "currency": currency,
			"amount_captured": 0, "amount_capturable": 0, "capture_method": "automatic",
			"client_secret": ids.ClientSecret(id), "session_expiry": 900, "expires_on": at.Add(15 * time.Minute),
			"attempt_count": 0, "version": 0,
		}
		if rng.IntN(2) == 0 {
			row["customer_id"] = customers[rng.IntN(len(customers))]
		}
		if rng.IntN(2) == 0 {
			row["description"] = fmt.Sprintf("Order #%d", 100000+i)
		}
		if rng.IntN(3) == 0 {
			row["return_url"] = "https://shop.example/return"
			row["metadata"] = fmt.Sprintf(`{"order_id":"ord_%d","channel":"web"}`, i)
		}
		if rng.IntN(5) == 0 {
			row["billing"] = billing
			row["statement_descriptor"] = "SHOP EXAMPLE"
		}
		kind := rng.Float64()
		if kind >= 0.15 { // confirmed: one attempt through the sandbox connector
			attempt := ids.New(ids.Attempt)
			ai := rng.IntN(len(cards))
			attemptStatus, captureMethod := "charged", "automatic"
			var errCode, errMsg any
			switch {
			case kind < 0.25:
				row["status"], attemptStatus = "failed", "failure"
				errCode, errMsg = "card_declined", "Your card was declined (insufficient_funds)"
			case kind < 0.30:
				row["status"], attemptStatus, captureMethod = "requires_capture", "authorized", "manual"
				row["amount_capturable"] = amount
			default:
				row["status"] = "succeeded"
				row["amount_captured"] = amount
			}
			nested := row["status"] == "succeeded" && rng.Float64() < env.o.nested/0.70
			if nested {
				captureMethod = "manual_multiple"
			}
			row["capture_method"] = captureMethod
			row["authentication_type"] = "no_three_ds"
			row["active_attempt_id"], row["attempt_count"] = attempt, 1
			row["connector"], row["merchant_connector_id"] = "stripe_test", env.connector
			row["payment_method"], row["payment_method_type"], row["card_network"] = "card", "credit", networks[ai]
			row["modified_at"] = at.Add(400 * time.Millisecond)
			aAt := at.Add(10 * time.Millisecond)
			capturable := row["amount_capturable"]
			b.attempts = append(b.attempts, []any{attempt, env.merchant, aAt, aAt.Add(300 * time.Millisecond), id,
				attemptStatus, amount, amount, capturable, currency, "stripe_test", env.connector, "sim_" + attempt,
				captureMethod, "no_three_ds", "card", "credit", cards[ai], errCode, errMsg, "sim_nti_" + attempt,
				`{"simulator":"switchyard_sandbox_v1","card_behaviour":"ok"}`})
			st.attempts++
			if nested {
				first := amount * 6 / 10
				for seq, part := range []int64{first, amount - first} {
					capID := ids.New(ids.Capture)
					cAt := at.Add(time.Duration(seq+1) * time.Minute)
					b.captures = append(b.captures, []any{capID, env.merchant, cAt, cAt, id, attempt, "charged", part,
						currency, "stripe_test", seq + 1, "sim_cap_" + capID})
					st.captures++
				}
				ref := ids.New(ids.Refund)
				rAt := at.Add(time.Hour)
				b.refunds = append(b.refunds, []any{ref, env.merchant, rAt, rAt, ref, id, attempt, env.profile, env.connector,
					"stripe_test", "sim_ref_" + ref, amount / 4, currency, "succeeded", "customer returned an item"})
				st.refunds++
				if rng.IntN(20) == 0 {
					dAt := at.Add(72 * time.Hour)
					b.disputes = append(b.disputes, []any{ids.New(ids.Dispute), env.merchant, dAt, dAt, id, attempt,
						env.profile, env.connector, amount, currency, "stripe_test", "needs_response",
						"sim_dp_" + attempt, "fraudulent"})
					st.disputes++
				}
			}
		}
		vals := make([]any, len(intentCols))
		for j, c := range intentCols {
			vals[j] = row[c]
		}
		b.intents = append(b.intents, vals)
		st.payments++
		if len(b.intents) == env.o.batch && !flush() {
			break
		}
	}
	if sendErr == nil && len(b.intents) > 0 {
		flush()
	}
	close(batches)
	wg.Wait()
	close(errs)
	if sendErr != nil {
		return st, sendErr
	}
	for err := range errs {
		return st, err
	}
	st.took = time.Since(start)
	return st, ctx.Err()
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
