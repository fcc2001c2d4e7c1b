package countrybuild

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/countries.golden.json from the real sources")

// TestGolden pins the whole registry built from the real sources: every country as indented
// JSON of the Go struct, with Names cut down to English to keep the file reviewable. A change
// of source data or of the build shows up here as a diff to review; accept it with
//
//	go test ./internal/country/countrybuild -run Golden -update
func TestGolden(t *testing.T) {
	rb := realDB(t)
	all := rb.db.All()
	for i := range all {
		all[i].Names = map[string]string{"en": all[i].Names["en"]}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "Europe & Central Asia", not "\u0026"
	enc.SetIndent("", "  ")
	if err := enc.Encode(all); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	path := filepath.Join("testdata", "countries.golden.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("registry differs from %s (-want +got):\n%s", path,
			cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
}
