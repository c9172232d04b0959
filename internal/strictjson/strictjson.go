// Package strictjson reads a request's JSON as both front doors must: as
// encoding/json would (numbers as json.Number), but refusing what
// encoding/json lets through, a member given twice in one object (Hyperswitch
// refuses it; encoding/json keeps the last), nesting deeper than a limit
// (the stores refuse deep JSON), and data after the value. Its errors are
// the domain's client errors (IR_06), naming the member.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"switchyard/payments/errs"
)

// MaxDepth bounds how deeply a request body may nest objects and arrays:
// the body itself is level 1, so {"metadata":{"a":{}}} is 3 deep. MariaDB
// refuses JSON deeper than 32 levels, with the members a stored object is
// wrapped in, so a deeper body is the client's mistake, refused while it is
// read.
const MaxDepth = 20

// MaxNesting is encoding/json's own bound on nesting: a Parse at this depth
// refuses nothing for its depth that encoding/json reads.
const MaxNesting = 10000

// Parse reads one JSON value from raw, nested at most maxDepth levels.
//
// Valid JSON, nearly every request, is read by a scan of its own (each
// request body is read here on the way in, and encoding/json's token
// stream allocates for every token); anything else goes to the token
// stream, whose errors say where the JSON went wrong. Both refuse the same
// duplicate or nesting first, reading in order: FuzzParse holds them to
// encoding/json.
func Parse(raw []byte, maxDepth int) (any, error) {
	if json.Valid(raw) {
		s := scan{raw: raw, maxDepth: maxDepth}
		return s.value("", 0)
	}
	return parseTokens(raw, maxDepth)
}

// parseTokens is Parse on encoding/json's token stream.
func parseTokens(raw []byte, maxDepth int) (any, error) {
	p := parser{dec: json.NewDecoder(bytes.NewReader(raw)), maxDepth: maxDepth}
	p.dec.UseNumber()
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	if _, err := p.dec.Token(); err != io.EOF {
		return nil, errs.InvalidRequest("Invalid JSON: unexpected data after the top-level value")
	}
	return v, nil
}

type parser struct {
	dec      *json.Decoder
	maxDepth int
}

func (p *parser) value(path string, depth int) (any, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, DecodeError(err)
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // a string, json.Number, bool or nil
	}
	if depth+1 > p.maxDepth {
		return nil, tooDeep(path, p.maxDepth)
	}
	if delim == '[' {
		arr := []any{}
		for p.dec.More() {
			v, err := p.value(fmt.Sprintf("%s[%d]", path, len(arr)), depth+1)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		_, err := p.dec.Token() // ]
		return arr, decodeErrorOrNil(err)
	}
	obj := map[string]any{}
	for p.dec.More() {
		tok, err := p.dec.Token()
		if err != nil {
			return nil, DecodeError(err)
		}
		key, _ := tok.(string)
		member := JoinPath(path, key)
		if _, dup := obj[key]; dup {
			return nil, givenTwice(member)
		}
		if obj[key], err = p.value(member, depth+1); err != nil {
			return nil, err
		}
	}
	_, err = p.dec.Token() // }
	return obj, decodeErrorOrNil(err)
}

// tooDeep names the member where the nesting passed the limit, cut short:
// a path thousands of levels long would make the message as long.
func tooDeep(path string, maxDepth int) error {
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
	e := errs.InvalidRequest("%s nests objects or arrays deeper than %d levels", field, maxDepth)
	e.Field = field
	return e
}

func givenTwice(member string) error {
	e := errs.InvalidRequest("%s is given twice in one object; give it once", member)
	e.Field = member
	return e
}

// JoinPath is the path of member key of the object at path.
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func decodeErrorOrNil(err error) error {
	if err == nil {
		return nil
	}
	return DecodeError(err)
}

// DecodeError is the client error for what encoding/json returns: malformed
// JSON, a value that does not fit its Go type, or the error of a custom
// UnmarshalJSON (an enum, a discriminated union), which says why itself.
func DecodeError(err error) error {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var domain *errs.Error
	switch {
	case errors.As(err, &domain):
		return domain
	case errors.As(err, &syntax):
		return errs.InvalidRequest("Invalid JSON at byte %d: %s", syntax.Offset, syntax.Error())
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errs.InvalidRequest("Invalid JSON: the body ends before the value does")
	case errors.As(err, &typ) && typ.Field != "":
		e := errs.InvalidRequest("%s: %s does not fit %s", typ.Field, typ.Value, typ.Type)
		e.Field = typ.Field
		return e
	}
	return errs.InvalidRequest("Invalid JSON: %v", err)
}
