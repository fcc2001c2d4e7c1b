package client_test

import (
	"os"
	"strings"
	"testing"
)

// The README's client example is client/examples/geolocate verbatim, so the example people
// copy is one that compiles (go vet ./... builds it) and runs.
func TestREADMEExampleIsTheProgram(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := os.ReadFile("examples/geolocate/main.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(readme), "\n## Go client\n")
	_, block, _ := strings.Cut(section, "\n```go\n")
	block, _, _ = strings.Cut(block, "\n```\n")
	if block+"\n" != string(prog) {
		t.Errorf("README.md's Go client example is not client/examples/geolocate/main.go; copy the program into it")
	}
}
