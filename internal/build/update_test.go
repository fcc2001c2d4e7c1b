package build

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

func mustUpdate(t *testing.T, opt Options) Result {
	t.Helper()
	res, err := Update(context.Background(), opt)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	return res
}

// sourceInfo returns the named source's entry in md.
func sourceInfo(t *testing.T, md dbfile.Metadata, name string) dbfile.SourceInfo {
	t.Helper()
	for _, s := range md.Sources {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no source %q in metadata", name)
	return dbfile.SourceInfo{}
}

func TestUpdate(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	res := mustUpdate(t, opt)

	if res.Path != filepath.Join(opt.DataDir, SnapshotName) {
		t.Errorf("Path = %s", res.Path)
	}
	file, err := dbfile.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"first", "second"}, file.SectionNames()); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	first, _ := file.Section("first")
	if want := "alpha: AU,NZ\nbeta: AUD\n"; string(first) != want {
		t.Errorf("section first = %q, want %q", first, want)
	}
	second, _ := file.Section("second")
	if want := "gamma: 1.2.3.4,5.6.7.8,9.9.9.9\nmirrored: missing\n"; string(second) != want {
		t.Errorf("section second = %q, want %q", second, want)
	}

	md := file.Metadata()
	if diff := cmp.Diff(res.Metadata, md); diff != "" {
		t.Errorf("Result.Metadata differs from the file's (-result +file):\n%s", diff)
	}
	if want := time.Date(2026, 1, 20, 0, 0, 0, 0, time.UTC); !md.BuildTime.Equal(want) {
		t.Errorf("BuildTime = %v, want the newest data date %v", md.BuildTime, want)
	}
	var names []string
	for _, s := range md.Sources {
		names = append(names, s.Name)
	}
	if diff := cmp.Diff([]string{"alpha", "beta", "gamma", "mirrored", "spare"}, names); diff != "" {
		t.Errorf("metadata sources (-want +got):\n%s", diff)
	}

	alpha := sourceInfo(t, md, "alpha")
	wantAlpha := dbfile.SourceInfo{
		Name: "alpha", Version: "1.0.0", Licence: "MIT", Attribution: "Alpha authors",
		Origin: "npm alpha@1.0.0", SHA256: strings.Repeat("0", 63) + "2",
		DataDate: time.Date(2025, 10, 29, 0, 0, 0, 0, time.UTC), Status: StatusOK,
		Records: map[string]int{"lines": 2}, Feeds: []string{"country.name"},
	}
	if diff := cmp.Diff(wantAlpha, alpha); diff != "" {
		t.Errorf("alpha SourceInfo (-want +got):\n%s", diff)
	}
	if b := sourceInfo(t, md, "beta"); b.Origin != "npm @scope/beta@2.0.0" {
		t.Errorf("beta origin %q", b.Origin)
	}

	mirrored := sourceInfo(t, md, "mirrored")
	if mirrored.Status != StatusMissing || !strings.Contains(mirrored.Note, "not in the mirror") ||
		!strings.Contains(mirrored.Note, "country.wbRegion") || !strings.HasPrefix(mirrored.Note, "from a mirror") {
		t.Errorf("mirrored = %+v; want missing, with the reason, the empty fields and the catalogue note", mirrored)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], "mirrored: missing") {
		t.Errorf("Warnings = %q, want one about mirrored", res.Warnings)
	}

	spare := sourceInfo(t, md, "spare")
	if spare.Status != StatusUnused || f.callsOf("spare") != 0 {
		t.Errorf("spare: status %q, %d fetches; want unused and never fetched", spare.Status, f.callsOf("spare"))
	}
	if got := f.callsOf("mirrored"); got != 0 {
		t.Errorf("the mirror-only source went to the fetcher %d times", got)
	}
}

