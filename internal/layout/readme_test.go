package layout

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestREADMEGoExamples builds every Go block of README.md, so that a change to the client
// or an edit of the text cannot leave README with code that does not compile. A block is a
// whole program, or a function body that takes ctx and key as given; it is wrapped in a main package with the
// imports such examples use and built through an overlay, inside the module (so that it
// imports the client as a user's code would) but without writing into the source tree.
func TestREADMEGoExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds code with the go command")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := goBlocks(string(readme))
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go block (its Go client example is one)")
	}
	for i, block := range blocks {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			tmp := t.TempDir()
			src := filepath.Join(tmp, "main.go")
			if err := os.WriteFile(src, []byte(exampleProgram(block)), 0o644); err != nil {
				t.Fatal(err)
			}
			// A package directory that does not exist: the overlay alone makes it.
			pkg := filepath.Join("internal", "layout", "readmeexample")
			overlay, err := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(root, pkg, "main.go"): src}})
			if err != nil {
				t.Fatal(err)
			}
			ov := filepath.Join(tmp, "overlay.json")
			if err := os.WriteFile(ov, overlay, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(goBin, "build", "-overlay", ov, "-o", os.DevNull, "./"+filepath.ToSlash(pkg))
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("README's Go block %d does not build: %v\n%s\n%s", i, err, out, block)
			}
			// A whole program is one of client/examples, verbatim, so that the program
			// people copy is also one they can run from the repository.
			if isProgram(block) {
				examples, _ := filepath.Glob(filepath.Join(root, "client", "examples", "*", "main.go"))
				if !slices.ContainsFunc(examples, func(f string) bool { b, _ := os.ReadFile(f); return string(b) == block+"\n" }) {
					t.Errorf("README's Go block %d is a program but none of client/examples/*/main.go; copy it there or from there", i)
				}
			}
		})
	}
}

// isProgram reports whether a README block is a whole program: it has a package clause.
func isProgram(block string) bool {
	return strings.HasPrefix(block, "package ") || strings.Contains(block, "\npackage ")
}

// goBlocks returns the contents of README's ```go fences.
func goBlocks(md string) []string {
	var blocks []string
	for {
		_, rest, ok := strings.Cut(md, "\n```go\n")
		if !ok {
			return blocks
		}
		block, after, ok := strings.Cut(rest, "\n```")
		if !ok {
			return blocks
		}
		blocks = append(blocks, block)
		md = after
	}
}

// exampleProgram wraps a README block in a main package. The blank uses keep an import
// or the given ctx and key from failing the build where a block does not need them. A
// block that is a whole program (it has a package clause) is built as it is.
func exampleProgram(block string) string {
	if isProgram(block) {
		return block + "\n"
	}
	return `package main

import (
	"context"
	"errors"
	"fmt"
	"log"

	"github.com/ipatlas/ipatlas/client"
)

var (
	_ = errors.New
	_ = fmt.Sprint
	_ = log.Print
	_ = client.New
)

func main() {
	ctx, key := context.Background(), "ipa_example"
	_, _ = ctx, key
` + block + `
}
`
}
