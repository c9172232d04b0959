package graph

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/handler/transport"
	coderws "github.com/coder/websocket"

	"switchyard/ent"
	"switchyard/ent/paymentintent"
	"switchyard/internal/auth"
	"switchyard/internal/httperr"
	"switchyard/internal/tenancy"
	"switchyard/payments/errs"
)

// Live updates: subscriptions over a websocket at the GraphQL endpoint,
// with gqlgen's websocket transport (graphql-transport-ws, and the older
// graphql-ws). A browser cannot send headers with a websocket, so the
// caller authenticates in connection_init's payload with what an HTTP
// request would send as headers (Authorization: Bearer sys_…, api-key,
// X-Merchant-Id, X-Profile-Id), checked as authenticateCaller checks
// them. Only subscriptions run over the socket, and only over the socket.
//
// What one caller can hold is bounded: sockets per caller and in all on
// this process, subscriptions per socket, the time to send connection_init,
// the size of a message; the document limits (limits.go) apply to each
// subscription as to any operation. A socket whose caller's session or key
// has ended is closed at the next check.

// LiveFeed says which payments of a merchant change, on every process.
type LiveFeed interface {
	// Follow returns the row ids of merchantID's payments as they change,
	// until ctx ends. The channel closes when ctx ends, or early when the
	// follower has fallen too far behind.
	Follow(ctx context.Context, merchantID string) (<-chan string, error)
}

// IsWebsocketUpgrade reports whether r opens a websocket: a GET that asks
// to upgrade to websocket. It holds no admission slot (the socket lives
// long; the live limits bound it instead).
func IsWebsocketUpgrade(r *http.Request) bool {
	return r.Method == http.MethodGet && headerHasToken(r.Header, "Upgrade", "websocket")
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for part := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(part), token) {
				return true
			}
		}
	}
	return false
}

// Close codes of a refused connection_init: graphql-transport-ws's 4403
// Forbidden, 4429 for too many sockets, and RFC 6455's 1013 when a store
// the check needs is down.
const (
	closeForbidden     = 4403
	closeTooMany       = 4429
	closeTryAgainLater = 1013
	maxInitHeader      = 4096 // a header value in connection_init's payload
	liveMessageLimit   = 64 << 10
)

// live serves the websocket side of the endpoint.
type live struct {
	deps    Deps
	opts    Options
	origins map[string]bool // scheme://host[:port], lower case

	// stopping ends every socket (close); open counts the serve calls.
	stopping context.Context
	stop     context.CancelFunc
	open     sync.WaitGroup

	mu        sync.Mutex
	sockets   int            // open on this process
	perCaller map[string]int // open per caller (callerKey)
	closed    bool
}

func newLive(d Deps, opts Options) *live {
	l := &live{deps: d, opts: opts, origins: map[string]bool{}, perCaller: map[string]int{}}
	l.stopping, l.stop = context.WithCancel(context.Background())
	for _, o := range opts.LiveOrigins {
		if u, err := url.Parse(strings.TrimSpace(o)); err == nil && u.Scheme != "" && u.Host != "" {
			l.origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
		}
	}
	return l
}

// transport is gqlgen's websocket transport with the live limits. The
// origin was checked before (serve), by the rules of allowedOrigin.
func (l *live) transport() transport.Websocket {
	limit := int64(liveMessageLimit)
	return transport.Websocket{
		Implementation: transport.CoderWebsocketImplementation{
			AcceptOptions: coderws.AcceptOptions{InsecureSkipVerify: true},
		},
		InitFunc:              l.init,
		InitTimeout:           l.opts.LiveInitTimeout,
		KeepAlivePingInterval: l.opts.LiveKeepAlive, // graphql-ws: "ka"
		PingPongInterval:      l.opts.LiveKeepAlive, // graphql-transport-ws: ping, and a pong is due
		PayloadReadLimit:      &limit,
		ErrorFunc: func(ctx context.Context, err error) {
			if !errors.Is(err, net.ErrClosed) {
				slog.DebugContext(ctx, "graphql: websocket", "err", err)
			}
		},
	}
}

type socketKey struct{}

// socket is one websocket's state: who it is (once connection_init has
// authenticated it) and its subscriptions.
type socket struct {
	mu      sync.Mutex
	caller  string // callerKey; "" until authenticated
	subs    int
	release func()
}

func socketOf(ctx context.Context) *socket {
	s, _ := ctx.Value(socketKey{}).(*socket)
	return s
}

