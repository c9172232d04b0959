package graph_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

func post(t *testing.T, url, key, query string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"query": query})
	req, _ := http.NewRequest(http.MethodPost, url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("api-key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return resp.StatusCode, out
}

func firstError(out map[string]any) string {
	errs, _ := out["errors"].([]any)
	if len(errs) == 0 {
		return ""
	}
	return errs[0].(map[string]any)["message"].(string)
}

// TestPlaygroundInABrowser: a browser's GET gets GraphiQL with the demo key
// prefilled in the header editor.
func TestPlaygroundInABrowser(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/graphql", nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(string(page), "graphiql") {
		t.Fatalf("GET /graphql: %d %.200s", resp.StatusCode, page)
	}
}

// TestQueryLimits: each hardening limit refuses with a clear message.
func TestQueryLimits(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	aliases := strings.Repeat("a: paymentIntents(first: 1) { totalCount } ", 1)
	for i := 0; i < 31; i++ {
		aliases += "x" + string(rune('a'+i%26)) + string(rune('a'+i/26)) + ": paymentIntents(first: 1) { totalCount } "
	}
	cases := []struct {
		name, query, want string
	}{
		{"first required", `{ paymentIntents { totalCount } }`, "needs `first` or `last`"},
		{"first bounded", `{ paymentIntents(first: 101) { totalCount } }`, "between 0 and 100"},
		{"last bounded", `{ refunds(last: 1000) { totalCount } }`, "between 0 and 100"},
		{"depth", `{ merchantAccounts(first: 1) { edges { node { profiles(first: 1) { edges { node { connectorAccounts(first: 1) { edges { node { profile { connectorAccounts(first: 1) { edges { node { id } } } } } } } } } } } } } }`, "levels deep"},
		{"aliases", "{ " + aliases + "}", "aliases"},
		{"complexity does not overflow", `{ merchantAccounts(first: 100) { edges { node { profiles(first: 100) { edges { node { connectorAccounts(first: 100) { edges { node { id } } } } } } } } } }`, "complexity"},
		{"complexity", `{ paymentIntents(first: 100) { edges { node { refunds(first: 100) { edges { node { payment { refunds(first: 100) { totalCount } } } } } } } } }`, "complexity"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, out := post(t, srv.URL, key, tc.query)
			if msg := firstError(out); !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q, want it to mention %q", msg, tc.want)
			}
		})
	}
	t.Run("a normal query passes", func(t *testing.T) {
		_, out := post(t, srv.URL, key, `{ paymentIntents(first: 10, orderBy: [{field: CREATED_AT, direction: DESC}], where: {status: succeeded}) { totalCount pageInfo { hasNextPage } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
	})
	t.Run("introspection works in the sandbox", func(t *testing.T) {
		_, out := post(t, srv.URL, key, `{ __schema { queryType { name } } }`)
		if msg := firstError(out); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestErrorsQuoteNoCardData: a client mistake's error never quotes a card
// number or CVC from the request (gqlgen would quote an undecodable body,
// and the validator a refused literal).
func TestErrorsQuoteNoCardData(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	const pan, cvc = "4242424242424242", "987"
	for name, body := range map[string]string{
		"undecodable body": `{"query":"mutation { createPayment(input: {amount: 100, currency: \"USD\", paymentMethodData: {card: {cardNumber: \"` +
			pan + `\", cardCvc: \"` + cvc + `\"}}}) { payment { id } } }", bad`,
		"number literal for a string": `{"query":"mutation { createPayment(input: {amount: 100, currency: \"USD\", paymentMethodData: {card: {cardNumber: ` +
			pan + `, cardExpMonth: \"12\", cardExpYear: \"2030\", cardHolderName: \"A\", cardCvc: ` + cvc + `}}}) { payment { id } } }"}`,
	} {
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/graphql", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("api-key", srv.Demo.SecretKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode < 400 || !strings.Contains(string(raw), `"IR_06"`) {
				t.Fatalf("want a client error, got %d %s", resp.StatusCode, raw)
			}
			if strings.Contains(string(raw), pan) || strings.Contains(string(raw), cvc) {
				t.Fatalf("the error quotes card data: %s", raw)
			}
		})
	}
}

// TestTransportErrorsCarryCodes: what the transport refuses (a mutation
// over GET, a body that is not JSON, a content type it does not read, a
// body over the limit) is a GraphQL error with extensions.code, like every
// other error; a body over the limit is 413, as on REST.
func TestTransportErrorsCarryCodes(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	big := `{"query":"{ viewer { merchantID } }","variables":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`
	for _, tc := range []struct {
		name, method, query, contentType, body string
		status                                 int
		code                                   string
		mentions                               string // in the message
	}{
		{"mutation over GET", "GET", "?query=" + url.QueryEscape(`mutation { revokeApiKey(id: "k") { replayed } }`), "", "", 406, "IR_06", ""},
		{"body not JSON", "POST", "", "application/json", `{"query":`, 400, "IR_06", ""},
		{"unsupported content type", "POST", "", "text/plain", `{ viewer { merchantID } }`, 400, "IR_06", ""},
		{"body over the limit", "POST", "", "application/json", big, 413, "IR_06", ""},
		{"no key", "POST", "", "application/json", `{"query":"{ viewer { merchantID } }"}`, 401, "IR_01", ""},
		{"member given twice", "POST", "", "application/json; charset=utf-8",
			`{"query":"mutation($i: CreatePaymentInput!) { createPayment(input: $i) { payment { id } } }",` +
				`"variables":{"i":{"amount":100,"currency":"USD","amount":5000000}}}`, 400, "IR_06", "variables.i.amount is given twice"},
		{"variables nested 40 deep", "POST", "", "application/json",
			`{"query":"{ viewer { merchantID } }","variables":{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`,
			400, "IR_06", "deeper than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, _ := http.NewRequest(tc.method, srv.URL+"/graphql"+tc.query, body)
			if tc.contentType != "" {
				req.Header.Set("Content-Type", tc.contentType)
			}
			if tc.name != "no key" {
				req.Header.Set("api-key", key)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			raw, _ := io.ReadAll(resp.Body)
			var out struct {
				Errors []struct {
					Message    string
					Extensions map[string]any
				}
			}
			if err := json.Unmarshal(raw, &out); err != nil || len(out.Errors) == 0 {
				t.Fatalf("%d: not a GraphQL error: %s", resp.StatusCode, raw)
			}
			if resp.StatusCode != tc.status || out.Errors[0].Extensions["code"] != tc.code || out.Errors[0].Message == "" ||
				!strings.Contains(out.Errors[0].Message, tc.mentions) {
				t.Fatalf("got %d %s, want %d %s", resp.StatusCode, raw, tc.status, tc.code)
			}
		})
	}
}
