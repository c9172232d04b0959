package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"entgo.io/ent/dialect"

	"switchyard/internal/app"
	"switchyard/internal/store"
)

// explainPrefix marks the requests whose statements planCapture records.
const explainPrefix = "loadgen-explain-"

// keysetIndex is the index every payment page must be read through.
const keysetIndex = "paymentintent_merchant_id_created_at_id"

// planCapture records the SQL the server sends while serving a request whose
// X-Request-Id starts with explainPrefix, so loadgen can EXPLAIN exactly what
// the server ran. Every other statement passes straight through (one context
// lookup).
type planCapture struct {
	mu    sync.Mutex
	stmts map[string][]capturedStmt
}

type capturedStmt struct {
	query string
	args  []any
}

func newPlanCapture() *planCapture { return &planCapture{stmts: map[string][]capturedStmt{}} }

func (p *planCapture) wrap(d dialect.Driver) dialect.Driver { return store.Observe(d, p.record) }

func (p *planCapture) record(ctx context.Context, query string, args []any) {
	id := app.RequestID(ctx)
	if !strings.HasPrefix(id, explainPrefix) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stmts[id] = append(p.stmts[id], capturedStmt{query, args})
}

func (p *planCapture) take(id string) []capturedStmt {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stmts[id]
	delete(p.stmts, id)
	return s
}

// explainScenarios calls each scenario once with a marked request, EXPLAINs
// every statement the server sent for it, prints the plan of the page query
// (all rows with -v), and fails unless that query reads keysetIndex.
func explainScenarios(ctx context.Context, env *runEnv, scenarios []*scenario) error {
	client := &http.Client{}
	for _, sc := range scenarios {
		id := explainPrefix + sc.name
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, env.baseURL+"/payments/list?"+sc.query, nil)
		if err != nil {
			return err
		}
		req.Header.Set("api-key", env.key)
		req.Header.Set("X-Request-Id", id)
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("%s: GET /payments/list?%s: %s", sc.name, sc.query, resp.Status)
		}
		stmts := env.plans.take(id)
		pageFound := false
		for _, s := range stmts {
			rows, err := explain(ctx, env.seedDB, s)
			if err != nil {
				return fmt.Errorf("%s: %w", sc.name, err)
			}
			// The page's keys: the statement on payment_intents that orders.
			isPage := strings.Contains(s.query, "FROM `payment_intents`") && strings.Contains(s.query, "ORDER BY")
			if env.o.verbose {
				fmt.Fprintf(env.out, "  EXPLAIN [%s] %s\n", sc.name, abbreviate(s.query, 160))
				for _, r := range rows {
					fmt.Fprintf(env.out, "    table=%s type=%s key=%s rows≈%s extra=%q\n", r["table"], r["type"], r["key"], r["rows"], r["Extra"])
				}
			}
			if !isPage {
				continue
			}
			pageFound = true
			r := rows[0]
			fmt.Fprintf(env.out, "plan %-6s page keys: type=%s key=%s rows≈%s extra=%q\n", sc.name, r["type"], r["key"], r["rows"], r["Extra"])
			if r["key"] != keysetIndex {
				return fmt.Errorf("%s: the page query reads %q, not the keyset index %s:\n%s", sc.name, r["key"], keysetIndex, s.query)
			}
			// With a cursor or a created range the scan must start at it (a
			// range), not walk the merchant's whole index (ref) from the newest;
			// and it reads the index alone.
			if (sc.cursor != "" || !sc.from.IsZero()) && r["type"] != "range" {
				return fmt.Errorf("%s: the page query reads the keyset index by %s, not as a range from its bound:\n%s", sc.name, r["type"], s.query)
			}
			if !strings.Contains(r["Extra"], "Using index") {
				return fmt.Errorf("%s: the page's keys are not read from the index alone (%q):\n%s", sc.name, r["Extra"], s.query)
			}
		}
		if !pageFound {
			return fmt.Errorf("%s: no page query among the %d statements the server sent", sc.name, len(stmts))
		}
	}
	return nil
}

// explain runs EXPLAIN on one captured statement and returns its rows as
// column → value.
func explain(ctx context.Context, db *sql.DB, s capturedStmt) ([]map[string]string, error) {
	rows, err := db.QueryContext(ctx, "EXPLAIN "+s.query, s.args...)
	if err != nil {
		return nil, fmt.Errorf("EXPLAIN %s: %w", abbreviate(s.query, 120), err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var out []map[string]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		m := make(map[string]string, len(cols))
		for i, c := range cols {
			m[c] = vals[i].String
		}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("EXPLAIN %s: no rows", abbreviate(s.query, 120))
	}
	return out, rows.Err()
}

func abbreviate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