// serve opens a socket for an allowed origin, within the process's bound,
// and holds its place until it closes.
func (l *live) serve(srv http.Handler, w http.ResponseWriter, r *http.Request) {
	if !l.allowedOrigin(r) {
		writeGraphQLError(w, r, errs.Forbidden("/graphql from the origin "+r.Header.Get("Origin")))
		return
	}
	l.mu.Lock()
	full := l.closed || l.sockets >= l.opts.LiveSockets
	if !full {
		l.sockets++
		l.open.Add(1)
	}
	l.mu.Unlock()
	if full {
		w.Header().Set("Retry-After", "5")
		writeGraphQLError(w, r, errs.Unavailable("Live updates (every connection is taken)"))
		return
	}
	sock := &socket{}
	defer func() {
		sock.mu.Lock()
		release := sock.release
		sock.mu.Unlock()
		if release != nil {
			release()
		}
		l.mu.Lock()
		l.sockets--
		l.mu.Unlock()
		l.open.Done()
	}()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	defer context.AfterFunc(l.stopping, cancel)()
	ctx = context.WithValue(withClientAddr(ctx, r), socketKey{}, sock)
	srv.ServeHTTP(w, r.WithContext(ctx))
}

// close ends every socket, refuses new ones, and waits a few seconds at
// most for them to close.
func (l *live) close() {
	l.mu.Lock()
	l.closed = true
	l.mu.Unlock()
	l.stop()
	done := make(chan struct{})
	go func() {
		l.open.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// allowedOrigin lets a socket be opened by a client that is no browser (no
// Origin), by a page of this server's own origin, by the playground opened
// on this machine under another loopback name of the same port, and by the
// configured origins (Options.LiveOrigins). Any other page is refused: a
// socket outlives the page's checks, and a session token in a page of a
// foreign origin is not this server's business.
func (l *live) allowedOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	if fromLoopback(r) && loopbackName(u.Host) && loopbackName(r.Host) && portOf(u) == portOf(&url.URL{Scheme: u.Scheme, Host: r.Host}) {
		return true
	}
	return l.origins[strings.ToLower(u.Scheme+"://"+u.Host)]
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if u.Scheme == "https" {
		return "443"
	}
	return "80"
}

// init authenticates connection_init's payload as a request's headers,
// and counts the socket against its caller's bound. A refusal closes the
// socket with 4403 (4429 past the bound) and says why.
func (l *live) init(ctx context.Context, payload transport.InitPayload) (context.Context, *transport.InitPayload, error) {
	refuse := func(code int, e *errs.Error) (context.Context, *transport.InitPayload, error) {
		reason := e.Code + ": " + e.Message
		if len(reason) > 120 { // a close frame's reason is at most 123 bytes
			reason = reason[:120]
		}
		return transport.AppendCloseReason(transport.WithWebsocketCloseCode(ctx, code), reason), nil, e
	}
	sock := socketOf(ctx)
	if sock == nil {
		return refuse(closeForbidden, errs.Internal(errors.New("websocket without its state")))
	}
	req := requestOf(ctx, payload)
	p, err := authenticateCaller(ctx, l.deps, req)
	if err != nil {
		e, ok := errs.As(err)
		if !ok {
			e = errs.Internal(err)
		}
		if _, status := httperr.Of(e); status >= 500 {
			// Not the caller's fault (the session store is down, say):
			// 1013, try again later, so a client does not take it for a
			// refusal of its credentials.
			return refuse(closeTryAgainLater, e)
		}
		return refuse(closeForbidden, e)
	}
	switch {
	case p.Kind == tenancy.KindAnonymous:
		return refuse(closeForbidden, errs.Unauthorized())
	case p.MerchantID == "":
		// The admin key reads a merchant's payments only with X-Merchant-Id.
		return refuse(closeForbidden, errs.MissingField(auth.HeaderMerchantID))
	}
	key := callerKey(p)
	l.mu.Lock()
	over := l.perCaller[key] >= l.opts.LiveSocketsPerCaller
	if !over {
		l.perCaller[key]++
	}
	l.mu.Unlock()
	if over {
		return refuse(closeTooMany, errs.ErrOverLimit.Newf(
			"at most %d live connections for one session or key on a server", l.opts.LiveSocketsPerCaller))
	}
	ctx, end := context.WithCancel(ctx)
	sock.mu.Lock()
	sock.caller = key
	sock.release = func() {
		end()
		l.mu.Lock()
		if l.perCaller[key]--; l.perCaller[key] <= 0 {
			delete(l.perCaller, key)
		}
		l.mu.Unlock()
	}
	sock.mu.Unlock()
	go l.recheck(ctx, end, req)
	return tenancy.WithSlot(ctx, p), nil, nil
}

// requestOf is connection_init's payload as the headers of a request:
// what authenticateCaller reads. Values that are not strings, or are
// longer than a header would be, are left out.
func requestOf(ctx context.Context, payload transport.InitPayload) *http.Request {
	req := (&http.Request{Header: http.Header{}, URL: &url.URL{Path: Endpoint}}).WithContext(ctx)
	for k, v := range payload {
		if s, ok := v.(string); ok && len(s) <= maxInitHeader {
			req.Header.Set(k, s)
		}
	}
	return req
}

// callerKey names the caller a socket counts against: the session, or the
// API key (with the merchant the admin key acts for).
func callerKey(p tenancy.Principal) string {
	switch {
	case p.SessionID != "":
		return "session:" + p.SessionID
	case p.KeyID != "":
		return "key:" + p.KeyID
	}
	return fmt.Sprintf("kind%d:%s", p.Kind, p.MerchantID)
}

// recheck authenticates the socket's credentials again every
// LiveRecheck, and ends the socket once they are refused: a session
// signed out, removed from the merchant, its role changed or expired; a
// key revoked. A store that is down does not end it. Like each request of
// a session, a check extends the session's idle time: an open dashboard
// is in use.
func (l *live) recheck(ctx context.Context, end context.CancelFunc, req *http.Request) {
	if l.opts.LiveRecheck <= 0 {
		return
	}
	t := time.NewTicker(l.opts.LiveRecheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, err := authenticateCaller(ctx, l.deps, req)
		if e, ok := errs.As(err); ok && e.Kind == errs.KindUnauthenticated {
			end()
			return
		}
	}
}

// addSubscription counts a subscription against its socket's bound; the
// release func gives its place back.
func (s *socket) addSubscription(max int) (func(), error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.subs >= max {
		return nil, errs.ErrOverLimit.Newf("at most %d subscriptions on one connection", max)
	}
	s.subs++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.subs--
			s.mu.Unlock()
		})
	}, nil
}