func TestUpdateWarmCacheDoesNotFetch(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	first := mustUpdate(t, opt)
	if got := f.total(); got != 3 {
		t.Fatalf("cold cache: %d fetches, want 3 (alpha, beta, gamma)", got)
	}
	firstBytes := readFile(t, first.Path)

	second := mustUpdate(t, opt)
	if got := f.total(); got != 3 {
		t.Errorf("warm cache: %d more fetches, want none", got-3)
	}
	if !bytes.Equal(firstBytes, readFile(t, second.Path)) {
		t.Errorf("snapshot from the warm cache differs from the one built from fresh fetches")
	}
	if !bytes.Equal(firstBytes, readFile(t, second.Path+".prev")) {
		t.Errorf("the previous snapshot was not kept as .prev")
	}
}

func TestUpdateDeterministic(t *testing.T) {
	// Two independent updates (own cache, own data dir, sections listed in another order)
	// must produce the same bytes.
	a := testOptions(t, newFakeFetcher(testFiles()))
	b := testOptions(t, newFakeFetcher(testFiles()))
	b.Sections = []Section{b.Sections[1], b.Sections[0]}
	ra, rb := mustUpdate(t, a), mustUpdate(t, b)
	if !bytes.Equal(readFile(t, ra.Path), readFile(t, rb.Path)) {
		t.Errorf("two updates from the same sources gave different snapshots")
	}
}

func TestUpdateOnlyRefetches(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	mustUpdate(t, opt)

	opt.Only = []string{"beta"}
	mustUpdate(t, opt)
	if got := f.callsOf("beta"); got != 2 {
		t.Errorf("beta fetched %d times, want 2 (listed in Only)", got)
	}
	if got := f.callsOf("alpha"); got != 1 {
		t.Errorf("alpha fetched %d times, want 1 (cached, not in Only)", got)
	}
}

func TestUpdateMirrorBeatsNetwork(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	opt.MirrorDir = t.TempDir()
	if err := writeTree(filepath.Join(opt.MirrorDir, "alpha"), map[string]string{
		"package.json": `{"name":"alpha","version":"1.0.0"}`, "data.txt": "2026-05-01\nFJ\n",
	}); err != nil {
		t.Fatal(err)
	}
	if err := writeTree(filepath.Join(opt.MirrorDir, "mirrored"), map[string]string{"data.txt": "2023-01-01\nx\n"}); err != nil {
		t.Fatal(err)
	}

	res := mustUpdate(t, opt)
	if got := f.callsOf("alpha"); got != 0 {
		t.Errorf("alpha fetched %d times though the mirror has it", got)
	}
	alpha := sourceInfo(t, res.Metadata, "alpha")
	if alpha.Status != StatusOK || alpha.Origin != "mirror" || alpha.Version != "1.0.0" ||
		alpha.SHA256 != "" || !strings.Contains(alpha.Note, "tree sha256 ") {
		t.Errorf("alpha from mirror: %+v", alpha)
	}
	if m := sourceInfo(t, res.Metadata, "mirrored"); m.Status != StatusOK || m.Records["lines"] != 1 || m.Version != "" {
		t.Errorf("mirrored from mirror: %+v", m)
	}
	if want := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC); !res.Metadata.BuildTime.Equal(want) {
		t.Errorf("BuildTime = %v, want %v", res.Metadata.BuildTime, want)
	}
}

// TestUpdateMirrorPathNotRecorded: the same mirror trees under two paths give the same
// snapshot bytes (the tree digests, not the path, say what was read).
func TestUpdateMirrorPathNotRecorded(t *testing.T) {
	var snaps [][]byte
	for _, mirror := range []string{t.TempDir(), filepath.Join(t.TempDir(), "elsewhere", "data")} {
		opt := testOptions(t, newFakeFetcher(testFiles()))
		opt.MirrorDir = mirror
		if err := writeTree(filepath.Join(mirror, "mirrored"), map[string]string{"data.txt": "2023-01-01\nx\n"}); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, readFile(t, mustUpdate(t, opt).Path))
	}
	if !bytes.Equal(snaps[0], snaps[1]) {
		t.Error("the same mirror trees under two paths gave different snapshots")
	}
}

