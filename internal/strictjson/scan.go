package strictjson

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// scan reads JSON that json.Valid has passed, so it checks no syntax: only
// the rules encoding/json does not keep (a member given twice, nesting
// deeper than maxDepth). Values are what encoding/json decodes into an
// interface with UseNumber.
type scan struct {
	raw      []byte
	pos      int
	maxDepth int
}

func (s *scan) skipSpace() {
	for s.pos < len(s.raw) {
		switch s.raw[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scan) value(path string, depth int) (any, error) {
	s.skipSpace()
	switch c := s.raw[s.pos]; c {
	case '{':
		if depth+1 > s.maxDepth {
			return nil, tooDeep(path, s.maxDepth)
		}
		return s.object(path, depth+1)
	case '[':
		if depth+1 > s.maxDepth {
			return nil, tooDeep(path, s.maxDepth)
		}
		return s.array(path, depth+1)
	case '"':
		return s.string(), nil
	case 't':
		s.pos += len("true")
		return true, nil
	case 'f':
		s.pos += len("false")
		return false, nil
	case 'n':
		s.pos += len("null")
		return nil, nil
	default:
		start := s.pos
		for s.pos < len(s.raw) && isNumberByte(s.raw[s.pos]) {
			s.pos++
		}
		return json.Number(s.raw[start:s.pos]), nil
	}
}

func isNumberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (s *scan) object(path string, depth int) (any, error) {
	s.pos++ // {
	obj := map[string]any{}
	for {
		s.skipSpace()
		if s.raw[s.pos] == '}' {
			s.pos++
			return obj, nil
		}
		if s.raw[s.pos] == ',' {
			s.pos++
			s.skipSpace()
		}
		key := s.string()
		member := JoinPath(path, key)
		if _, dup := obj[key]; dup {
			return nil, givenTwice(member)
		}
		s.skipSpace()
		s.pos++ // :
		v, err := s.value(member, depth)
		if err != nil {
			return nil, err
		}
		obj[key] = v
	}
}

func (s *scan) array(path string, depth int) (any, error) {
	s.pos++ // [
	arr := []any{}
	for {
		s.skipSpace()
		switch s.raw[s.pos] {
		case ']':
			s.pos++
			return arr, nil
		case ',':
			s.pos++
		}
		v, err := s.value(path+"["+strconv.Itoa(len(arr))+"]", depth)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
	}
}

// string reads the string at pos. One without escapes or invalid UTF-8 is
// its bytes; any other is what encoding/json makes of it (escapes
// resolved, invalid UTF-8 replaced).
func (s *scan) string() string {
	start := s.pos
	s.pos++ // "
	plain := true
	for {
		switch c := s.raw[s.pos]; {
		case c == '"':
			s.pos++
			lit := s.raw[start:s.pos]
			if plain && utf8.Valid(lit) {
				return string(lit[1 : len(lit)-1])
			}
			var out string
			_ = json.Unmarshal(lit, &out) // valid: json.Valid passed it
			return out
		case c == '\\':
			plain = false
			s.pos += 2
		default:
			s.pos++
		}
	}
}
