package rest_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// Every method+path of Hyperswitch's v1 document means something here:
// TestEveryV1PathIsServed sends each one (and the extra routes below, which
// the document leaves out) and fails on any that answers as if Switchyard
// did not know it (404 IR_02 or 405), unless it is one of the documented
// not-supported operations, which must answer 501 IR_00 instead. A route
// registered for another path that happens to match (GET
// /disputes/{dispute_id} answering /disputes/filter with "dispute not
// found") does not count: each documented operation must also be in GET
// /openapi.json, which lists only the operations a route was registered
// for, segment by segment.

// notSupportedV1 are the operations that cannot mean anything in a
// self-hosted Switchyard, with the reason; docs/rest.md's "Not supported"
// table lists the same ones.
var notSupportedV1 = map[string]string{
	"POST /accounts/{account_id}/kv": "toggles Hyperswitch's internal key-value store",
	"POST /user/create_platform":     "needs platform organizations and connected merchants",
}

// extraV1Paths are routes Hyperswitch serves that its v1 document does not
// list.
var extraV1Paths = []string{
	"POST /webhooks/{merchant_id}/{merchant_connector_id}",
	"POST /files", "GET /files/{file_id}", "DELETE /files/{file_id}",
}

// v1Operations are the v1 document's method+paths ("POST /payments"),
// sorted, with the extras.
func v1Operations(t *testing.T) []string {
	t.Helper()
	contract, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, path := range contract.docs[0].Paths.InMatchingOrder() {
		for method := range contract.docs[0].Paths.Value(path).Operations() {
			out = append(out, strings.ToUpper(method)+" "+path)
		}
	}
	for _, op := range extraV1Paths {
		if !slices.Contains(out, op) {
			out = append(out, op)
		}
	}
	sort.Strings(out)
	return out
}

var anyPathParam = regexp.MustCompile(`\{[^}]+\}`)

func TestEveryV1PathIsServed(t *testing.T) {
	c := newClient(t)
	w := newWalkTarget(t, c)
	ops := v1Operations(t)
	if len(ops) < 140 {
		t.Fatalf("only %d operations in the v1 document", len(ops))
	}
	if len(notSupportedV1) > 10 {
		t.Fatalf("%d operations are not supported: at most 10 may be", len(notSupportedV1))
	}
	var served struct {
		Paths map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(c.do("GET", "/openapi.json", "", nil).must(t, 200).Raw, &served); err != nil {
		t.Fatal(err)
	}
	for _, op := range ops {
		method, path, _ := strings.Cut(op, " ")
		_, unsupported := notSupportedV1[op]
		if _, listed := served.Paths[path][strings.ToLower(method)]; !listed && !unsupported && !slices.Contains(extraV1Paths, op) {
			t.Errorf("%s has no route registered for its path (GET /openapi.json does not list it)", op)
		}
		target := documentedOperation{doc: "v1", method: method, path: path}
		url := anyPathParam.ReplaceAllString(w.url(target, w.payments[paymentState(path)]), "unknown_id")
		var body any
		if method != "GET" && method != "DELETE" {
			body = map[string]any{}
		}
		r := w.send(target, url, body)
		switch {
		case unsupported && (r.Status != 501 || r.errCode() != "IR_00"):
			t.Errorf("%s is listed as not supported but answers %d: %s", op, r.Status, r.Raw)
		case !unsupported && notServed(r):
			t.Errorf("%s is not served: %d %s", op, r.Status, r.Raw)
		}
	}
	for op := range notSupportedV1 {
		if !slices.Contains(ops, op) {
			t.Errorf("%s is listed as not supported but is no v1 operation", op)
		}
	}
}

// TestNotSupportedListIsDocumented: docs/rest.md's "Not supported" table
// lists exactly the operations notSupportedV1 does.
func TestNotSupportedListIsDocumented(t *testing.T) {
	raw, err := os.ReadFile("../docs/rest.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(raw), "\n## Not supported\n")
	if !ok {
		t.Fatal(`docs/rest.md has no "## Not supported" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([A-Z]+ [^`]+)` \\|")
	var documented []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	var listed []string
	for op := range notSupportedV1 {
		listed = append(listed, op)
	}
	sort.Strings(documented)
	sort.Strings(listed)
	if !slices.Equal(documented, listed) {
		t.Fatalf("docs/rest.md lists %q as not supported, the test %q", documented, listed)
	}
}