// TestUpdateEmptyMirrorFolder: an emptied mirror folder is no copy of the source: the source
// is missing (it has nothing else to come from here), with a warning, not ok with no data.
func TestUpdateEmptyMirrorFolder(t *testing.T) {
	opt := testOptions(t, newFakeFetcher(testFiles()))
	opt.MirrorDir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(opt.MirrorDir, "mirrored", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := mustUpdate(t, opt)
	if m := sourceInfo(t, res.Metadata, "mirrored"); m.Status != StatusMissing {
		t.Errorf("mirrored from an empty folder: %+v", m)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "holds no data") }) {
		t.Errorf("no warning of the empty folder in %q", res.Warnings)
	}
}

func TestUpdateMirrorWrongVersion(t *testing.T) {
	opt := testOptions(t, newFakeFetcher(testFiles()))
	opt.MirrorDir = t.TempDir()
	if err := writeTree(filepath.Join(opt.MirrorDir, "alpha"), map[string]string{
		"package.json": `{"name":"alpha","version":"0.9.0"}`, "data.txt": "2026-05-01\nFJ\n",
	}); err != nil {
		t.Fatal(err)
	}
	_, err := Update(context.Background(), opt)
	if !errors.Is(err, ErrRequired) || !strings.Contains(err.Error(), "alpha@0.9.0") {
		t.Errorf("Update = %v, want ErrRequired naming the mirror's version", err)
	}
}

// TestUpdateFailureKeepsSnapshot checks every way an update can fail after a good snapshot
// exists: the snapshot must stay byte for byte, and no .prev may appear.
func TestUpdateFailureKeepsSnapshot(t *testing.T) {
	tests := []struct {
		name   string
		modify func(*Options, *fakeFetcher)
		want   error
	}{
		{"offline, required not cached", func(o *Options, f *fakeFetcher) {
			o.Offline = true
			o.CacheDir = filepath.Join(filepath.Dir(o.CacheDir), "empty-cache")
		}, ErrRequired},
		{"required fetch fails", func(o *Options, f *fakeFetcher) {
			o.Only = []string{"beta"}
			f.fail["beta"] = ErrIntegrity
		}, ErrRequired},
		{"section fails", func(o *Options, f *fakeFetcher) {
			o.Sections = append(o.Sections, Section{Name: "broken", Build: func(context.Context, Sources, *Report) ([]byte, error) {
				return nil, os.ErrInvalid
			}})
		}, os.ErrInvalid},
		{"cancelled", func(o *Options, f *fakeFetcher) {
			o.Sections = append(o.Sections, Section{Name: "slow", Build: func(ctx context.Context, _ Sources, _ *Report) ([]byte, error) {
				return nil, context.Canceled
			}})
		}, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeFetcher(testFiles())
			opt := testOptions(t, f)
			good := mustUpdate(t, opt)
			before := readFile(t, good.Path)
			if err := os.Remove(good.Path + ".prev"); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}

			tt.modify(&opt, f)
			_, err := Update(context.Background(), opt)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Update = %v, want %v", err, tt.want)
			}
			if !bytes.Equal(before, readFile(t, good.Path)) {
				t.Errorf("failed update changed the snapshot")
			}
			if _, err := os.Stat(good.Path + ".prev"); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("failed update created .prev (%v)", err)
			}
		})
	}
}

func TestUpdateOffline(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	mustUpdate(t, opt)

	// Warm cache: offline works and fetches nothing.
	opt.Offline = true
	f.fail["alpha"], f.fail["beta"], f.fail["gamma"] = errors.New("network"), errors.New("network"), errors.New("network")
	mustUpdate(t, opt)
	if got := f.total(); got != 3 {
		t.Errorf("offline update fetched %d times", got-3)
	}

	// An optional source missing from the cache is only a warning.
	if err := os.RemoveAll(filepath.Join(opt.CacheDir, "gamma")); err != nil {
		t.Fatal(err)
	}
	res := mustUpdate(t, opt)
	if g := sourceInfo(t, res.Metadata, "gamma"); g.Status != StatusMissing || !strings.Contains(g.Note, "offline") {
		t.Errorf("gamma = %+v, want missing because offline", g)
	}
}

