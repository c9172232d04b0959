package archtest

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// wireCode is a Hyperswitch error code written as a Go string ("IR_07",
// "HE_02", "UR_09").
// wireCode finds a Hyperswitch code (IR_07) anywhere in a string literal,
// alone or inside a longer text ("IR_07 amount_to_capture").
var wireCode = regexp.MustCompile(`\b[A-Z]{2}_[0-9]{2}\b`)

// wireCodeTable is the one file of payments/ that writes Hyperswitch
// codes: how each failure of the errs catalogue is shown (and its test,
// which checks the table against Hyperswitch's catalogue).
const wireCodeTable = "payments/errs/hyperswitch.go"

// TestNoWireCodeInTheDomain: a Hyperswitch code is how an error is shown,
// not what it is. The domain names a failure (errs.ErrRefundNotFound) and
// tests errors with errors.Is; only errs/hyperswitch.go writes codes, so
// no code in payments/, its tests included, can build or compare one.
func TestNoWireCodeInTheDomain(t *testing.T) {
	root := repoRoot(t)
	offenders := map[string][]string{}
	err := filepath.WalkDir(filepath.Join(root, "payments"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		name, _ := filepath.Rel(root, path)
		name = filepath.ToSlash(name)
		if name == wireCodeTable || name == strings.TrimSuffix(wireCodeTable, ".go")+"_test.go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		file := fset.AddFile(path, -1, len(b))
		var sc scanner.Scanner
		sc.Init(file, b, nil, 0) // comments are skipped: prose may name a code
		for {
			pos, tok, lit := sc.Scan()
			if tok == token.EOF {
				break
			}
			if code := wireCode.FindString(lit); tok == token.STRING && code != "" {
				offenders[name] = append(offenders[name], fmt.Sprintf("%s:%d %s", name, fset.Position(pos).Line, code))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(offenders))
	for name := range offenders {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if lines := offenders[name]; len(lines) > 0 {
			t.Errorf("a Hyperswitch code in the domain: name a failure of payments/errs instead (errs.ErrX.New(), errors.Is):\n\t%s",
				strings.Join(lines, "\n\t"))
		}
	}
}
