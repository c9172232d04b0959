package graph_test

import (
	"encoding/json"
	"strings"
	"testing"

	"switchyard/internal/ids"
	"switchyard/internal/testenv"
)

const gsmFields = `id connector flow subFlow code message status decision stepUpPossible clearPanPossible
	alternateNetworkPossible unifiedCode unifiedMessage errorCategory standardisedCode routerError`

type gsmRow struct {
	ID, Connector, Flow, SubFlow, Code, Message, Status, Decision string
	StepUpPossible, ClearPanPossible, AlternateNetworkPossible    bool
	UnifiedCode, UnifiedMessage, ErrorCategory, StandardisedCode  *string
}

const (
	createGsm = `mutation($in: CreateGsmRuleInput!, $key: String) {
		createGsmRule(input: $in, idempotencyKey: $key) { replayed gsmRule { ` + gsmFields + ` } } }`
	updateGsm = `mutation($id: ID!, $in: UpdateGsmRuleInput!, $key: String) {
		updateGsmRule(id: $id, input: $in, idempotencyKey: $key) { replayed gsmRule { ` + gsmFields + ` } } }`
	deleteGsm = `mutation($id: ID!, $key: String) { deleteGsmRule(id: $id, idempotencyKey: $key) { id deleted replayed } }`
	listGsm   = `query($c: String) { gsmRules(first: 20, where: {connector: $c}) { totalCount edges { node { ` + gsmFields + ` } } } }`
)

// gsmInput is a valid new rule's input, with the members of over changed
// (a nil removes one).
func gsmInput(over map[string]any) map[string]any {
	in := map[string]any{"connector": "stripe_test", "flow": "Authorize", "subFlow": "sub_flow",
		"code": "processing_error", "message": "Issuer busy", "status": "failure", "decision": "retry"}
	for k, v := range over {
		if v == nil {
			delete(in, k)
			continue
		}
		in[k] = v
	}
	return in
}

