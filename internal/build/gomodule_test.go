package build

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUpdateGoModule: compiled-in data is read in place, offline or not, with no fetch, and
// neither a mirror folder of its name nor --only replaces it; its metadata names the module.
func TestUpdateGoModule(t *testing.T) {
	for _, tc := range []struct {
		name    string
		offline bool
		only    []string
	}{
		{"offline", true, nil},
		{"only", false, []string{"zeta"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeFetcher(testFiles())
			opt := testOptions(t, f)
			opt.Catalog = append(opt.Catalog, Source{Name: "zeta", Licence: "ODbL-1.0", Feeds: []string{"timeZone"},
				Fetch: GoModule{Path: "example.org/zeta", Version: "v1.2.3", Files: map[string][]byte{"data.txt": []byte("2025-02-03\nz1\nz2\n")}}})
			opt.Sections = []Section{lineSection("third", "zeta")}
			opt.Offline, opt.Only = tc.offline, tc.only
			opt.MirrorDir = t.TempDir()
			if err := writeTree(filepath.Join(opt.MirrorDir, "zeta"), map[string]string{"data.txt": "2026-01-01\nfrom the mirror\n"}); err != nil {
				t.Fatal(err)
			}
			res := mustUpdate(t, opt)
			if n := f.total(); n != 0 {
				t.Errorf("%d fetches, want none", n)
			}
			// Two lines of 2025-02-03 are the module's; the mirror's folder has one, of 2026.
			z := sourceInfo(t, res.Metadata, "zeta")
			if z.Status != StatusOK || z.Version != "v1.2.3" || z.Origin != "go module example.org/zeta@v1.2.3" || z.SHA256 != "" ||
				z.Records["lines"] != 2 || z.DataDate.Format(time.DateOnly) != "2025-02-03" ||
				!strings.HasPrefix(z.Note, "Compiled into the binary (tree sha256 ") {
				t.Errorf("zeta: %+v", z)
			}
		})
	}
}

// TestGoModuleVersions: every compiled-in source's catalogue version is the one go.mod
// requires, so that data info names the data the binary holds.
func TestGoModuleVersions(t *testing.T) {
	required := map[string]string{}
	for line := range strings.Lines(string(readFile(t, filepath.Join(repoRoot(t), "go.mod")))) {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 {
			required[f[0]] = f[1]
		}
	}
	n := 0
	for _, s := range DefaultCatalog() {
		m, ok := s.Fetch.(GoModule)
		if !ok {
			continue
		}
		n++
		if got := required[m.Path]; got != m.Version {
			t.Errorf("%s: catalogue pins %s %s, go.mod requires %q", s.Name, m.Path, m.Version, got)
		}
		if len(m.Files) == 0 {
			t.Errorf("%s: no files", s.Name)
		}
		for p, b := range m.Files {
			if len(b) == 0 {
				t.Errorf("%s: %s is empty", s.Name, p)
			}
		}
	}
	if n == 0 {
		t.Error("no GoModule source in the catalogue (tzf-rel-lite is one)")
	}
}
