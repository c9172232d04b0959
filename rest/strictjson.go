package rest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"switchyard/payments/errs"
)

// decode is the one reader of JSON request bodies: it reads the body into
// dst as a closed object. The JSON is first checked against dst's Go type,
// so an unknown member or a wrong type anywhere in the tree is a 400 naming
// its full path ("payment_methods_enabled[0].payment_method_types[1].card_networks[0]"),
// which encoding/json's own errors do not. Every struct is a closed object
// (members matched exactly by their json tag), map[string]string members
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
func readBody(r *http.Request) ([]byte, error) {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return nil, errs.BodyTooLarge(tooLarge.Limit)
		}
		return nil, errs.InvalidRequest("could not read the request body")
	}
	return raw, nil
}

// decodeBytes is decode of a body already read.
func decodeBytes(raw []byte, dst any) error {
	tree, err := parseJSON(raw)
	if err != nil {
		return err
	}
	if _, ok := tree.(map[string]any); !ok {
		return errs.InvalidRequest("the request body must be a JSON object, not %s", jsonKind(tree))
	}
	if err := checkShape(tree, reflect.TypeOf(dst).Elem(), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return decodeError(err)
	}
	return nil
}

// MaxJSONDepth bounds how deeply a request body may nest objects and
// arrays: the body itself is level 1, so {"metadata":{"a":{}}} is 3 deep.
// The stores refuse deeper JSON (MariaDB at 32 levels, with the members a
// stored object is wrapped in), so a deeper body is the client's mistake,
// refused while it is read.
const MaxJSONDepth = 20

// parseJSON reads one JSON value (numbers as json.Number) as encoding/json
// would, and also refuses what encoding/json lets through: a member given
// twice in one object (Hyperswitch refuses it; encoding/json keeps the
// last), nesting deeper than MaxJSONDepth, and data after the value.
func parseJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseValue(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errs.InvalidRequest("Invalid JSON: unexpected data after the top-level object")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, decodeError(err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // a string, json.Number, bool or nil
	}
	if depth+1 > MaxJSONDepth {
		return nil, tooDeep(path)
	}
	if delim == '[' {
		arr := []any{}
		for dec.More() {
			v, err := parseValue(dec, fmt.Sprintf("%s[%d]", path, len(arr)), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := dec.Token() // ]
		return arr, decodeErrorOrNil(err)
	}
	obj := map[string]any{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, decodeError(err)
		}
		key, _ := tok.(string)
		member := joinPath(path, key)
		if _, dup := obj[key]; dup {
			e := errs.InvalidRequest("%s is given twice in one object; give it once", member)
			e.Field = member
			return nil, e
		}
		if obj[key], err = parseValue(dec, member, depth+1); err != nil {
			return nil, err
		}
	}
	_, err = dec.Token() // }
	return obj, decodeErrorOrNil(err)
}

// tooDeep names the member where the nesting passed the limit, cut short:
// a path thousands of levels long would make the message as long.
func tooDeep(path string) error {
	field := path
	if parts := strings.SplitN(path, ".", 4); len(parts) == 4 {
		field = strings.Join(parts[:3], ".") + ".…"
	}
	if len(field) > 80 {
		field = field[:80] + "…"
	}
	if field == "" {
		field = "the body"
	}
	e := errs.InvalidRequest("%s nests objects or arrays deeper than %d levels", field, MaxJSONDepth)
	e.Field = field
	return e
}

func decodeErrorOrNil(err error) error {
	if err == nil {
		return nil
	}
	return decodeError(err)
}

// decodeError maps what encoding/json returns once checkShape has passed:
// malformed JSON, or the error of a custom UnmarshalJSON (an enum, a
// discriminated union), which says why itself.
func decodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var domain *errs.Error
	switch {
	case errors.As(err, &domain):
		return domain
	case errors.As(err, &syntax):
		return errs.InvalidRequest("Invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errs.InvalidRequest("Invalid JSON: the body ends before the object does")
	case errors.As(err, &typ) && typ.Field != "":
		// A value checkShape does not range-check (a float32 overflow).
		e := errs.InvalidRequest("%s: %s does not fit %s", typ.Field, typ.Value, typ.Type)
		e.Field = typ.Field
		return e
	}
	return errs.InvalidRequest("Invalid JSON: %v", err)
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
		fields := jsonFields(t)
		for _, k := range slices.Sorted(maps.Keys(obj)) {
			ft, ok := fields[k]
			if !ok {
				e := errs.InvalidRequest("unknown field %q: this object does not accept it", joinPath(path, k))
				e.Field = joinPath(path, k)
				return e
			}
			if err := checkShape(obj[k], ft, joinPath(path, k)); err != nil {
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
			if err := checkShape(obj[k], t.Elem(), joinPath(path, k)); err != nil {
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
		n, ok := v.(json.Number)
		if !ok {
			return wrongType(path, "an integer", v)
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return wrongType(path, fmt.Sprintf("an integer that fits in %d bits", t.Bits()), v)
		}
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := v.(json.Number)
		if !ok {
			return wrongType(path, "a non-negative integer", v)
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			return wrongType(path, "a non-negative integer", v)
		}
		return nil
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return wrongType(path, "a number", v)
		}
		return nil
	}
	return nil
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

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
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
