package build

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// acquired is the outcome of obtaining one source.
type acquired struct {
	status  string // StatusOK, StatusMissing or StatusError
	err     error  // why, when status is not StatusOK
	fsys    fs.FS  // the source's files, when StatusOK
	how     string // "mirror", "cache", "fetch" or "-", for progress
	origin  string // for SourceInfo.Origin
	version string // for SourceInfo.Version
	sha256  string // of the fetched artifact, for SourceInfo.SHA256
	note    string // for SourceInfo.Note
	size    int64  // bytes fetched, or read from the mirror or cache
	elapsed time.Duration
}

// acquire obtains one source: from the mirror if it has it, else from the cache unless the
// source is being refreshed, else from the network unless offline.
func (u *updater) acquire(ctx context.Context, src Source) acquired {
	t0 := time.Now()
	a := u.acquireFrom(ctx, src)
	a.elapsed = time.Since(t0)
	if a.err != nil && a.status == StatusOK {
		a.status = StatusError
	}
	return a
}

func (u *updater) acquireFrom(ctx context.Context, src Source) acquired {
	pin := src.Fetch.Pin()
	a := acquired{status: StatusOK, how: "-", origin: pin.Origin, version: pin.Version}

	// Data compiled into the binary is always there and always the pinned version: a mirror
	// or a cache could only stand in for it with something else.
	if m, ok := src.Fetch.(GoModule); ok {
		return fromModule(m, a)
	}
	if u.opt.MirrorDir != "" {
		dir := filepath.Join(u.opt.MirrorDir, src.Name)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			// An emptied folder would read as the source with no data, and its fields would
			// be empty with the source said to be ok.
			if m := u.fromMirror(src, dir, a); m.status != StatusOK || m.size > 0 {
				return m
			}
			u.warn(src.Name, "mirror folder %s holds no data; ignored", dir)
		}
	}
	if pin.Version == "" {
		a.status, a.err = StatusMissing, errors.New("mirror-only source, not in the mirror (--mirror DIR with DIR/"+src.Name+"/)")
		return a
	}

	entry := newCacheEntry(u.opt.CacheDir, src.Name, pin.Version)
	// stale is a cached copy past its MaxAge: fetched again, but used if the fetch fails.
	var stale *acquired
	if !u.only[src.Name] {
		m, err := entry.load(pin)
		switch {
		case err == nil:
			cached := a
			cached.how, cached.sha256, cached.size, cached.fsys = "cache", m.SHA256, m.Size, os.DirFS(entry.dir)
			if pin.MaxAge == 0 {
				return cached
			}
			// A live source says when its copy was fetched: its content depends on it.
			cached.note = "Fetched " + m.FetchedAt.Format(time.RFC3339) + "."
			if time.Since(m.FetchedAt) <= pin.MaxAge || u.opt.Offline {
				return cached
			}
			stale = &cached
		case !errors.Is(err, errCacheMiss):
			// A damaged cache is refetched, not trusted; say so, since it may point to a
			// disk problem.
			u.warn(src.Name, "ignoring damaged cache: %v", err)
		}
	}
	if u.opt.Offline {
		a.status, a.err = StatusMissing, fmt.Errorf("offline, and neither the cache (%s) nor a mirror (--mirror DIR with DIR/%s/) holds %s", entry.dir, src.Name, pin.Origin)
		return a
	}
	got := u.fetch(ctx, src, entry, a)
	if got.status != StatusOK && stale != nil {
		u.warn(src.Name, "refetch failed (%v); using the copy %s", got.err, strings.TrimSuffix(stale.note, "."))
		return *stale
	}
	return got
}

