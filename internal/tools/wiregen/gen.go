package main

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	pathpkg "path"
	"regexp"
	"slices"
	"strings"
)

// generator writes one output's structs from its spec.
type generator struct {
	spec *spec
	out  output
	// named maps a schema name to the Go type generated or configured for it.
	named map[string]string
	// request is whether the type being written is a request's.
	request bool
}

func newGenerator(s *spec, out output) *generator {
	g := &generator{spec: s, out: out, named: map[string]string{}}
	for schema, goType := range out.Refs {
		g.named[schema] = goType
	}
	for _, t := range out.Types {
		if _, ok := g.named[t.Schema]; !ok {
			g.named[t.Schema] = t.Name
		}
	}
	return g
}

// generate returns the formatted Go file.
func (g *generator) generate(header string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n\npackage %s\n\n", header, g.out.Package)
	var body bytes.Buffer
	var errs []error
	for _, t := range g.out.Types {
		if err := g.writeType(&body, t); err != nil {
			errs = append(errs, fmt.Errorf("%s (schema %s): %w", t.Name, t.Schema, err))
		}
	}
	for _, e := range g.out.Enums {
		if err := g.writeEnum(&body, e); err != nil {
			errs = append(errs, fmt.Errorf("%s (schema %s): %w", e.Name, e.Schema, err))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	// An import is written when the body uses its package name.
	var imports []string
	for _, path := range append([]string{"encoding/json"}, g.out.Imports...) {
		uses := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(pathpkg.Base(path)) + `\.`)
		if uses.Match(body.Bytes()) {
			imports = append(imports, path)
		}
	}
	if len(imports) > 0 {
		b.WriteString("import (\n")
		for _, p := range imports {
			fmt.Fprintf(&b, "\t%q\n", p)
		}
		b.WriteString(")\n\n")
	}
	b.Write(body.Bytes())
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the output: %w\n%s", err, b.Bytes())
	}
	return src, nil
}

func (g *generator) writeType(b *bytes.Buffer, t typeConfig) error {
	sc := g.spec.Components.Schemas[t.Schema]
	if sc == nil {
		return fmt.Errorf("no such schema")
	}
	props, required := []property{}, map[string]bool{}
	if err := g.members(sc, true, &props, required); err != nil {
		return err
	}
	if len(props) == 0 {
		return fmt.Errorf("not an object with properties")
	}
	known := map[string]bool{}
	for _, p := range props {
		known[p.Name] = true
	}
	for _, name := range t.Omit {
		if !known[name] {
			return fmt.Errorf("omit %q: the schema has no such member", name)
		}
	}
	for _, name := range slices.Concat(t.Ignore, t.Untyped) {
		if !known[name] {
			return fmt.Errorf("ignore/untyped %q: the schema has no such member", name)
		}
	}
	for name := range t.Fields {
		if !known[name] || slices.Contains(t.Omit, name) {
			return fmt.Errorf("fields %q: the schema has no such member (or it is omitted)", name)
		}
	}
	writeDoc(b, t.Doc, fmt.Sprintf("%s is the spec's %s.", t.Name, t.Schema))
	fmt.Fprintf(b, "type %s struct {\n", t.Name)
	embedded := map[string]bool{}
	for _, e := range t.Embed {
		fmt.Fprintf(b, "\t%s\n", e)
		names, err := g.memberNames(e)
		if err != nil {
			return fmt.Errorf("embed %s: %w", e, err)
		}
		for _, n := range names {
			embedded[n] = true
		}
	}
	var errs []error
	for _, p := range props {
		if slices.Contains(t.Omit, p.Name) || embedded[p.Name] {
			continue
		}
		fc := t.Fields[p.Name]
		required := !t.Request && required[p.Name]
		fc.OmitEmpty = fc.OmitEmpty || t.OmitEmpty && !required
		goType := fc.Type
		switch {
		case goType != "":
		case slices.Contains(t.Ignore, p.Name):
			goType = "json.RawMessage"
		case slices.Contains(t.Untyped, p.Name):
			goType = "any"
		}
		if goType == "" {
			g.request = t.Request
			var err error
			if goType, err = g.goType(p.Schema, required); err != nil {
				errs = append(errs, fmt.Errorf("member %s: %w", p.Name, err))
			}
		}
		writeField(b, p.Name, fc, goType)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	for _, e := range t.Extra {
		if known[e.JSON] {
			return fmt.Errorf("extra %q: the schema has it already", e.JSON)
		}
		if e.Type == "" {
			return fmt.Errorf("extra %q: needs a type", e.JSON)
		}
		writeField(b, e.JSON, e.fieldConfig, e.Type)
	}
	b.WriteString("}\n\n")
	return nil
}

// writeEnum writes an enum schema's values as a []string variable.
func (g *generator) writeEnum(b *bytes.Buffer, e enumConfig) error {
	sc := g.spec.Components.Schemas[e.Schema]
	if sc == nil || len(sc.Enum) == 0 {
		return fmt.Errorf("no such enum schema")
	}
	writeDoc(b, e.Doc, fmt.Sprintf("%s are the values of the spec's %s.", e.Name, e.Schema))
	fmt.Fprintf(b, "var %s = []string{\n", e.Name)
	for _, v := range sc.Enum {
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("value %v is not a string", v)
		}
		fmt.Fprintf(b, "\t%q,\n", s)
	}
	b.WriteString("}\n\n")
	return nil
}

