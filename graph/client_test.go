package graph_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// gql is a small GraphQL client in the manner of gqlgen's: it POSTs a
// query and its variables to the real server with an API key (and any
// headers), and decodes the data into the caller's value.
type gql struct {
	t       testing.TB
	url     string
	key     string
	headers map[string]string
}

func newGQL(t testing.TB, url, key string) gql { return gql{t: t, url: url, key: key} }

// with returns a client that also sends header: value.
func (c gql) with(header, value string) gql {
	h := map[string]string{}
	for k, v := range c.headers {
		h[k] = v
	}
	h[header] = value
	c.headers = h
	return c
}

type gqlError struct {
	Message    string         `json:"message"`
	Path       []any          `json:"path"`
	Extensions map[string]any `json:"extensions"`
}

type gqlResponse struct {
	Status int
	Header http.Header
	Data   json.RawMessage `json:"data"`
	Errors []gqlError      `json:"errors"`
	Raw    string
}

// code is the first error's Hyperswitch code ("" without errors).
func (r gqlResponse) code() string {
	if len(r.Errors) == 0 {
		return ""
	}
	c, _ := r.Errors[0].Extensions["code"].(string)
	return c
}

func (r gqlResponse) message() string {
	if len(r.Errors) == 0 {
		return ""
	}
	return r.Errors[0].Message
}

// decode reads the data into out.
func (r gqlResponse) decode(t testing.TB, out any) {
	t.Helper()
	if err := json.Unmarshal(r.Data, out); err != nil {
		t.Fatalf("decode %s: %v", r.Raw, err)
	}
}

// do sends one operation.
func (c gql) do(query string, vars map[string]any) gqlResponse {
	c.t.Helper()
	out, err := c.send(query, vars)
	if err != nil {
		c.t.Fatal(err)
	}
	return out
}

// send is do for any goroutine: it returns what would fail the test.
func (c gql) send(query string, vars map[string]any) (gqlResponse, error) {
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest(http.MethodPost, c.url+"/graphql", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if c.key != "" {
		req.Header.Set("api-key", c.key)
	}
	for k, v := range c.headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return gqlResponse{}, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	out := gqlResponse{Status: resp.StatusCode, Header: resp.Header, Raw: string(raw)}
	if err := json.Unmarshal(raw, &out); err != nil {
		return out, fmt.Errorf("%d %s: %v", resp.StatusCode, raw, err)
	}
	return out, nil
}

// must sends an operation that must succeed and decodes its data into out.
func (c gql) must(query string, vars map[string]any, out any) {
	c.t.Helper()
	r := c.do(query, vars)
	if len(r.Errors) > 0 || r.Status != http.StatusOK {
		c.t.Fatalf("%s\n→ %d %s", compact(query), r.Status, r.Raw)
	}
	if out != nil {
		r.decode(c.t, out)
	}
}

// fails sends an operation that must fail with code, and returns the error.
func (c gql) fails(code, query string, vars map[string]any) gqlError {
	c.t.Helper()
	r := c.do(query, vars)
	if r.code() != code {
		c.t.Fatalf("%s\n→ want error %s, got %d %s", compact(query), code, r.Status, r.Raw)
	}
	if r.Errors[0].Message == "" || strings.Contains(strings.ToLower(r.Errors[0].Message), "internal") {
		c.t.Fatalf("error without a useful message: %s", r.Raw)
	}
	return r.Errors[0]
}

func compact(q string) string { return strings.Join(strings.Fields(q), " ") }

// at follows a path of object keys through decoded JSON.
func at(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// on returns the client reporting to t (a subtest's).
func (c gql) on(t testing.TB) gql {
	c.t = t
	return c
}
