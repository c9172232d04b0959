package graph_test

import (
	"slices"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// TestClientOrderBreaksTiesByID: a client's order without ID is completed
// with the id in the direction of its last field (never entgql's id
// ascending after a descending field, which no index serves), so paging
// through rows that tie on the client's field visits each once, in id
// order, both ways.
func TestClientOrderBreaksTiesByID(t *testing.T) {
	srv, counter := testenv.NewCountingServer(t, testenv.Database(t))
	tn := demoTenant(srv)
	seeded := seedNested(t, srv, tn, 25) // every payment has amount 10000: all tie
	want := slices.Clone(seeded)
	slices.Sort(want)
	slices.Reverse(want) // id descending

	const page = `query($after: Cursor, $before: Cursor, $first: Int, $last: Int, $order: [PaymentIntentOrder!]) {
		payments(first: $first, after: $after, last: $last, before: $before, orderBy: $order) {
			edges { cursor node { paymentID } } pageInfo { hasNextPage hasPreviousPage } } }`
	type pageData struct {
		Payments struct {
			Edges []struct {
				Cursor string
				Node   struct{ PaymentID string }
			}
			PageInfo struct{ HasNextPage, HasPreviousPage bool }
		}
	}
	order := []map[string]any{{"field": "AMOUNT", "direction": "DESC"}}
	var (
		forward []string
		cursor  any
	)
	for {
		r, stmts := postCounted(t, srv, counter, tn.key, page, map[string]any{"first": 7, "after": cursor, "order": order})
		var p pageData
		r.decode(t, &p)
		if len(r.Errors) > 0 {
			t.Fatalf("%s", r.Raw)
		}
		for _, s := range stmts {
			if strings.Contains(s, "FROM `payment_intents`") && strings.Contains(s, "ORDER BY") &&
				!strings.Contains(s, "ORDER BY `payment_intents`.`amount` DESC, `payment_intents`.`id` DESC") {
				t.Fatalf("ties not broken by id descending: %s", s)
			}
		}
		for _, e := range p.Payments.Edges {
			forward = append(forward, e.Node.PaymentID)
		}
		if !p.Payments.PageInfo.HasNextPage {
			break
		}
		cursor = p.Payments.Edges[len(p.Payments.Edges)-1].Cursor
	}
	if !slices.Equal(forward, want) {
		t.Fatalf("forward:\n%v\nwant:\n%v", forward, want)
	}
	var backward []string
	cursor = nil
	for {
		r, _ := postCounted(t, srv, counter, tn.key, page, map[string]any{"last": 6, "before": cursor, "order": order})
		var p pageData
		r.decode(t, &p)
		if len(r.Errors) > 0 {
			t.Fatalf("%s", r.Raw)
		}
		ids := make([]string, 0, len(p.Payments.Edges))
		for _, e := range p.Payments.Edges {
			ids = append(ids, e.Node.PaymentID)
		}
		backward = append(ids, backward...)
		if !p.Payments.PageInfo.HasPreviousPage {
			break
		}
		cursor = p.Payments.Edges[0].Cursor
	}
	if !slices.Equal(backward, want) {
		t.Fatalf("backward:\n%v\nwant:\n%v", backward, want)
	}

	// Nested, the same order is what collection loads and what the
	// resolver pages by.
	var nested struct {
		Payments struct {
			Edges []struct {
				Node struct {
					Refunds struct {
						Edges []struct{ Node struct{ RefundID string } }
					}
				}
			}
		}
	}
	newGQL(t, srv.URL, tn.key).must(`{ payments(first: 3) { edges { node {
		refunds(first: 5, orderBy: {field: AMOUNT, direction: DESC}) { edges { node { refundID } } } } } } }`, nil, &nested)
	for _, e := range nested.Payments.Edges {
		if len(e.Node.Refunds.Edges) != 1 {
			t.Fatalf("refunds: %+v", e.Node.Refunds)
		}
	}
}
