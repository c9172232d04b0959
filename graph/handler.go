package graph

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler"
	"github.com/99designs/gqlgen/graphql/handler/extension"
	"github.com/99designs/gqlgen/graphql/handler/lru"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/graph/generated"
	"switchyard/graph/playground"
	"switchyard/internal/httperr"
	"switchyard/internal/strictjson"
	"switchyard/internal/tenancy"
	"switchyard/payments/cards"
	"switchyard/payments/errs"
)

// Endpoint is the path of the GraphQL endpoint; the playground's files are
// served under playground.AssetsPath(Endpoint).
const Endpoint = "/graphql"

// Handler serves the endpoint (NewHandler); Close ends its websockets.
type Handler struct {
	http.Handler
	live *live
}

// Close ends the live updates' websockets and waits, a few seconds at
// most, for them to close: http.Server.Shutdown leaves a hijacked
// connection alone.
func (h *Handler) Close() { h.live.close() }

// NewHandler serves POST /graphql (and GET queries) for authenticated
// callers, subscriptions over a websocket (live.go), GraphiQL to a
// browser's GET, and GraphiQL's files under /graphql/assets/ (the caller
// routes that path here too).
func NewHandler(d Deps, opts Options) *Handler {
	d.Client.Intercept(narrowToProfile())
	resolver := NewResolver(d)
	resolver.liveOpts = opts
	srv := handler.New(generated.NewExecutableSchema(generated.Config{Resolvers: resolver, Directives: directives()}))
	srv.AddTransport(transport.Options{})
	srv.AddTransport(transport.GET{})
	srv.AddTransport(transport.POST{})
	// Last: it takes any request with an Upgrade header, and only a
	// websocket's GET is handed to it (live.serve).
	live := newLive(d, opts)
	srv.AddTransport(live.transport())
	srv.SetQueryCache(lru.New[*ast.QueryDocument](1000))
	srv.SetParserTokenLimit(opts.TokenLimit)
	if opts.Introspection {
		srv.Use(extension.Introspection{})
	} else {
		// Suggestions would leak the schema that introspection hides.
		srv.SetDisableSuggestion(true)
	}
	srv.Use(documentLimits{maxFields: opts.MaxFields, maxSpreads: opts.MaxFragmentSpreads, tokenLimit: opts.TokenLimit})
	srv.Use(queryLimits{maxDepth: opts.MaxDepth, maxAliases: opts.MaxAliases, maxComplexity: opts.ComplexityLimit})
	// The caller was authenticated before the document was read (see
	// request.go); the interceptor puts what the operation needs beside it.
	srv.Use(authenticator{cursors: d.Cursors})
	srv.AroundFields(markInternal)
	srv.SetErrorPresenter(presentError)
	srv.SetRecoverFunc(func(ctx context.Context, v any) error {
		return errs.Internal(errors.New("panic in resolver"))
	})

	// GraphiQL, served from the binary (no CDN): its page at a browser's
	// GET of the endpoint, its files under Endpoint/assets/.
	play := playground.Handler(playground.Options{Title: "Switchyard GraphQL", Endpoint: Endpoint})
	// The page with the demo key filled in goes to a browser on this
	// machine only: the key is not handed to the network.
	playLocal := playground.Handler(playground.Options{
		Title:    "Switchyard GraphQL",
		Endpoint: Endpoint,
		Headers:  opts.PlaygroundHeaders,
	})

	return &Handler{live: live, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			// The same URL answers a browser with HTML and a client with JSON.
			w.Header().Add("Vary", "Accept")
		}
		if IsWebsocketUpgrade(r) && r.URL.Path == Endpoint {
			// Authenticated by connection_init, bounded by the live limits.
			live.serve(srv, w, r)
			return
		}
		if IsPlaygroundRequest(r) {
			if mayPrefill(r) {
				playLocal.ServeHTTP(w, r)
			} else {
				play.ServeHTTP(w, r)
			}
			return
		}
		// Who is calling comes first: a refused key costs a key lookup, and
		// nothing of the document is read. The caller is kept in a slot that
		// a sign-in replaces with its user (see signedIn).
		p, err := authenticateCaller(r.Context(), d, r)
		if err != nil {
			writeGraphQLError(w, r, err)
			return
		}
		if r.Body != nil {
			// Read whole here, so a body over the server's limit is REST's 413.
			body, err := httperr.ReadBody(r.Body)
			if err != nil {
				writeGraphQLError(w, r, err)
				return
			}
			if err := checkJSONBody(r, body); err != nil {
				writeGraphQLError(w, r, err)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		ctx, cancel := context.WithTimeout(withClientAddr(tenancy.WithSlot(r.Context(), p), r), opts.Timeout)
		defer cancel()
		sw := &statusWriter{ResponseWriter: w}
		srv.ServeHTTP(sw, withRequest(r.WithContext(ctx), sw))
		sw.finish()
	})}
}

