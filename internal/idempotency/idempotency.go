// Package idempotency keeps Idempotency-Key records in Redis, following the
// IETF httpapi draft (docs/rest.md): the first request with a key
// takes a lease (SET NX with a lock TTL); a retry while it runs is refused
// (in flight); a retry after it finished replays the stored response for
// 24 h; the same key with another payload is refused. The lease is finished
// with compare-and-set, so a request whose lease expired cannot overwrite
// the record of the one that took it over. Keys live under one hash tag per
// merchant and key, so the scripts work on Redis Cluster.
package idempotency

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/strictjson"
)

// Errors a caller maps onto the wire.
var (
	// ErrInFlight: a request with this key is still running (409).
	ErrInFlight = errors.New("idempotency: a request with this key is still in progress")
	// ErrMismatch: the key was used with another payload (422).
	ErrMismatch = errors.New("idempotency: the key was already used with a different request")
	// ErrUnavailable: Redis cannot be reached; nothing may change (503).
	ErrUnavailable = errors.New("idempotency: the key store is unavailable")
	// ErrInvalidKey: the key is empty, too long or not printable ASCII (400).
	ErrInvalidKey = errors.New("idempotency: the key must be 1 to 255 printable ASCII characters")
)

// Defaults of a Store.
const (
	DefaultLockTTL = 60 * time.Second
	DefaultKeepFor = 24 * time.Hour
)

// Response is a finished response, as it is replayed.
type Response struct {
	Status int
	Header map[string]string
	Body   []byte
}

// storedResponse is a Response as its record keeps it.
type storedResponse struct {
	Status int               `json:"status"`
	Header map[string]string `json:"header,omitempty"`
	// Body is a body that is not JSON, in base64 (encoding/json's []byte).
	Body []byte `json:"body"`
	// JSONSpace is the white space after JSON (a newline), which decoding
	// JSON drops. It goes before JSON, which the record ends with.
	JSONSpace string `json:"json_space,omitempty"`
	// JSON is a body that is JSON, kept as it is (Body then is empty):
	// base64 would make each kept response a third larger, and encode and
	// decode it on every request.
	JSON json.RawMessage `json:"json,omitempty"`
}

// response is the stored response as it is replayed.
func (r *storedResponse) response() *Response {
	body := r.Body
	if len(r.JSON) > 0 {
		body = append(r.JSON, r.JSONSpace...)
	}
	return &Response{Status: r.Status, Header: r.Header, Body: body}
}

type record struct {
	State       string          `json:"state"` // "in_flight" or "done"
	Fingerprint string          `json:"fingerprint"`
	Token       string          `json:"token"`
	Response    *storedResponse `json:"response,omitempty"`
}

// Store keeps the records.
type Store struct {
	rdb     redis.UniversalClient
	hash    Hasher
	lockTTL time.Duration
	keepFor time.Duration
	// prefetch queues reads the leased operation will need in the lease's
	// own round trip (WithPrefetch).
	prefetch Prefetch
}

// Prefetch queues on p the reads an operation of merchantID will need,
// and returns what puts their answers into the operation's context (it
// must leave the context as it is when an answer is missing).
type Prefetch func(ctx context.Context, p redis.Pipeliner, merchantID string) func(context.Context) context.Context

// WithPrefetch returns a copy whose leases (BeginFor) also run f's reads
// in the same round trip to Redis.
func (s *Store) WithPrefetch(f Prefetch) *Store {
	c := *s
	c.prefetch = f
	return &c
}

// Hasher is the keyed hash fingerprints are made with (secrets.Box): with
// no key, a stored fingerprint of a card payment would give the card
// number and CVC away to a brute force of a few million guesses.
type Hasher interface {
	Fingerprint(parts ...string) string
}

// New returns a store with the default lock TTL and retention.
func New(rdb redis.UniversalClient, hash Hasher) *Store {
	return &Store{rdb: rdb, hash: hash, lockTTL: DefaultLockTTL, keepFor: DefaultKeepFor}
}

// WithTTLs returns a copy with other TTLs (tests compress them).
func (s *Store) WithTTLs(lockTTL, keepFor time.Duration) *Store {
	c := *s
	c.lockTTL, c.keepFor = lockTTL, keepFor
	return &c
}

