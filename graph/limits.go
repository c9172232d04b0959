package graph

import (
	"context"
	"encoding/json"
	"io"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// queryLimits refuses operations nested deeper than maxDepth or using more
// than maxAliases aliases, before anything executes. Introspection fields
// (__schema, __type) are not counted, so GraphiQL's schema query passes.
type queryLimits struct {
	maxDepth   int
	maxAliases int
}

var _ interface {
	graphql.HandlerExtension
	graphql.OperationContextMutator
} = queryLimits{}

func (queryLimits) ExtensionName() string                   { return "QueryLimits" }
func (queryLimits) Validate(graphql.ExecutableSchema) error { return nil }
func (l queryLimits) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := walker{fragments: oc.Doc.Fragments, seen: map[string]bool{}}
	depth := w.depth(oc.Operation.SelectionSet)
	if l.maxDepth > 0 && depth > l.maxDepth {
		return gqlerror.Errorf("the query is nested %d levels deep, more than the limit of %d", depth, l.maxDepth)
	}
	if l.maxAliases > 0 && w.aliases > l.maxAliases {
		return gqlerror.Errorf("the query uses %d aliases, more than the limit of %d", w.aliases, l.maxAliases)
	}
	return nil
}

type walker struct {
	fragments ast.FragmentDefinitionList
	seen      map[string]bool // fragments on the current path, against cycles
	aliases   int
}

func (w *walker) depth(set ast.SelectionSet) int {
	deepest := 0
	for _, sel := range set {
		d := 0
		switch s := sel.(type) {
		case *ast.Field:
			if len(s.Name) > 1 && s.Name[:2] == "__" {
				continue
			}
			if s.Alias != "" && s.Alias != s.Name {
				w.aliases++
			}
			d = 1 + w.depth(s.SelectionSet)
		case *ast.InlineFragment:
			d = w.depth(s.SelectionSet)
		case *ast.FragmentSpread:
			if w.seen[s.Name] {
				continue
			}
			if f := w.fragments.ForName(s.Name); f != nil {
				w.seen[s.Name] = true
				d = w.depth(f.SelectionSet)
				delete(w.seen, s.Name)
			}
		}
		if d > deepest {
			deepest = d
		}
	}
	return deepest
}

func jsonEncode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
