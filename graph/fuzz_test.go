package graph_test

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// FuzzGraphQLRequest sends what the fuzzer makes of operations and their
// variables to the whole app's /graphql with the demo merchant's key. Every
// answer must be below 500 and JSON, and every error must carry a code
// that is not the internal one (HE_00): a client's mistake is never
// reported as Switchyard's. `go test` runs the seeds.
func FuzzGraphQLRequest(f *testing.F) {
	srv := testenv.NewServer(f, testenv.Database(f))
	h := srv.Handler()
	for _, seed := range []struct{ query, vars string }{
		{`{ payments(first: 5) { edges { node { paymentID status displayAmount } } } }`, `{}`},
		{nestedPage, `{"n":3,"after":null}`},
		{`mutation { createPayment(input: {amount: 100, currency: "USD"}) { payment { ` + paymentFields + ` } replayed } }`, `{}`},
		{`mutation($i: CreatePaymentInput!) { createPayment(input: $i) { payment { id status } } }`,
			`{"i":{"amount":100,"currency":"USD","metadata":{"a":{"b":[1,2,{"c":null}]}}}}`},
		{`mutation { createPayment(input: {amount: 0, currency: "XXX"}) { payment { id } } }`, `{}`},
		{`{ viewer { ` + strings.Repeat("merchantID ", 1001) + `} }`, `{}`},
		{`{ viewer { ...F } } fragment F on Viewer { ...F }`, `{}`},
		{`query($n: Int!) { payments(first: $n) { totalCount } }`, `{"n":"five"}`},
		{`{ node(id: "cGF5OjE=") { id } }`, `{"a":` + strings.Repeat(`[`, 30) + strings.Repeat(`]`, 30) + `}`},
		{`{ payments(first: 5) {`, `{`},
		{`mutation($i: CreatePaymentInput!) { createPayment(input: $i) { payment { id } } }`,
			`{"i":{"amount":100,"currency":"USD","amount":5000000}}`},
	} {
		f.Add(seed.query, []byte(seed.vars))
	}
	f.Fuzz(func(t *testing.T, query string, variables []byte) {
		q, _ := json.Marshal(query)
		body := []byte(`{"query":` + string(q) + `,"variables":` + string(variables) + `}`)
		req := httptest.NewRequest("POST", "/graphql", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("api-key", srv.Demo.SecretKey)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var out gqlResponse
		if rec.Code >= 500 || json.Unmarshal(rec.Body.Bytes(), &out) != nil {
			t.Fatalf("answered %d %s\nto %s", rec.Code, rec.Body, body)
		}
		for _, e := range out.Errors {
			if code, _ := e.Extensions["code"].(string); code == "" || code == "HE_00" {
				t.Fatalf("error %q has code %q\nto %s", e.Message, code, body)
			}
		}
	})
}