// Fingerprint identifies a request's payload, the operation and its body,
// by a keyed hash, over the body with every card number and CVC already
// replaced by a keyed hash of its own (so two requests with other cards
// still differ). A JSON body is hashed in canonical form (members sorted):
// the same request however its members are ordered.
func (s *Store) Fingerprint(operation string, body []byte) string {
	card := func(v string) string { return "card:" + s.hash.Fingerprint("idempotency card", v) }
	return s.hash.Fingerprint("idempotency request", operation, string(withoutCardData(body, card)))
}

// cardMembers are the members that hold card data, named as REST
// (card_number, card_cvc) or GraphQL (cardNumber, cardCvc) writes them,
// lower case and without underscores: a card's, and a gift card's number
// and PIN or a bank account's number or IBAN, which are kept no more than
// a card's.
var cardMembers = map[string]bool{"cardnumber": true, "cardcvc": true, "cvc": true, "cardcvv": true, "cvv": true,
	"cvv2": true, "pin": true, "number": true, "accountnumber": true, "iban": true}

// withoutCardData is body with card numbers and CVCs replaced by hash of
// them: in a JSON body the values of card members, in anything else every
// run of 12 or more digits (a card number, spaced or not).
func withoutCardData(body []byte, hash func(string) string) []byte {
	// strictjson reads a body as encoding/json does, faster; what it refuses
	// (a member given twice) goes to encoding/json, which keeps the last.
	v, err := strictjson.Parse(body, strictjson.MaxNesting)
	if err != nil {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil || dec.More() {
			return digitRuns.ReplaceAllFunc(body, func(run []byte) []byte { return []byte(hash(string(run))) })
		}
	}
	out, err := json.Marshal(replaceCards(v, hash))
	if err != nil {
		return digitRuns.ReplaceAllFunc(body, func(run []byte) []byte { return []byte(hash(string(run))) })
	}
	return out
}

var digitRuns = regexp.MustCompile(`[0-9][0-9 -]{10,}[0-9]`)

func replaceCards(v any, hash func(string) string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if cardMembers[strings.ReplaceAll(strings.ToLower(k), "_", "")] {
				if s, ok := child.(string); ok {
					t[k] = hash(s)
					continue
				}
				if n, ok := child.(json.Number); ok {
					t[k] = hash(n.String())
					continue
				}
			}
			t[k] = replaceCards(child, hash)
		}
	case []any:
		for i, child := range t {
			t[i] = replaceCards(child, hash)
		}
	}
	return v
}

// ValidKey reports whether key is acceptable.
func ValidKey(key string) bool {
	if key == "" || len(key) > 255 {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return false
		}
	}
	return true
}

func redisKey(scope, key string) string { return "idem:{" + scope + ":" + key + "}" }

// Lease is held by the request that took the key.
type Lease struct {
	store *Store
	key   string
	token string
	fp    string
	// prepare puts the prefetched answers into the operation's context.
	prepare func(context.Context) context.Context
}

// Context is ctx with what the lease's round trip prefetched for the
// operation (WithPrefetch), if anything.
func (l *Lease) Context(ctx context.Context) context.Context {
	if l.prepare == nil {
		return ctx
	}
	return l.prepare(ctx)
}

// Begin takes the key for scope (the merchant). It returns a lease for a new
// request, or the stored response for a finished one (replay), or one of the
// errors above.
func (s *Store) Begin(ctx context.Context, scope, key, fingerprint string) (*Lease, *Response, error) {
	return s.BeginFor(ctx, "", scope, key, fingerprint)
}

