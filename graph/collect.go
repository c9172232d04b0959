package graph

import (
	"context"

	"entgo.io/contrib/entgql"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
)

// collecting returns ctx for entgql's field collection, the eager loading
// that lets one query per nested kind serve a whole page (no N+1).
//
// Collection reads a connection's arguments straight from the query, which
// does not suit two rules of this API, so it is given a rewritten copy of the
// selections below the current field:
//   - a connection without orderBy is newest first (the resolvers add that
//     default), so the default is written into the copy and the nested rows
//     are loaded in the order the resolver pages them;
//   - after/before are opaque Redis tokens that only the connection's
//     resolver can open (they are bound to the parent), so a nested
//     connection given a cursor is left out of the copy: nothing is
//     eager-loaded for it, and its resolver reads the page on its own with
//     the opened cursor (a cursor names one parent, so that is one query).
//
// Fragment spreads become inline fragments in the copy, so the document's
// fragments are never changed: the parsed document is cached and shared.
func collecting(ctx context.Context) context.Context {
	fc := graphql.GetFieldContext(ctx)
	if fc == nil || graphql.GetOperationContext(ctx) == nil {
		return ctx
	}
	oc := graphql.GetOperationContext(ctx)
	var (
		sel     ast.SelectionSet
		changed bool
	)
	// A nested connection rewrites the same field once per parent: the
	// operation keeps the first rewrite.
	l := loadersOf(ctx)
	if l != nil && fc.Field.Field != nil {
		l.mu.Lock()
		r, ok := l.rewrites[fc.Field.Field]
		l.mu.Unlock()
		if ok {
			sel, changed = r.sel, r.changed
		} else {
			sel, changed = rewriteSelections(oc, fc.Field.Selections, 0)
			l.mu.Lock()
			l.rewrites[fc.Field.Field] = rewrite{sel: sel, changed: changed}
			l.mu.Unlock()
		}
	} else {
		sel, changed = rewriteSelections(oc, fc.Field.Selections, 0)
	}
	if !changed {
		return ctx
	}
	c := *fc
	c.Field.Selections = sel
	return graphql.WithFieldContext(ctx, &c)
}

// rewrite is a field's selections as collection sees them.
type rewrite struct {
	sel     ast.SelectionSet
	changed bool
}

// maxRewriteDepth stops a rewrite of a pathological document; the depth
// limit refuses such documents before any resolver runs.
const maxRewriteDepth = 64

func rewriteSelections(oc *graphql.OperationContext, set ast.SelectionSet, depth int) (ast.SelectionSet, bool) {
	if depth > maxRewriteDepth {
		return set, false
	}
	out := make(ast.SelectionSet, 0, len(set))
	changed := false
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if cols, ok := derivedColumns(s); ok {
				out = append(out, cols...)
				changed = true
				continue
			}
			if isConnection(s.Definition) && (s.Arguments.ForName("after") != nil || s.Arguments.ForName("before") != nil) {
				changed = true
				continue
			}
			children, c := rewriteSelections(oc, s.SelectionSet, depth+1)
			args, a := connectionArgs(s, oc.Variables)
			if c || a {
				f := *s
				f.SelectionSet, f.Arguments = children, args
				sel, changed = &f, true
			}
		case *ast.InlineFragment:
			if children, c := rewriteSelections(oc, s.SelectionSet, depth+1); c {
				f := *s
				f.SelectionSet = children
				sel, changed = &f, true
			}
		case *ast.FragmentSpread:
			def := s.Definition
			if def == nil && oc.Doc != nil {
				def = oc.Doc.Fragments.ForName(s.Name)
			}
			if def == nil {
				continue
			}
			children, _ := rewriteSelections(oc, def.SelectionSet, depth+1)
			sel = &ast.InlineFragment{
				TypeCondition:    def.TypeCondition,
				Directives:       s.Directives,
				SelectionSet:     children,
				ObjectDefinition: def.Definition,
				Position:         s.Position,
			}
			changed = true
		}
		out = append(out, sel)
	}
	return out, changed
}

