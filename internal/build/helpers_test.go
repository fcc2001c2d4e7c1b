package build

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeFetcher serves sources from Go literals instead of the network and counts its calls.
type fakeFetcher struct {
	mu    sync.Mutex
	files map[string]map[string]string // source name -> path -> content
	fail  map[string]error             // source name -> error to return
	calls map[string]int
}

func newFakeFetcher(files map[string]map[string]string) *fakeFetcher {
	return &fakeFetcher{files: files, fail: map[string]error{}, calls: map[string]int{}}
}

func (f *fakeFetcher) Fetch(_ context.Context, src Source, dir string) (Artifact, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[src.Name]++
	if err := f.fail[src.Name]; err != nil {
		return Artifact{}, err
	}
	files, ok := f.files[src.Name]
	if !ok {
		return Artifact{}, fmt.Errorf("fake fetcher has no %s", src.Name)
	}
	if err := writeTree(dir, files); err != nil {
		return Artifact{}, err
	}
	return Artifact{SHA256: strings.Repeat("0", 63) + fmt.Sprint(len(files)%10), Size: int64(len(files))}, nil
}

// total returns the number of Fetch calls so far.
func (f *fakeFetcher) total() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, c := range f.calls {
		n += c
	}
	return n
}

func (f *fakeFetcher) callsOf(name string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[name]
}

// writeTree creates files (slash paths relative to dir) with their contents.
func writeTree(dir string, files map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// testCatalog has two required npm sources, one optional npm source and one optional
// mirror-only source, plus one no section reads.
func testCatalog() []Source {
	return []Source{
		{Name: "alpha", Licence: "MIT", Attribution: "Alpha authors", Required: true, Feeds: []string{"country.name"},
			Fetch: NPM{Package: "alpha", Version: "1.0.0", Integrity: "sha512-pinned-alpha"}},
		{Name: "beta", Licence: "ISC", Required: true, Feeds: []string{"country.currency"},
			Fetch: NPM{Package: "@scope/beta", Version: "2.0.0", Integrity: "sha512-pinned-beta"}},
		{Name: "gamma", Licence: "CC0-1.0", Feeds: []string{"risk"},
			Fetch: NPM{Package: "gamma", Version: "3.0.0", Integrity: "sha512-pinned-gamma"}},
		{Name: "mirrored", Licence: "CC-BY-4.0", Feeds: []string{"country.wbRegion"}, Fetch: MirrorOnly{}, Notes: "from a mirror"},
		{Name: "spare", Licence: "MIT", Fetch: NPM{Package: "spare", Version: "0.1.0", Integrity: "sha512-pinned-spare"}},
	}
}

// testFiles is what the fake network holds for testCatalog.
func testFiles() map[string]map[string]string {
	return map[string]map[string]string{
		"alpha": {"package.json": `{"name":"alpha","version":"1.0.0"}`, "data.txt": "2025-10-29\nAU\nNZ\n"},
		"beta":  {"package.json": `{"name":"@scope/beta","version":"2.0.0"}`, "lib/data.txt": "2026-01-20\nAUD\n"},
		"gamma": {"package.json": `{"name":"gamma","version":"3.0.0"}`, "data.txt": "2024-03-12\n1.2.3.4\n5.6.7.8\n9.9.9.9\n"},
		"spare": {"package.json": `{"name":"spare","version":"0.1.0"}`},
	}
}

// lineSection is a test section builder: for each needed source it reads the first file
// named data.txt, takes its first line as the data date and counts the other lines.
func lineSection(name string, needs ...string) Section {
	return Section{Name: name, Needs: needs, Build: func(ctx context.Context, src Sources, rep *Report) ([]byte, error) {
		var out bytes.Buffer
		for _, n := range needs {
			fsys, ok := src.Source(n)
			if !ok {
				fmt.Fprintf(&out, "%s: missing\n", n)
				continue
			}
			b, err := readDataFile(fsys)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", n, err)
			}
			sc := bufio.NewScanner(bytes.NewReader(b))
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			if len(lines) == 0 {
				return nil, fmt.Errorf("%s: empty data.txt", n)
			}
			date, err := time.Parse(time.DateOnly, lines[0])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", n, err)
			}
			rep.DataDate(n, date)
			rep.Count(n, "lines", len(lines)-1)
			fmt.Fprintf(&out, "%s: %s\n", n, strings.Join(lines[1:], ","))
		}
		return out.Bytes(), nil
	}}
}

// readDataFile returns the first file named data.txt in fsys, in walk order.
func readDataFile(fsys fs.FS) ([]byte, error) {
	var found string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if found == "" && d.Name() == "data.txt" {
			found = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if found == "" {
		return nil, fs.ErrNotExist
	}
	return fs.ReadFile(fsys, found)
}

// testOptions returns Options for the test catalogue with everything under a temp dir.
func testOptions(t *testing.T, f Fetcher) Options {
	t.Helper()
	dir := t.TempDir()
	return Options{
		DataDir:  filepath.Join(dir, "data"),
		CacheDir: filepath.Join(dir, "cache"),
		Catalog:  testCatalog(),
		Fetcher:  f,
		Sections: []Section{lineSection("first", "alpha", "beta"), lineSection("second", "gamma", "mirrored")},
		Progress: t.Output(), // shown with -v or on failure
	}
}

// repoRoot walks up from the package directory to the directory holding go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the package directory")
		}
		dir = parent
	}
}

// sharedData returns ../shared/data beside the repository, skipping the test when it is
// absent, except in CI, where it must be there.
func sharedData(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "..", "shared", "data")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared data %s not found (CI is set, so it must be there)", dir)
		}
		t.Skipf("shared data %s not found", dir)
	}
	return dir
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
