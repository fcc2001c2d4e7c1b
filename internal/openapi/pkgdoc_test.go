package openapi_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"testing"
)

// TestPackageDoc checks that exactly one file of the package carries the package doc comment,
// so that godoc shows one coherent text rather than concatenated fragments.
func TestPackageDoc(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var withDoc []string
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil && f.Name.Name == "openapi" {
			withDoc = append(withDoc, name)
		}
	}
	if len(withDoc) != 1 {
		t.Errorf("package doc comment in %v, want exactly one file", withDoc)
	}
}