// TestGSMRulesInGraphQL: a developer (here the admin who signed up) lists,
// creates, updates and deletes the merchant's GSM rules through the same
// domain calls as REST's /gsm routes (REST reads what GraphQL wrote), each
// under an idempotency key, each audited; wrong values get REST's codes
// naming the member; another merchant's rule is not found, for reading
// and for changing; a VIEWER reads the rules and is refused every change.
func TestGSMRulesInGraphQL(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	admin, apiKey := signUp(t, srv.URL, "admin@gsm.example", "GSM shop")
	c := bearer(t, srv.URL, admin.Token)
	other, _ := signUp(t, srv.URL, "admin@other-gsm.example", "Other GSM shop")
	oc := bearer(t, srv.URL, other.Token)
	viewer := member(t, srv.URL, c, "viewer@gsm.example", "VIEWER")
	vc := bearer(t, srv.URL, viewer.Token)

	// Created with a key: a replay answers the same rule, replayed.
	key := "gsm-create-" + ids.Base62(12)
	in := gsmInput(map[string]any{"unifiedCode": "UE_9000", "unifiedMessage": "Try again", "errorCategory": "soft_decline"})
	var made struct {
		CreateGsmRule struct {
			Replayed bool
			GsmRule  gsmRow
		}
	}
	c.must(createGsm, map[string]any{"in": in, "key": key}, &made)
	rule := made.CreateGsmRule.GsmRule
	if made.CreateGsmRule.Replayed || !strings.HasPrefix(rule.ID, "gsm_") || rule.Connector != "stripe_test" ||
		rule.Decision != "retry" || rule.Message != "Issuer busy" || *rule.UnifiedCode != "UE_9000" || *rule.ErrorCategory != "soft_decline" {
		t.Fatalf("created: %+v", made)
	}
	var again struct {
		CreateGsmRule struct {
			Replayed bool
			GsmRule  gsmRow
		}
	}
	c.must(createGsm, map[string]any{"in": in, "key": key}, &again)
	if !again.CreateGsmRule.Replayed || again.CreateGsmRule.GsmRule.ID != rule.ID {
		t.Fatalf("replay: %+v", again)
	}

	// REST reads the rule GraphQL made.
	restKey := map[string]any{"connector": "stripe_test", "flow": "Authorize", "sub_flow": "sub_flow",
		"code": "processing_error", "message": "Issuer busy"}
	status, raw, err := testenv.Call(srv.URL, "POST", "/gsm/get", apiKey, restKey)
	if err != nil || status != 200 || !strings.Contains(string(raw), `"unified_code":"UE_9000"`) {
		t.Fatalf("REST /gsm/get: %d %s %v", status, raw, err)
	}

	// The list, filtered by connector; a viewer reads it too.
	type listOut struct {
		GsmRules struct {
			TotalCount int
			Edges      []struct{ Node gsmRow }
		}
	}
	var list listOut
	vc.must(listGsm, map[string]any{"c": "stripe_test"}, &list)
	if list.GsmRules.TotalCount != 1 || list.GsmRules.Edges[0].Node.ID != rule.ID {
		t.Fatalf("stripe_test's rules: %+v", list)
	}
	c.must(listGsm, map[string]any{"c": "adyen"}, &list)
	if list.GsmRules.TotalCount != 0 {
		t.Fatalf("adyen's rules: %+v", list)
	}

	// Updated: the members given change, the rest and the key stay.
	var upd struct{ UpdateGsmRule struct{ GsmRule gsmRow } }
	c.must(updateGsm, map[string]any{"id": rule.ID, "key": "gsm-update-" + ids.Base62(12),
		"in": map[string]any{"decision": "do_default", "stepUpPossible": true, "unifiedMessage": "Do not retry"}}, &upd)
	got := upd.UpdateGsmRule.GsmRule
	if got.ID != rule.ID || got.Decision != "do_default" || !got.StepUpPossible || *got.UnifiedMessage != "Do not retry" ||
		*got.UnifiedCode != "UE_9000" || got.Code != "processing_error" || got.Status != "failure" {
		t.Fatalf("updated: %+v", got)
	}
	status, raw, _ = testenv.Call(srv.URL, "POST", "/gsm/get", apiKey, restKey)
	if status != 200 || !strings.Contains(string(raw), `"decision":"do_default"`) {
		t.Fatalf("REST after the update: %d %s", status, raw)
	}

	// Wrong values: REST's codes, naming the member.
	long := strings.Repeat("x", 256)
	for _, tc := range []struct {
		name, code, field string
		in                map[string]any
	}{
		{"an unknown connector", "IR_07", "connector", gsmInput(map[string]any{"connector": "nosuchpay"})},
		{"an empty connector", "IR_04", "connector", gsmInput(map[string]any{"connector": ""})},
		{"a connector too long", "IR_07", "connector", gsmInput(map[string]any{"connector": long[:65]})},
		{"a code too long", "IR_07", "code", gsmInput(map[string]any{"code": long})},
		{"a flow too long", "IR_07", "flow", gsmInput(map[string]any{"flow": long[:65]})},
		{"a status too long", "IR_07", "status", gsmInput(map[string]any{"status": long[:65]})},
		{"an unknown decision", "IR_07", "decision", gsmInput(map[string]any{"decision": "requeue"})},
		{"an unknown error category", "IR_07", "error_category", gsmInput(map[string]any{"errorCategory": "fatal"})},
		{"an unknown standardised code", "IR_07", "standardised_code", gsmInput(map[string]any{"standardisedCode": "oops"})},
		{"a unified message too long", "IR_07", "unified_message", gsmInput(map[string]any{"unifiedMessage": strings.Repeat("é", 1025)})},
		{"no status (GraphQL's own check)", "IR_06", "", gsmInput(map[string]any{"status": nil})},
		{"no decision (GraphQL's own check)", "IR_06", "", gsmInput(map[string]any{"decision": nil})},
		{"the same key twice", "IR_38", "", gsmInput(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := c.on(t).fails(tc.code, createGsm, map[string]any{"in": tc.in})
			if f, _ := e.Extensions["field"].(string); f != tc.field {
				t.Fatalf("field %q, want %q: %+v", f, tc.field, e)
			}
		})
	}
	for _, tc := range []struct {
		name, code, field string
		in                map[string]any
	}{
		{"an unknown decision", "IR_07", "decision", map[string]any{"decision": "requeue"}},
		{"an unknown error category", "IR_07", "error_category", map[string]any{"errorCategory": "fatal"}},
		{"a unified code too long", "IR_07", "unified_code", map[string]any{"unifiedCode": long}},
		{"a key member", "IR_06", "", map[string]any{"code": "other"}},
	} {
		t.Run("update: "+tc.name, func(t *testing.T) {
			e := c.on(t).fails(tc.code, updateGsm, map[string]any{"id": rule.ID, "in": tc.in})
			if f, _ := e.Extensions["field"].(string); f != tc.field {
				t.Fatalf("field %q, want %q: %+v", f, tc.field, e)
			}
		})
	}

	// Another merchant: the rule is not found, to read or to change; its
	// own list is empty.
	var node struct{ Node json.RawMessage }
	oc.must(`query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": rule.ID}, &node)
	if string(node.Node) != "null" {
		t.Fatalf("another merchant reads the rule: %s", node.Node)
	}
	oc.must(listGsm, nil, &list)
	if list.GsmRules.TotalCount != 0 {
		t.Fatalf("another merchant lists: %+v", list)
	}
	oc.fails("IR_37", updateGsm, map[string]any{"id": rule.ID, "in": map[string]any{"decision": "retry"}})
	oc.fails("IR_37", deleteGsm, map[string]any{"id": rule.ID})

	// A viewer changes nothing.
	for _, doc := range []struct {
		q    string
		vars map[string]any
	}{
		{createGsm, map[string]any{"in": gsmInput(map[string]any{"code": "viewer"})}},
		{updateGsm, map[string]any{"id": rule.ID, "in": map[string]any{"decision": "retry"}}},
		{deleteGsm, map[string]any{"id": rule.ID}},
	} {
		if e := vc.fails("IR_22", doc.q, doc.vars); !strings.Contains(e.Message, "may not run") {
			t.Fatalf("a viewer: %+v", e)
		}
	}
	c.must(`query($id: ID!) { node(id: $id) { ... on GsmRule { decision } } }`, map[string]any{"id": rule.ID}, &node)
	if !strings.Contains(string(node.Node), "do_default") {
		t.Fatalf("after the refusals: %s", node.Node)
	}

	// Deleted once: a replay answers the same, a new call finds nothing,
	// and REST neither.
	delKey := "gsm-delete-" + ids.Base62(12)
	var del struct {
		DeleteGsmRule struct {
			ID                string
			Deleted, Replayed bool
		}
	}
	c.must(deleteGsm, map[string]any{"id": rule.ID, "key": delKey}, &del)
	if del.DeleteGsmRule.ID != rule.ID || !del.DeleteGsmRule.Deleted || del.DeleteGsmRule.Replayed {
		t.Fatalf("deleted: %+v", del)
	}
	c.must(deleteGsm, map[string]any{"id": rule.ID, "key": delKey}, &del)
	if !del.DeleteGsmRule.Replayed {
		t.Fatalf("delete replay: %+v", del)
	}
	c.fails("IR_37", deleteGsm, map[string]any{"id": rule.ID})
	if status, raw, _ := testenv.Call(srv.URL, "POST", "/gsm/get", apiKey, restKey); status != 404 {
		t.Fatalf("REST after the delete: %d %s", status, raw)
	}

	// Each change is in the audit log, with the rule it acted on.
	var ops []string
	for _, row := range auditLog(t, c) {
		if strings.Contains(row.Operation, "GsmRule") {
			if row.ObjectID != rule.ID {
				t.Errorf("%s audited on %q", row.Operation, row.ObjectID)
			}
			ops = append(ops, row.Operation)
		}
	}
	if strings.Join(ops, ",") != "deleteGsmRule,updateGsmRule,createGsmRule" {
		t.Fatalf("audited: %v", ops)
	}
}