// fromMirror uses dir, the source's mirror folder, in place.
func (u *updater) fromMirror(src Source, dir string, a acquired) acquired {
	fsys := os.DirFS(dir)
	// The mirror's path is not recorded: the tree digest in the note says what was read,
	// and the same trees under another path must give the same snapshot.
	a.how, a.origin = "mirror", "mirror"
	// A mirror folder standing in for a pinned package must hold that package version.
	if c, ok := src.Fetch.(interface{ CheckTree(fs.FS) error }); ok {
		if err := c.CheckTree(fsys); err != nil {
			a.status, a.err = StatusError, fmt.Errorf("mirror %s: %w", dir, err)
			return a
		}
	}
	digest, size, err := treeDigest(fsys)
	if err != nil {
		a.status, a.err = StatusError, fmt.Errorf("mirror %s: %w", dir, err)
		return a
	}
	if pin := src.Fetch.Pin(); pin.TreeSHA256 != "" && digest != pin.TreeSHA256 {
		a.status, a.err = StatusError, fmt.Errorf("mirror %s: its files are not %s as published (tree sha256 %s, pinned %s): "+
			"unpack the package's tarball there, without its package/ folder and with nothing added: %w", dir, pin.Origin, digest, pin.TreeSHA256, ErrIntegrity)
		return a
	}
	a.fsys, a.size = fsys, size
	a.note = "Read from a mirror folder (tree sha256 " + digest + ")."
	return a
}

// fromModule uses the files a Go module compiled into the binary.
func fromModule(m GoModule, a acquired) acquired {
	fsys := m.tree()
	digest, size, err := treeDigest(fsys)
	if err != nil {
		a.status, a.err = StatusError, fmt.Errorf("go module %s: %w", m.Path, err)
		return a
	}
	a.how, a.fsys, a.size = "binary", fsys, size
	a.note = "Compiled into the binary (tree sha256 " + digest + ")."
	return a
}

// fetch downloads the source into a temporary folder in the cache, records its digest and
// moves it into place, so that the cache never holds a partial fetch under a version name.
func (u *updater) fetch(ctx context.Context, src Source, entry cacheEntry, a acquired) acquired {
	fail := func(err error) acquired {
		a.status, a.err = StatusError, err
		if errors.Is(err, ErrNotFetchable) {
			a.status = StatusMissing
		}
		return a
	}
	parent := filepath.Dir(entry.dir)
	_, statErr := os.Stat(parent)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fail(err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// After tmp is gone (defers run last first): a first fetch that failed leaves no
		// empty folder for the source, which would look like a cache that holds something.
		// Only a folder this fetch made, so as not to pull one from under another update.
		defer os.Remove(parent) // a no-op while it holds anything
	}
	tmp, err := os.MkdirTemp(parent, ".fetch-*")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place

	art, err := u.opt.Fetcher.Fetch(ctx, src, tmp)
	if err != nil {
		return fail(err)
	}
	// MkdirTemp made it private; the cache holds public data other users may build from.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fail(err)
	}
	digest, _, err := treeDigest(os.DirFS(tmp))
	if err != nil {
		return fail(fmt.Errorf("digest fetched tree: %w", err))
	}
	pin := src.Fetch.Pin()
	if pin.TreeSHA256 != "" && digest != pin.TreeSHA256 {
		return fail(fmt.Errorf("%s unpacks to tree sha256 %s, catalogue pins %s: %w", pin.Origin, digest, pin.TreeSHA256, ErrIntegrity))
	}
	m := manifest{
		Name: src.Name, Origin: pin.Origin, Version: pin.Version, Checksum: pin.Checksum,
		SHA256: art.SHA256, Size: art.Size, TreeSHA256: digest, FetchedAt: time.Now().UTC(),
	}
	if err := entry.store(tmp, m); err != nil {
		return fail(fmt.Errorf("cache: %w", err))
	}
	a.how, a.sha256, a.size, a.fsys = "fetch", art.SHA256, art.Size, os.DirFS(entry.dir)
	if pin.MaxAge > 0 { // the same note a later build from this cached copy writes
		a.note = "Fetched " + m.FetchedAt.Format(time.RFC3339) + "."
	}
	return a
}
