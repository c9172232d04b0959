package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"switchyard/internal/httperr"
	"switchyard/internal/strictjson"
	"switchyard/payments/errs"
)

// decode is the one reader of JSON request bodies: it reads the body into
// dst as a closed object. The JSON is first checked against dst's Go type,
// so an unknown member or a wrong type anywhere in the tree is a 400 naming
// its full path ("payment_methods_enabled[0].payment_method_types[1].card_networks[0]"),
// which encoding/json's own errors do not. Every struct is a closed object
// (members matched exactly by their json tag) but the open ones Hyperswitch
// also leaves open, which skip unknown members (openObjects), map[string]string members
// must hold strings, and map[string]any / any members are free-form. Types
// with their own UnmarshalJSON are left to it. Malformed JSON, trailing
// data, a body that is empty, oversized or not an object are client errors
// in the envelope too.
func decode(r *http.Request, dst any) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return errs.InvalidRequest("the request body is empty; a JSON object is required")
	}
	return decodeBytes(raw, dst)
}

// decodeOptional is decode for operations whose every member is optional:
// an empty body is an empty object.
func decodeOptional(r *http.Request, dst any) error {
	raw, err := readBody(r)
	if err != nil || len(bytes.TrimSpace(raw)) == 0 {
		return err
	}
	return decodeBytes(raw, dst)
}

// readBody reads the whole body; one over the server's limit is 413.
func readBody(r *http.Request) ([]byte, error) { return httperr.ReadBody(r.Body) }

// decodeList is decode for the operations whose body is a JSON array
// (Hyperswitch's default fallback order): each element is checked as
// decode checks an object.
func decodeList(r *http.Request, dst any) error {
	raw, err := readBody(r)
	if err != nil {
		return err
	}
	tree, err := strictjson.Parse(raw, strictjson.MaxDepth)
	if err != nil {
		return err
	}
	if _, ok := tree.([]any); !ok {
		return errs.InvalidRequest("the request body must be a JSON array, not %s", jsonKind(tree))
	}
	return decodeTree(raw, tree, dst)
}

// decodeBytes is decode of a body already read.
func decodeBytes(raw []byte, dst any) error {
	tree, err := strictjson.Parse(raw, strictjson.MaxDepth)
	if err != nil {
		return err
	}
	if _, ok := tree.(map[string]any); !ok {
		return errs.InvalidRequest("the request body must be a JSON object, not %s", jsonKind(tree))
	}
	return decodeTree(raw, tree, dst)
}

// decodeTree checks a parsed body against dst's type, then decodes it.
func decodeTree(raw []byte, tree, dst any) error {
	if err := checkShape(tree, reflect.TypeOf(dst).Elem(), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return strictjson.DecodeError(err)
	}
	return nil
}

var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// checkShape checks a decoded JSON value (numbers as json.Number) against
// the Go type it will be decoded into. null is accepted everywhere, as
// encoding/json does; required members are the domain's to check.
func checkShape(v any, t reflect.Type, path string) error {
	if v == nil || t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkShape(v, t.Elem(), path)
	case reflect.Interface:
		return nil
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrongType(path, "an object", v)
		}
		fields := cachedJSONFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ft, ok := fields[k]
			if !ok && openObjects[t] {
				continue
			}
			if !ok {
				e := errs.InvalidRequest("unknown field %q: this object does not accept it", strictjson.JoinPath(path, k))
				e.Field = strictjson.JoinPath(path, k)
				return e
			}
			if err := checkShape(obj[k], ft, strictjson.JoinPath(path, k)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrongType(path, "an object", v)
		}
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			if err := checkShape(obj[k], t.Elem(), strictjson.JoinPath(path, k)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Slice, reflect.Array:
		arr, ok := v.([]any)
		if !ok {
			return wrongType(path, "an array", v)
		}
		for i, e := range arr {
			if err := checkShape(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if _, ok := v.(string); !ok {
			return wrongType(path, "a string", v)
		}
		return nil
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return wrongType(path, "a boolean", v)
		}
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return checkInteger(path, v, "an integer", fmt.Sprintf("an integer that fits in %d bits", t.Bits()), func(n string) error {
			_, err := strconv.ParseInt(n, 10, t.Bits())
			return err
		})
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return checkInteger(path, v, "a non-negative integer", "a non-negative integer", func(n string) error {
			_, err := strconv.ParseUint(n, 10, t.Bits())
			return err
		})
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return wrongType(path, "a number", v)
		}
		return nil
	}
	return nil
}

// memberTypes caches jsonFields by struct type: a request type's members
// never change, and walking them (a payment's are over a hundred) on every
// request cost more than the rest of its check.
var memberTypes sync.Map // reflect.Type → map[string]reflect.Type

func cachedJSONFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := memberTypes.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m, _ := memberTypes.LoadOrStore(t, jsonFields(t))
	return m.(map[string]reflect.Type)
}

// jsonFields maps a struct's JSON member names to their types (exported
// fields, by json tag or field name; "-" skipped; an untagged embedded
// struct's members promoted, as encoding/json promotes them).
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := make(map[string]reflect.Type, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if _, tagged := f.Tag.Lookup("json"); f.Anonymous && !tagged && f.Type.Kind() == reflect.Struct {
			for name, ft := range jsonFields(f.Type) {
				if _, shadowed := out[name]; !shadowed {
					out[name] = ft
				}
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if n != "" {
				name = n
			}
		}
		out[name] = f.Type
	}
	return out
}

// checkInteger checks that v is a JSON number parse accepts: want is what
// any other value is told was expected, fitting what a number parse refuses
// is told.
func checkInteger(path string, v any, want, fitting string, parse func(string) error) error {
	n, ok := v.(json.Number)
	if !ok {
		return wrongType(path, want, v)
	}
	if parse(string(n)) != nil {
		return wrongType(path, fitting, v)
	}
	return nil
}

func wrongType(path, want string, got any) error {
	e := errs.InvalidRequest("%s: expected %s, got %s", path, want, jsonKind(got))
	e.Field = path
	return e
}

// jsonKind names a decoded JSON value's type for messages.
func jsonKind(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}
