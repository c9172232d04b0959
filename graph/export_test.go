package graph_test

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"switchyard/internal/app"
	"switchyard/internal/testenv"
)

// exportPayments runs createPaymentExport with filter (GraphQL literal,
// "" for none) as c and downloads the link: the CSV's rows, header first.
func exportPayments(t *testing.T, c gql, filter string) [][]string {
	t.Helper()
	link := exportLink(t, c, filter)
	resp, err := http.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment; filename=") {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("the download: %d %v %s", resp.StatusCode, resp.Header, b)
	}
	rows, err := csv.NewReader(resp.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func exportLink(t *testing.T, c gql, filter string) string {
	t.Helper()
	args := ""
	if filter != "" {
		args = "(filter: " + filter + ")"
	}
	var out struct{ CreatePaymentExport struct{ URL string } }
	c.must(`mutation { createPaymentExport`+args+` { url expiresAt } }`, nil, &out)
	return out.CreatePaymentExport.URL
}

// TestPaymentExport: the CSV export holds the rows the REST list shows for
// the same selection, newest first, across many of its batches; filters
// select as the list's do; a link works once; another merchant's payments
// never appear; a VIEWER may export; a description a spreadsheet would run
// as a formula is kept as text; and a bad filter is refused before any link
// is made.
func TestPaymentExport(t *testing.T) {
	// Batches of 4, so 23 payments take six of them.
	srv := testenv.NewServerOptions(t, testenv.Config(t, testenv.Database(t)), slog.New(slog.NewJSONHandler(io.Discard, nil)),
		app.Options{Bootstrap: true, ExportBatch: 4})
	key := srv.Demo.SecretKey
	pay := func(body map[string]any) {
		t.Helper()
		if status, out, err := testenv.Call(srv.URL, "POST", "/payments", key, body); err != nil || status != 200 {
			t.Fatalf("a payment: %d %s %v", status, out, err)
		}
	}
	card := func(number string) map[string]any {
		return map[string]any{"card": map[string]any{"card_number": number, "card_exp_month": "12", "card_exp_year": "2035", "card_cvc": "123"}}
	}
	if status, out, err := testenv.Call(srv.URL, "POST", "/customers", key, map[string]any{"customer_id": "cus_export"}); err != nil || status != 200 {
		t.Fatalf("a customer: %d %s %v", status, out, err)
	}
	for i := range 23 {
		body := map[string]any{"amount": 1000 + i, "currency": []string{"USD", "EUR"}[i%2], "confirm": true,
			"payment_method": "card", "payment_method_data": card([]string{"4242424242424242", "4000000000000002"}[i%3/2])}
		if i%5 == 0 {
			body["customer_id"] = "cus_export"
		}
		if i == 7 {
			body["description"] = `=HYPERLINK("https://evil.example","click")`
		}
		pay(body)
	}
	other := newTenant(t, srv, "merchant_export_other")
	if status, out, err := testenv.Call(srv.URL, "POST", "/payments", other.key, map[string]any{"amount": 999, "currency": "USD"}); err != nil || status != 200 {
		t.Fatalf("another merchant's payment: %d %s %v", status, out, err)
	}
	c := newGQL(t, srv.URL, key)

	// The REST list (newest first) of the same selection, for comparison.
	restList := func(query string) []map[string]any {
		t.Helper()
		status, body, err := testenv.Call(srv.URL, "GET", "/payments/list?limit=100"+query, key, nil)
		var out []struct{ Data []map[string]any } // Hyperswitch's list: an array of one page
		if err == nil {
			err = json.Unmarshal(body, &out)
		}
		if err != nil || status != 200 || len(out) != 1 {
			t.Fatalf("the REST list: %d %.300s %v", status, body, err)
		}
		return out[0].Data
	}
	column := func(rows [][]string, name string) []string {
		i := slices.Index(rows[0], name)
		if i < 0 {
			t.Fatalf("no %s column: %v", name, rows[0])
		}
		var out []string
		for _, r := range rows[1:] {
			out = append(out, r[i])
		}
		return out
	}
	restColumn := func(list []map[string]any, name string) []string {
		var out []string
		for _, p := range list {
			switch v := p[name].(type) {
			case nil:
				out = append(out, "")
			case float64:
				out = append(out, fmt.Sprint(int64(v)))
			default:
				out = append(out, fmt.Sprint(v))
			}
		}
		return out
	}

	all := exportPayments(t, c, "")
	list := restList("")
	if len(all) != 1+23 || len(list) != 23 {
		t.Fatalf("%d rows exported, %d listed; want 23 each", len(all)-1, len(list))
	}
	for _, name := range []string{"payment_id", "status", "amount", "currency", "customer_id", "connector", "payment_method", "created", "error_code"} {
		if got, want := column(all, name), restColumn(list, name); !slices.Equal(got, want) {
			t.Errorf("column %s:\nexported %v\nlisted   %v", name, got, want)
		}
	}
	if got := column(all, "description"); !slices.Contains(got, `'=HYPERLINK("https://evil.example","click")`) {
		t.Errorf("the formula description is not kept as text: %v", got)
	}

	// Filters select as the list's do.
	byCustomer := exportPayments(t, c, `{customerID: "cus_export"}`)
	if got, want := column(byCustomer, "payment_id"), restColumn(restList("&customer_id=cus_export"), "payment_id"); len(want) != 5 || !slices.Equal(got, want) {
		t.Errorf("customer cus_export: exported %v, listed %v", got, want)
	}
	failedEUR := exportPayments(t, c, `{statuses: [failed], currencies: ["EUR"], amountGTE: 1005}`)
	for _, r := range failedEUR[1:] {
		if r[2] != "failed" || r[4] != "EUR" || r[3] < "1005" {
			t.Errorf("a row outside {failed, EUR, ≥1005}: %v", r)
		}
	}
	if len(failedEUR) == 1 {
		t.Error("no failed EUR payment was exported")
	}

	// A link works once.
	link := exportLink(t, c, "")
	for i, want := range []int{200, 404} {
		resp, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("download %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	if resp, err := http.Get(srv.URL + "/exports/payments.csv?token=exp_made_up"); err != nil || resp.StatusCode != 404 {
		t.Fatalf("a made-up link: %v %v", resp, err)
	}

	// The other merchant exports its one payment only.
	if rows := exportPayments(t, newGQL(t, srv.URL, other.key), ""); len(rows) != 2 || rows[1][3] != "999" {
		t.Fatalf("the other merchant's export: %v", rows)
	}

	// A VIEWER may export; a bad filter makes no link.
	admin, _ := signUp(t, srv.URL, "owner@export.example", "Export shop")
	viewer := member(t, srv.URL, bearer(t, srv.URL, admin.Token), "viewer@export.example", "VIEWER")
	if rows := exportPayments(t, bearer(t, srv.URL, viewer.Token), ""); len(rows) != 1 {
		t.Fatalf("a new merchant's viewer exported %d rows", len(rows)-1)
	}
	for _, filter := range []string{`{currencies: ["XXY"]}`, `{amountGTE: 10, amountLTE: 5}`,
		`{createdAtGTE: "2026-01-02T00:00:00Z", createdAtLT: "2026-01-01T00:00:00Z"}`} {
		c.fails("IR_07", `mutation { createPaymentExport(filter: `+filter+`) { url } }`, nil)
	}
}