// writeDoc writes a declaration's doc comment: the configured one, else
// fallback.
func writeDoc(b *bytes.Buffer, doc, fallback string) {
	if doc == "" {
		doc = fallback
	}
	for _, line := range strings.Split(strings.TrimSpace(doc), "\n") {
		fmt.Fprintf(b, "// %s\n", line)
	}
}

// memberNames are the JSON members of a generated type, for a type that
// embeds it; none for a type generated elsewhere or written by hand.
func (g *generator) memberNames(goType string) ([]string, error) {
	i := slices.IndexFunc(g.out.Types, func(t typeConfig) bool { return t.Name == goType })
	if i < 0 {
		return nil, nil
	}
	t := g.out.Types[i]
	var props []property
	if err := g.members(g.spec.Components.Schemas[t.Schema], false, &props, map[string]bool{}); err != nil {
		return nil, err
	}
	var names []string
	for _, e := range t.Embed {
		inner, err := g.memberNames(e)
		if err != nil {
			return nil, err
		}
		names = append(names, inner...)
	}
	for _, p := range props {
		if !slices.Contains(t.Omit, p.Name) {
			names = append(names, p.Name)
		}
	}
	for _, e := range t.Extra {
		names = append(names, e.JSON)
	}
	return names, nil
}

// members collects an object schema's members in the document's order: its
// own properties, then those of its allOf parts (a flattened TimeRange, a
// billing address beside the method), then those of its oneOf and anyOf
// variants: a union becomes one struct whose members are all optional, and
// the handler checks that one was given. required gathers the members the
// object itself and its allOf parts require.
func (g *generator) members(s *schema, mayRequire bool, out *[]property, required map[string]bool) error {
	if s.Ref != "" {
		_, r, err := g.spec.resolve(s.Ref)
		if err != nil {
			return err
		}
		s = r
	}
	for _, p := range s.Properties {
		if !slices.ContainsFunc(*out, func(q property) bool { return q.Name == p.Name }) {
			*out = append(*out, p)
		}
	}
	if mayRequire {
		for _, name := range s.Required {
			required[name] = true
		}
	}
	for _, part := range s.AllOf {
		if err := g.members(part, mayRequire, out, required); err != nil {
			return err
		}
	}
	for _, variant := range slices.Concat(s.OneOf, s.AnyOf) {
		if err := g.members(variant, false, out, required); err != nil {
			return err
		}
	}
	return nil
}

func writeField(b *bytes.Buffer, jsonName string, fc fieldConfig, goType string) {
	name := fc.Name
	if name == "" {
		name = goName(jsonName)
	}
	tag := jsonName
	if fc.OmitEmpty {
		tag += ",omitempty"
	}
	fmt.Fprintf(b, "\t%s %s `json:%q`\n", name, goType, tag)
}