// BeginFor is Begin for an operation of merchantID: the first attempt to
// take the key also runs the store's prefetched reads for that merchant,
// in one round trip (a payment's first Redis call then answers its
// configuration version too).
func (s *Store) BeginFor(ctx context.Context, merchantID, scope, key, fingerprint string) (*Lease, *Response, error) {
	if !ValidKey(key) {
		return nil, nil, ErrInvalidKey
	}
	rk := redisKey(scope, key)
	token, err := newToken()
	if err != nil {
		return nil, nil, err
	}
	raw, _ := json.Marshal(record{State: "in_flight", Fingerprint: fingerprint, Token: token})
	for attempt := 0; attempt < 3; attempt++ {
		ok, prepare, err := s.take(ctx, rk, raw, merchantID, attempt == 0)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		if ok {
			return &Lease{store: s, key: rk, token: token, fp: fingerprint, prepare: prepare}, nil, nil
		}
		got, err := s.rdb.Get(ctx, rk).Bytes()
		if errors.Is(err, redis.Nil) {
			continue // it expired between the two calls: try to take it again
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		var rec record
		if err := json.Unmarshal(got, &rec); err != nil {
			return nil, nil, fmt.Errorf("idempotency: corrupt record %s: %w", rk, err)
		}
		switch {
		case rec.Fingerprint != fingerprint:
			return nil, nil, ErrMismatch
		case rec.State == "done" && rec.Response != nil:
			return nil, rec.Response.response(), nil
		default:
			return nil, nil, ErrInFlight
		}
	}
	return nil, nil, ErrInFlight
}

// take is SET NX of the lease record, with the prefetched reads beside it
// in one pipeline when asked for and configured.
func (s *Store) take(ctx context.Context, rk string, raw []byte, merchantID string, withPrefetch bool) (bool, func(context.Context) context.Context, error) {
	if s.prefetch == nil || merchantID == "" || !withPrefetch {
		ok, err := s.rdb.SetNX(ctx, rk, raw, s.lockTTL).Result()
		return ok, nil, err
	}
	var (
		set     *redis.BoolCmd
		prepare func(context.Context) context.Context
	)
	// The reads' own misses (redis.Nil) are theirs to judge: only the
	// lease's error counts here.
	_, _ = s.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		set = p.SetNX(ctx, rk, raw, s.lockTTL)
		prepare = s.prefetch(ctx, p, merchantID)
		return nil
	})
	ok, err := set.Result()
	return ok, prepare, err
}

// finish replaces the record only while the lease is still ours.
var finish = redis.NewScript(`
local cur = redis.call('GET', KEYS[1])
if not cur then return 0 end
local ok, rec = pcall(cjson.decode, cur)
if not ok or rec.token ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[1])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1`)

// Complete stores the response for replay. It reports false when the lease
// had expired and another request took the key.
func (l *Lease) Complete(ctx context.Context, resp Response) (bool, error) {
	raw, err := doneRecord(l.fp, l.token, resp)
	if err != nil {
		return false, err
	}
	n, err := finish.Run(context.WithoutCancel(ctx), l.store.rdb, []string{l.key},
		l.token, raw, l.store.keepFor.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return n == 1, nil
}

// Release gives the key up without a response (the request failed in a way
// that may be retried), so the next request with it runs afresh.
func (l *Lease) Release(ctx context.Context) error {
	_, err := finish.Run(context.WithoutCancel(ctx), l.store.rdb, []string{l.key}, l.token, "", 0).Int()
	return err
}

// doneRecord is the record of a finished request. A JSON body is written
// into it as it is: through json.Marshal, a json.RawMessage would be
// compacted and its <, > and & escaped, and a replay must give the bytes
// the first answer gave.
func doneRecord(fingerprint, token string, resp Response) ([]byte, error) {
	stored := storedResponse{Status: resp.Status, Header: resp.Header, Body: resp.Body}
	body := bytes.TrimRight(resp.Body, " \t\r\n")
	if len(body) == 0 || body[0] != '{' && body[0] != '[' || !json.Valid(body) {
		return json.Marshal(record{State: "done", Fingerprint: fingerprint, Token: token, Response: &stored})
	}
	stored.JSONSpace = string(resp.Body[len(body):])
	stored.Body, stored.JSON = nil, json.RawMessage("null") // a placeholder, replaced below
	head, err := json.Marshal(record{State: "done", Fingerprint: fingerprint, Token: token, Response: &stored})
	if err != nil {
		return nil, err
	}
	const tail = `"json":null}}`
	if !bytes.HasSuffix(head, []byte(tail)) {
		return nil, fmt.Errorf("idempotency: unexpected record layout %q", head)
	}
	out := make([]byte, 0, len(head)+len(body))
	out = append(out, head[:len(head)-len(`null}}`)]...)
	out = append(out, body...)
	return append(out, "}}"...), nil
}

func newToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}
