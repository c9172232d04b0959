package archtest

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxDomainFuncLines bounds a hand-written function of payments/: one that
// grows past it is deciding and writing at once, or doing two things.
// Decisions live apart from their writes (docs/architecture.md, "A
// payment: decide, apply, call the connector, settle").
const maxDomainFuncLines = 60

// TestDomainFunctionsAreShort: no function or method in payments/ (tests
// aside) is longer than maxDomainFuncLines, its signature to its closing
// brace.
func TestDomainFunctionsAreShort(t *testing.T) {
	root := repoRoot(t)
	fset := token.NewFileSet()
	err := filepath.WalkDir(filepath.Join(root, "payments"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok {
				continue
			}
			start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
			if n := end.Line - start.Line + 1; n > maxDomainFuncLines {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d %s is %d lines (at most %d): split its decisions from its writes",
					filepath.ToSlash(rel), start.Line, fn.Name.Name, n, maxDomainFuncLines)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
