package build

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// The cache keeps each fetched source unpacked, one folder per pinned version:
//
//	<cache>/<name>/<version>/             the unpacked tree, exactly as fetched
//	<cache>/<name>/<version>.manifest.json  what was fetched, when, and the tree's digest
//
// The manifest sits beside the tree rather than in it, so a tree never contains a file that
// is not the source's own, and it is written last, so a folder without one is an interrupted
// fetch and is ignored.

// manifest records one cached fetch.
type manifest struct {
	Name     string `json:"name"`
	Origin   string `json:"origin"`
	Version  string `json:"version"`
	Checksum string `json:"checksum"` // the Pin.Checksum it was fetched under
	// SHA256 and Size describe the downloaded artifact.
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
	// TreeSHA256 is treeDigest of the unpacked folder, checked on every use so that a cache
	// damaged or edited after the fetch is noticed.
	TreeSHA256 string    `json:"treeSHA256"`
	FetchedAt  time.Time `json:"fetchedAt"`
}

// cacheEntry locates one source version in the cache.
type cacheEntry struct {
	dir, manifest string
}

func newCacheEntry(cacheDir, name, version string) cacheEntry {
	base := filepath.Join(cacheDir, name, version)
	return cacheEntry{dir: base, manifest: base + ".manifest.json"}
}

// errCacheMiss reports that the cache holds no usable copy.
var errCacheMiss = errors.New("not in cache")

// load returns the cached manifest if the cache holds a complete, intact copy fetched under
// pin. It returns errCacheMiss if there is none and another error if there is a damaged one.
func (c cacheEntry) load(pin Pin) (manifest, error) {
	b, err := os.ReadFile(c.manifest)
	if errors.Is(err, fs.ErrNotExist) {
		return manifest{}, errCacheMiss
	}
	if err != nil {
		return manifest{}, err
	}
	var m manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return manifest{}, fmt.Errorf("cache manifest %s: %w", c.manifest, err)
	}
	if m.Version != pin.Version || m.Checksum != pin.Checksum {
		return manifest{}, errCacheMiss // fetched under another pin: stale, not damaged
	}
	if pin.TreeSHA256 != "" && m.TreeSHA256 != pin.TreeSHA256 {
		// The same artifact unpacked to other files: said, not taken for a plain miss.
		return manifest{}, fmt.Errorf("cache %s: holds tree sha256 %s, catalogue pins %s", c.dir, m.TreeSHA256, pin.TreeSHA256)
	}
	digest, _, err := treeDigest(os.DirFS(c.dir))
	if err != nil {
		return manifest{}, fmt.Errorf("cache %s: %w", c.dir, err)
	}
	if digest != m.TreeSHA256 {
		return manifest{}, fmt.Errorf("cache %s: contents changed since the fetch (tree sha256 %s, manifest %s)", c.dir, digest, m.TreeSHA256)
	}
	return m, nil
}

// store moves the freshly fetched tree at tmp into place and then writes the manifest,
// replacing any older copy of the same version.
func (c cacheEntry) store(tmp string, m manifest) error {
	if err := os.Remove(c.manifest); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := os.RemoveAll(c.dir); err != nil {
		return err
	}
	if err := os.Rename(tmp, c.dir); err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(c.manifest, append(b, '\n'))
}

// writeFileAtomic writes data to path through a temporary file and a rename, so readers see
// the old content or the new, never a part.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Chmod(0o644); err != nil { // CreateTemp made it private
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// treeDigest returns a hex SHA-256 over the regular files of fsys: the hash of the lines
// "<sha256 of file>  <slash path>\n" in byte order of path, which is what
// `find . -type f -print0 | sed -z 's|^\./||' | LC_ALL=C sort -z | xargs -0 sha256sum |
// sha256sum` prints for the same folder (so a mirror folder can be checked against a pin by
// hand; file names with a backslash or a newline aside, which sha256sum escapes). It
// identifies a folder's contents independent of timestamps and of the order the file system
// lists them in. It also returns the files' total size. Anything else in the folder (a
// symbolic link, a device) is an error.
func treeDigest(fsys fs.FS) (digest string, size int64, err error) {
	var paths []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type().IsRegular():
			paths = append(paths, p)
		case !d.IsDir():
			// A link would be read through without its target being hashed, so a folder
			// could change what a build reads and keep its digest.
			return fmt.Errorf("%s: not a regular file or folder (%v)", p, d.Type())
		}
		return nil
	})
	if err != nil {
		return "", 0, err
	}
	slices.Sort(paths)
	all := sha256.New()
	for _, p := range paths {
		sum, n, err := fileSHA256(fsys, p)
		if err != nil {
			return "", 0, err
		}
		size += n
		fmt.Fprintf(all, "%s  %s\n", sum, p)
	}
	return hex.EncodeToString(all.Sum(nil)), size, nil
}

func fileSHA256(fsys fs.FS, name string) (string, int64, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