// derivedFrom names the fields a resolver works out from other fields, by
// type, with the fields it reads. Collection selects only the columns a query
// names, but selects every column when it meets a field it does not know; so
// the copy it reads names the columns such a field needs instead. A wide
// payment row with its JSON columns is what a page spends most on.
var derivedFrom = map[string]map[string][]string{
	"PaymentIntent":  {"displayAmount": {"amount", "currency"}, "connectorAccount": {"merchantConnectorID"}},
	"PaymentAttempt": {"displayAmount": {"amount", "currency"}},
	"Capture":        {"displayAmount": {"amount", "currency"}},
	"Refund":         {"displayAmount": {"amount", "currency"}},
	"Dispute":        {"displayAmount": {"amount", "currency"}},
}

// derivedColumns returns the fields that stand for a derived field in the
// copy collection reads (aliased apart, so they never merge with the
// client's own fields).
func derivedColumns(f *ast.Field) (ast.SelectionSet, bool) {
	if f.ObjectDefinition == nil {
		return nil, false
	}
	cols, ok := derivedFrom[f.ObjectDefinition.Name][f.Name]
	if !ok {
		return nil, false
	}
	out := make(ast.SelectionSet, 0, len(cols))
	for _, c := range cols {
		def := f.ObjectDefinition.Fields.ForName(c)
		if def == nil {
			return nil, false // the schema changed: collection selects every column
		}
		out = append(out, &ast.Field{Alias: "__derived_" + f.Alias + "_" + c, Name: c, Definition: def,
			ObjectDefinition: f.ObjectDefinition, Position: f.Position})
	}
	return out, true
}

// connectionArgs returns a connection field's arguments as collection should
// see them: with the order its resolver pages by (see keysetOrder), written
// out as a literal (collection reads the literal, which GraphQL has not
// coerced, nor completed). Other fields keep theirs.
func connectionArgs(f *ast.Field, vars map[string]any) (ast.ArgumentList, bool) {
	def := f.Definition
	if !isConnection(def) {
		return f.Arguments, false
	}
	orderDef := def.Arguments.ForName("orderBy")
	if orderDef == nil {
		return f.Arguments, false
	}
	list := orderDef.Type.Elem != nil
	var given []any
	if a := f.Arguments.ForName("orderBy"); a != nil && a.Value != nil {
		v, err := a.Value.Value(vars)
		if err != nil {
			return f.Arguments, false // validation refuses it first
		}
		switch v := v.(type) {
		case []any:
			given = v
		case map[string]any:
			given = []any{v}
		}
	}
	var orders []fieldOrder
	for _, g := range given {
		m, _ := g.(map[string]any)
		field, _ := m["field"].(string)
		dir, _ := m["direction"].(string)
		if dir == "" {
			dir = string(entgql.OrderDirectionAsc)
		}
		orders = append(orders, fieldOrder{field, entgql.OrderDirection(dir)})
	}
	if !list {
		if len(orders) == 0 {
			orders = []fieldOrder{{"CREATED_AT", newestFirst()}}
		}
		return withArgument(f.Arguments, "orderBy", orderValue(orders[0])), true
	}
	orders = keysetOrder(orders, func(o fieldOrder) fieldOrder { return o },
		func(field string, d entgql.OrderDirection) fieldOrder { return fieldOrder{field, d} })
	value := &ast.Value{Kind: ast.ListValue}
	for _, o := range orders {
		value.Children = append(value.Children, &ast.ChildValue{Value: orderValue(o)})
	}
	return withArgument(f.Arguments, "orderBy", value), true
}

// fieldOrder is one order of a connection: a field's enum name and its
// direction.
type fieldOrder struct {
	field     string
	direction entgql.OrderDirection
}

func orderValue(o fieldOrder) *ast.Value {
	return &ast.Value{Kind: ast.ObjectValue, Children: ast.ChildValueList{
		{Name: "field", Value: &ast.Value{Kind: ast.EnumValue, Raw: o.field}},
		{Name: "direction", Value: &ast.Value{Kind: ast.EnumValue, Raw: string(o.direction)}},
	}}
}

// withArgument returns args with name set to value.
func withArgument(args ast.ArgumentList, name string, value *ast.Value) ast.ArgumentList {
	out := make(ast.ArgumentList, 0, len(args)+1)
	for _, a := range args {
		if a.Name != name {
			out = append(out, a)
		}
	}
	return append(out, &ast.Argument{Name: name, Value: value})
}
