package graph_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"switchyard/graph/cursors"
	"switchyard/internal/redisconn"
	"switchyard/internal/tenancy"
	"switchyard/internal/testenv"
	"switchyard/payments"
	"switchyard/payments/merchant"
)

func seedPayments(t *testing.T, srv *testenv.Server, merchantID string, n int) []string {
	t.Helper()
	ctx := tenancy.ForMerchant(tenancy.System(context.Background()), merchantID)
	var out []string
	for i := 0; i < n; i++ {
		v, err := srv.Payments.CreatePayment(ctx, payments.PaymentInput{Amount: int64(100 + i), Currency: "USD"})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v.Intent.ID)
	}
	return out
}

type pageResult struct {
	ids                    []string
	endCursor, startCursor string
	hasNext, hasPrevious   bool
	err                    string
}

func fetchPage(t *testing.T, url, key, args string) pageResult {
	t.Helper()
	_, out := post(t, url, key, `{ paymentIntents(`+args+`) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { id } } } }`)
	if msg := firstError(out); msg != "" {
		return pageResult{err: msg}
	}
	conn := out["data"].(map[string]any)["paymentIntents"].(map[string]any)
	pi := conn["pageInfo"].(map[string]any)
	var res pageResult
	for _, e := range conn["edges"].([]any) {
		res.ids = append(res.ids, e.(map[string]any)["node"].(map[string]any)["id"].(string))
	}
	res.endCursor, _ = pi["endCursor"].(string)
	res.startCursor, _ = pi["startCursor"].(string)
	res.hasNext, _ = pi["hasNextPage"].(bool)
	res.hasPrevious, _ = pi["hasPreviousPage"].(bool)
	return res
}

// TestCursorsPageThroughRedis pages forwards and backwards with opaque
// tokens and refuses tampered, malformed, foreign and re-bound cursors.
func TestCursorsPageThroughRedis(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	key := srv.Demo.SecretKey
	created := seedPayments(t, srv, srv.Demo.MerchantID, 25)

	var seen []string
	args := "first: 10"
	var pages []pageResult
	for i := 0; i < 5; i++ {
		p := fetchPage(t, srv.URL, key, args)
		if p.err != "" {
			t.Fatal(p.err)
		}
		if strings.Contains(p.endCursor, "=") || len(p.endCursor) > 30 {
			t.Fatalf("cursor %q is not an opaque token", p.endCursor)
		}
		pages = append(pages, p)
		seen = append(seen, p.ids...)
		if !p.hasNext {
			break
		}
		args = `first: 10, after: "` + p.endCursor + `"`
	}
	if len(seen) != 25 {
		t.Fatalf("paged through %d payments, want 25", len(seen))
	}
	// Newest first, no duplicates: the reverse of creation order.
	for i, id := range seen {
		if id != created[len(created)-1-i] {
			t.Fatalf("position %d: %s, want %s", i, id, created[len(created)-1-i])
		}
	}
	// Backwards from the last page's start returns the page before it.
	back := fetchPage(t, srv.URL, key, `last: 10, before: "`+pages[2].startCursor+`"`)
	if back.err != "" || strings.Join(back.ids, ",") != strings.Join(pages[1].ids, ",") {
		t.Fatalf("backwards page %v (%s), want %v", back.ids, back.err, pages[1].ids)
	}

	cur := pages[0].endCursor
	// Another valid-looking token: one character changed to another letter.
	swap := byte('a')
	if cur[3] == 'a' {
		swap = 'b'
	}
	tampered := cur[:3] + string(swap) + cur[4:]
	other, err := srv.Merchants.CreateMerchantAccount(tenancy.WithPrincipal(context.Background(), tenancy.Principal{Kind: tenancy.KindAdmin}),
		merchant.MerchantAccountInput{MerchantID: "merchant_other"})
	if err != nil {
		t.Fatal(err)
	}
	_, otherKey, err := srv.Merchants.CreateAPIKey(tenancy.ForMerchant(tenancy.System(context.Background()), other.Merchant.ID), merchant.APIKeyInput{Name: "k"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key, args, want string
	}{
		{"tampered", key, `first: 10, after: "` + tampered + `"`, "expired or is unknown"},
		{"malformed", key, `first: 10, after: "bm90IGEgY3Vyc29y"`, "malformed cursor"},
		{"another merchant", otherKey, `first: 10, after: "` + cur + `"`, "another merchant"},
		{"another filter", key, `first: 10, after: "` + cur + `", where: {amountGT: 5}`, "different query"},
		{"another order", key, `first: 10, after: "` + cur + `", orderBy: [{field: AMOUNT, direction: ASC}]`, "different query"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := fetchPage(t, srv.URL, tc.key, tc.args); !strings.Contains(p.err, tc.want) {
				t.Fatalf("error %q, want %q", p.err, tc.want)
			}
		})
	}
}

// TestCursorsExpire: a cursor past its lifetime is refused.
func TestCursorsExpire(t *testing.T) {
	ctx := context.Background()
	clock := &testenv.Clock{}
	conn, err := redisconn.Open(ctx, testenv.RedisURL(t), redisconn.Embedded{Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	store := cursors.New(conn.Client).WithTTL(time.Minute)
	ctx = tenancy.WithPrincipal(ctx, tenancy.Principal{Kind: tenancy.KindMerchant, MerchantID: "m1"})
	c := &cursors.Cursor{ID: "pay_1", Value: "v"}
	if err := store.Seal(ctx, "b", []*cursors.Cursor{c}); err != nil {
		t.Fatal(err)
	}
	token := *c
	if got, _, err := store.Open(ctx, "b", &token, nil); err != nil || got.ID != "pay_1" {
		t.Fatalf("fresh cursor: %v %v", got, err)
	}
	// The page's key (cur:{page}, the token's part before the dot) holds
	// the store's lifetime. The minute passes: on the embedded Redis its
	// clock moves; a real Redis's cannot, so the key's TTL is cut to 1 ms.
	page, _, _ := strings.Cut(token.ID, ".")
	pageKey := "cur:{" + page + "}"
	if ttl := conn.Client.PTTL(ctx, pageKey).Val(); ttl <= 0 || ttl > time.Minute {
		t.Fatalf("the page's TTL is %v, want the store's minute", ttl)
	}
	if conn.Embedded {
		clock.Advance(time.Minute)
	} else if err := conn.Client.PExpire(ctx, pageKey, time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, _, err := store.Open(ctx, "b", &token, nil)
		if err != nil && strings.Contains(err.Error(), "expired") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("cursor still open after its TTL: %v", err)
		}
		time.Sleep(20 * time.Millisecond) // the embedded Redis's clock moves every 250 ms
	}
}
