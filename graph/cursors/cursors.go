// Package cursors holds GraphQL connection cursors in Redis. A client sees
// only an opaque token ("<page>.<n>"); the position it stands for, the
// merchant it was issued to and the query it belongs to (connection,
// filters and order) live in Redis for a limited time. A cursor that has
// expired, was tampered with, belongs to another merchant or to another
// query is refused with a clear error, so a page can never be resumed
// against other data than it was issued for.
package cursors

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"entgo.io/contrib/entgql"
	"github.com/99designs/gqlgen/graphql"
	"github.com/redis/go-redis/v9"
	"github.com/vektah/gqlparser/v2/gqlerror"

	"switchyard/internal/ids"
	"switchyard/internal/tenancy"
)

// Cursor is the Go type behind the GraphQL Cursor scalar.
type Cursor = entgql.Cursor[string]

// DefaultTTL is how long an issued cursor can be used.
const DefaultTTL = time.Hour

var tokenPattern = regexp.MustCompile(`^[0-9A-Za-z]{24}\.[0-9]{1,3}$`)

// MarshalCursor writes a sealed cursor's token.
func MarshalCursor(c Cursor) graphql.Marshaler {
	return graphql.WriterFunc(func(w io.Writer) {
		_, _ = io.WriteString(w, strconv.Quote(c.ID))
	})
}

// UnmarshalCursor reads a token. Only its form is checked here; Open checks
// everything else once the connection's filters are known.
func UnmarshalCursor(v any) (Cursor, error) {
	s, ok := v.(string)
	if !ok || !tokenPattern.MatchString(s) {
		return Cursor{}, errors.New("malformed cursor: use a cursor exactly as a connection returned it")
	}
	return Cursor{ID: s}, nil
}

// Store issues and opens cursors.
type Store struct {
	rdb redis.UniversalClient
	ttl time.Duration
}

// New returns a store keeping cursors for DefaultTTL.
func New(rdb redis.UniversalClient) *Store { return &Store{rdb: rdb, ttl: DefaultTTL} }

// WithTTL returns a copy with another lifetime (tests shorten it).
func (s *Store) WithTTL(ttl time.Duration) *Store { c := *s; c.ttl = ttl; return &c }

type record struct {
	Merchant string `json:"m"`
	Binding  string `json:"b"`
	Position string `json:"p"` // the entgql cursor in its own encoding
}

// Binding identifies a query: the connection and its filters and order.
func Binding(connection string, where, orderBy any) string {
	h := sha256.New()
	h.Write([]byte(connection))
	for _, v := range []any{where, orderBy} {
		h.Write([]byte{0})
		canonical(h, reflect.ValueOf(v))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// gqlMarshaler is how ent's order fields and enums spell themselves.
type gqlMarshaler interface{ MarshalGQL(io.Writer) }

// canonical writes a value's content (not its addresses) for hashing: ent
// where-inputs and orders hold pointers, functions and unexported state
// that encoding/json cannot or should not see.
func canonical(w io.Writer, v reflect.Value) {
	if !v.IsValid() {
		_, _ = io.WriteString(w, "null")
		return
	}
	if v.CanInterface() {
		if m, ok := v.Interface().(gqlMarshaler); ok && (v.Kind() != reflect.Pointer || !v.IsNil()) {
			m.MarshalGQL(w)
			return
		}
		if t, ok := v.Interface().(time.Time); ok {
			_, _ = io.WriteString(w, t.UTC().Format(time.RFC3339Nano))
			return
		}
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			_, _ = io.WriteString(w, "null")
			return
		}
		canonical(w, v.Elem())
	case reflect.Struct:
		_, _ = io.WriteString(w, "{")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Type.Kind() == reflect.Func {
				continue
			}
			_, _ = io.WriteString(w, f.Name+":")
			canonical(w, v.Field(i))
			_, _ = io.WriteString(w, ",")
		}
		_, _ = io.WriteString(w, "}")
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Func {
			return
		}
		_, _ = io.WriteString(w, "[")
		for i := 0; i < v.Len(); i++ {
			canonical(w, v.Index(i))
			_, _ = io.WriteString(w, ",")
		}
		_, _ = io.WriteString(w, "]")
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		_, _ = io.WriteString(w, "{")
		for _, k := range keys {
			_, _ = fmt.Fprintf(w, "%v:", k)
			canonical(w, v.MapIndex(k))
			_, _ = io.WriteString(w, ",")
		}
		_, _ = io.WriteString(w, "}")
	case reflect.Func, reflect.Chan:
	default:
		_, _ = fmt.Fprintf(w, "%q", fmt.Sprint(v.Interface()))
	}
}

