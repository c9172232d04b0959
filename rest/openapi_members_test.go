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
func fullBody(ref *openapi3.SchemaRef, depth int) any {
	if ref == nil || ref.Value == nil || depth > 12 {
		return nil
	}
	s := ref.Value
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, part := range s.AllOf {
			v := fullBody(part, depth+1)
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
			out[name] = fullBody(p, depth+1)
		}
		return out
	}
	if s.Type.Is("array") && s.Items != nil {
		// Built from the items' schema: some array examples do not follow it.
		if v := fullBody(s.Items, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	}
	if ex := exampleOf(s); ex != nil {
		return ex
	}
	switch {
	case len(s.OneOf) > 0:
		return fullBody(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return fullBody(s.AnyOf[0], depth+1)
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

func TestEveryDefinedMemberIsAccepted(t *testing.T) {
	c := newClient(t)
	d := c.srv.Demo
	open := c.pay("POST", "/payments", payment(nil)).must(t, 200).str("payment_id")
	toCapture, toCancel := authorizedPayment(t, c), authorizedPayment(t, c)
	refundable := confirmedPayment(t, c, "4242424242424242")
	refundID := c.do("POST", "/refunds", d.SecretKey, map[string]any{"payment_id": refundable, "amount": 100}).must(t, 200).str("refund_id")
	c.do("POST", "/customers", d.SecretKey, map[string]any{"customer_id": "cus_walk"}).must(t, 200)
	keyID := c.do("POST", "/api_keys/"+d.MerchantID, c.admin(), map[string]any{"name": "walk", "expiration": "never"}).must(t, 200).str("key_id")
	intent := createIntent(t, c, minimalIntent()).str("id")
	v2Customer := c.v2("POST", "/v2/customers", d.SecretKey, d.ProfileID, map[string]any{"name": "W", "email": "w@example.com"}).must(t, 200).str("id")
	ids := map[string]string{
		"{account_id}": d.MerchantID, "{merchant_id}": d.MerchantID, "{profile_id}": d.ProfileID,
		"{merchant_connector_id}": d.ConnectorAccount, "{key_id}": keyID, "{refund_id}": refundID,
		"{customer_id}": "cus_walk", "{id}": intent,
	}
	contract, err := loadContract()
	if err != nil {
		t.Fatal(err)
	}
	served, refused := 0, 0
	for i, spec := range contract.docs {
		doc := []string{"v1", "v2"}[i]
		for _, path := range spec.Paths.InMatchingOrder() {
			for method, op := range spec.Paths.Value(path).Operations() {
				if op.RequestBody == nil || op.RequestBody.Value == nil {
					continue
				}
				media := op.RequestBody.Value.Content.Get("application/json")
				if media == nil || media.Schema == nil {
					continue
				}
				body := fullBody(media.Schema, 0)
				url := path
				if strings.HasPrefix(path, "/v2/customers/") {
					url = strings.ReplaceAll(url, "{id}", v2Customer)
				}
				for k, v := range ids {
					url = strings.ReplaceAll(url, k, v)
				}
				// A payment operation gets a payment in the state it needs.
				pid := open
				switch {
				case strings.HasSuffix(path, "/capture"):
					pid = toCapture
				case strings.HasSuffix(path, "/cancel"):
					pid = toCancel
				case strings.HasSuffix(path, "/cancel_post_capture"):
					pid = refundable
				}
				url = strings.ReplaceAll(url, "{payment_id}", pid)
				method = strings.ToUpper(method)
				send := func() response {
					if strings.HasPrefix(path, "/v2/") {
						return c.v2(method, url, d.SecretKey, d.ProfileID, body)
					}
					key := d.SecretKey
					if strings.HasPrefix(path, "/accounts") || strings.HasPrefix(path, "/api_keys") || strings.HasPrefix(path, "/events/{") {
						key = c.admin()
					}
					return c.do(method, url, key, body)
				}
				r := send()
				// A member whose example has another type than Switchyard reads
				// (the documents describe some members loosely) stops the
				// reading there: it is taken out, so the rest is still read.
				for range 10 {
					m := typeMismatch.FindStringSubmatch(r.str("error", "message"))
					if r.errCode() != "IR_06" || m == nil || !removeAt(body, m[1]) {
						break
					}
					t.Logf("%s %s: %s holds another type in Switchyard; sent without it", method, path, m[1])
					r = send()
				}
				if r.errCode() == "IR_02" || r.Status == 405 {
					continue // not served
				}
				served++
				if r.Status == 401 {
					t.Errorf("%s %s (%s) refused the key before reading its body: the walk proves nothing there: %s", method, path, doc, r.Raw)
				}
				if msg := r.str("error", "message"); r.Status == 400 && strings.Contains(msg, "unknown field") {
					refused++
					t.Errorf("%s %s (%s) refuses a member its schema defines: %s", method, path, doc, msg)
				}
			}
		}
	}
	t.Logf("%d operations served, %d refused a defined member", served, refused)
	if served < 20 {
		t.Fatalf("only %d operations were reached", served)
	}
}
