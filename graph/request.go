package graph

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"entgo.io/ent/dialect/sql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/ent"
	"switchyard/ent/intercept"
	"switchyard/ent/merchantconnectoraccount"
	"switchyard/graph/cursors"
	"switchyard/internal/httperr"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// A GraphQL request runs in this order: the caller is authenticated (the
// handler, before anything of the document is read: a refused key costs a
// key lookup); the body is read within the server's limit; the document
// is parsed (bounded by the token limit) and measured as written (fields,
// fragment spreads, value depth: documentLimits), validated, and checked
// against the page, depth, alias and complexity limits (queryLimits, linear
// in the document); only then does the operation run. A query the limits
// refuse never reaches the database: with a key the key cache holds, not
// even for the key.

type (
	statusKey  struct{} // *int: the HTTP status authenticate asks for
	retryKey   struct{} // *atomic.Int64: the Retry-After seconds an error asks for
	loadersKey struct{} // *loaders of the operation
	profileKey struct{} // the profile a read is narrowed to
	batchKey   struct{} // *cursors.Batch: the operation's cursors, stored at its end
)

// withRequest keeps slots for w's status and Retry-After in r's context,
// for refuse and presentError.
func withRequest(r *http.Request, w *statusWriter) *http.Request {
	ctx := context.WithValue(r.Context(), statusKey{}, &w.status)
	return r.WithContext(context.WithValue(ctx, retryKey{}, &w.retryAfter))
}

// askRetryAfter asks the response for Retry-After: seconds (the longest
// any of its errors asks for). Fields may fail at once: it is atomic.
func askRetryAfter(ctx context.Context, seconds int) {
	slot, ok := ctx.Value(retryKey{}).(*atomic.Int64)
	for ok {
		old := slot.Load()
		if int64(seconds) <= old || slot.CompareAndSwap(old, int64(seconds)) {
			return
		}
	}
}

// authenticator runs every operation under the principal the handler
// authenticated before the document was read, with what the operation's
// resolvers share.
type authenticator struct {
	cursors *cursors.Store
}

func (authenticator) ExtensionName() string                   { return "Authenticate" }
func (authenticator) Validate(graphql.ExecutableSchema) error { return nil }

func (a authenticator) InterceptOperation(ctx context.Context, next graphql.OperationHandler) graphql.ResponseHandler {
	p, ok := tenancy.FromContext(ctx)
	if !ok || (p.Kind == tenancy.KindAnonymous && !publicOnly(ctx)) {
		// Without credentials only sign-up, sign-in and accepting an
		// invitation run: anything else is refused as a missing key.
		return refuse(ctx, errs.Unauthorized())
	}
	oc := graphql.GetOperationContext(ctx)
	subscription := oc != nil && oc.Operation != nil && oc.Operation.Operation == ast.Subscription
	if err := transportMismatch(ctx, subscription); err != nil {
		return refuse(ctx, err)
	}
	ctx = context.WithValue(ctx, loadersKey{}, newLoaders())
	if p.ProfileID != "" && oc != nil && oc.Operation != nil && oc.Operation.Operation != ast.Mutation {
		// Reads (queries, and the payments a subscription reads) are
		// narrowed to the profile the key or X-Profile-Id names; mutations
		// narrow themselves in the domain, as on REST.
		ctx = context.WithValue(ctx, profileKey{}, p.ProfileID)
	}
	// Every connection's cursors are stored in one Redis round trip once
	// the operation has run, before the answer (and its tokens) leaves.
	batch := &cursors.Batch{}
	ctx = context.WithValue(ctx, batchKey{}, batch)
	respond := next(ctx)
	return func(rctx context.Context) *graphql.Response {
		batch := batch
		if subscription {
			// Each event is answered as a query of its own: nothing read
			// for the last one is served again.
			batch = &cursors.Batch{}
			rctx = context.WithValue(context.WithValue(rctx, loadersKey{}, newLoaders()), batchKey{}, batch)
		}
		resp := respond(rctx)
		if err := a.cursors.Flush(ctx, batch); err != nil {
			slog.WarnContext(ctx, "cursor store unavailable", "err", err)
			if resp != nil {
				resp.Errors = append(resp.Errors, presentError(ctx, errs.Unavailable("The cursor store (Redis)")))
			}
		}
		return resp
	}
}

