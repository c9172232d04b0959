package main

import (
	"os"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2"
	"github.com/vektah/gqlparser/v2/ast"

	"switchyard/graph/generated"
)

// TestExportIsTheServedSchema: the export parses back to a valid schema
// with every type, field and argument of the served one, and none of
// gqlgen's directives; the committed file is current.
func TestExportIsTheServedSchema(t *testing.T) {
	served := generated.NewExecutableSchema(generated.Config{}).Schema()
	sdl := Export(served)
	if strings.Contains(string(sdl), "@go") {
		t.Error("the export keeps gqlgen's code-generation directives")
	}
	back, err := gqlparser.LoadSchema(&ast.Source{Name: "schema.graphql", Input: string(sdl)})
	if err != nil {
		t.Fatalf("the export does not load: %v", err)
	}
	for name, def := range served.Types {
		got := back.Types[name]
		if got == nil || got.Kind != def.Kind || len(got.Fields) != len(def.Fields) || len(got.EnumValues) != len(def.EnumValues) {
			t.Errorf("type %s differs in the export", name)
			continue
		}
		for _, f := range def.Fields {
			g := got.Fields.ForName(f.Name)
			if g == nil || g.Type.String() != f.Type.String() || len(g.Arguments) != len(f.Arguments) || g.Description != f.Description {
				t.Errorf("%s.%s differs in the export", name, f.Name)
			}
		}
		if got.Description != def.Description {
			t.Errorf("the description of %s differs in the export", name)
		}
	}
	if len(back.Types) != len(served.Types) {
		t.Errorf("%d types exported, %d served", len(back.Types), len(served.Types))
	}
	if string(Export(back)) != string(sdl) {
		t.Error("exporting the export changes it")
	}

	committed, err := os.ReadFile("../../../graph/exported/schema.graphql")
	if err != nil {
		t.Fatal(err)
	}
	if string(committed) != string(sdl) {
		t.Error("graph/exported/schema.graphql is stale: run go generate ./...")
	}
}