// checkJSONBody reads a JSON body as REST reads its bodies, refusing a
// member given twice (encoding/json, which gqlgen uses, keeps the last: an
// amount given twice would be taken silently) or nesting too deep. The body
// and its variables member wrap the operation's inputs: they get two levels
// more than a REST body, so an input nests as deeply as its REST body may.
// Bodies of other types are left to gqlgen, which refuses them.
func checkJSONBody(r *http.Request, body []byte) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return nil
	}
	_, err := strictjson.Parse(body, strictjson.MaxDepth+2)
	return err
}

// IsPlaygroundRequest reports whether r asks for GraphiQL (its page, which
// a browser's GET of the endpoint gets, or its files) rather than for the
// API. The page is not the API's: it is served without CORS headers, so no
// other origin's script may read it.
func IsPlaygroundRequest(r *http.Request) bool {
	if strings.HasPrefix(r.URL.Path, playground.AssetsPath(Endpoint)) {
		return true
	}
	return r.URL.Path == Endpoint && (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		strings.Contains(r.Header.Get("Accept"), "text/html")
}

// mayPrefill reports whether the playground's page may carry the demo
// key: only to a browser on this machine that opened this server's page
// itself. The request comes straight from loopback (no proxy forwarded
// it), names this server by a loopback name (a page elsewhere that points
// its own name at 127.0.0.1 sends that name), and is a navigation of the
// browser's own or from this origin: neither another site's link, frame
// or script.
func mayPrefill(r *http.Request) bool {
	if !fromLoopback(r) || !loopbackName(r.Host) {
		return false
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "none" && site != "same-origin" {
		return false
	}
	if origin := r.Header.Get("Origin"); origin != "" && origin != "http://"+r.Host && origin != "https://"+r.Host {
		return false
	}
	return true
}

// fromLoopback reports whether r comes straight from this machine: a
// loopback peer, and no proxy's forwarding headers (a proxy on this machine
// forwards other machines' requests).
func fromLoopback(r *http.Request) bool {
	if r.Header.Get("X-Forwarded-For") != "" || r.Header.Get("Forwarded") != "" || r.Header.Get("X-Real-Ip") != "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	return err == nil && loopbackName(host)
}

// loopbackName reports whether host (with or without a port) is this
// machine by name: localhost or a loopback address.
func loopbackName(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// internalError marks an error a resolver returned that is neither a
// domain error nor a GraphQL one: the server's failure, never shown.
// Errors that arise before a resolver runs (an argument that does not
// coerce, a malformed cursor) stay the client's.
type internalError struct{ error }

func (e internalError) Unwrap() error { return e.error }

func markInternal(ctx context.Context, next graphql.Resolver) (any, error) {
	res, err := next(ctx)
	if err == nil {
		return res, nil
	}
	var ge *gqlerror.Error
	var internal internalError
	if _, ok := errs.As(err); ok || errors.As(err, &internal) || (errors.As(err, &ge) && ge.Err == nil) {
		return res, err
	}
	return res, internalError{err}
}

// presentError puts the Hyperswitch code and type of a domain error into the
// GraphQL error's extensions; internal causes are never shown.
func presentError(ctx context.Context, err error) *gqlerror.Error {
	gqlErr := graphql.DefaultErrorPresenter(ctx, err)
	if e, ok := errs.As(err); ok {
		logServerError(ctx, e)
		gqlErr.Message = e.Message
		gqlErr.Extensions = extensionsOf(e)
		if e.Field != "" {
			gqlErr.Extensions["field"] = e.Field
		}
		if n := e.RetryAfterSeconds(); n > 0 {
			gqlErr.Extensions["retryAfter"] = n
			askRetryAfter(ctx, n)
		}
		return gqlErr
	}
	var internal internalError
	var ge *gqlerror.Error
	if !errors.As(err, &internal) && errors.As(err, &ge) {
		// A parse or validation error, a limit or a refused cursor: the
		// client's mistake, IR_06 like a malformed REST body. GraphQL's own
		// code, when there is one, stays beside it.
		out := *gqlErr
		out.Message = withoutRequestData(out.Message)
		out.Extensions = extensionsOf(errs.ErrInvalidRequest.New())
		if code, ok := gqlErr.Extensions["code"]; ok {
			out.Extensions["graphqlCode"] = code
		}
		return &out
	}
	tooLong := errors.Is(err, context.DeadlineExceeded)
	if !tooLong && (errors.Is(err, tenancy.ErrNoPrincipal) || errors.Is(err, tenancy.ErrForeignMerchant)) {
		gqlErr.Message = "not allowed"
		gqlErr.Extensions = extensionsOf(errs.Unauthorized())
		return gqlErr
	}
	e := errs.Internal(err)
	slog.ErrorContext(ctx, "graphql: request failed", "code", e.Code, "err", err)
	gqlErr.Message = e.Message
	if tooLong {
		gqlErr.Message = "the request took too long and was stopped"
	}
	gqlErr.Extensions = extensionsOf(e)
	return gqlErr
}

// extensionsOf is a GraphQL error's extensions for a domain error: its
// Hyperswitch code and type.
func extensionsOf(e *errs.Error) map[string]any {
	return map[string]any{"code": e.Code, "type": e.Type}
}

// logServerError logs a domain error that REST would answer with a 5xx
// (internal, unavailable), as REST logs its 5xx: the request's context
// carries its request_id into the record. Its cause is logged, never shown.
func logServerError(ctx context.Context, e *errs.Error) {
	if _, status := httperr.Of(e); status >= 500 && !httperr.ClientGone(ctx, e) {
		slog.ErrorContext(ctx, "graphql: request failed", "code", e.Code, "err", e.Error())
	}
}

// withoutRequestData removes what a client-mistake message would quote of
// the request: gqlgen quotes the whole body it could not decode, and the
// validator the literal it refused; either may be a card number or a CVC.
func withoutRequestData(msg string) string {
	if strings.HasPrefix(msg, "json request body could not be decoded") {
		msg, _, _ = strings.Cut(msg, " body:")
	}
	if i := strings.Index(msg, "cannot represent"); i >= 0 {
		if j := strings.LastIndex(msg, ": "); j > i {
			msg = msg[:j]
		}
	}
	return cards.MaskNumbers(msg)
}

// writeGraphQLError answers an unauthenticated request in GraphQL's shape
// with the HTTP status of the domain error (401 for a missing key).
func writeGraphQLError(w http.ResponseWriter, r *http.Request, err error) {
	e, status := httperr.Of(err)
	logServerError(r.Context(), e)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	body := graphql.Response{Errors: gqlerror.List{{
		Message:    e.Message,
		Extensions: extensionsOf(e),
	}}}
	_ = jsonEncode(w, body)
}
