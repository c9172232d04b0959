package rest_test

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"flag"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// client calls the REST API of a test server.
type client struct {
	t   *testing.T
	srv *testenv.Server
	// uncheckedAnswers skips the contract check of answers (recordContract).
	uncheckedAnswers bool
}

func newClient(t *testing.T) *client {
	t.Helper()
	return &client{t: t, srv: testenv.NewServer(t, testenv.Database(t))}
}

// newClientOnRedis serves on a Redis server of the test's own, which it can
// stop and start (the server's logs are dropped: they fill with its outage).
func newClientOnRedis(t *testing.T, redis *testenv.PrivateRedis) *client {
	t.Helper()
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL = redis.URL()
	cfg.RedisEmbedded = false
	return &client{t: t, srv: testenv.NewServerWith(t, cfg, slog.New(slog.NewJSONHandler(io.Discard, nil)))}
}

func (c *client) admin() string { return c.srv.Config.AdminAPIKey }

// response is a decoded reply.
type response struct {
	Status int
	Header http.Header
	Raw    []byte
	Body   any
}

func (r response) obj() map[string]any {
	m, _ := r.Body.(map[string]any)
	return m
}

func (r response) str(path ...string) string {
	var v any = r.Body
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[p]
	}
	s, _ := v.(string)
	return s
}

// errCode is the envelope's error.code.
func (r response) errCode() string { return r.str("error", "code") }

// do sends body (a string is sent as is, anything else as JSON) with key in
// the api-key header.
func (c *client) do(method, path, key string, body any) response {
	c.t.Helper()
	return c.doWith(method, path, key, body, nil)
}

// doWith is do with extra request headers.
func (c *client) doWith(method, path, key string, body any, headers map[string]string) response {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		raw, err := json.Marshal(b)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.srv.URL+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("api-key", key)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	return c.send(req)
}

// send sends req and decodes the reply.
func (c *client) send(req *http.Request) response {
	c.t.Helper()
	method, path := req.Method, req.URL.Path
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := response{Status: resp.StatusCode, Header: resp.Header, Raw: raw}
	if !c.uncheckedAnswers {
		recordContract(c.t, method, path, resp.StatusCode, resp.Header, raw)
	}
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out.Body); err != nil {
			c.t.Fatalf("%s %s: body is not JSON: %q", method, path, raw)
		}
	}
	return out
}

// must fails the test unless the reply has the status.
func (r response) must(t *testing.T, status int) response {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d: %s", r.Status, status, r.Raw)
	}
	return r
}

// storedValue is one column of one row of the test database, as text.
type storedValue struct {
	table, column string
	value         []byte
}

// dumpDatabase reads every column of every row of every table of the test
// server's database (SQLite or MySQL).
func dumpDatabase(t *testing.T, c *client) []storedValue {
	t.Helper()
	db := c.srv.Store.DB
	q := "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
	if c.srv.Store.Dialect != "mysql" {
		q = "SELECT name FROM sqlite_master WHERE type = 'table'"
	}
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 10 {
		t.Fatalf("only %d tables found", len(tables))
	}
	var out []storedValue
	for _, table := range tables {
		rows, err := db.Query("SELECT * FROM `" + table + "`")
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]sql.RawBytes, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			for i, v := range vals {
				out = append(out, storedValue{table: table, column: cols[i], value: bytes.Clone(v)})
			}
		}
		rows.Close()
	}
	return out
}

var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z`), "<timestamp>"},
	{regexp.MustCompile(`"(snd|pk_snd)_[A-Za-z0-9]+"`), `"<$1 key>"`},
	{regexp.MustCompile(`"(pro|mca|key|pay|ref|cus|evt|pm|man|dp)_[A-Za-z0-9]{24}"`), `"<$1 id>"`},
	{regexp.MustCompile(`"snd_[A-Za-z0-9]{4}`), `"<prefix>`},
	{regexp.MustCompile(`"org_[A-Za-z0-9]{20}"`), `"<org id>"`},
	// Generated hash keys only: one a test sets keeps its value.
	{regexp.MustCompile(`"payment_response_hash_key": "[A-Za-z0-9]{64}"`), `"payment_response_hash_key": "<hash key>"`},
}

// golden compares a reply's JSON, indented, with ids, keys, generated hash
// keys and times replaced by placeholders, to testdata/<name>.golden.json; -update rewrites it.
func golden(t *testing.T, name string, raw []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	pretty, _ := json.MarshalIndent(v, "", "  ")
	got := string(pretty)
	for _, r := range volatile {
		got = r.re.ReplaceAllString(got, r.with)
	}
	got += "\n"
	path := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./rest -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, path, got)
	}
}

// twoProcesses are two servers on one database and one Redis of their own
// (not the in-process one, which each would have to itself), as two
// processes behind a load balancer.
func twoProcesses(t *testing.T) (one, two *client) {
	t.Helper()
	redis := testenv.StartRedis(t)
	cfg := testenv.Config(t, testenv.Database(t))
	cfg.RedisURL, cfg.RedisEmbedded = redis.URL(), false
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	one = &client{t: t, srv: testenv.NewServerWith(t, cfg, log)}
	cfg2 := *cfg
	two = &client{t: t, srv: testenv.NewServerWith(t, &cfg2, log)}
	return one, two
}
