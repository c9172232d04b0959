package rest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

// TestOnRedisCluster: two API processes on one database and a Redis Cluster
// (SWITCHYARD_TEST_REDIS_CLUSTER; CI starts one) serve what Redis holds as
// they do on one server: an Idempotency-Key raced across both makes one
// payment and is replayed by either; a routing change on one reroutes the
// other's next payment, and outcomes recorded through one eliminate a
// connector for the other; an API key cached by one and revoked through the
// other is refused by both; GraphQL pages (a root connection and nested
// ones, stored in one pipeline that spans slots) are opened by the other
// process and agree with the REST list (whose object-id cursors are read
// from the database). A script or transaction spanning slots fails with
// CROSSSLOT, which one of these checks sees (the key cache, say, falls back
// to the database, but then holds no entry). Last, every key the test
// knows it wrote is looked for on every master: each is on exactly one,
// one profile's routing keys share one, and the idempotency records were
// chosen to reach every master, so the test cannot pass on a single node
// by accident.
func TestOnRedisCluster(t *testing.T) {
	clusterURL := testenv.RedisClusterURL(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL, cfg.RedisEmbedded = clusterURL, false
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	one := &client{t: t, srv: testenv.NewServerWith(t, cfg, log)}
	cfg2 := *cfg
	two := &client{t: t, srv: testenv.NewServerWith(t, &cfg2, log)}
	cc := one.srv.Redis.Cluster()
	if cc == nil {
		t.Fatalf("%s opened one Redis server, not a cluster", cfg.RedisURL)
	}
	masters := clusterMasters(t, cc)
	if len(masters) < 2 {
		t.Fatalf("the cluster has %d master(s): a test on one proves nothing", len(masters))
	}
	id := "merchant_cluster_" + strings.ToLower(ids.Base62(8))
	m := newRoutedMerchant(t, one, id)
	var written []string // the Redis keys the requests left, looked for on every master at the end

	t.Run("idempotency", func(t *testing.T) {
		written = append(written, clusterIdempotency(t, one, two, cc, masters, id, m.key)...)
	})
	t.Run("routing", func(t *testing.T) {
		written = append(written, clusterRouting(t, one, two, m, id)...)
	})
	t.Run("api key cache", func(t *testing.T) {
		written = append(written, clusterKeyCache(t, one, two, cc, id)...)
	})
	t.Run("pagination", func(t *testing.T) {
		written = append(written, clusterPagination(t, one, two, m.key)...)
	})

	where := testenv.RedisKeysByMaster(t, cc, "*")
	perMaster := map[string]int{}
	holder := map[string]string{}
	for _, k := range written {
		var on []string
		for addr, keys := range where {
			if _, found := slices.BinarySearch(keys, k); found {
				on = append(on, addr)
			}
		}
		if len(on) != 1 {
			t.Errorf("key %s found on %d masters (%v), want 1", k, len(on), on)
			continue
		}
		perMaster[on[0]]++
		holder[k] = on[0]
	}
	profileKeys := map[string]bool{}
	for k, addr := range holder {
		if strings.HasPrefix(k, "routing:{"+m.profileID+"}") {
			profileKeys[addr] = true
		}
	}
	if len(profileKeys) != 1 {
		t.Errorf("one profile's routing keys are on %d masters, want 1 (one hash tag)", len(profileKeys))
	}
	if len(perMaster) != len(masters) {
		t.Fatalf("the %d keys written are on %d of the %d masters: %v", len(written), len(perMaster), len(masters), perMaster)
	}
	t.Logf("%d keys written, per master: %v", len(written), perMaster)
}

// clusterMasters are the addresses of the cluster's masters.
func clusterMasters(t *testing.T, cc *redis.ClusterClient) []string {
	t.Helper()
	var mu sync.Mutex
	var out []string
	if err := cc.ForEachMaster(context.Background(), func(_ context.Context, node *redis.Client) error {
		mu.Lock()
		defer mu.Unlock()
		out = append(out, node.Options().Addr)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// masterOf is the address of the master serving key's slot.
func masterOf(t *testing.T, cc *redis.ClusterClient, key string) string {
	t.Helper()
	node, err := cc.MasterForKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return node.Options().Addr
}

// clusterIdempotency races one key across both processes (one payment,
// replayed by either), then pays with keys chosen so that every master
// holds two of their records, each replayed by the other process. It
// answers the records' keys.
func clusterIdempotency(t *testing.T, one, two *client, cc *redis.ClusterClient, masters []string, merchantID, key string) []string {
	// The record's key, as internal/idempotency names it: one per merchant
	// and Idempotency-Key, in a slot of its own.
	record := func(k string) string { return "idem:{" + merchantID + ":" + k + "}" }
	body := payment(map[string]any{"confirm": true, "payment_method_data": card("4242424242424242")})
	raw, _ := json.Marshal(body)

	raced := runKey("cluster-race")
	before := countPayments(t, one)
	const n = 40
	race := raceOneKey(t, []string{one.srv.URL, two.srv.URL}, key, raced, raw, n)
	if got := countPayments(t, one) - before; got != 1 {
		t.Fatalf("%d payments made by %d requests with one key on two processes", got, n)
	}
	race.mustBeOne(t, n)
	first := slices.Collect(maps.Keys(race.ids))[0]
	for _, c := range []*client{one, two} {
		r := c.doWith("POST", "/payments", key, raw, map[string]string{"Idempotency-Key": raced}).must(t, 200)
		if r.Header.Get("Idempotent-Replayed") != "true" || r.str("payment_id") != first {
			t.Fatalf("replay after the race: %s", r.Raw)
		}
	}

	keys, perMaster := []string{raced}, map[string]int{}
	short := func(addr string) bool { return perMaster[addr] < 2 }
	for tries := 0; slices.ContainsFunc(masters, short); tries++ {
		if tries == 1000 {
			t.Fatalf("no keys for every master: %v", perMaster)
		}
		k := runKey("cluster")
		if addr := masterOf(t, cc, record(k)); short(addr) {
			perMaster[addr]++
			keys = append(keys, k)
		}
	}
	for i, k := range keys[1:] {
		by, other := one, two
		if i%2 == 1 {
			by, other = two, one
		}
		made := by.doWith("POST", "/payments", key, raw, map[string]string{"Idempotency-Key": k}).must(t, 200)
		again := other.doWith("POST", "/payments", key, raw, map[string]string{"Idempotency-Key": k}).must(t, 200)
		if again.Header.Get("Idempotent-Replayed") != "true" || string(again.Raw) != string(made.Raw) {
			t.Fatalf("key %s replayed by the other process: %s\nwant %s", k, again.Raw, made.Raw)
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = record(k)
	}
	return out
}

// clusterRouting: a routing change made through one process reroutes the
// other's next payment (the profile's routing version), and failures
// recorded through one eliminate the connector for the other (the
// profile's outcome lists). It answers the profile's routing keys.
func clusterRouting(t *testing.T, one, two *client, m routedMerchant, merchantID string) []string {
	if got := m.connectorOf(t, two); got != "stripe_test" {
		t.Fatalf("no routing: %s", got)
	}
	single := m.configure(t, one, "adyen only", map[string]any{"type": "single", "data": map[string]any{"connector": "adyen"}})
	one.do("POST", "/routing/"+single+"/activate", m.key, nil).must(t, 200)
	if got := m.connectorOf(t, two); got != "adyen" {
		t.Fatalf("after one activated adyen only, two paid with %s", got)
	}
	one.do("POST", "/routing/deactivate", m.key, map[string]any{"profile_id": m.profileID}).must(t, 200)
	if got := m.connectorOf(t, two); got != "stripe_test" {
		t.Fatalf("after one deactivated it, two paid with %s", got)
	}

	m.eliminatedAcross(t, one, two, merchantID)
	m.setFailureRate(t, one, merchantID, m.stripeID, 0)
	// The keys internal/redisstore names: the outcomes under the profile's
	// hash tag, and the merchant's configuration version that each routing
	// change moved.
	tag := "routing:{" + m.profileID + "}"
	return []string{"config:{" + merchantID + "}:version", tag + ":outcomes", tag + ":outcomes:" + m.stripeID, tag + ":outcomes:" + m.adyenID}
}

// clusterKeyCache: a key used through one process is cached, read from the
// cache by the other, revoked through the other, and refused by both at
// once. It answers the tombstone's key.
func clusterKeyCache(t *testing.T, one, two *client, cc *redis.ClusterClient, merchantID string) []string {
	ctx := context.Background()
	created := one.do("POST", "/api_keys/"+merchantID, one.admin(), map[string]any{"name": "cached", "expiration": "never"}).must(t, 200)
	key, keyID := created.str("api_key"), created.str("key_id")
	profiles := "/account/" + merchantID + "/business_profile"
	one.do("GET", profiles, key, nil).must(t, 200)
	// The entry and its tombstone, as internal/redisstore names them.
	hash := one.srv.Box.HashAPIKey(key)
	entry, tombstone := "apikeys/{"+hash+"}/active", "apikeys/{"+hash+"}/ended"
	if n, err := cc.Exists(ctx, entry).Result(); err != nil || n != 1 {
		t.Fatalf("the key used through one is not cached: %d, %v", n, err)
	}
	two.do("GET", profiles, key, nil).must(t, 200)
	two.do("DELETE", "/api_keys/"+merchantID+"/"+keyID, two.admin(), nil).must(t, 200)
	for name, c := range map[string]*client{"one": one, "two": two} {
		if r := c.do("GET", profiles, key, nil); r.Status != 401 || r.errCode() != "IR_01" {
			t.Fatalf("the revoked key through %s: %d %s", name, r.Status, r.Raw)
		}
	}
	if n, err := cc.Exists(ctx, entry, tombstone).Result(); err != nil || n != 1 {
		t.Fatalf("after the revocation, entry or tombstone: %d exist, %v (want the tombstone only)", n, err)
	}
	if n := cc.Exists(ctx, tombstone).Val(); n != 1 {
		t.Fatal("no tombstone after the revocation")
	}
	return []string{tombstone}
}

// clusterPagination pages through the merchant's payments in GraphQL, each
// page with a nested connection per payment, the pages asked of the two
// processes in turn, and compares them with the REST list paged the same
// way. It answers the keys of the cursor pages it was handed.
func clusterPagination(t *testing.T, one, two *client, key string) []string {
	const query = `query($after: Cursor) { payments(first: 3, after: $after) { totalCount
		pageInfo { hasNextPage endCursor } edges { cursor node { paymentID events(first: 1) { edges { cursor } } } } } }`
	var gql []string
	pages := map[string]bool{} // cursor tokens are "<page>.<n>"; a page's positions are one key
	vars := map[string]any{}
	total := 0
	for i := 0; ; i++ {
		c := []*client{one, two}[i%2]
		conn := c.gqlData(t, key, query, vars)["payments"].(map[string]any)
		total = int(conn["totalCount"].(float64))
		for _, e := range conn["edges"].([]any) {
			edge := e.(map[string]any)
			node := edge["node"].(map[string]any)
			gql = append(gql, node["paymentID"].(string))
			pages[pageOf(edge["cursor"].(string))] = true
			for _, ev := range node["events"].(map[string]any)["edges"].([]any) {
				pages[pageOf(ev.(map[string]any)["cursor"].(string))] = true
			}
		}
		info := conn["pageInfo"].(map[string]any)
		if info["hasNextPage"] != true {
			break
		}
		if i == 50 {
			t.Fatal("GraphQL paging never ended")
		}
		vars = map[string]any{"after": info["endCursor"]}
	}

	var rest []string
	query2 := "limit=3"
	for i := 0; ; i++ {
		_, page := listPage(t, []*client{two, one}[i%2], key, query2, nil)
		rest = append(rest, page...)
		if len(page) < 3 {
			break
		}
		if i == 50 {
			t.Fatal("REST paging never ended")
		}
		query2 = "limit=3&starting_after=" + page[len(page)-1]
	}
	if len(gql) != total || !slices.Equal(gql, rest) {
		t.Fatalf("GraphQL pages (totalCount %d): %v\nREST pages: %v", total, gql, rest)
	}
	if total < 10 {
		t.Fatalf("%d payments: too few to page", total)
	}
	out := make([]string, 0, len(pages))
	for p := range pages {
		out = append(out, fmt.Sprintf("cur:{%s}", p)) // graph/cursors' key of a page
	}
	return out
}

func pageOf(token string) string {
	page, _, _ := strings.Cut(token, ".")
	return page
}
