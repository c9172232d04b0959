package main

import (
	"bytes"
	"fmt"
	"os"

	"gopkg.in/yaml.v3"
)

// config is rest/wire.yaml: per output file, the spec it reads and the
// schemas it turns into Go types.
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
}

// typeConfig is one generated struct.
type typeConfig struct {
	Name   string `yaml:"name"`
	Schema string `yaml:"schema"`
	Doc    string `yaml:"doc"`
	// Request: every member is optional on the way in, so every member
	// is a pointer (nil = absent). Otherwise a required member is a value.
	Request bool `yaml:"request"`
	// Omit drops members the type must not have (a response that never
	// shows them, a request that refuses them).
	Omit []string `yaml:"omit"`
	// Fields overrides the default rules for a member, by JSON name.
	Fields map[string]fieldConfig `yaml:"fields"`
	// Extra appends members the schema lacks but the wire has.
	Extra []extraField `yaml:"extra"`
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