func TestUpdateOptionalFetchError(t *testing.T) {
	f := newFakeFetcher(testFiles())
	f.fail["gamma"] = ErrIntegrity
	opt := testOptions(t, f)
	res := mustUpdate(t, opt)
	g := sourceInfo(t, res.Metadata, "gamma")
	if g.Status != StatusError || !strings.Contains(g.Note, "pinned checksum") {
		t.Errorf("gamma = %+v, want error with the reason", g)
	}
	// The failed first fetch leaves nothing in the cache, not even an empty folder.
	if _, err := os.Stat(filepath.Join(opt.CacheDir, "gamma")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("cache folder of the failed fetch: %v, want none", err)
	}
}

// TestUpdateMissingSourceFields: a missing optional source's warning names as left empty
// only the fields no source that was obtained also feeds.
func TestUpdateMissingSourceFields(t *testing.T) {
	f := newFakeFetcher(testFiles())
	f.fail["gamma"] = ErrIntegrity
	opt := testOptions(t, f)
	opt.Catalog[2].Feeds = []string{"risk", "country.name", "country.wbRegion"}
	res := mustUpdate(t, opt)
	// mirrored, which also feeds country.wbRegion, is missing too (no mirror here).
	want := "fields left empty: risk, country.wbRegion; also fed by other sources: country.name (alpha)"
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, want) }) {
		t.Errorf("no warning %q in %q", want, res.Warnings)
	}
}

