package graph

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// Every limit of the GraphQL endpoint is set here: the page size of a
// connection, and (Options) the depth, aliases, complexity, token count and
// time of an operation, and whether introspection is on. Config can turn
// introspection off (SWITCHYARD_GRAPHQL_INTROSPECTION).

// Options are the GraphQL endpoint's limits and switches.
type Options struct {
	Introspection   bool
	ComplexityLimit int
	MaxDepth        int
	MaxAliases      int
	// MaxFields and MaxFragmentSpreads bound the document as written,
	// before it is validated: validation compares the fields of a
	// selection set pairwise, so its cost grows with the square of their
	// number.
	MaxFields          int
	MaxFragmentSpreads int
	TokenLimit         int
	Timeout            time.Duration
	// PlaygroundHeaders prefill GraphiQL's header editor (the demo key in
	// the embedded default).
	PlaygroundHeaders map[string]string

	// The live updates' websocket (live.go). LiveOrigins are the page
	// origins (scheme://host[:port]) besides the server's own that may
	// open one. LiveSockets bounds the sockets open on this process,
	// LiveSocketsPerCaller those of one session or key, and
	// LiveSubscriptionsPerSocket the subscriptions on one socket.
	LiveOrigins                []string
	LiveSockets                int
	LiveSocketsPerCaller       int
	LiveSubscriptionsPerSocket int
	// LiveInitTimeout is how long a socket may take to send
	// connection_init; LiveKeepAlive how often the server pings (a pong is
	// due within twice that); LiveRecheck how often a socket's session or
	// key is checked again.
	LiveInitTimeout time.Duration
	LiveKeepAlive   time.Duration
	LiveRecheck     time.Duration
}

// DefaultOptions are the limits used unless config says otherwise.
func DefaultOptions() Options {
	return Options{
		Introspection:      true,
		ComplexityLimit:    10000,
		MaxDepth:           12,
		MaxAliases:         30,
		MaxFields:          1000,
		MaxFragmentSpreads: 200,
		TokenLimit:         15000,
		Timeout:            15 * time.Second,

		LiveSockets:                1000,
		LiveSocketsPerCaller:       8,
		LiveSubscriptionsPerSocket: 16,
		LiveInitTimeout:            10 * time.Second,
		LiveKeepAlive:              25 * time.Second,
		LiveRecheck:                time.Minute,
	}
}

// MaxPageSize bounds first and last on every connection.
const MaxPageSize = 100

// checkPage requires first or last on a connection and bounds them, so no
// query can ask for an unbounded page.
func checkPage(first, last *int) error {
	switch {
	case first == nil && last == nil:
		return gqlerror.Errorf("a connection needs `first` or `last` (at most %d)", MaxPageSize)
	case first != nil && (*first < 0 || *first > MaxPageSize):
		return gqlerror.Errorf("`first` must be between 0 and %d", MaxPageSize)
	case last != nil && (*last < 0 || *last > MaxPageSize):
		return gqlerror.Errorf("`last` must be between 0 and %d", MaxPageSize)
	}
	return nil
}

// queryLimits refuses, before anything executes, operations nested deeper
// than maxDepth, using more than maxAliases aliases, or costing more than
// maxComplexity. A field costs 1 plus its children, and a connection's
// children count `first` (or `last`) times, so the cost tracks the rows a
// query can load. Introspection fields (__schema, __type) are not counted,
// so GraphiQL's schema query passes.
type queryLimits struct {
	schemaFree
	maxDepth      int
	maxAliases    int
	maxComplexity int
}

// The limits are handler extensions that gqlgen calls through these
// interfaces; a method that stopped matching one would silently not run.
var (
	_ graphql.OperationContextMutator   = queryLimits{}
	_ graphql.OperationParameterMutator = documentLimits{}
)

// schemaFree is a handler extension's Validate for one that does not
// depend on the schema.
type schemaFree struct{}

func (schemaFree) Validate(graphql.ExecutableSchema) error { return nil }

