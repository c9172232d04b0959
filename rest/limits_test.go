package rest_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"switchyard/internal/testenv"
)

// TestEveryStringLimitIsCheckedAtTheEdge: no string member of a request
// reaches a column that cannot hold it. The limits come from the ent
// schema (ent/migrate's column sizes, which count characters); the walk
// goes over every free-text string member of every served operation
// (TestEveryDefinedMemberIsAccepted's walk of the OpenAPI documents),
// one member at a time on a body the operation accepts:
//   - a value longer than every column (one past the largest) is either
//     accepted (the member lands in no bounded column) or refused with a
//     4xx naming the member and its limit, never a 5xx;
//   - a limited member is then refused one past its limit with a value of
//     multi-byte characters, and accepted at its limit with one (more
//     bytes than the limit, as many characters), and its limit is one the
//     ent schema or Hyperswitch's document gives;
//   - and one past each smaller column limit it is never a 5xx, so no
//     column narrower than the member's limit holds it; a member refused
//     for another reason (a key no row has, a card number of letters) is
//     tried one past every column limit, never a 5xx either.
//
// Operations without a body that they accept as is get one (limitBase).
func TestEveryStringLimitIsCheckedAtTheEdge(t *testing.T) {
	walk := testenv.NewLimitWalk()
	c := newClient(t)
	w := newWalkTarget(t, c)
	// The walk sets members alone that Hyperswitch's schema has together
	// (one member of an Apple Pay configuration), and the answers echo
	// them: their shape is the contract tests' concern, not this one's.
	c.uncheckedAnswers = true
	c.do("POST", "/gsm", c.merchantKey(), gsmFuzzRule()).must(t, 200) // what /gsm/update changes
	for _, op := range documentedOperations(t) {
		// A not-supported operation (501 IR_00) reads no body: nothing to limit.
		if r := w.send(op, w.url(op, w.payments[paymentState(op.path)]), map[string]any{}); notServed(r) || r.errCode() == "IR_00" {
			continue
		}
		type member struct {
			path string
			s    *openapi3.Schema
		}
		var members []member
		bodyOf(op.schema, "", 0, func(path string, s *openapi3.Schema) { members = append(members, member{path, s}) })
		for _, m := range members {
			name := op.method + " " + op.path + " " + m.path
			try := func(n int, multibyte bool) response {
				body := limitBase(t, w, op)
				setAt(body, m.path, testenv.TextOf(m.path[strings.LastIndex(m.path, ".")+1:], n, multibyte))
				r := w.send(op, freshURL(t, w, op), body)
				if r.Status >= 500 {
					t.Errorf("%s: %d characters answered %d: %s", name, n, r.Status, r.Raw)
				}
				return r
			}
			ascii := func(n int) { try(n, false) }
			r := try(walk.Over(), false)
			if r.Status < 300 {
				walk.Unbounded()
				continue
			}
			if r.Status >= 500 {
				continue
			}
			limit, named := limitNamed(r, m.path)
			if !named {
				// Refused for another reason (a key no row has, a value of
				// the wrong form): shorter values may pass that check, and
				// must still never reach a column too narrow for them.
				walk.Otherwise(name, r.str("error", "message"), ascii)
				continue
			}
			walk.Walked()
			if !slices.Contains(walk.Sizes, limit) && (m.s.MaxLength == nil || int(*m.s.MaxLength) != limit) {
				t.Errorf("%s: limit %d is neither a column's size in the ent schema nor Hyperswitch's maxLength", name, limit)
			}
			if r := try(limit+1, true); r.Status != 400 || !namesMember(r, m.path) {
				t.Errorf("%s: %d multi-byte characters (one past the limit) answered %d: %s", name, limit+1, r.Status, r.Raw)
			}
			r = try(limit, true)
			if r.Status == 400 && namesMember(r, m.path) && testenv.OwnAlphabet(r.str("error", "message")) {
				r = try(limit, false) // an id or a code, of ASCII letters and digits
			}
			_, tooLong := limitNamed(r, m.path)
			walk.AtLimit(t, name, limit, tooLong, r.Status < 300, string(r.Raw), ascii)
		}
	}
	walk.Report(t, 20)
}

// limitNamed is the limit a 4xx states for the member at path.
func limitNamed(r response, path string) (int, bool) {
	if r.Status < 400 || r.Status >= 500 || !namesMember(r, path) {
		return 0, false
	}
	return testenv.StatedLimit(r.str("error", "message"))
}

// namesMember: the envelope's message names the member (its path, or its
// own name when the path runs through an array).
func namesMember(r response, path string) bool {
	msg := r.str("error", "message")
	if r.errCode() == "" || msg == "" {
		return false
	}
	leaf := path[strings.LastIndex(path, ".")+1:]
	return strings.Contains(msg, path) || strings.Contains(msg, leaf)
}