func TestUpdateDamagedCacheIsRefetched(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	mustUpdate(t, opt)
	if err := os.WriteFile(filepath.Join(opt.CacheDir, "alpha", "1.0.0", "data.txt"), []byte("2099-01-01\nEVIL\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := mustUpdate(t, opt)
	if got := f.callsOf("alpha"); got != 2 {
		t.Errorf("alpha fetched %d times, want 2 (damaged cache refetched)", got)
	}
	if res.Metadata.BuildTime.Year() == 2099 {
		t.Errorf("the damaged cached file was used")
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, "\n"), "damaged cache") {
		t.Errorf("Warnings = %q, want one about the damaged cache", res.Warnings)
	}
}

func TestUpdateChangedPinInvalidatesCache(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	mustUpdate(t, opt)
	opt.Catalog[0].Fetch = NPM{Package: "alpha", Version: "1.0.0", Integrity: "sha512-another-pin"}
	mustUpdate(t, opt)
	if got := f.callsOf("alpha"); got != 2 {
		t.Errorf("alpha fetched %d times, want 2 (pin changed)", got)
	}
}

func TestSourcesOnlyDeclared(t *testing.T) {
	opt := testOptions(t, newFakeFetcher(testFiles()))
	var sawBeta, sawAlpha bool
	opt.Sections = append(opt.Sections, Section{Name: "sneaky", Needs: []string{"alpha"},
		Build: func(_ context.Context, src Sources, _ *Report) ([]byte, error) {
			_, sawAlpha = src.Source("alpha")
			_, sawBeta = src.Source("beta") // fetched for another section, but not declared here
			return nil, nil
		}})
	mustUpdate(t, opt)
	if !sawAlpha || sawBeta {
		t.Errorf("section saw alpha=%v beta=%v; want only its declared source", sawAlpha, sawBeta)
	}
}

// TestDerivedSection: a derived section sees the bytes of the sections it uses, and only
// those, and is written like any other.
func TestDerivedSection(t *testing.T) {
	opt := testOptions(t, newFakeFetcher(testFiles()))
	var got map[string][]byte
	opt.Sections = append(opt.Sections, Section{Name: "joined", Uses: []string{"second"},
		Derive: func(_ context.Context, sections map[string][]byte, _ *Report) ([]byte, error) {
			got = sections
			return append([]byte("from second: "), sections["second"]...), nil
		}})
	res := mustUpdate(t, opt)
	if len(got) != 1 || len(got["second"]) == 0 {
		t.Fatalf("Derive saw %q, want just a non-empty section second", got)
	}
	f, err := dbfile.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	joined, _ := f.Section("joined")
	second, _ := f.Section("second")
	if string(joined) != "from second: "+string(second) {
		t.Errorf("joined section %q, second %q", joined, second)
	}
}

func TestUpdateOptionErrors(t *testing.T) {
	build := func(context.Context, Sources, *Report) ([]byte, error) { return nil, nil }
	derive := func(context.Context, map[string][]byte, *Report) ([]byte, error) { return nil, nil }
	tests := []struct {
		name   string
		modify func(*Options)
	}{
		{"unknown only", func(o *Options) { o.Only = []string{"nope"} }},
		{"offline and only", func(o *Options) { o.Offline, o.Only = true, []string{"alpha"} }},
		{"mirror missing", func(o *Options) { o.MirrorDir = filepath.Join(o.DataDir, "no-such-mirror") }},
		{"unknown need", func(o *Options) { o.Sections = []Section{{Name: "x", Needs: []string{"nope"}, Build: build}} }},
		{"duplicate section", func(o *Options) { o.Sections = []Section{{Name: "x", Build: build}, {Name: "x", Build: build}} }},
		{"unnamed section", func(o *Options) { o.Sections = []Section{{Build: build}} }},
		{"section without build", func(o *Options) { o.Sections = []Section{{Name: "x"}} }},
		{"build and derive", func(o *Options) { o.Sections = []Section{{Name: "x", Build: build, Derive: derive}} }},
		{"uses without derive", func(o *Options) {
			o.Sections = append(o.Sections, Section{Name: "x", Uses: []string{"first"}, Build: build})
		}},
		{"uses a later section", func(o *Options) {
			o.Sections = append([]Section{{Name: "x", Uses: []string{"first"}, Derive: derive}}, o.Sections...)
		}},
		{"uses an unknown section", func(o *Options) {
			o.Sections = append(o.Sections, Section{Name: "x", Uses: []string{"nope"}, Derive: derive})
		}},
		{"duplicate source", func(o *Options) { o.Catalog = append(o.Catalog, o.Catalog[0]) }},
		{"bad source name", func(o *Options) { o.Catalog[0].Name = "../alpha" }},
		{"bad version", func(o *Options) { o.Catalog[0].Fetch = NPM{Package: "alpha", Version: "../1"} }},
		{"no fetch method", func(o *Options) { o.Catalog[0].Fetch = nil }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeFetcher(testFiles())
			opt := testOptions(t, f)
			tt.modify(&opt)
			if _, err := Update(context.Background(), opt); err == nil {
				t.Errorf("Update succeeded, want error")
			}
			if f.total() != 0 {
				t.Errorf("invalid options still fetched %d sources", f.total())
			}
		})
	}
}

func TestUpdateProgress(t *testing.T) {
	var progress bytes.Buffer
	opt := testOptions(t, newFakeFetcher(testFiles()))
	opt.Progress = &progress
	mustUpdate(t, opt)
	mustUpdate(t, opt)
	out := progress.String()
	for _, want := range []string{
		"source  alpha ", " fetch ", " cache ", "missing: mirror-only source",
		"section first ", "alpha: lines=2", "not read by any section, not fetched: spare",
		"warning: mirrored: missing", "snapshot ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("progress lacks %q:\n%s", want, out)
		}
	}
}

