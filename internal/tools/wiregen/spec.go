package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// schema is the part of an OpenAPI 3.0 schema object the generator reads.
type schema struct {
	Ref                  string          `json:"$ref"`
	Type                 string          `json:"type"`
	Format               string          `json:"format"`
	Enum                 []any           `json:"enum"`
	Nullable             bool            `json:"nullable"`
	AllOf                []*schema       `json:"allOf"`
	OneOf                []*schema       `json:"oneOf"`
	AnyOf                []*schema       `json:"anyOf"`
	Items                *schema         `json:"items"`
	Properties           properties      `json:"properties"`
	AdditionalProperties json.RawMessage `json:"additionalProperties"`
	Required             []string        `json:"required"`
}

// property is one member of an object schema.
type property struct {
	Name   string
	Schema *schema
}

// properties keeps the members in the document's order, which a map would
// lose: the generated struct lists them in that order.
type properties []property

// UnmarshalJSON reads the object member by member.
func (p *properties) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("properties: want an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		s := &schema{}
		if err := dec.Decode(s); err != nil {
			return fmt.Errorf("property %v: %w", t, err)
		}
		*p = append(*p, property{Name: t.(string), Schema: s})
	}
	return nil
}

// spec is an OpenAPI document's named schemas.
type spec struct {
	Components struct {
		Schemas map[string]*schema `json:"schemas"`
	} `json:"components"`
}

func loadSpec(path string) (*spec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s := &spec{}
	if err := json.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, nil
}

// resolve follows a $ref to its named schema.
func (s *spec) resolve(ref string) (string, *schema, error) {
	name, ok := strings.CutPrefix(ref, "#/components/schemas/")
	if !ok {
		return "", nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	sc := s.Components.Schemas[name]
	if sc == nil {
		return "", nil, fmt.Errorf("$ref %q: no such schema", ref)
	}
	return name, sc, nil
}