func scope(ctx context.Context) string {
	p, _ := tenancy.FromContext(ctx)
	if p.MerchantID == "" {
		return "platform"
	}
	return p.MerchantID
}

// key holds one page's cursors; the page token is random (143 bits), and
// the merchant is checked inside the record.
func key(page string) string { return "cur:{" + page + "}" }

// Errors the caller sees.
var (
	errUnknown    = "the cursor has expired or is unknown; request the connection again without after/before"
	errForeign    = "the cursor was issued to another merchant"
	errOtherQuery = "the cursor belongs to a different query: its connection, filters or order changed"
)

// Open turns the tokens of after and before back into positions, after
// checking they were issued to this merchant for this query.
func (s *Store) Open(ctx context.Context, binding string, after, before *Cursor) (*Cursor, *Cursor, error) {
	a, err := s.open(ctx, binding, after)
	if err != nil {
		return nil, nil, err
	}
	b, err := s.open(ctx, binding, before)
	if err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

func (s *Store) open(ctx context.Context, binding string, c *Cursor) (*Cursor, error) {
	if c == nil {
		return nil, nil
	}
	page, n, _ := strings.Cut(c.ID, ".")
	merchant := scope(ctx)
	raw, err := s.rdb.HGet(ctx, key(page), n).Result()
	if errors.Is(err, redis.Nil) {
		return nil, gqlerror.Errorf("%s", errUnknown)
	}
	if err != nil {
		return nil, fmt.Errorf("cursor store unavailable: %w", err)
	}
	var rec record
	if err := json.Unmarshal([]byte(raw), &rec); err != nil {
		return nil, gqlerror.Errorf("%s", errUnknown)
	}
	if rec.Merchant != merchant {
		return nil, gqlerror.Errorf("%s", errForeign)
	}
	if rec.Binding != binding {
		return nil, gqlerror.Errorf("%s", errOtherQuery)
	}
	var pos Cursor
	if err := pos.UnmarshalGQL(rec.Position); err != nil {
		return nil, gqlerror.Errorf("%s", errUnknown)
	}
	return &pos, nil
}

// Seal stores the positions of one page under a fresh token and replaces
// each cursor with its opaque token, in one Redis round trip.
func (s *Store) Seal(ctx context.Context, binding string, cs []*Cursor) error {
	var b Batch
	b.Add(ctx, binding, cs)
	return s.Flush(ctx, &b)
}

// Batch gathers the pages of one request (a root connection and every
// nested one) so that they are stored in one Redis round trip. Its tokens
// are handed out at once; Flush must succeed before any reaches a client.
type Batch struct {
	mu    sync.Mutex
	pages map[string][]any // page token → HSET field/value pairs
}

// Add replaces each cursor with its opaque token and keeps its position
// (bound to the merchant in ctx and to binding) for Flush.
func (b *Batch) Add(ctx context.Context, binding string, cs []*Cursor) {
	merchant := scope(ctx)
	page := ids.Base62(24)
	fields := make([]any, 0, 2*len(cs))
	for i, c := range cs {
		if c == nil {
			continue
		}
		var pos strings.Builder
		c.MarshalGQL(&pos)
		raw, _ := json.Marshal(record{Merchant: merchant, Binding: binding, Position: strings.Trim(pos.String(), `"`)})
		fields = append(fields, strconv.Itoa(i), string(raw))
		*c = Cursor{ID: page + "." + strconv.Itoa(i)}
	}
	if len(fields) == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pages == nil {
		b.pages = map[string][]any{}
	}
	b.pages[page] = fields
}

// Flush stores every page of b, each with the store's lifetime, in one
// round trip, and empties b.
func (s *Store) Flush(ctx context.Context, b *Batch) error {
	b.mu.Lock()
	pages := b.pages
	b.pages = nil
	b.mu.Unlock()
	if len(pages) == 0 {
		return nil
	}
	pipe := s.rdb.Pipeline()
	for page, fields := range pages {
		k := key(page)
		pipe.HSet(ctx, k, fields...)
		pipe.Expire(ctx, k, s.ttl)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("cursor store unavailable: %w", err)
	}
	return nil
}