// TestUpdateSharedMirror reads real mirror-only sources from ../shared/data, as CI does.
func TestUpdateSharedMirror(t *testing.T) {
	mirror := sharedData(t)
	f := newFakeFetcher(nil)
	dir := t.TempDir()
	var torFiles int
	opt := Options{
		DataDir: filepath.Join(dir, "data"), CacheDir: filepath.Join(dir, "cache"), MirrorDir: mirror,
		Offline: true, Fetcher: f, Progress: t.Output(),
		Sections: []Section{{Name: "probe", Needs: []string{"tor", "iana-registries"},
			Build: func(_ context.Context, src Sources, rep *Report) ([]byte, error) {
				tor, ok := src.Source("tor")
				if !ok {
					return nil, errors.New("tor not available")
				}
				entries, err := os.ReadDir(filepath.Join(mirror, "tor"))
				if err != nil {
					return nil, err
				}
				for _, e := range entries {
					if _, err := tor.Open(e.Name()); err != nil {
						return nil, err
					}
					torFiles++
				}
				rep.Count("tor", "files", torFiles)
				return []byte("ok"), nil
			}}},
	}
	res := mustUpdate(t, opt)
	if f.total() != 0 || torFiles == 0 {
		t.Errorf("%d fetches, %d tor files read; want 0 and some", f.total(), torFiles)
	}
	for _, name := range []string{"tor", "iana-registries"} {
		if s := sourceInfo(t, res.Metadata, name); s.Status != StatusOK {
			t.Errorf("%s: %+v", name, s)
		}
	}
}

func TestUpdateBuilderWarnings(t *testing.T) {
	var progress bytes.Buffer
	opt := testOptions(t, newFakeFetcher(testFiles()))
	opt.Progress = &progress
	opt.Sections = append(opt.Sections, Section{Name: "picky", Needs: []string{"alpha"},
		Build: func(_ context.Context, _ Sources, rep *Report) ([]byte, error) {
			rep.Warnf("alpha", "skipped %d odd rows", 2)
			return nil, nil
		}})
	res := mustUpdate(t, opt)
	if a := sourceInfo(t, res.Metadata, "alpha"); a.Note != "skipped 2 odd rows." {
		t.Errorf("alpha note %q, want the builder's warning", a.Note)
	}
	if !strings.Contains(progress.String(), "warning: alpha: skipped 2 odd rows\n") {
		t.Errorf("warning not printed:\n%s", progress.String())
	}
	if !strings.Contains(strings.Join(res.Warnings, "\n"), "alpha: skipped 2 odd rows") {
		t.Errorf("Warnings = %q", res.Warnings)
	}
}

// A data directory the snapshot could not be written to fails the update before it fetches
// or builds anything, not minutes later.
func TestUpdateUnwritableDataDir(t *testing.T) {
	f := newFakeFetcher(testFiles())
	opt := testOptions(t, f)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	opt.DataDir = filepath.Join(file, "data")
	if _, err := Update(context.Background(), opt); err == nil || !strings.Contains(err.Error(), "data directory") {
		t.Errorf("Update into %s: %v, want a data directory error", opt.DataDir, err)
	}
	if f.total() != 0 {
		t.Errorf("fetched %d sources for a snapshot it could not write", f.total())
	}

	opt.DataDir = filepath.Join(t.TempDir(), "new", "data")
	mustUpdate(t, opt)
	entries, _ := os.ReadDir(opt.DataDir)
	for _, e := range entries {
		if e.Name() != SnapshotName {
			t.Errorf("after an update %s holds %s", opt.DataDir, e.Name())
		}
	}
}