// sealLater hands out the tokens of a page's cursors now and stores them
// with the operation's others (see authenticator).
func (r *Resolver) sealLater(ctx context.Context, binding string, cs []*cursors.Cursor) error {
	if b, ok := ctx.Value(batchKey{}).(*cursors.Batch); ok {
		b.Add(ctx, binding, cs)
		return nil
	}
	return r.cursors.Seal(ctx, binding, cs)
}

// refuse answers the operation with err alone, and asks for its HTTP status
// (401 for a bad key), as REST would answer.
func refuse(ctx context.Context, err error) graphql.ResponseHandler {
	_, status := httperr.Of(err)
	if st, ok := ctx.Value(statusKey{}).(*int); ok {
		*st = status
	}
	return graphql.OneShot(&graphql.Response{Errors: gqlerror.List{presentError(ctx, err)}})
}

// statusWriter sends the status an operation asked for (see refuse) with
// the response, instead of the transport's 200. An error the transport
// wrote by itself (a mutation over GET, a body that is not JSON, an
// unsupported content type) is held back and given the code every other
// error carries (IR_06, a client mistake) before it is sent.
type statusWriter struct {
	http.ResponseWriter
	status     int          // asked for by refuse; 0 for the transport's own
	retryAfter atomic.Int64 // seconds, asked for by an error (askRetryAfter); 0 for none
	wrote      bool
	held       *bytes.Buffer // the body of a transport error, until finish
	code       int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.wrote {
		return
	}
	w.wrote = true
	if code >= 400 && w.status == 0 {
		w.held, w.code = &bytes.Buffer{}, code
		return
	}
	if n := w.retryAfter.Load(); n > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(n, 10))
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if !w.wrote {
		code := http.StatusOK
		if w.status != 0 {
			code = w.status
		}
		w.WriteHeader(code)
	}
	if w.held != nil {
		return w.held.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// finish sends a held transport error with a code on each of its errors.
func (w *statusWriter) finish() {
	if w.held == nil {
		return
	}
	body := w.held.Bytes()
	var resp struct {
		Errors []map[string]any `json:"errors"`
		Data   any              `json:"data"`
	}
	if err := json.Unmarshal(body, &resp); err == nil && len(resp.Errors) > 0 {
		for _, e := range resp.Errors {
			ext, _ := e["extensions"].(map[string]any)
			if ext == nil {
				ext = map[string]any{}
			}
			if _, ok := ext["code"]; !ok {
				e := errs.ErrInvalidRequest.New()
				ext["code"], ext["type"] = e.Code, e.Type
			}
			e["extensions"] = ext
		}
		if fixed, err := json.Marshal(resp); err == nil {
			body = fixed
		}
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.ResponseWriter.WriteHeader(w.code)
	_, _ = w.ResponseWriter.Write(body)
}

// narrowToProfile is the ent interceptor that keeps a read narrowed to one
// profile (profileKey) to that profile's rows, on every table that has a
// profile: payments, refunds, disputes, events, connector accounts and the
// profiles themselves. It is installed on the client once and acts only in
// GraphQL reads.
func narrowToProfile() ent.Interceptor {
	return intercept.TraverseFunc(func(ctx context.Context, q intercept.Query) error {
		profileID, _ := ctx.Value(profileKey{}).(string)
		if profileID == "" {
			return nil
		}
		switch q.Type() {
		case ent.TypePaymentIntent, ent.TypeRefund, ent.TypeDispute, ent.TypeEvent, ent.TypeMerchantConnectorAccount:
			q.WhereP(sql.FieldEQ("profile_id", profileID))
		case ent.TypeProfile:
			q.WhereP(sql.FieldEQ("id", profileID))
		}
		return nil
	})
}

// loaders batch what entgql's field collection cannot load: the connector
// account of each payment and the merchant's id of each row's customer
// (hand-written fields). Resolvers that return
// payments announce their connector accounts (want); the first payment that
// asks for its account loads every announced one in one query.
type loaders struct {
	mu sync.Mutex
	// wanted are the connector accounts of the payments read so far.
	wanted map[string]bool
	// mcas are the accounts loaded for each connectorAccount field of the
	// document (nil: no such account). Each field is loaded with its own
	// selections (columns and edges), so two fields never share rows.
	mcas map[*ast.Field]map[string]*ent.MerchantConnectorAccount
	// rewrites caches collecting's work per field of the document.
	rewrites map[*ast.Field]rewrite
	// wantedCustomers are the customers (row ids) of the rows read so
	// far; customerRefs their merchant's ids, once loaded (customerRef).
	wantedCustomers map[string]bool
	customerRefs    map[string]string
	// activeRouting are the merchant's active routing configurations,
	// read once for every RoutingAlgorithm.active of the document (nil:
	// not read yet, or a mutation may have changed them).
	activeRouting map[string]bool
}

func newLoaders() *loaders {
	return &loaders{wanted: map[string]bool{}, mcas: map[*ast.Field]map[string]*ent.MerchantConnectorAccount{},
		rewrites: map[*ast.Field]rewrite{}, wantedCustomers: map[string]bool{}, customerRefs: map[string]string{}}
}

func loadersOf(ctx context.Context) *loaders {
	l, _ := ctx.Value(loadersKey{}).(*loaders)
	return l
}

// wantConnectorAccounts announces the connector accounts of payments.
func wantConnectorAccounts(ctx context.Context, pis ...*ent.PaymentIntent) {
	ids := make([]*string, len(pis))
	for i, pi := range pis {
		if pi != nil {
			ids[i] = pi.MerchantConnectorID
		}
	}
	want(ctx, func(l *loaders) map[string]bool { return l.wanted }, ids)
}

// want adds the ids given (nil ones are none) to one of the operation's
// sets of announced rows, when the operation has loaders.
func want(ctx context.Context, set func(*loaders) map[string]bool, ids []*string) {
	l := loadersOf(ctx)
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	wanted := set(l)
	for _, id := range ids {
		if id != nil {
			wanted[*id] = true
		}
	}
}

// connectorAccount returns one connector account, loading it with every
// other announced one (and their nested fields, through collection) in one
// query per field of the document.
func (r *Resolver) connectorAccount(ctx context.Context, id string) (*ent.MerchantConnectorAccount, error) {
	l := loadersOf(ctx)
	if l == nil {
		l = newLoaders()
	}
	var field *ast.Field
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		field = fc.Field.Field
	}
	collectCtx := collecting(ctx) // before the lock: collecting takes it too
	l.mu.Lock()
	defer l.mu.Unlock()
	loaded := l.mcas[field]
	if loaded == nil {
		loaded = map[string]*ent.MerchantConnectorAccount{}
		l.mcas[field] = loaded
	}
	if m, ok := loaded[id]; ok {
		return m, nil
	}
	ids := []string{id}
	for k := range l.wanted {
		if _, ok := loaded[k]; !ok && k != id {
			ids = append(ids, k)
		}
	}
	q, err := r.client.MerchantConnectorAccount.Query().Where(merchantconnectoraccount.IDIn(ids...)).CollectFields(collectCtx)
	if err != nil {
		return nil, err
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	for _, k := range ids {
		loaded[k] = nil
	}
	for _, row := range rows {
		loaded[row.ID] = row
	}
	return loaded[id], nil
}
