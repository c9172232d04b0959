package graph

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"

	"switchyard/graph/generated"
)

// FuzzGraphQLLimits runs the limits on what the fuzzer makes of documents
// and variables, as the handler does: the document limits first, then, for
// a document that parses and validates, the complexity walk. Neither may
// panic, and the walk visits each selection written at most once, however
// the fragments spread (it is linear in the document, so a refusal costs
// no more than reading it). `go test` runs the seeds.
func FuzzGraphQLLimits(f *testing.F) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	opts := DefaultOptions()
	docLimits := documentLimits{maxFields: opts.MaxFields, maxSpreads: opts.MaxFragmentSpreads, tokenLimit: opts.TokenLimit}
	limits := queryLimits{maxDepth: opts.MaxDepth, maxAliases: opts.MaxAliases, maxComplexity: opts.ComplexityLimit}
	for _, seed := range limitSeeds() {
		f.Add(seed, []byte(`{"n":5}`))
	}
	f.Add(`query($n: Int!, $after: Cursor) { payments(first: $n, after: $after) { edges { node { id } } } }`,
		[]byte(`{"n":100,"after":null}`))
	f.Add(`mutation($i: CreatePaymentInput!) { createPayment(input: $i) { payment { id } } }`,
		[]byte(`{"i":{"amount":100,"currency":"USD","metadata":{"a":{"b":[1,2,{"c":null}]}}}}`))
	f.Fuzz(func(t *testing.T, query string, variables []byte) {
		var vars map[string]any
		_ = json.Unmarshal(variables, &vars)
		if err := docLimits.MutateOperationParameters(t.Context(), &graphql.RawParams{Query: query, Variables: vars}); err != nil {
			return
		}
		doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: query}, opts.TokenLimit)
		if err != nil || validator.ValidateWithRules(schema, doc, nil) != nil {
			return
		}
		written := 0
		for _, op := range doc.Operations {
			written += selectionsIn(op.SelectionSet)
		}
		for _, fr := range doc.Fragments {
			written += selectionsIn(fr.SelectionSet)
		}
		for _, op := range doc.Operations {
			coerced, err := validator.VariableValues(schema, op, vars)
			if err != nil {
				continue
			}
			w := walker{fragments: doc.Fragments, vars: coerced, seen: map[string]bool{}, done: map[string]fragmentCost{}}
			w.walk(op.SelectionSet)
			if w.visits > written {
				t.Fatalf("the walk visited %d selections of a document of %d:\n%s", w.visits, written, query)
			}
			_ = limits.MutateOperationContext(t.Context(), &graphql.OperationContext{Doc: doc, Operation: op, Variables: coerced})
		}
	})
}

// selectionsIn counts the selections written in set, nested ones included.
func selectionsIn(set ast.SelectionSet) int {
	n := len(set)
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			n += selectionsIn(s.SelectionSet)
		case *ast.InlineFragment:
			n += selectionsIn(s.SelectionSet)
		}
	}
	return n
}

// limitSeeds are the shapes the limit tests use: a fragment fan-out, many
// repeated fields, many spreads, deep arguments, aliases and nested pages.
func limitSeeds() []string {
	var fanOut strings.Builder
	fanOut.WriteString("{ viewer { ...F0 } }\n")
	for i := range 8 {
		fanOut.WriteString("fragment F" + string(rune('0'+i)) + " on Viewer { ...F" + string(rune('1'+i)) + " ...F" + string(rune('1'+i)) + " }\n")
	}
	fanOut.WriteString("fragment F8 on Viewer { merchantID }\n")
	return []string{
		fanOut.String(),
		"{ viewer { " + strings.Repeat("merchantID ", 50) + "} }",
		"{ viewer { " + strings.Repeat("...V ", 20) + "} } fragment V on Viewer { merchantID }",
		`{ payments(first: 5, where: {or: [{and: [{amountGT: 1}]}]}) { edges { node { paymentID status displayAmount } } } }`,
		`{ a: viewer { merchantID } b: viewer { merchantID } }`,
		`{ payments(first: 100) { edges { node { refunds(first: 100) { edges { node { id } } } } } } }`,
		`{ payments { totalCount } }`,
		`{ __schema { types { name } } }`,
		`{ viewer {`,
	}
}
