package rest_test

import (
	"maps"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// The strictness rule: a member that Hyperswitch's schema defines for an
// operation is never refused as unknown. TestEveryDefinedMemberIsAccepted
// sends, to every operation of the two OpenAPI documents that Switchyard
// serves, a body holding every property its request schema defines (nested
// objects too), each with the schema's example or a value of its type, and
// fails on each answer that refuses a member as unknown. Other refusals
// (example values that do not fit together) are not its concern.

// fullBody is a value of schema s with every property it defines.
func fullBody(ref *openapi3.SchemaRef, depth int) any { return bodyOf(ref, "", depth, nil) }

// bodyOf is fullBody that also calls visit with the path ("a.b[0].c") and
// schema of each free-text string member it fills in (not an enum, not a
// date-time), so that a walk can try each one.
func bodyOf(ref *openapi3.SchemaRef, path string, depth int, visit func(path string, s *openapi3.Schema)) any {
	if ref == nil || ref.Value == nil || depth > 12 {
		return nil
	}
	s := ref.Value
	at := func(name string) string {
		if path == "" {
			return name
		}
		return path + "." + name
	}
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, part := range s.AllOf {
			v := bodyOf(part, path, depth+1, visit)
			m, ok := v.(map[string]any)
			if !ok {
				return v
			}
			maps.Copy(merged, m)
		}
		return merged
	}
	if len(s.Properties) > 0 {
		out := map[string]any{}
		for name, p := range s.Properties {
			out[name] = bodyOf(p, at(name), depth+1, visit)
		}
		return out
	}
	if s.Type.Is("array") && s.Items != nil {
		// Built from the items' schema: some array examples do not follow it.
		if v := bodyOf(s.Items, path+"[0]", depth+1, visit); v != nil {
			return []any{v}
		}
		return []any{}
	}
	if visit != nil && s.Type.Is("string") && len(s.Enum) == 0 && s.Format != "date-time" {
		visit(path, s)
	}
	if ex := exampleOf(s); ex != nil {
		return ex
	}
	switch {
	case len(s.OneOf) > 0:
		return bodyOf(s.OneOf[0], path, depth+1, visit)
	case len(s.AnyOf) > 0:
		return bodyOf(s.AnyOf[0], path, depth+1, visit)
	case len(s.Enum) > 0:
		return s.Enum[0]
	case s.Type.Is("object"):
		return map[string]any{}
	case s.Type.Is("array"):
		return []any{}
	case s.Type.Is("integer"), s.Type.Is("number"):
		return 1
	case s.Type.Is("boolean"):
		return false
	case s.Type.Is("string") && s.Format == "date-time":
		return "2030-01-02T03:04:05Z"
	case s.Type.Is("string"):
		return "x"
	}
	return nil
}

// exampleOf is the schema's example when it has the schema's type (some
// examples do not), else nil.
func exampleOf(s *openapi3.Schema) any {
	switch s.Example.(type) {
	case string:
		if s.Type == nil || s.Type.Is("string") {
			return s.Example
		}
	case float64:
		if s.Type == nil || s.Type.Is("integer") || s.Type.Is("number") {
			return s.Example
		}
	case bool:
		if s.Type == nil || s.Type.Is("boolean") {
			return s.Example
		}
	case map[string]any:
		if s.Type.Is("object") {
			return s.Example
		}
	}
	return nil
}

var typeMismatch = regexp.MustCompile(`^([A-Za-z0-9_.\[\]]+): expected `)

// documentTypeErrors are the members whose type in Hyperswitch's document
// is not the type Hyperswitch reads, so a real client never sends the
// document's shape: "METHOD path member" → Hyperswitch's Rust type.
var documentTypeErrors = map[string]string{
	// admin.rs: #[schema(value_type = Option<PrimaryBusinessDetails>)]
	// over Option<Vec<PrimaryBusinessDetails>>: the document says one object.
	"POST /accounts primary_business_details": "Option<Vec<PrimaryBusinessDetails>>",
}

