package layout

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPackageDocs checks every package of the module: exactly one of its non-test files has a
// package doc comment, so godoc shows one coherent text rather than concatenated fragments,
// or nothing.
func TestPackageDocs(t *testing.T) {
	root := filepath.Join("..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	docs := map[string][]string{} // package directory -> files with a doc comment
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || name == "var" || name == "node_modules" || name == "bin" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		if _, ok := docs[dir]; !ok {
			docs[dir] = nil
		}
		if f.Doc != nil {
			docs[dir] = append(docs[dir], name)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dirs := make([]string, 0, len(docs))
	for dir := range docs {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		if files := docs[dir]; len(files) != 1 {
			t.Errorf("%s: package doc comment in %v, want exactly one file", dir, files)
		}
	}
	if len(dirs) < 20 {
		t.Errorf("found only %d packages under %s; is the walk broken?", len(dirs), root)
	}
}