// paymentUpdates is paymentUpdated: each payment of the caller's merchant
// that changes, read as the payment query reads it (tenant-scoped, narrowed
// to the key's profile), when the feed says it changed.
func (r *Resolver) paymentUpdates(ctx context.Context, only *string) (<-chan *ent.PaymentIntent, error) {
	sock := socketOf(ctx)
	if sock == nil || r.live == nil {
		return nil, errs.InvalidRequest("subscriptions are served over a websocket at /graphql (graphql-transport-ws)")
	}
	p, _ := tenancy.FromContext(ctx)
	if p.MerchantID == "" {
		return nil, errs.MissingField(auth.HeaderMerchantID)
	}
	release, err := sock.addSubscription(r.liveOpts.LiveSubscriptionsPerSocket)
	if err != nil {
		return nil, err
	}
	changes, err := r.live.Follow(ctx, p.MerchantID)
	if err != nil {
		release()
		slog.WarnContext(ctx, "live updates: follow failed", "err", err)
		return nil, errs.Unavailable("Live updates (Redis)")
	}
	// The payments are read in the goroutine below, with this field's
	// selections; gqlgen writes to its field context once this returns,
	// so the goroutine reads a copy of its own.
	if fc := graphql.GetFieldContext(ctx); fc != nil {
		own := *fc
		ctx = graphql.WithFieldContext(ctx, &own)
	}
	out := make(chan *ent.PaymentIntent)
	go func() {
		defer close(out)
		defer release()
		for {
			var id string
			select {
			case <-ctx.Done():
				return
			case v, ok := <-changes:
				if !ok {
					if ctx.Err() == nil {
						transport.AddSubscriptionError(ctx, presentError(ctx, errs.ErrOverLimit.Newf(
							"the subscription fell too far behind the changes, or the server is stopping; read the payments again and subscribe again")))
					}
					return
				}
				id = v
			}
			pi, err := r.livePayment(ctx, id, only)
			if err != nil {
				if ctx.Err() == nil {
					transport.AddSubscriptionError(ctx, presentError(ctx, err))
				}
				return
			}
			if pi == nil {
				continue // another profile's, not the one asked for, or not this database's
			}
			select {
			case out <- pi:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out, nil
}

// livePayment reads one changed payment as the payment query would; nil
// when the caller cannot see it or did not ask for it.
func (r *Resolver) livePayment(ctx context.Context, id string, only *string) (*ent.PaymentIntent, error) {
	ctx, cancel := context.WithTimeout(ctx, r.liveOpts.Timeout)
	defer cancel()
	q := r.client.PaymentIntent.Query().Where(paymentintent.ID(id))
	if only != nil {
		q.Where(paymentintent.PaymentID(*only))
	}
	return selectedOne[ent.PaymentIntent](ctx, q)
}

// overSocket reports whether the operation came over a websocket.
func overSocket(ctx context.Context) bool { return socketOf(ctx) != nil }

// transportMismatch refuses a subscription sent over HTTP, which would
// hold the request open, and a query or mutation over the socket, which
// would skip the HTTP checks of its body.
func transportMismatch(ctx context.Context, subscription bool) error {
	switch {
	case subscription && !overSocket(ctx):
		return errs.InvalidRequest("subscriptions are served over a websocket at %s (graphql-transport-ws)", Endpoint)
	case !subscription && overSocket(ctx):
		return errs.InvalidRequest("only subscriptions are served over the websocket; send queries and mutations over HTTP POST")
	}
	return nil
}
