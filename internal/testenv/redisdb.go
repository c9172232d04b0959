package testenv

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// The real Redis of SWITCHYARD_TEST_REDIS_URL is shared by the test
// processes go test runs side by side, and maybe by the developer's own
// use. So each test process takes a logical database of its own (Main),
// one that is empty or was a test process's before, and empties it when the
// process ends: the suite leaves no key behind, and never touches a
// database it did not make. A process that dies first (a panic, a timeout,
// ^C) stops renewing its lease, and the next test process to start empties
// its database.
const (
	// redisOwnerKey marks a database as the tests': it may be emptied.
	redisOwnerKey = "switchyard-test:owner"
	// redisLeaseKey is held by the test process using the database, which
	// renews it every redisLeaseRenew; it expires when the process is gone.
	redisLeaseKey   = "switchyard-test:lease"
	redisLeaseTTL   = 2 * time.Minute
	redisLeaseRenew = 20 * time.Second
	redisDBs        = 16 // Redis's default number of databases
)

var testRedis struct {
	installed bool // Main runs this process's tests
	once      sync.Once
	url       string // the leased database's URL, or the variable's
	db        *redis.Client
	err       error
	stopRenew func() // ends the lease's renewal
}

// Main runs a package's tests, then empties the Redis database they used,
// removes the binary SwitchyardBinary built and names the tests Skip
// skipped. Every package whose tests use the test Redis or Skip calls it
// from TestMain:
//
//	func TestMain(m *testing.M) { testenv.Main(m) }
func Main(m *testing.M) {
	testRedis.installed = true
	run := joinRun()
	code := m.Run()
	if testRedis.stopRenew != nil {
		testRedis.stopRenew()
	}
	if db := testRedis.db; db != nil {
		ctx := context.Background()
		if err := db.FlushDB(ctx).Err(); err != nil {
			fmt.Fprintf(os.Stderr, "testenv: emptying the test Redis database: %v\n", err)
		}
		_ = db.Close()
	}
	RemoveBinary()
	reportSkips(run)
	os.Exit(code)
}

// RedisURL is SWITCHYARD_TEST_REDIS_URL with this process's own database,
// or "" when the variable is unset (the tests then use an in-process Redis).
// It fails in CI when the variable is unset.
func RedisURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvRedisURL)
	if base == "" {
		if InCI() {
			t.Fatalf("%s must be set in CI", EnvRedisURL)
		}
		return ""
	}
	if !testRedis.installed {
		t.Fatalf("this package's tests use the test Redis: its TestMain must call testenv.Main, which empties the database they used")
	}
	testRedis.once.Do(func() {
		testRedis.url, testRedis.db, testRedis.err = leaseRedisDB(base)
		if testRedis.db != nil {
			testRedis.stopRenew = renewLease(testRedis.db)
		}
	})
	if testRedis.err != nil {
		t.Fatalf("test Redis: %v", testRedis.err)
	}
	return testRedis.url
}

// leaseRedisDB takes a database other than base's that is empty or the
// tests' with no live holder, emptied, and returns its URL. On the way it
// empties every other database a dead test process left.
func leaseRedisDB(base string) (string, *redis.Client, error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", EnvRedisURL, err)
	}
	if q := u.Query(); q.Has("addr") || q.Get("cluster") == "true" {
		return base, nil, nil // a cluster has database 0 only: shared, not emptied
	}
	opts, err := redis.ParseURL(base)
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", EnvRedisURL, err)
	}
	ctx := context.Background()
	token := fmt.Sprintf("%d@%s", os.Getpid(), time.Now().Format(time.RFC3339Nano))
	for range 60 { // every database busy: wait for one, a minute at most
		var taken *redis.Client
		for n := range redisDBs {
			if n == opts.DB {
				continue
			}
			o := *opts
			o.DB = n
			db := redis.NewClient(&o)
			ok, err := takeRedisDB(ctx, db, token)
			if err == nil && ok && taken != nil {
				err = db.FlushDB(ctx).Err() // a dead process's, swept: lease and all
			}
			if err != nil {
				_ = db.Close()
				if taken != nil {
					_ = taken.FlushDB(ctx).Err()
					_ = taken.Close()
				}
				return "", nil, err
			}
			if ok && taken == nil {
				taken = db
				u.Path = "/" + strconv.Itoa(n)
				continue
			}
			_ = db.Close()
		}
		if taken != nil {
			return u.String(), taken, nil
		}
		time.Sleep(time.Second)
	}
	return "", nil, fmt.Errorf("no free database on %s: %d test processes hold them all", base, redisDBs-1)
}

// takeRedisDB leases db when no test process holds it and it is empty or
// the tests' (what a dead process left is emptied).
func takeRedisDB(ctx context.Context, db *redis.Client, token string) (bool, error) {
	ok, err := db.SetNX(ctx, redisLeaseKey, token, redisLeaseTTL).Result()
	if err != nil || !ok {
		return false, err
	}
	owned, err := db.Exists(ctx, redisOwnerKey).Result()
	if err != nil {
		return false, err
	}
	size, err := db.DBSize(ctx).Result()
	if err != nil {
		return false, err
	}
	if owned == 0 && size > 1 { // someone else's data: leave it alone
		return false, db.Del(ctx, redisLeaseKey).Err()
	}
	// Empty what a dead test process left, keeping the lease just taken.
	pipe := db.TxPipeline()
	pipe.FlushDB(ctx)
	pipe.Set(ctx, redisLeaseKey, token, redisLeaseTTL)
	pipe.Set(ctx, redisOwnerKey, "switchyard tests", 0)
	_, err = pipe.Exec(ctx)
	return err == nil, err
}

// renewLease keeps db's lease alive until the returned function is called.
func renewLease(db *redis.Client) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(redisLeaseRenew)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = db.Expire(context.Background(), redisLeaseKey, redisLeaseTTL).Err()
			}
		}
	})
	return func() { close(done); wg.Wait() }
}