// removeAt deletes the member at path ("a.b[0].c") from v.
func removeAt(v any, path string) bool {
	parts := strings.Split(strings.ReplaceAll(path, "[", ".["), ".")
	for i, p := range parts {
		last := i == len(parts)-1
		if strings.HasPrefix(p, "[") {
			n, err := strconv.Atoi(strings.Trim(p, "[]"))
			arr, ok := v.([]any)
			if err != nil || !ok || n >= len(arr) || last {
				return false
			}
			v = arr[n]
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if last {
			_, had := m[p]
			delete(m, p)
			return had
		}
		v = m[p]
	}
	return false
}

// documentedOperation is an operation of the two OpenAPI documents that
// takes a JSON body.
type documentedOperation struct {
	doc, method, path string
	schema            *openapi3.SchemaRef
}

func documentedOperations(t *testing.T) []documentedOperation {
	t.Helper()
	contract, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	var out []documentedOperation
	for i, spec := range contract.docs {
		for _, path := range spec.Paths.InMatchingOrder() {
			for method, op := range spec.Paths.Value(path).Operations() {
				if op.RequestBody == nil || op.RequestBody.Value == nil {
					continue
				}
				media := op.RequestBody.Value.Content.Get("application/json")
				if media == nil || media.Schema == nil {
					continue
				}
				out = append(out, documentedOperation{doc: []string{"v1", "v2"}[i], method: strings.ToUpper(method),
					path: path, schema: media.Schema})
			}
		}
	}
	return out
}

// walkTarget sends bodies to the documented operations on one test server:
// it holds a resource of each kind their paths name.
type walkTarget struct {
	c          *client
	ids        map[string]string
	v2Customer string
	// payments are the shared payments, by the state an operation needs.
	payments map[string]string
}

func newWalkTarget(t *testing.T, c *client) *walkTarget {
	t.Helper()
	d := c.srv.Demo
	w := &walkTarget{c: c, payments: map[string]string{}}
	for _, state := range []string{"open", "authorized", "succeeded"} {
		w.payments[state] = w.freshPayment(t, state)
	}
	refundID := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": w.freshPayment(t, "succeeded"), "amount": 100}).must(t, 200).str("refund_id")
	c.do("POST", "/customers", d.SecretKey, map[string]any{"customer_id": "cus_walk"}).must(t, 200)
	keyID := c.do("POST", "/api_keys/"+d.MerchantID, c.admin(), map[string]any{"name": "walk", "expiration": "never"}).must(t, 200).str("key_id")
	intent := createIntent(t, c, minimalIntent()).str("id")
	methodID := c.do("POST", "/payment_methods", d.SecretKey, map[string]any{"payment_method": "card",
		"card": card("4242424242424242")["card"]}).must(t, 200).str("payment_method_id")
	w.v2Customer = c.v2("POST", "/v2/customers", d.SecretKey, d.ProfileID, map[string]any{"name": "W", "email": "w@example.com"}).must(t, 200).str("id")
	w.ids = map[string]string{
		"{account_id}": d.MerchantID, "{merchant_id}": d.MerchantID, "{profile_id}": d.ProfileID,
		"{merchant_connector_id}": d.ConnectorAccount, "{key_id}": keyID, "{refund_id}": refundID,
		"{customer_id}": "cus_walk", "{id}": intent, "{method_id}": methodID,
	}
	return w
}

// paymentState is the state of the payment an operation's path names.
func paymentState(path string) string {
	switch {
	case strings.HasSuffix(path, "/capture"), strings.HasSuffix(path, "/cancel"):
		return "authorized"
	case strings.HasSuffix(path, "/cancel_post_capture"):
		return "succeeded"
	}
	return "open"
}

// freshPayment is a new payment in the state ("open", "authorized",
// "succeeded").
func (w *walkTarget) freshPayment(t *testing.T, state string) string {
	t.Helper()
	switch state {
	case "authorized":
		return authorizedPayment(t, w.c)
	case "succeeded":
		return confirmedPayment(t, w.c, "4242424242424242")
	}
	return w.c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
}

// url is op's path with the walk's resources in it, and the payment pid.
func (w *walkTarget) url(op documentedOperation, pid string) string {
	url := op.path
	if strings.HasPrefix(op.path, "/v2/customers/") {
		url = strings.ReplaceAll(url, "{id}", w.v2Customer)
	}
	for k, v := range w.ids {
		url = strings.ReplaceAll(url, k, v)
	}
	return strings.ReplaceAll(url, "{payment_id}", pid)
}

// send sends body to url with the key op takes.
func (w *walkTarget) send(op documentedOperation, url string, body any) response {
	d := w.c.srv.Demo
	if strings.HasPrefix(op.path, "/v2/") {
		return w.c.v2(op.method, url, d.SecretKey, d.ProfileID, body)
	}
	key := d.SecretKey
	if strings.HasPrefix(op.path, "/accounts") || strings.HasPrefix(op.path, "/api_keys") || strings.HasPrefix(op.path, "/events/{") ||
		strings.HasPrefix(op.path, "/organization") || op.path == "/card_issuers" && op.method == "POST" || op.path == "/card_issuers/{id}" {
		key = w.c.admin()
	}
	if op.method == "POST" && op.path == "/authentication/{authentication_id}/eligibility-check" {
		key = d.PublishableKey // the checkout SDK's alone, as Hyperswitch's security says
	}
	return w.c.do(op.method, url, key, body)
}

// notServed: the answer says Switchyard does not serve the operation.
func notServed(r response) bool { return r.errCode() == "IR_02" || r.Status == 405 }

func TestEveryDefinedMemberIsAccepted(t *testing.T) {
	c := newClient(t)
	w := newWalkTarget(t, c)
	served, refused := 0, 0
	for _, op := range documentedOperations(t) {
		body := fullBody(op.schema, 0)
		// A payment operation gets a payment in the state it needs.
		url := w.url(op, w.payments[paymentState(op.path)])
		r := w.send(op, url, body)
		// A member read as another type than the document's is refused
		// unless Hyperswitch itself reads that other type; such a member
		// is taken out, so the rest of the body is still read.
		for range 10 {
			m := typeMismatch.FindStringSubmatch(r.str("error", "message"))
			if r.errCode() != "IR_06" || m == nil {
				break
			}
			if _, known := documentTypeErrors[op.method+" "+op.path+" "+m[1]]; !known {
				t.Errorf("%s %s (%s): %s is read as another type than the document's: %s", op.method, op.path, op.doc, m[1], r.Raw)
			}
			if !removeAt(body, m[1]) {
				break
			}
			r = w.send(op, url, body)
		}
		if notServed(r) {
			continue
		}
		served++
		if r.Status == 401 {
			t.Errorf("%s %s (%s) refused the key before reading its body: the walk proves nothing there: %s", op.method, op.path, op.doc, r.Raw)
		}
		if msg := r.str("error", "message"); r.Status == 400 && strings.Contains(msg, "unknown field") {
			refused++
			t.Errorf("%s %s (%s) refuses a member its schema defines: %s", op.method, op.path, op.doc, msg)
		}
	}
	t.Logf("%d operations served, %d refused a defined member", served, refused)
	if served < 20 {
		t.Fatalf("only %d operations were reached", served)
	}
}