func (queryLimits) ExtensionName() string { return "QueryLimits" }
func (l queryLimits) MutateOperationContext(_ context.Context, oc *graphql.OperationContext) *gqlerror.Error {
	if oc.Operation == nil {
		return nil
	}
	w := walker{fragments: oc.Doc.Fragments, vars: oc.Variables, seen: map[string]bool{}, done: map[string]fragmentCost{}}
	depth, cost := w.walk(oc.Operation.SelectionSet)
	if w.pageErr != nil {
		return w.pageErr
	}
	if l.maxDepth > 0 && depth > l.maxDepth {
		return gqlerror.Errorf("the query is nested %d levels deep, more than the limit of %d", depth, l.maxDepth)
	}
	if l.maxAliases > 0 && w.aliases > l.maxAliases {
		return gqlerror.Errorf("the query uses %d aliases, more than the limit of %d", w.aliases, l.maxAliases)
	}
	if l.maxComplexity > 0 && cost > l.maxComplexity {
		return gqlerror.Errorf("the query's complexity is %d, more than the limit of %d; ask for smaller pages or fewer nested fields", cost, l.maxComplexity)
	}
	return nil
}

type walker struct {
	fragments ast.FragmentDefinitionList
	vars      map[string]any
	seen      map[string]bool // fragments on the current path, against cycles
	// done is each fragment's depth, cost and aliases, walked once: a
	// fragment spread twice in each of 26 fragments is still 26 walks, not
	// 2^26.
	done    map[string]fragmentCost
	aliases int
	visits  int             // selections walked, for the tests
	pageErr *gqlerror.Error // the first connection without a bounded page
}

type fragmentCost struct{ depth, cost, aliases int }

// walk returns the depth and the cost of a selection set.
func (w *walker) walk(set ast.SelectionSet) (depth, cost int) {
	for _, sel := range set {
		w.visits++
		d, c := 0, 0
		switch s := sel.(type) {
		case *ast.Field:
			if strings.HasPrefix(s.Name, "__") {
				continue
			}
			if s.Alias != "" && s.Alias != s.Name {
				w.aliases = saturatingAdd(w.aliases, 1)
			}
			args := s.ArgumentMap(w.vars)
			if w.pageErr == nil && isConnection(s.Definition) {
				w.pageErr = pageError(args)
			}
			cd, cc := w.walk(s.SelectionSet)
			d, c = 1+cd, saturatingAdd(1, saturatingMul(cc, pageSize(args)))
		case *ast.InlineFragment:
			d, c = w.walk(s.SelectionSet)
		case *ast.FragmentSpread:
			f := w.fragments.ForName(s.Name)
			if f == nil || w.seen[s.Name] {
				continue
			}
			fc, ok := w.done[s.Name]
			if !ok {
				w.seen[s.Name] = true
				before := w.aliases
				fc.depth, fc.cost = w.walk(f.SelectionSet)
				fc.aliases = w.aliases - before
				w.aliases = before
				delete(w.seen, s.Name)
				w.done[s.Name] = fc
			}
			d, c = fc.depth, fc.cost
			w.aliases = saturatingAdd(w.aliases, fc.aliases)
		}
		depth = max(depth, d)
		cost = saturatingAdd(cost, c)
	}
	return depth, cost
}

// isConnection reports whether a field is a Relay connection (it pages with
// first and last).
func isConnection(def *ast.FieldDefinition) bool {
	return def != nil && def.Arguments.ForName("first") != nil && def.Arguments.ForName("last") != nil
}

// pageError refuses, before anything runs, a connection that asks for no
// page or for one larger than MaxPageSize: the same rule checkPage applies
// in the resolvers, here for every connection of the document, nested ones
// included, so none is loaded unbounded.
func pageError(args map[string]any) *gqlerror.Error {
	first, hasFirst := intArg(args["first"])
	last, hasLast := intArg(args["last"])
	var f, l *int
	if hasFirst {
		f = &first
	}
	if hasLast {
		l = &last
	}
	if err := checkPage(f, l); err != nil {
		if ge, ok := err.(*gqlerror.Error); ok {
			return ge
		}
		return gqlerror.Errorf("%v", err)
	}
	return nil
}

