package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGoName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"payment_id", "PaymentID"},
		{"return_url", "ReturnURL"},
		{"card_isin", "CardISIN"},
		{"external_3ds_authentication_attempted", "External3DSAuthenticationAttempted"},
		{"force_3ds_challenge", "Force3DSChallenge"},
		{"paymentId", "PaymentID"},
		{"eligibleGatewayList", "EligibleGatewayList"},
		{"connector_customer_ids", "ConnectorCustomerIDs"},
		{"last4", "Last4"},
		{"request_external_three_ds_authentication", "RequestExternalThreeDSAuthentication"},
		{"ds_transaction_id", "DsTransactionID"},
		{"requires_cvv", "RequiresCVV"},
		{"sku", "SKU"},
		{"ui_configuration", "UIConfiguration"},
	} {
		if got := goName(c.in); got != c.want {
			t.Errorf("goName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// testSpec has one schema of every kind the default rules cover.
const testSpec = `{"components": {"schemas": {
  "Status": {"type": "string", "enum": ["a", "b"]},
  "MinorUnit": {"type": "integer", "format": "int64"},
  "Inner": {"type": "object", "properties": {"x": {"type": "string"}}},
  "Thing": {"type": "object", "required": ["id", "amount", "status"], "properties": {
    "id": {"type": "string"},
    "amount": {"$ref": "#/components/schemas/MinorUnit"},
    "status": {"$ref": "#/components/schemas/Status"},
    "note": {"type": "string", "nullable": true},
    "count": {"type": "integer", "format": "int32"},
    "created": {"type": "string", "format": "date-time"},
    "inner": {"allOf": [{"$ref": "#/components/schemas/Inner"}], "nullable": true},
    "tags": {"type": "array", "items": {"type": "string"}},
    "metadata": {"type": "object"},
    "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "anything": {"nullable": true},
    "ratio": {"type": "number"},
    "flag": {"type": "boolean"}
  }}
}}}`

func TestDefaultRules(t *testing.T) {
	s := &spec{}
	if err := json.Unmarshal([]byte(testSpec), s); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		request  bool
		want     string // "" = no such member
		member   string
		override typeConfig
	}{
		{name: "required response member is a value", member: "ID", want: "ID string `json:\"id\"`"},
		{name: "scalar $ref is its scalar", member: "Amount", want: "Amount int64 `json:\"amount\"`"},
		{name: "enum $ref is a string", member: "Status", want: "Status string `json:\"status\"`"},
		{name: "optional is a pointer", member: "Note", want: "Note *string `json:\"note\"`"},
		{name: "int32 is int", member: "Count", want: "Count *int `json:\"count\"`"},
		{name: "date-time is the time type", member: "Created", want: "Created *Timestamp `json:\"created\"`"},
		{name: "configured $ref is its Go type", member: "Inner", want: "Inner *innerOut `json:\"inner\"`"},
		{name: "array is a slice", member: "Tags", want: "Tags []string `json:\"tags\"`"},
		{name: "free-form object is a map", member: "Metadata", want: "Metadata map[string]any `json:\"metadata\"`"},
		{name: "union is raw JSON", member: "Either", want: "Either json.RawMessage `json:\"either\"`"},
		{name: "no type is any", member: "Anything", want: "Anything any `json:\"anything\"`"},
		{name: "number and boolean", member: "Ratio", want: "Ratio *float64 `json:\"ratio\"`"},
		{name: "request: every member a pointer", request: true, member: "ID", want: "ID *string `json:\"id\"`"},
		{name: "request: date-time is the request time type", request: true, member: "Created", want: "Created *wireTime `json:\"created\"`"},
		{name: "override type and name", member: "Ident",
			override: typeConfig{Fields: map[string]fieldConfig{"id": {Name: "Ident", Type: "*string", OmitEmpty: true}}},
			want:     "Ident *string `json:\"id,omitempty\"`"},
		{name: "omitempty: an optional member", member: "Note", override: typeConfig{OmitEmpty: true},
			want: "Note *string `json:\"note,omitempty\"`"},
		{name: "omitempty: not a required member", member: "ID", override: typeConfig{OmitEmpty: true},
			want: "ID string `json:\"id\"`"},
		{name: "omitempty: every member of a request", request: true, member: "ID", override: typeConfig{OmitEmpty: true},
			want: "ID *string `json:\"id,omitempty\"`"},
		{name: "omitempty: a member with an overridden type", member: "Tags",
			override: typeConfig{OmitEmpty: true, Fields: map[string]fieldConfig{"tags": {Type: "[]tag"}}},
			want:     "Tags []tag `json:\"tags,omitempty\"`"},
		{name: "omit", member: "Note", override: typeConfig{Omit: []string{"note"}}},
		{name: "ignore is raw JSON", member: "Flag", override: typeConfig{Ignore: []string{"flag"}}, want: "Flag json.RawMessage `json:\"flag\"`"},
		{name: "untyped is any", member: "Flag", override: typeConfig{Untyped: []string{"flag"}}, want: "Flag any `json:\"flag\"`"},
		{name: "extra member", member: "CardCVC",
			override: typeConfig{Extra: []extraField{{JSON: "card_cvc", fieldConfig: fieldConfig{Type: "*string"}}}},
			want:     "CardCVC *string `json:\"card_cvc\"`"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := c.override
			tc.Name, tc.Schema, tc.Request = "thing", "Thing", c.request
			out := output{Package: "rest", TimeType: "Timestamp", RequestTimeType: "wireTime",
				Types: []typeConfig{tc, {Name: "innerOut", Schema: "Inner"}}}
			src, err := newGenerator(s, out).generate("// Code generated by wiregen; DO NOT EDIT.")
			if err != nil {
				t.Fatal(err)
			}
			line := memberLine(string(src), c.member)
			if norm(line) != norm(c.want) {
				t.Errorf("member %s: got %q, want %q\n%s", c.member, line, c.want, src)
			}
		})
	}
}

func TestEnumIsTheValuesInOrder(t *testing.T) {
	s := &spec{}
	if err := json.Unmarshal([]byte(testSpec), s); err != nil {
		t.Fatal(err)
	}
	out := output{Package: "p", Enums: []enumConfig{{Name: "statuses", Schema: "Status"}}}
	src, err := newGenerator(s, out).generate("//")
	if err != nil {
		t.Fatal(err)
	}
	if want := "var statuses = []string{ \"a\", \"b\", }"; !strings.Contains(norm(string(src)), want) {
		t.Errorf("got\n%s\nwant %s", src, want)
	}
	out.Enums[0].Schema = "Thing"
	if _, err := newGenerator(s, out).generate("//"); err == nil || !strings.Contains(err.Error(), "no such enum schema") {
		t.Errorf("an object as an enum: got %v", err)
	}
}

func TestOrderFollowsTheDocument(t *testing.T) {
	s := &spec{}
	if err := json.Unmarshal([]byte(testSpec), s); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range s.Components.Schemas["Thing"].Properties {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "id,amount,status,note,count,created,inner,tags,metadata,either,anything,ratio,flag" {
		t.Errorf("order %s", got)
	}
}

func TestConfigMistakesAreErrors(t *testing.T) {
	s := &spec{}
	if err := json.Unmarshal([]byte(testSpec), s); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		t    typeConfig
		want string
	}{
		{"unknown schema", typeConfig{Schema: "Nope"}, "no such schema"},
		{"omit of an unknown member", typeConfig{Schema: "Thing", Omit: []string{"nope"}}, `omit "nope"`},
		{"override of an unknown member", typeConfig{Schema: "Thing", Fields: map[string]fieldConfig{"nope": {}}}, `fields "nope"`},
		{"extra the schema has", typeConfig{Schema: "Thing", Extra: []extraField{{JSON: "id", fieldConfig: fieldConfig{Type: "string"}}}}, `extra "id"`},
		{"object $ref not configured", typeConfig{Schema: "Thing"}, "refers to schema Inner"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.t.Name = "thing"
			types := []typeConfig{c.t}
			if c.name != "object $ref not configured" {
				types = append(types, typeConfig{Name: "innerOut", Schema: "Inner"})
			}
			_, err := newGenerator(s, output{Package: "rest", Types: types}).generate("//")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

// memberLine is the struct member line whose Go name is name ("" if none).
func memberLine(src, name string) string {
	for _, l := range strings.Split(src, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == name {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

func norm(s string) string { return strings.Join(strings.Fields(s), " ") }