// TestUpdateTreePinned: where the catalogue pins the unpacked tree, a mirror folder is held
// to it as a download is: the published files pass, one changed byte fails the update; a
// fetch that unpacks to another tree fails too, and a cached copy of another tree is fetched
// again.
func TestUpdateTreePinned(t *testing.T) {
	published := map[string]string{"package.json": `{"name":"alpha","version":"1.0.0"}`, "data.txt": "2026-05-01\nFJ\n"}
	dir := t.TempDir()
	if err := writeTree(dir, published); err != nil {
		t.Fatal(err)
	}
	tree, _, err := treeDigest(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	pinned := func(opt *Options) {
		for i, s := range opt.Catalog {
			if m, ok := s.Fetch.(NPM); ok && s.Name == "alpha" {
				m.Tree = tree
				opt.Catalog[i].Fetch = m
			}
		}
	}

	for _, tc := range []struct {
		name string
		data string
		ok   bool
	}{{"as published", published["data.txt"], true}, {"one byte changed", "2026-05-01\nFK\n", false}} {
		t.Run("mirror "+tc.name, func(t *testing.T) {
			f := newFakeFetcher(testFiles())
			opt := testOptions(t, f)
			pinned(&opt)
			opt.MirrorDir = t.TempDir()
			if err := writeTree(filepath.Join(opt.MirrorDir, "alpha"), map[string]string{"package.json": published["package.json"], "data.txt": tc.data}); err != nil {
				t.Fatal(err)
			}
			_, err := Update(context.Background(), opt)
			if tc.ok && err != nil || !tc.ok && (!errors.Is(err, ErrRequired) || !strings.Contains(err.Error(), "not npm alpha@1.0.0 as published")) {
				t.Errorf("Update = %v, want ok=%v (refused as not the published files)", err, tc.ok)
			}
			if got := f.callsOf("alpha"); got != 0 {
				t.Errorf("alpha fetched %d times though the mirror has it", got)
			}
		})
	}

	t.Run("fetch of another tree", func(t *testing.T) {
		opt := testOptions(t, newFakeFetcher(testFiles())) // alpha's fake files are not the pinned ones
		pinned(&opt)
		if _, err := Update(context.Background(), opt); !errors.Is(err, ErrRequired) || !strings.Contains(err.Error(), "catalogue pins "+tree) {
			t.Errorf("Update = %v, want the fetched tree refused", err)
		}
	})

	t.Run("cache of another tree", func(t *testing.T) {
		files := testFiles()
		files["alpha"] = published
		f := newFakeFetcher(files)
		opt := testOptions(t, f)
		mustUpdate(t, opt) // caches alpha, unpinned
		pinned(&opt)
		m, err := newCacheEntry(opt.CacheDir, "alpha", "1.0.0").load(opt.Catalog[0].Fetch.Pin())
		if err != nil || m.TreeSHA256 != tree {
			t.Fatalf("cached alpha: %+v, %v; want tree %s", m, err, tree)
		}
		opt.Catalog[0].Fetch = NPM{Package: "alpha", Version: "1.0.0", Integrity: "sha512-pinned-alpha", Tree: strings.Repeat("0", 64)}
		var progress bytes.Buffer
		opt.Progress = &progress
		if _, err := Update(context.Background(), opt); err == nil {
			t.Error("Update with a pin no fetch can meet succeeded")
		}
		if !strings.Contains(progress.String(), "holds tree sha256 "+tree+", catalogue pins "+strings.Repeat("0", 64)) {
			t.Errorf("no warning of the cached copy's other tree in:\n%s", progress.String())
		}
		if got := f.callsOf("alpha"); got != 2 {
			t.Errorf("alpha fetched %d times, want 2: a cached copy of another tree is no copy of the pin", got)
		}
	})
}

// TestTreeDigestRefusesLinks: a link in a folder would be read through without its target
// in the digest, so a mirror or cache folder holding one is refused.
func TestTreeDigestRefusesLinks(t *testing.T) {
	dir := t.TempDir()
	if err := writeTree(dir, map[string]string{"package.json": `{"name":"alpha","version":"1.0.0"}`, "data.txt": "x\n"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := treeDigest(os.DirFS(dir)); err != nil {
		t.Fatalf("treeDigest of plain files: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "data.txt"), filepath.Join(dir, "more.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if _, _, err := treeDigest(os.DirFS(dir)); err == nil || !strings.Contains(err.Error(), "more.txt") {
		t.Errorf("treeDigest with a link = %v, want an error naming it", err)
	}
}
