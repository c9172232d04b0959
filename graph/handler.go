package graph

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/99designs/gqlgen/graphql/playground"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/ent"
	"switchyard/graph/cursors"
	"switchyard/graph/generated"
	"switchyard/internal/auth"
	"switchyard/internal/tenancy"
	"switchyard/payments"
)

// Options are the GraphQL endpoint's limits and switches.
type Options struct {
	Introspection   bool
	ComplexityLimit int
	MaxDepth        int
	MaxAliases      int
	TokenLimit      int
	Timeout         time.Duration
	// PlaygroundHeaders prefill GraphiQL's header editor (the demo key in
	// the embedded default).
	PlaygroundHeaders map[string]string
}

// DefaultOptions are the limits used unless config says otherwise.
func DefaultOptions() Options {
	return Options{
		Introspection:   true,
		ComplexityLimit: 10000,
		MaxDepth:        12,
		MaxAliases:      30,
		TokenLimit:      15000,
		Timeout:         15 * time.Second,
	}
}

// NewHandler serves POST /graphql (and GET queries) for authenticated
// callers, and GraphiQL to a browser's GET.
func NewHandler(client *ent.Client, store *cursors.Store, authn *auth.Authenticator, opts Options) http.Handler {
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: NewResolver(client, store)}))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(opts.TokenLimit)
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		// Suggestions would leak the schema that introspection hides.
		srv.SetDisableSuggestion(true)
	}
	srv.Use(queryLimits{maxDepth: opts.MaxDepth, maxAliases: opts.MaxAliases, maxComplexity: opts.ComplexityLimit})
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		return payments.ErrInternal(errors.New("panic in resolver"))
	})

	play := playground.Handler("Switchyard GraphQL", "/graphql",
		playground.WithGraphiqlUiHeaders(opts.PlaygroundHeaders))

	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.Contains(r.Header.Get("Accept"), "text/html") {
			play.ServeHTTP(w, r)
			return
		}
		p, err := authn.Authenticate(r.Context(), r)
		if err != nil {
			writeGraphQLError(w, err)
			return
		}
		ctx, cancel := context.WithTimeout(tenancy.WithPrincipal(r.Context(), p), opts.Timeout)
		defer cancel()
		srv.ServeHTTP(w, r.WithContext(ctx))
	})
}

// presentError puts the Hyperswitch code and type of a domain error into the
// GraphQL error's extensions; internal causes are never shown.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	if e, ok := payments.AsError(err); ok {
		gqlErr.Message = e.Message
		gqlErr.Extensions = map[string]any{"code": e.Code, "type": e.Type}
		return gqlErr
	}
	var ge *gqlerror.Error
	if errors.As(err, &ge) {
		return gqlErr
	}
	if errors.Is(err, context.DeadlineExceeded) {
		gqlErr.Message = "the request took too long and was stopped"
		gqlErr.Extensions = map[string]any{"code": "HE_00", "type": "api"}
		return gqlErr
	}
	if errors.Is(err, tenancy.ErrNoPrincipal) || errors.Is(err, tenancy.ErrForeignMerchant) {
		gqlErr.Message = "not allowed"
		gqlErr.Extensions = map[string]any{"code": "IR_01", "type": "invalid_request"}
		return gqlErr
	}
	gqlErr.Message = "Something went wrong"
	gqlErr.Extensions = map[string]any{"code": "HE_00", "type": "api"}
	return gqlErr
}

// writeGraphQLError answers an unauthenticated request in GraphQL's shape
// with the HTTP status of the domain error (401 for a missing key).
func writeGraphQLError(w http.ResponseWriter, err error) {
	e, ok := payments.AsError(err)
	if !ok {
		e = payments.ErrInternal(err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	body := graphql.Response{Errors: gqlerror.List{{
		Message:    e.Message,
		Extensions: map[string]any{"code": e.Code, "type": e.Type},
	}}}
	_ = jsonEncode(w, body)
}