// goType is a member's Go type by the default rules: a required member of a
// response is a value, anything else a pointer (slices, maps and raw JSON
// are nil when absent already).
func (g *generator) goType(s *schema, required bool) (string, error) {
	base, nilable, err := g.baseType(s)
	if err != nil {
		return "", err
	}
	if required || nilable {
		return base, nil
	}
	return "*" + base, nil
}

// baseType maps a schema onto a Go type; nilable says whether that type
// has its own nil (so an optional member needs no pointer).
func (g *generator) baseType(s *schema) (string, bool, error) {
	switch {
	case s.Ref != "":
		return g.refType(s.Ref)
	case len(s.AllOf) == 1:
		return g.baseType(s.AllOf[0])
	case len(s.AllOf) > 1, len(s.OneOf) > 0, len(s.AnyOf) > 0:
		// A union or composition: kept as the JSON it is.
		return "json.RawMessage", true, nil
	}
	switch s.Type {
	case "string":
		if s.Format == "date-time" {
			if g.request {
				return g.out.RequestTimeType, false, nil
			}
			return g.out.TimeType, false, nil
		}
		return "string", false, nil
	case "integer":
		if s.Format == "int64" {
			return "int64", false, nil
		}
		return "int", false, nil
	case "number":
		return "float64", false, nil
	case "boolean":
		return "bool", false, nil
	case "array":
		if s.Items == nil {
			return "[]any", true, nil
		}
		elem, _, err := g.baseType(s.Items)
		return "[]" + elem, true, err
	case "object":
		if len(s.Properties) == 0 {
			// Free-form: whatever the client or connector sent.
			return "map[string]any", true, nil
		}
		return "", false, fmt.Errorf("an inline object with members: give it a type in fields")
	case "":
		return "any", true, nil
	}
	return "", false, fmt.Errorf("unsupported type %q", s.Type)
}

// refType is the Go type for a named schema: the configured one, else a
// string for an enum or a scalar alias, else an error naming what to add.
func (g *generator) refType(ref string) (string, bool, error) {
	name, s, err := g.spec.resolve(ref)
	if err != nil {
		return "", false, err
	}
	if goType, ok := g.named[name]; ok {
		nilable := strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "map[") ||
			goType == "json.RawMessage" || goType == "any"
		return goType, nilable, nil
	}
	if len(s.Properties) == 0 && s.Ref == "" && len(s.AllOf)+len(s.OneOf)+len(s.AnyOf) == 0 {
		return g.baseType(s) // an enum, an id, an amount: a scalar with a name
	}
	return "", false, fmt.Errorf("refers to schema %s: generate it or name its Go type in refs", name)
}

// initialisms are written in capitals in Go names, as the hand-written
// code did (payment_id → PaymentID).
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "api": "API", "ip": "IP",
	"json": "JSON", "http": "HTTP", "uri": "URI", "bin": "BIN", "isin": "ISIN",
	"psp": "PSP", "3ds": "3DS", "cvc": "CVC", "cvv": "CVV", "sdk": "SDK", "mca": "MCA",
	"iban": "IBAN", "bic": "BIC", "emv": "EMV", "ispb": "ISPB", "sku": "SKU", "upc": "UPC", "ui": "UI",
}

// goName turns a JSON member name, snake_case or camelCase, into an
// exported Go name.
func goName(jsonName string) string {
	var b strings.Builder
	parts := words(jsonName)
	for i, part := range parts {
		if strings.EqualFold(part, "ds") && i > 0 && parts[i-1] == "three" {
			b.WriteString("DS") // three_ds: ThreeDS
			continue
		}
		if up, ok := initialisms[strings.ToLower(part)]; ok {
			b.WriteString(up)
			continue
		}
		if strings.HasPrefix(strings.ToLower(part), "3ds") {
			b.WriteString("3DS" + part[3:])
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// words splits a name at underscores, hyphens and lower-to-upper changes.
func words(name string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == '-' }) {
		start := 0
		for i := 1; i < len(part); i++ {
			if part[i] >= 'A' && part[i] <= 'Z' && part[i-1] >= 'a' && part[i-1] <= 'z' {
				out = append(out, part[start:i])
				start = i
			}
		}
		out = append(out, part[start:])
	}
	return out
}
