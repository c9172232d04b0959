package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

const pageSize = 100

var scenarioNames = []string{"first", "deep", "range"}

// scenario is one page to fetch: the REST query, and the same page's
// parameters for the baseline.
type scenario struct {
	name  string
	query string
	// cursor is the payment_id of starting_after ("" for none).
	cursor string
	// from and until bound created_at: [from, until) (zero: unbounded).
	from, until time.Time
}

// buildScenarios picks the deep cursor (the payment ~90% down the list) and
// a mid-list created range that holds more than a page.
func buildScenarios(ctx context.Context, env *runEnv) ([]*scenario, error) {
	var deep string
	if err := env.baseline.QueryRowContext(ctx, "SELECT payment_id FROM payment_intents WHERE merchant_id = ? "+
		"ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?", env.merchant, min(env.n*9/10, env.n-pageSize-1)).Scan(&deep); err != nil {
		return nil, fmt.Errorf("deep cursor: %w", err)
	}
	var mid time.Time
	if err := env.baseline.QueryRowContext(ctx, "SELECT created_at FROM payment_intents WHERE merchant_id = ? "+
		"ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?", env.merchant, env.n/2).Scan(&mid); err != nil {
		return nil, fmt.Errorf("range: %w", err)
	}
	// Whole seconds, as the wire has them: [until-6h, until) holds ~700
	// payments at the seed's 30 s average gap.
	until := mid.UTC().Truncate(time.Second)
	from := until.Add(-6 * time.Hour)
	const layout = "2006-01-02T15:04:05Z"
	rangeQuery := url.Values{"limit": {strconv.Itoa(pageSize)}, "created.gte": {from.Format(layout)}, "created.lt": {until.Format(layout)}}
	return []*scenario{
		{name: "first", query: "limit=" + strconv.Itoa(pageSize)},
		{name: "deep", query: "limit=" + strconv.Itoa(pageSize) + "&starting_after=" + url.QueryEscape(deep), cursor: deep},
		{name: "range", query: rangeQuery.Encode(), from: from, until: until},
	}, nil
}

// stats are a sample's median and 95th percentile.
type stats struct{ p50, p95 time.Duration }

func statsOf(d []time.Duration) stats {
	s := slices.Clone(d)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[min(len(s)-1, int(q*float64(len(s))))] }
	return stats{p50: at(0.50), p95: at(0.95)}
}

// result is one scenario's figures at one size.
type result struct {
	server, baseline stats
	// paired is the median of server/baseline over the back-to-back pairs:
	// the ratio with the machine's moment-to-moment load taken out.
	paired        float64
	serverBytes   int
	baselineBytes int
}

// sampler calls one size's server and baseline.
type sampler struct {
	env    *runEnv
	client *http.Client
	bl     *baseline
	body   bytes.Buffer
}

func (s *sampler) server(ctx context.Context, sc *scenario) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.env.baseURL+"/payments/list?"+sc.query, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("api-key", s.env.key)
	s.body.Reset()
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, err = io.Copy(&s.body, resp.Body)
	resp.Body.Close()
	took := time.Since(start)
	if err != nil {
		return 0, err
	}
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("%s: %s: %s", sc.name, resp.Status, abbreviate(s.body.String(), 300))
	}
	return took, nil
}

func (s *sampler) baseline(ctx context.Context, sc *scenario) (time.Duration, []string, error) {
	start := time.Now()
	ids, err := s.bl.page(ctx, sc)
	return time.Since(start), ids, err
}

