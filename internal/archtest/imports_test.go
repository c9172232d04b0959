package archtest

import (
	"slices"
	"strings"
	"testing"
)

// The domain core's layers, lowest first. A domain package may import the
// packages of a lower layer; within the kernel, kernel packages may import
// each other (Go refuses a cycle), but two bounded contexts never import
// each other, and nothing below payments imports it. A new package under
// payments/ must be placed here (a routing package would sit with the
// contexts, importing connector; users and analytics beside them).
var layers = []struct {
	name       string
	packages   []string
	peersShare bool // may packages of this layer import each other
}{
	{"kernel", []string{"payments/errs", "payments/txn", "payments/validate", "payments/cards", "payments/events"}, true},
	{"context", []string{"payments/merchant", "payments/connector", "payments/customer", "payments/routing", "payments/gsm", "payments/blocklist", "payments/cardissuers", "payments/acquirers", "payments/users", "payments/analytics", "payments/files"}, false},
	{"connector call", []string{"payments/connectorcall"}, false},
	{"payment", []string{"payments", "payments/payouts", "payments/authentication", "payments/relay", "payments/threedsdecision"}, false},
	{"billing", []string{"payments/subscriptions"}, false},
	{"inbound", []string{"payments/inbound"}, false},
}

// forbiddenInDomain are what the domain must not know: the front doors, the
// process's wiring, HTTP, Redis and GraphQL. Their adapters live outside
// payments/ and implement interfaces the domain owns.
var forbiddenInDomain = []string{
	"switchyard/rest", "switchyard/graph", "switchyard/webhooks", "switchyard/cmd",
	"switchyard/internal/app", "switchyard/internal/auth", "switchyard/internal/httperr",
	"switchyard/internal/redisconn", "switchyard/internal/redisstore", "switchyard/internal/testenv",
	"net/http", "github.com/redis/go-redis", "github.com/99designs/gqlgen", "github.com/vektah/gqlparser",
}

func layerOf(path string) (int, bool) {
	for i, l := range layers {
		if slices.Contains(l.packages, path) {
			return i, true
		}
	}
	return 0, false
}

func hasPrefixPath(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}

// TestDomainImportsRunOneWay: front doors → domain → ent, never back; the
// contexts stand side by side; the kernel imports no context.
func TestDomainImportsRunOneWay(t *testing.T) {
	for _, p := range listPackages(t) {
		path := rel(p.ImportPath)
		if !hasPrefixPath(path, "payments") {
			continue
		}
		from, ok := layerOf(path)
		if !ok {
			t.Errorf("%s is not in a layer: add it to layers in imports_test.go (and to the package map in docs/architecture.md)", path)
			continue
		}
		for _, imp := range p.Imports {
			for _, f := range forbiddenInDomain {
				if hasPrefixPath(imp, f) {
					t.Errorf("%s imports %s: the domain must not know it", path, imp)
				}
			}
			if !hasPrefixPath(imp, module+"/payments") {
				continue
			}
			to, _ := layerOf(rel(imp))
			switch {
			case to > from:
				t.Errorf("%s (%s) imports %s (%s): imports run down the layers only",
					path, layers[from].name, rel(imp), layers[to].name)
			case to == from && !layers[from].peersShare:
				t.Errorf("%s imports %s: two %s packages must not import each other", path, rel(imp), layers[from].name)
			}
		}
	}
}

// TestOnlyTheWiringImportsTheFrontDoors: rest and graph are imported by the
// process's wiring and its tests' helpers, by nothing else (and not by each
// other).
func TestOnlyTheWiringImportsTheFrontDoors(t *testing.T) {
	allowed := []string{"internal/app", "internal/testenv", "internal/tools/schemaexport"}
	for _, p := range listPackages(t) {
		path := rel(p.ImportPath)
		for _, door := range []string{"rest", "graph"} {
			if hasPrefixPath(path, door) {
				continue
			}
			for _, imp := range p.Imports {
				if hasPrefixPath(imp, module+"/"+door) && !slices.Contains(allowed, path) {
					t.Errorf("%s imports %s: only the wiring (%s) may", path, imp, strings.Join(allowed, ", "))
				}
			}
		}
	}
}

// frontDoors are the packages that turn requests into domain calls and
// domain results into answers. graph/cursors is not one: it is the
// GraphQL layer's own store, its connection cursors in Redis (a cursor is
// a GraphQL idea, not the domain's).
var frontDoors = []string{"rest", "graph"}

var frontDoorStores = []string{"graph/cursors"}

// storesAndDrivers are what only the wiring (internal/app) and the domain's
// adapters may hold: a front door reaches the database and Redis through
// the domain, never by a driver or a store of its own. graph's entgql
// connections build their queries with ent's generated code, which is not
// listed: ent is the domain's model, read by both doors.
var storesAndDrivers = []string{
	"database/sql", "github.com/go-sql-driver/mysql", "modernc.org/sqlite", "github.com/redis/go-redis",
	"switchyard/internal/store", "switchyard/internal/redisconn", "switchyard/internal/redisstore",
}

// TestFrontDoorsReachStoresThroughTheDomain: rest and graph import no
// database or Redis driver and none of the process's stores.
func TestFrontDoorsReachStoresThroughTheDomain(t *testing.T) {
	for _, p := range listPackages(t) {
		path := rel(p.ImportPath)
		door := slices.ContainsFunc(frontDoors, func(d string) bool { return hasPrefixPath(path, d) })
		if !door || slices.Contains(frontDoorStores, path) {
			continue
		}
		for _, imp := range p.Imports {
			for _, f := range storesAndDrivers {
				if hasPrefixPath(imp, f) {
					t.Errorf("%s imports %s: a front door reaches the database and Redis through the domain", path, imp)
				}
			}
		}
	}
}
