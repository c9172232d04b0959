package strictjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"switchyard/payments/errs"
)

// TestParse: each rule refuses with IR_06 naming the member; what passes is
// what encoding/json reads.
func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		field      string // the member the refusal names; "" when accepted
		message    string
	}{
		{"an object", `{"amount":2500,"metadata":{"a":[1,{"b":null}]}}`, "", ""},
		{"20 levels", `{"a":` + strings.Repeat(`[`, 19) + strings.Repeat(`]`, 19) + `}`, "", ""},
		{"21 levels", `{"a":` + strings.Repeat(`[`, 20) + strings.Repeat(`]`, 20) + `}`, "a" + strings.Repeat("[0]", 19), "deeper than 20 levels"},
		{"deep objects name the path", `{"metadata":` + strings.Repeat(`{"k":`, 30) + `1` + strings.Repeat(`}`, 30) + `}`,
			"metadata.k.k.…", "deeper than 20 levels"},
		{"a member twice", `{"amount":2500,"amount":3000}`, "amount", "given twice"},
		{"a member twice deep down", `{"m":{"a":[{"b":1,"b":2}]}}`, "m.a[0].b", "given twice"},
		{"the same member in two objects", `{"a":{"x":1},"b":{"x":1}}`, "", ""},
		{"data after the value", `{"a":1} {}`, "", "unexpected data after"},
		{"cut short", `{"a":[1,2`, "", "ends before"},
		{"malformed", `{"a":tru}`, "", "Invalid JSON"},
		{"empty", ``, "", "ends before"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Parse([]byte(tc.body), MaxDepth)
			if tc.message == "" {
				var want any
				dec := json.NewDecoder(strings.NewReader(tc.body))
				dec.UseNumber()
				if err != nil || dec.Decode(&want) != nil || !reflect.DeepEqual(v, want) {
					t.Fatalf("got %v %v, want %v", v, err, want)
				}
				return
			}
			e, ok := errs.As(err)
			if !ok || e.Code != "IR_06" || e.Field != tc.field || !strings.Contains(e.Message, tc.message) {
				t.Fatalf("got %#v, want IR_06 on %q saying %q", err, tc.field, tc.message)
			}
		})
	}
}

// FuzzParse holds Parse to encoding/json: whatever it accepts is valid JSON
// and reads as encoding/json reads it; what it refuses is invalid JSON, or
// has a member given twice, or nests deeper than allowed. Every refusal is
// a client error.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{`{"amount":2500,"currency":"USD","metadata":{"a":[1,2.5,-3e2,true,null,"x"]}}`,
		`{"a":1,"a":2}`, `[[[[]]]]`, `"\u00e9\ud83d\ude00"`, `{"a":1} {}`, `{"a":`, `1e400`, ``,
		` { "a" : [ 1 , { "b" : "\\\"" } ] , "c" : "\xff" } `, "{\"a\":\"\xff\",\"a\":1}", `{"k":{"k":{"k":{"k":{"k":{"k":{"k":{"k":{}}}}}}}}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		v, err := Parse(raw, 8)
		// The scan of valid JSON and the token stream agree, refusals too.
		tv, terr := parseTokens(raw, 8)
		if !reflect.DeepEqual(v, tv) || fmt.Sprint(err) != fmt.Sprint(terr) {
			t.Fatalf("%q: Parse gives %#v, %v; the token stream %#v, %v", raw, v, err, tv, terr)
		}
		if e, ok := errs.As(err); ok {
			if te, _ := errs.As(terr); te == nil || te.Field != e.Field {
				t.Fatalf("%q: Parse names %q, the token stream %v", raw, e.Field, terr)
			}
		}
		if err != nil {
			e, ok := errs.As(err)
			if !ok || e.Code != "IR_06" {
				t.Fatalf("refused %q with %v", raw, err)
			}
			if json.Valid(raw) && !strings.Contains(e.Message, "given twice") && !strings.Contains(e.Message, "deeper than") {
				t.Fatalf("refused valid JSON %q: %v", raw, err)
			}
			return
		}
		var want any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if !json.Valid(raw) || dec.Decode(&want) != nil || !reflect.DeepEqual(v, want) {
			t.Fatalf("accepted %q as %#v; encoding/json reads %#v", raw, v, want)
		}
	})
}
