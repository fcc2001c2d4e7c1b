package dbfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// WriteFile writes the snapshot to path so that path always holds either the old complete
// file or the new complete file, never a partial one: it writes a temporary file in the same
// directory, fsyncs it, keeps the existing file (if any) as path+".prev", renames the
// temporary file over path and fsyncs the directory. On error path is unchanged and the
// temporary file is removed. The directory must exist. When ctx ends before the rename,
// path is left as it was and ctx's error returned: a stopped update must not publish.
// Temporary files an earlier writer left (one killed midway) are removed once they are
// staleTemp old.
func WriteFile(ctx context.Context, path string, w *Writer) error {
	return writeFile(ctx, path, func(out io.Writer) error {
		_, err := w.WriteTo(out)
		return err
	})
}

// writeFile is WriteFile with the content as a function, so tests can make it fail midway.
func writeFile(ctx context.Context, path string, write func(io.Writer) error) (err error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("dbfile: %s exists and is not a regular file", path)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	removeStaleTemps(dir, "."+base+".tmp-", time.Now())
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("dbfile: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	bw := bufio.NewWriterSize(tmp, 1<<20)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dbfile: write %s: %w", tmp.Name(), err)
	}
	// CreateTemp makes the file 0600; a snapshot holds public data and is read by the server,
	// which may run as another user.
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("dbfile: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("dbfile: sync %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("dbfile: close %s: %w", tmp.Name(), err)
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("dbfile: %w", context.Cause(ctx))
	}
	restore, err := keepPrevious(path)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		restore()
		return fmt.Errorf("dbfile: %w", err)
	}
	return syncDir(dir)
}

// staleTemp is the age after which a temporary file of the snapshot's name is taken for
// the leftover of a writer that died: a live one writes it within seconds, and writes it
// continuously. A writer stopped for longer (SIGSTOP, a suspended machine) loses its file,
// and then fails at the rename, publishing nothing.
const staleTemp = time.Hour

// removeStaleTemps removes the regular files in dir whose names start with prefix and that
// were not modified within staleTemp of now. Failures are ignored: a leftover only costs
// space.
func removeStaleTemps(dir, prefix string, now time.Time) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > staleTemp {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// keepPrevious makes path+".prev" a copy of path, if path exists. It uses a hard link, so
// path itself stays in place until the final rename replaces it and a reader never sees it
// missing. Where hard links are not supported it falls back to renaming path away, which
// leaves a short window without a file at path; the returned restore func then puts it back
// if the new file cannot be renamed into place.
func keepPrevious(path string) (restore func(), err error) {
	prev := path + ".prev"
	nothing := func() {}
	if err := os.Remove(prev); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nothing, fmt.Errorf("dbfile: remove old previous snapshot: %w", err)
	}
	err = os.Link(path, prev)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nothing, nil
	}
	if err := os.Rename(path, prev); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nothing, nil
		}
		return nothing, fmt.Errorf("dbfile: keep previous snapshot: %w", err)
	}
	return func() { os.Rename(prev, path) }, nil
}

// syncDir fsyncs a directory so that a rename in it survives a crash.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("dbfile: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("dbfile: sync directory %s: %w", dir, err)
	}
	return nil
}
