package datasettest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/country"
)

// TestFixtureMatchesRealBuild keeps the fixture honest: every fact of each fixture country
// equals the real build's, as recorded in countrybuild's reviewed golden file.
func TestFixtureMatchesRealBuild(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "country", "countrybuild", "testdata", "countries.golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden []country.Country
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	byCode := map[string]country.Country{}
	for _, c := range golden {
		byCode[c.Alpha2] = c
	}
	for _, c := range Countries() {
		g, ok := byCode[c.Alpha2]
		if !ok {
			t.Errorf("%s not in the golden file", c.Alpha2)
			continue
		}
		if c.Names["en"] != g.Names["en"] {
			t.Errorf("%s: English name %q, golden %q", c.Alpha2, c.Names["en"], g.Names["en"])
		}
		c.Names, g.Names = nil, nil
		if diff := cmp.Diff(g, c); diff != "" {
			t.Errorf("%s differs from the real build (-golden +fixture):\n%s", c.Alpha2, diff)
		}
	}
}