// setAt sets the member at path ("a.b[0].c") of body to v, making the
// objects and arrays on the way.
func setAt(body map[string]any, path string, v any) {
	parts := strings.Split(strings.ReplaceAll(path, "[0]", ".[0]"), ".")
	var cur any = body
	for i, p := range parts {
		last := i == len(parts)-1
		next := func() any {
			if parts[i+1] == "[0]" {
				return []any{nil}
			}
			return map[string]any{}
		}
		switch node := cur.(type) {
		case map[string]any:
			if last {
				node[p] = v
				return
			}
			if _, ok := node[p].(map[string]any); !ok {
				if _, ok := node[p].([]any); !ok {
					node[p] = next()
				}
			}
			cur = node[p]
		case []any:
			if last {
				node[0] = v
				return
			}
			if node[0] == nil {
				node[0] = next()
			}
			cur = node[0]
		}
	}
}

// freshURL is op's URL naming a new payment (or v2 intent) in the state
// op needs, since a body it accepts may use the payment up, and the walk's
// shared resources otherwise.
func freshURL(t *testing.T, w *walkTarget, op documentedOperation) string {
	if strings.Contains(op.path, "{payment_id}") {
		return w.url(op, w.freshPayment(t, paymentState(op.path)))
	}
	if strings.HasPrefix(op.path, "/v2/payments/{id}") {
		return strings.ReplaceAll(op.path, "{id}", createIntent(t, w.c, minimalIntent()).str("id"))
	}
	return w.url(op, "")
}

var limitSerial int

// limitBase is a body the operation accepts, to which the walk adds one
// member, with the objects the walked members sit in (a card, a customer,
// an order line) already valid; an operation not listed takes {}. Names
// that must be unique are new at each call.
func limitBase(t *testing.T, w *walkTarget, op documentedOperation) map[string]any {
	limitSerial++
	unique := fmt.Sprintf("lim_%d", limitSerial)
	d := w.c.srv.Demo
	paymentMembers := func(body map[string]any) map[string]any {
		body["payment_method"] = "card"
		body["payment_method_data"] = card("4242424242424242")
		body["customer_id"] = unique
		body["order_details"] = []any{map[string]any{"product_name": "p", "quantity": 1, "amount": 10000}}
		return body
	}
	switch op.method + " " + op.path {
	case "POST /payments", "POST /payments/{payment_id}":
		return paymentMembers(payment(nil))
	case "POST /payments/{payment_id}/confirm":
		return paymentMembers(map[string]any{})
	case "POST /refunds":
		return map[string]any{"payment_id": w.freshPayment(t, "succeeded"), "amount": 100}
	case "POST /v2/payments/create-intent", "PUT /v2/payments/{id}/update-intent":
		return minimalIntent()
	case "POST /v2/payments/{id}/confirm-intent":
		return map[string]any{"payment_method_type": "card", "payment_method_data": card("4242424242424242")}
	case "POST /accounts":
		return map[string]any{"merchant_id": unique}
	case "POST /accounts/{account_id}":
		return map[string]any{"merchant_id": d.MerchantID}
	case "POST /account/{account_id}/connectors":
		body := minimalConnector()
		body["connector_label"] = unique
		body["connector_webhook_details"] = map[string]any{"merchant_secret": "s", "additional_secret": "s"}
		return body
	case "POST /account/{account_id}/connectors/{merchant_connector_id}":
		return map[string]any{"connector_type": "payment_processor",
			"connector_webhook_details": map[string]any{"merchant_secret": "s", "additional_secret": "s"}}
	case "POST /api_keys/{merchant_id}":
		return map[string]any{"name": unique, "expiration": "never"}
	case "POST /gsm":
		body := gsmFuzzRule()
		body["code"] = unique
		return body
	case "POST /gsm/update":
		return gsmFuzzRule()
	case "POST /gsm/get", "POST /gsm/delete":
		return gsmFuzzKey(unique, "m")
	case "POST /payment_methods":
		return map[string]any{"payment_method": "card", "card": card("4242424242424242")["card"]}
	case "POST /v2/customers":
		return map[string]any{"name": "n", "email": "n@example.com"}
	case "POST /v2/payment-methods":
		return map[string]any{"payment_method_type": "card", "payment_method_subtype": "credit",
			"customer_id": w.v2Customer, "storage_type": "persistent", "payment_method_data": card("4242424242424242")}
	case "POST /customers", "POST /customers/{customer_id}":
		return map[string]any{"document_details": map[string]any{"document_type": "cpf", "document_number": "12345678911"}}
	case "POST /routing", "POST /routing/deactivate":
		return map[string]any{"name": unique, "profile_id": d.ProfileID,
			"algorithm": map[string]any{"type": "single", "data": map[string]any{"connector": "stripe", "merchant_connector_id": d.ConnectorAccount}}}
	}
	return map[string]any{}
}
