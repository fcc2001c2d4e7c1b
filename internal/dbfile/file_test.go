package dbfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func writeSnapshot(t *testing.T, path, payload string) {
	t.Helper()
	w := NewWriter(testMeta())
	if err := w.AddSection("payload", []byte(payload)); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(context.Background(), path, w); err != nil {
		t.Fatalf("WriteFile: %v", err)
	}
}

// payloadOf opens the snapshot at path and returns its "payload" section.
func payloadOf(t *testing.T, path string) string {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	data, _ := f.Section("payload")
	return string(data)
}

// dirNames lists a directory, to catch leftover temporary files.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileKeepsPrevious(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ipatlas.snapshot")

	writeSnapshot(t, path, "first")
	if diff := cmp.Diff([]string{"ipatlas.snapshot"}, dirNames(t, dir)); diff != "" {
		t.Errorf("after first write (-want +got):\n%s", diff)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := fi.Mode().Perm(); perm != 0o644 {
		t.Errorf("snapshot mode %v, want 0644", perm)
	}

	writeSnapshot(t, path, "second")
	writeSnapshot(t, path, "third")
	if got := payloadOf(t, path); got != "third" {
		t.Errorf("snapshot payload %q, want third", got)
	}
	if got := payloadOf(t, path+".prev"); got != "second" {
		t.Errorf("previous snapshot payload %q, want second", got)
	}
	if diff := cmp.Diff([]string{"ipatlas.snapshot", "ipatlas.snapshot.prev"}, dirNames(t, dir)); diff != "" {
		t.Errorf("directory after three writes (-want +got):\n%s", diff)
	}
}

func TestWriteFileFailureLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ipatlas.snapshot")
	writeSnapshot(t, path, "good")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	boom := errors.New("disk on fire")
	err = writeFile(context.Background(), path, func(w io.Writer) error {
		if _, err := w.Write(bytes.Repeat([]byte("partial"), 1<<18)); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("writeFile = %v, want %v", err, boom)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("a failed write changed the existing snapshot")
	}
	if diff := cmp.Diff([]string{"ipatlas.snapshot"}, dirNames(t, dir)); diff != "" {
		t.Errorf("a failed write left files behind (-want +got):\n%s", diff)
	}
}

// A write whose context ends while the new file is written does not publish it: the old
// snapshot stays, and nothing is left behind.
func TestWriteFileCancelledLeavesOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ipatlas.snapshot")
	writeSnapshot(t, path, "good")
	ctx, cancel := context.WithCancel(context.Background())
	err := writeFile(ctx, path, func(w io.Writer) error {
		cancel() // the signal arrives mid-write
		_, err := w.Write([]byte("new"))
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("writeFile = %v, want context.Canceled", err)
	}
	if got := payloadOf(t, path); got != "good" {
		t.Errorf("payload %q after a cancelled write", got)
	}
	if diff := cmp.Diff([]string{"ipatlas.snapshot"}, dirNames(t, dir)); diff != "" {
		t.Errorf("a cancelled write left files behind (-want +got):\n%s", diff)
	}
}

// A temporary file that a killed writer left is removed by a later write once stale; a
// fresh one, which may be another writer's, is not. The directory's name is no pattern.
func TestWriteFileRemovesStaleTemps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data[1]*")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ipatlas.snapshot")
	stale, fresh := filepath.Join(dir, ".ipatlas.snapshot.tmp-111"), filepath.Join(dir, ".ipatlas.snapshot.tmp-222")
	for _, name := range []string{stale, fresh} {
		if err := os.WriteFile(name, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * staleTemp)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	writeSnapshot(t, path, "good")
	if diff := cmp.Diff([]string{".ipatlas.snapshot.tmp-222", "ipatlas.snapshot"}, dirNames(t, dir)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
	}{
		{"missing directory", filepath.Join(dir, "no", "such", "ipatlas.snapshot")},
		{"path is a directory", dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := WriteFile(context.Background(), tt.path, NewWriter(Metadata{})); err == nil {
				t.Errorf("WriteFile(%s) succeeded, want error", tt.path)
			}
		})
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("failed writes left %v", names)
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Open(missing) = %v, want ErrNotExist", err)
	}
	bad := filepath.Join(dir, "bad")
	if err := os.WriteFile(bad, []byte("not a snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(bad); !errors.Is(err, ErrFormat) {
		t.Errorf("Open(bad) = %v, want ErrFormat", err)
	}
}
