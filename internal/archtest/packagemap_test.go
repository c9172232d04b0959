package archtest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// packageMap is the entries of docs/architecture.md's "## Package map": the first
// word of each line of its fenced block, a directory ending in "/".
func packageMap(t *testing.T, doc string) []string {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Package map\n")
	if !ok {
		t.Fatal(`docs/architecture.md has no "## Package map" section`)
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	parts := strings.Split(section, "```")
	if len(parts) < 3 {
		t.Fatal("docs/architecture.md's package map has no fenced block")
	}
	var entries []string
	for _, line := range strings.Split(parts[1], "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || !strings.HasSuffix(fields[0], "/") {
			continue
		}
		entries = append(entries, strings.TrimSuffix(fields[0], "/"))
	}
	return entries
}

// generated reports whether a package is ent's generated code, which the
// map's ent/ entry stands for (ent/schema, written by hand, is listed).
func generated(path string) bool {
	return hasPrefixPath(path, "ent") && !hasPrefixPath(path, "ent/schema")
}

// TestPackageMapIsTrue: the package map of docs/architecture.md names every package
// of `go list ./...` (ent's generated ones through ent/), and nothing that is
// not a directory of the repository.
func TestPackageMapIsTrue(t *testing.T) {
	root := repoRoot(t)
	entries := packageMap(t, readFile(t, filepath.Join(root, "docs", "architecture.md")))
	for _, e := range entries {
		if fi, err := os.Stat(filepath.Join(root, e)); err != nil || !fi.IsDir() {
			t.Errorf("the package map names %s/, which is not a directory", e)
		}
	}
	for _, p := range listPackages(t) {
		path := rel(p.ImportPath)
		if path == "" {
			continue
		}
		if generated(path) {
			path = "ent"
		}
		if !slices.Contains(entries, path) {
			t.Errorf("the package map (docs/architecture.md) lacks %s/", path)
		}
	}
}
