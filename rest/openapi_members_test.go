package rest_test

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The strictness rule: a member that Hyperswitch's schema defines for an
// operation is never refused as unknown. TestEveryDefinedMemberIsAccepted
// sends, to every operation of the two OpenAPI documents that Switchyard
// serves, a body holding every property its request schema defines (nested
// objects too), each with the schema's example or a value of its type, and
// fails on each answer that refuses a member as unknown. Other refusals
// (example values that do not fit together) are not its concern.

// openAPIDoc is the part of an OpenAPI document the walk reads.
type openAPIDoc struct {
	Paths      map[string]map[string]openAPIOperation `json:"paths"`
	Components struct {
		Schemas map[string]*openAPISchema `json:"schemas"`
	} `json:"components"`
}

type openAPIOperation struct {
	RequestBody struct {
		Content map[string]struct {
			Schema *openAPISchema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

type openAPISchema struct {
	Ref                  string                    `json:"$ref"`
	Type                 string                    `json:"type"`
	Format               string                    `json:"format"`
	Example              json.RawMessage           `json:"example"`
	Enum                 []any                     `json:"enum"`
	Properties           map[string]*openAPISchema `json:"properties"`
	Items                *openAPISchema            `json:"items"`
	AllOf                []*openAPISchema          `json:"allOf"`
	OneOf                []*openAPISchema          `json:"oneOf"`
	AnyOf                []*openAPISchema          `json:"anyOf"`
	AdditionalProperties json.RawMessage           `json:"additionalProperties"`
}

func loadOpenAPI(t *testing.T, name string) *openAPIDoc {
	t.Helper()
	raw, err := os.ReadFile("openapi/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var d openAPIDoc
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

// fullBody is a value of schema s with every property it defines.
func (d *openAPIDoc) fullBody(s *openAPISchema, depth int) any {
	if s == nil || depth > 12 {
		return nil
	}
	if s.Ref != "" {
		return d.fullBody(d.Components.Schemas[strings.TrimPrefix(s.Ref, "#/components/schemas/")], depth+1)
	}
	if len(s.AllOf) > 0 {
		merged := map[string]any{}
		for _, part := range s.AllOf {
			v := d.fullBody(part, depth+1)
			m, ok := v.(map[string]any)
			if !ok {
				return v
			}
			for k, x := range m {
				merged[k] = x
			}
		}
		return merged
	}
	if len(s.Properties) > 0 {
		out := map[string]any{}
		for name, p := range s.Properties {
			out[name] = d.fullBody(p, depth+1)
		}
		return out
	}
	if s.Type == "array" && s.Items != nil {
		// Built from the items' schema: some array examples do not follow it.
		if v := d.fullBody(s.Items, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	}
	if ex := exampleOf(s); ex != nil {
		return ex
	}
	switch {
	case len(s.OneOf) > 0:
		return d.fullBody(s.OneOf[0], depth+1)
	case len(s.AnyOf) > 0:
		return d.fullBody(s.AnyOf[0], depth+1)
	case len(s.Enum) > 0:
		return s.Enum[0]
	}
	switch s.Type {
	case "object":
		return map[string]any{}
	case "array":
		if v := d.fullBody(s.Items, depth+1); v != nil {
			return []any{v}
		}
		return []any{}
	case "integer", "number":
		return 1
	case "boolean":
		return false
	case "string":
		if s.Format == "date-time" {
			return "2030-01-02T03:04:05Z"
		}
		return "x"
	}
	return nil
}

// exampleOf is the schema's example when it has the schema's type (some
// examples do not), else nil.
func exampleOf(s *openAPISchema) any {
	if len(s.Example) == 0 || string(s.Example) == "null" {
		return nil
	}
	var v any
	if json.Unmarshal(s.Example, &v) != nil {
		return nil
	}
	ok := false
	switch v.(type) {
	case string:
		ok = s.Type == "string" || s.Type == ""
	case float64:
		ok = s.Type == "integer" || s.Type == "number" || s.Type == ""
	case bool:
		ok = s.Type == "boolean" || s.Type == ""
	case []any:
		ok = s.Type == "array"
	case map[string]any:
		ok = s.Type == "object"
	}
	if !ok {
		return nil
	}
	return v
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
	ids := map[string]string{
		"{account_id}": d.MerchantID, "{merchant_id}": d.MerchantID, "{profile_id}": d.ProfileID,
		"{merchant_connector_id}": d.ConnectorAccount, "{key_id}": keyID, "{refund_id}": refundID,
		"{customer_id}": "cus_walk", "{id}": intent,
	}
	served, refused := 0, 0
	for _, doc := range []string{"openapi_spec_v1.json", "openapi_spec_v2.json"} {
		spec := loadOpenAPI(t, doc)
		paths := make([]string, 0, len(spec.Paths))
		for p := range spec.Paths {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		for _, path := range paths {
			for method, op := range spec.Paths[path] {
				media, ok := op.RequestBody.Content["application/json"]
				if !ok || media.Schema == nil {
					continue
				}
				body := spec.fullBody(media.Schema, 0)
				url := path
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