func intArg(v any) (int, bool) {
	switch n := v.(type) {
	case int64:
		return int(max(min(n, math.MaxInt32), math.MinInt32)), true
	case int:
		return n, true
	case float64:
		return int(max(min(n, math.MaxInt32), math.MinInt32)), true
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			return math.MaxInt32, true
		}
		return int(max(min(i, math.MaxInt32), math.MinInt32)), true
	}
	return 0, false
}

// pageSize is the multiplier of a connection field's children.
func pageSize(args map[string]any) int {
	n := 1
	for _, name := range []string{"first", "last"} {
		if v, ok := intArg(args[name]); ok {
			n = max(n, v)
		}
	}
	return n
}

func saturatingMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt/b {
		return math.MaxInt
	}
	return a * b
}

func saturatingAdd(a, b int) int {
	if s := a + b; s >= a && s >= b {
		return s
	}
	return math.MaxInt
}

// documentLimits refuses, before the document is validated, what would make
// validation itself expensive: more fields or fragment spreads than the
// limits as written, and argument values or variables nested deeper than
// a REST body may be. Parsing is linear and bounded by the token limit;
// this walk is linear in the document.
type documentLimits struct {
	schemaFree
	maxFields, maxSpreads, tokenLimit int
}

func (documentLimits) ExtensionName() string { return "DocumentLimits" }

func (l documentLimits) MutateOperationParameters(_ context.Context, p *graphql.RawParams) *gqlerror.Error {
	if depth := valueDepth(p.Variables, 0); depth > MaxValueDepth {
		return gqlerror.Errorf("the variables nest objects or arrays deeper than %d levels", MaxValueDepth)
	}
	doc, err := parser.ParseQueryWithTokenLimit(&ast.Source{Input: p.Query}, l.tokenLimit)
	if err != nil {
		return nil // gqlgen parses it again and says what is wrong
	}
	var c docCounter
	for _, op := range doc.Operations {
		c.selections(op.SelectionSet)
	}
	for _, f := range doc.Fragments {
		c.selections(f.SelectionSet)
	}
	switch {
	case l.maxFields > 0 && c.fields > l.maxFields:
		return gqlerror.Errorf("the query has %d fields, more than the limit of %d", c.fields, l.maxFields)
	case l.maxSpreads > 0 && c.spreads > l.maxSpreads:
		return gqlerror.Errorf("the query spreads fragments %d times, more than the limit of %d", c.spreads, l.maxSpreads)
	case c.valueDepth > MaxValueDepth:
		return gqlerror.Errorf("an argument nests objects or lists deeper than %d levels", MaxValueDepth)
	}
	return nil
}

// MaxValueDepth bounds how deeply argument values and variables nest, as
// strictjson.MaxDepth bounds a REST body (the stores refuse deeper JSON).
const MaxValueDepth = 20

// docCounter counts a document's fields and spreads as written.
type docCounter struct{ fields, spreads, valueDepth int }

func (c *docCounter) selections(set ast.SelectionSet) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			c.fields++
			for _, a := range s.Arguments {
				c.valueDepth = max(c.valueDepth, astValueDepth(a.Value))
			}
			c.selections(s.SelectionSet)
		case *ast.InlineFragment:
			c.selections(s.SelectionSet)
		case *ast.FragmentSpread:
			c.spreads++
		}
	}
}

// astValueDepth is how deeply an argument's literal nests lists and objects.
func astValueDepth(v *ast.Value) int {
	if v == nil || (v.Kind != ast.ListValue && v.Kind != ast.ObjectValue) {
		return 0
	}
	d := 0
	for _, child := range v.Children {
		d = max(d, astValueDepth(child.Value))
	}
	return 1 + d
}

// valueDepth is how deeply a decoded JSON value nests.
func valueDepth(v any, depth int) int {
	if depth > MaxValueDepth {
		return depth // deep enough to refuse; no need to go on
	}
	d := depth
	switch t := v.(type) {
	case map[string]any:
		for _, child := range t {
			d = max(d, valueDepth(child, depth+1))
		}
	case []any:
		for _, child := range t {
			d = max(d, valueDepth(child, depth+1))
		}
	}
	return d
}

func jsonEncode(w io.Writer, v any) error { return json.NewEncoder(w).Encode(v) }
