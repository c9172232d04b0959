package rest_test

import (
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
// not-supported operations, which must answer 501 IR_00 instead.

// notSupportedV1 are the operations that cannot mean anything in a
// self-hosted Switchyard, with the reason; docs/rest.md's "Not supported"
// table lists the same ones.
var notSupportedV1 = map[string]string{
	"POST /accounts/{account_id}/kv": "toggles Hyperswitch's internal key-value store",
	"POST /user/create_platform":     "needs platform organizations and connected merchants",
}

// servedByOtherBranchesOfIssue34 are the operations the other branches of
// issue 34 serve. Until they are merged they answer 404 here; the
// integrator deletes this set after merging them.
var servedByOtherBranchesOfIssue34 = map[string]bool{
	// blocklist
	"GET /blocklist": true, "POST /blocklist": true, "DELETE /blocklist": true, "POST /blocklist/toggle": true,
	"POST /blocklist/batch": true, "GET /blocklist/batch": true, "GET /blocklist/batch/{job_id}": true,
	"GET /card_issuers": true, "POST /card_issuers": true, "PUT /card_issuers/{id}": true, "DELETE /card_issuers/{id}": true,
	"GET /profile_acquirers": true, "POST /profile_acquirers": true, "POST /profile_acquirers/{profile_id}/{profile_acquirer_id}": true,
	"POST /three_ds_decision/execute": true,
	// evidence
	"POST /disputes/evidence": true, "PUT /disputes/evidence": true, "DELETE /disputes/evidence": true,
	"GET /disputes/evidence/{dispute_id}": true, "GET /disputes/filter": true, "GET /disputes/aggregate": true,
	"GET /disputes/profile/list": true, "GET /disputes/profile/filter": true, "GET /disputes/profile/aggregate": true,
	"POST /files": true, "GET /files/{file_id}": true, "DELETE /files/{file_id}": true,
	// authz
	"POST /payments/{payment_id}/incremental_authorization": true, "POST /payments/{payment_id}/extend_authorization": true,
	"GET /payments/{payment_id}/cancel_post_capture": true, "POST /payments/{payment_id}/cancel_post_capture": true,
	"POST /payments/{payment_id}/update_metadata": true, "POST /payments/{payment_id}/eligibility": true,
	"POST /payments/{payment_id}/eligibility_check": true, "POST /payments/{payment_id}/post_session_tokens": true,
	// inbound
	"POST /webhooks/{merchant_id}/{merchant_connector_id}": true, "POST /account/{account_id}/webhooks/{merchant_connector_id}": true,
	"POST /relay": true, "GET /relay/{relay_id}": true,
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
	for _, op := range ops {
		method, path, _ := strings.Cut(op, " ")
		if servedByOtherBranchesOfIssue34[op] {
			continue
		}
		target := documentedOperation{doc: "v1", method: method, path: path}
		url := anyPathParam.ReplaceAllString(w.url(target, w.payments[paymentState(path)]), "unknown_id")
		var body any
		if method != "GET" && method != "DELETE" {
			body = map[string]any{}
		}
		r := w.send(target, url, body)
		_, unsupported := notSupportedV1[op]
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
