package main

import (
	"bytes"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// config is a wire.yaml (rest/wire.yaml, and one beside each package whose
// stored or domain types transcribe Hyperswitch schemas): per output file,
// the spec it reads and the schemas it turns into Go types.
type config struct {
	Outputs []output `yaml:"outputs"`
}

type output struct {
	// Spec and Out are relative to the config file.
	Spec    string `yaml:"spec"`
	Out     string `yaml:"out"`
	Package string `yaml:"package"`
	// Imports are the packages the types in Refs and Fields may name.
	Imports []string `yaml:"imports"`
	// Refs names the Go type for a schema some generated member refers to
	// but that is not generated here (a type written by hand or one of
	// another output).
	Refs  map[string]string `yaml:"refs"`
	Types []typeConfig      `yaml:"types"`
	// TimeType and RequestTimeType are the Go types of a date-time member
	// of a response and of a request.
	TimeType        string `yaml:"time_type"`
	RequestTimeType string `yaml:"request_time_type"`
	// Enums are the value lists of enum schemas, each a []string variable.
	Enums []enumConfig `yaml:"enums"`
}

// typeConfig is one generated struct.
type typeConfig struct {
	Name   string `yaml:"name"`
	Schema string `yaml:"schema"`
	Doc    string `yaml:"doc"`
	// Request: every member is optional on the way in, so every member
	// is a pointer (nil = absent). Otherwise a required member is a value.
	Request bool `yaml:"request"`
	// OmitEmpty: every optional member (every member of a request) is
	// left out of the JSON when empty instead of written as null, as a
	// stored JSON column or a domain value keeps them.
	OmitEmpty bool `yaml:"omitempty"`
	// Ignore lists members a request accepts, so that a valid Hyperswitch
	// body is not refused, but that Switchyard does not implement: kept as
	// json.RawMessage and never read.
	Ignore []string `yaml:"ignore"`
	// Embed lists types embedded at the top of the struct. A generated
	// embedded type's members are left out of this one; for any other type,
	// list the members it carries in Omit.
	Embed []string `yaml:"embed"`
	// Untyped lists members typed any: Hyperswitch features whose value
	// Switchyard does not model (mostly always null in a response).
	Untyped []string `yaml:"untyped"`
	// Omit drops members the type must not have (a response that never
	// shows them, a request that refuses them).
	Omit []string `yaml:"omit"`
	// Fields overrides the default rules for a member, by JSON name.
	Fields map[string]fieldConfig `yaml:"fields"`
	// Extra appends members the schema lacks but the wire has.
	Extra []extraField `yaml:"extra"`
}

// enumConfig is one generated list of an enum schema's values, in the
// document's order.
type enumConfig struct {
	Name   string `yaml:"name"`
	Schema string `yaml:"schema"`
	Doc    string `yaml:"doc"`
}

type fieldConfig struct {
	Name      string `yaml:"name"`
	Type      string `yaml:"type"`
	OmitEmpty bool   `yaml:"omitempty"`
}

type extraField struct {
	JSON        string `yaml:"json"`
	fieldConfig `yaml:",inline"`
}

func loadConfig(path string) (*config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	c := &config{}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
