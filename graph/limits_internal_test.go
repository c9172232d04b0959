package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2"

	"switchyard/graph/generated"
)

// TestComplexityWalkIsLinear: the complexity walk visits each selection of
// the document once, however often its fragments are spread, and still
// computes the expanded cost (2^n fields for n fragments each spreading the
// next twice).
func TestComplexityWalkIsLinear(t *testing.T) {
	schema := generated.NewExecutableSchema(generated.Config{}).Schema()
	for _, n := range []int{5, 26, 60} {
		var b strings.Builder
		b.WriteString("{ viewer { ...F0 } }\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "fragment F%d on Viewer { ...F%d ...F%d }\n", i, i+1, i+1)
		}
		fmt.Fprintf(&b, "fragment F%d on Viewer { merchantID }\n", n)
		doc, errs := gqlparser.LoadQueryWithRules(schema, b.String(), nil) // nil: the default rules
		if errs != nil {
			t.Fatal(errs)
		}
		w := walker{fragments: doc.Fragments, seen: map[string]bool{}, done: map[string]fragmentCost{}}
		_, cost := w.walk(doc.Operations[0].SelectionSet)
		if selections := 2*n + 3; w.visits > selections {
			t.Errorf("n=%d: %d visits for %d selections", n, w.visits, selections)
		}
		want := 1 << min(n, 62) // viewer's cost is 1 + 2^n merchantIDs (saturating)
		if n < 62 && cost != 1+want {
			t.Errorf("n=%d: cost %d, want %d", n, cost, 1+want)
		}
	}
}

// TestDocumentLimitsBeforeValidation: the documents whose validation costs
// the square of their size are refused as written, before validation.
func TestDocumentLimitsBeforeValidation(t *testing.T) {
	l := documentLimits{maxFields: 1000, maxSpreads: 200, tokenLimit: 15000}
	for _, tc := range []struct {
		name, query string
		vars        map[string]any
		refused     bool
	}{
		{"1,000 fields", "{ viewer { " + strings.Repeat("merchantID ", 999) + "} }", nil, false},
		{"1,001 fields", "{ viewer { " + strings.Repeat("merchantID ", 1000) + "} }", nil, true},
		{"200 spreads", "{ viewer { " + strings.Repeat("...V ", 200) + "} }", nil, false},
		{"201 spreads", "{ viewer { " + strings.Repeat("...V ", 201) + "} }", nil, true},
		{"variables 20 deep", "{ viewer { merchantID } }", nestedVars(19), false},
		{"variables 25 deep", "{ viewer { merchantID } }", nestedVars(25), true},
		{"unparsable", "{ viewer {", nil, false}, // gqlgen says why
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := l.MutateOperationParameters(t.Context(), &graphql.RawParams{Query: tc.query, Variables: tc.vars})
			if (err != nil) != tc.refused {
				t.Fatalf("refused %v (%v), want %v", err != nil, err, tc.refused)
			}
		})
	}
}

func nestedVars(levels int) map[string]any {
	var v any = map[string]any{}
	for i := 1; i < levels; i++ {
		v = map[string]any{"a": v}
	}
	return map[string]any{"input": v}
}