// check makes sure the server and the baseline return the same full page.
func (s *sampler) check(ctx context.Context, sc *scenario) error {
	if _, err := s.server(ctx, sc); err != nil {
		return err
	}
	var page []struct {
		Size int `json:"size"`
		Data []struct {
			PaymentID string `json:"payment_id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(s.body.Bytes(), &page); err != nil || len(page) != 1 {
		return fmt.Errorf("%s: the body is not [{size, data}]: %v", sc.name, err)
	}
	var got []string
	for _, d := range page[0].Data {
		got = append(got, d.PaymentID)
	}
	_, want, err := s.baseline(ctx, sc)
	if err != nil {
		return err
	}
	if len(got) != pageSize || page[0].Size != pageSize || !slices.Equal(got, want) {
		return fmt.Errorf("%s at %s: the server's page (%d) is not the baseline's (%d)", sc.name, human(s.env.n), len(got), len(want))
	}
	return nil
}

// measure runs every scenario on every size: -warmup rounds, then
// -requests rounds. A round calls, for each size, the server and the
// baseline back to back, rotating which size and which side goes first, so
// every figure of a scenario is taken over the same stretch of time.
func measure(ctx context.Context, envs []*runEnv) ([]map[string]result, error) {
	o := envs[0].o
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4, DisableCompression: true}}
	samplers := make([]*sampler, len(envs))
	for i, env := range envs {
		samplers[i] = &sampler{env: env, client: client, bl: &baseline{db: env.baseline, merchant: env.merchant}}
	}
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	results := make([]map[string]result, len(envs))
	for i := range results {
		results[i] = map[string]result{}
	}
	for k, name := range scenarioNames {
		type sample struct{ srv, base []time.Duration }
		samples := make([]sample, len(envs))
		for i, s := range samplers {
			if err := s.check(ctx, s.env.scenarios[k]); err != nil {
				return nil, err
			}
			r := results[i][name]
			r.serverBytes, r.baselineBytes = s.body.Len(), s.bl.out.Len()
			results[i][name] = r
		}
		for round := range o.warmup + o.requests {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			for j := range samplers {
				i := (j + round) % len(samplers)
				s, sc := samplers[i], samplers[i].env.scenarios[k]
				var ds, db time.Duration
				var err error
				if round%2 == 0 {
					if ds, err = s.server(ctx, sc); err == nil {
						db, _, err = s.baseline(ctx, sc)
					}
				} else {
					if db, _, err = s.baseline(ctx, sc); err == nil {
						ds, err = s.server(ctx, sc)
					}
				}
				if err != nil {
					return nil, err
				}
				if round >= o.warmup {
					samples[i].srv = append(samples[i].srv, ds)
					samples[i].base = append(samples[i].base, db)
				}
			}
		}
		for i, sm := range samples {
			r := results[i][name]
			r.server, r.baseline = statsOf(sm.srv), statsOf(sm.base)
			pairs := make([]float64, len(sm.srv))
			for j := range sm.srv {
				pairs[j] = ratio(sm.srv[j], sm.base[j])
			}
			slices.Sort(pairs)
			r.paired = pairs[len(pairs)/2]
			results[i][name] = r
		}
	}
	for i, env := range envs {
		fmt.Fprintf(env.out, "\nGET /payments/list?limit=100 at %s payments: server (HTTP, in-process) vs baseline (database/sql + JSON), %d calls each\n",
			human(env.n), o.requests)
		fmt.Fprintf(env.out, "%-6s %21s %21s %15s %7s   %s\n", "", "server p50 / p95", "baseline p50 / p95", "ratio p50/p95", "paired", "(target ≤ 1.50×)")
		for _, name := range scenarioNames {
			r := results[i][name]
			fmt.Fprintf(env.out, "%-6s %9s / %9s %9s / %9s %6.2f× / %5.2f× %6.2f×   page %s KB, baseline %s KB\n", name,
				ms(r.server.p50), ms(r.server.p95), ms(r.baseline.p50), ms(r.baseline.p95),
				ratio(r.server.p50, r.baseline.p50), ratio(r.server.p95, r.baseline.p95), r.paired,
				human(r.serverBytes/1024), human(r.baselineBytes/1024))
		}
	}
	return results, nil
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 2, 64) + "ms" }

// baseline is the plain database/sql program: the same keyset SELECT as the
// server (with the cursor lookup first when paging), one SELECT per nested
// kind for the page's payments, and the rows encoded as JSON, each payment
// an object of its columns with its nested rows and customer.
type baseline struct {
	db       *sql.DB
	merchant string
	out      bytes.Buffer
}

// page runs one page and returns its payment ids (the JSON is in b.out).
func (b *baseline) page(ctx context.Context, sc *scenario) ([]string, error) {
	where := []string{"merchant_id = ?"}
	args := []any{b.merchant}
	if sc.cursor != "" {
		var at time.Time
		var id string
		if err := b.db.QueryRowContext(ctx, "SELECT created_at, id FROM payment_intents WHERE merchant_id = ? AND payment_id = ? LIMIT 2",
			b.merchant, sc.cursor).Scan(&at, &id); err != nil {
			return nil, fmt.Errorf("baseline cursor: %w", err)
		}
		where = append(where, "(created_at <= ? AND (created_at < ? OR id < ?))")
		args = append(args, at, at, id)
	}
	if !sc.from.IsZero() {
		where = append(where, "created_at >= ?", "created_at < ?")
		args = append(args, sc.from, sc.until)
	}
	// The page's keys from the index, then its rows, as the server reads them
	// (see payments.ListPayments).
	keys, err := b.query(ctx, "SELECT id FROM payment_intents WHERE "+strings.Join(where, " AND ")+
		" ORDER BY created_at DESC, id DESC LIMIT "+strconv.Itoa(pageSize), args...)
	if err != nil {
		return nil, err
	}
	keyArgs := []any{b.merchant}
	for _, k := range keys.rows {
		keyArgs = append(keyArgs, string(k[0].([]byte)))
	}
	payments := &table{}
	if len(keys.rows) > 0 {
		if payments, err = b.query(ctx, "SELECT * FROM payment_intents WHERE merchant_id = ? AND id IN ("+
			strings.TrimSuffix(strings.Repeat("?, ", len(keys.rows)), ", ")+") ORDER BY created_at DESC, id DESC", keyArgs...); err != nil {
			return nil, err
		}
	}
	ids := make([]string, len(payments.rows))
	byID := make(map[string]int, len(payments.rows))
	var inArgs, custArgs []any
	inArgs = append(inArgs, b.merchant)
	custArgs = append(custArgs, b.merchant)
	idCol, pidCol, custCol := payments.col("id"), payments.col("payment_id"), payments.col("customer_id")
	for i, r := range payments.rows {
		id := string(r[idCol].([]byte))
		ids[i] = string(r[pidCol].([]byte))
		byID[id] = i
		inArgs = append(inArgs, id)
		if c, ok := r[custCol].([]byte); ok {
			custArgs = append(custArgs, string(c))
		}
	}
	in := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")"
	type nestedKind struct {
		name, query string
		set         *table
	}
	kinds := []nestedKind{
		{name: "attempts", query: "SELECT * FROM payment_attempts WHERE merchant_id = ? AND payment_intent_id IN " + in + " ORDER BY created_at, id"},
		{name: "captures", query: "SELECT * FROM captures WHERE merchant_id = ? AND payment_intent_id IN " + in + " ORDER BY capture_sequence"},
		{name: "refunds", query: "SELECT * FROM refunds WHERE merchant_id = ? AND payment_intent_id IN " + in + " ORDER BY created_at, id"},
		{name: "disputes", query: "SELECT * FROM disputes WHERE merchant_id = ? AND payment_intent_id IN " + in + " ORDER BY created_at, id"},
		{name: "incremental_authorizations", query: "SELECT * FROM incremental_authorizations WHERE merchant_id = ? AND payment_intent_id IN " + in + " ORDER BY created_at"},
	}
	nested := make([][][]int, len(kinds)) // kind → payment → row indexes
	for k := range kinds {
		if len(ids) == 0 {
			break
		}
		if kinds[k].set, err = b.query(ctx, kinds[k].query, inArgs...); err != nil {
			return nil, err
		}
		nested[k] = make([][]int, len(ids))
		col := kinds[k].set.col("payment_intent_id")
		for j, r := range kinds[k].set.rows {
			i := byID[string(r[col].([]byte))]
			nested[k][i] = append(nested[k][i], j)
		}
	}
	var customers *table
	byCustomer := map[string]int{}
	if len(custArgs) > 1 {
		if customers, err = b.query(ctx, "SELECT * FROM customers WHERE merchant_id = ? AND id IN ("+
			strings.TrimSuffix(strings.Repeat("?, ", len(custArgs)-1), ", ")+")", custArgs...); err != nil {
			return nil, err
		}
		col := customers.col("id")
		for j, r := range customers.rows {
			byCustomer[string(r[col].([]byte))] = j
		}
	}

	w := &b.out
	w.Reset()
	w.WriteString(`[{"size":`)
	w.WriteString(strconv.Itoa(len(ids)))
	w.WriteString(`,"data":[`)
	for i, r := range payments.rows {
		if i > 0 {
			w.WriteByte(',')
		}
		payments.writeRow(w, r, false)
		for k, kind := range kinds {
			w.WriteString(`,"` + kind.name + `":[`)
			if nested[k] != nil {
				for n, j := range nested[k][i] {
					if n > 0 {
						w.WriteByte(',')
					}
					kind.set.writeRow(w, kind.set.rows[j], true)
				}
			}
			w.WriteByte(']')
		}
		w.WriteString(`,"customer":`)
		if c, ok := r[custCol].([]byte); ok && customers != nil {
			customers.writeRow(w, customers.rows[byCustomer[string(c)]], true)
		} else {
			w.WriteString("null")
		}
		w.WriteByte('}')
	}
	w.WriteString("]}]\n")
	return ids, nil
}

// table is a query's result: column names and rows of driver values.
type table struct {
	cols []string
	rows [][]any
}

func (t *table) col(name string) int { return slices.Index(t.cols, name) }

func (b *baseline) query(ctx context.Context, q string, args ...any) (*table, error) {
	rows, err := b.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("baseline: %w", err)
	}
	defer rows.Close()
	t := &table{}
	if t.cols, err = rows.Columns(); err != nil {
		return nil, err
	}
	for rows.Next() {
		vals := make([]any, len(t.cols))
		ptrs := make([]any, len(t.cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		t.rows = append(t.rows, vals)
	}
	return t, rows.Err()
}

// jsonColumns hold JSON documents: written as they are stored.
var jsonColumns = map[string]bool{
	"billing": true, "shipping": true, "order_details": true, "allowed_payment_method_types": true, "metadata": true,
	"connector_metadata": true, "feature_metadata": true, "payment_link_config": true, "frm_metadata": true,
	"mandate_data": true, "card": true, "payment_method_billing": true, "browser_info": true, "next_action": true,
	"authentication_data": true, "split_refunds": true, "evidence": true, "address": true,
}

// writeRow writes a row as a JSON object of its columns (times in the
// wire's pattern), closed unless the caller adds members.
func (t *table) writeRow(w *bytes.Buffer, r []any, closed bool) {
	w.WriteByte('{')
	for i, c := range t.cols {
		if i > 0 {
			w.WriteByte(',')
		}
		w.WriteByte('"')
		w.WriteString(c)
		w.WriteString(`":`)
		switch v := r[i].(type) {
		case nil:
			w.WriteString("null")
		case int64:
			w.Write(strconv.AppendInt(w.AvailableBuffer(), v, 10))
		case float64:
			w.Write(strconv.AppendFloat(w.AvailableBuffer(), v, 'g', -1, 64))
		case time.Time:
			w.WriteByte('"')
			w.Write(v.UTC().AppendFormat(w.AvailableBuffer(), "2006-01-02T15:04:05Z"))
			w.WriteByte('"')
		case []byte:
			if jsonColumns[c] {
				w.Write(v)
			} else {
				writeJSONString(w, v)
			}
		default:
			raw, _ := json.Marshal(v)
			w.Write(raw)
		}
	}
	if closed {
		w.WriteByte('}')
	}
}

// writeJSONString writes s (UTF-8) as a JSON string.
func writeJSONString(w *bytes.Buffer, s []byte) {
	const hex = "0123456789abcdef"
	w.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			w.WriteByte('\\')
			w.WriteByte(c)
		case c < 0x20:
			w.WriteString(`\u00`)
			w.WriteByte(hex[c>>4])
			w.WriteByte(hex[c&0xf])
		case c < utf8.RuneSelf:
			w.WriteByte(c)
		default:
			_, size := utf8.DecodeRune(s[i:])
			w.Write(s[i : i+size])
			i += size
			continue
		}
		i++
	}
	w.WriteByte('"')
}
