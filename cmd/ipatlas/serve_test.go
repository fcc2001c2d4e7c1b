package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// TestServeStoreCheckedFirst: an unreachable store fails serve before it loads the snapshot
// (seconds and most of the memory; here one whose header is sound and whose section is not),
// but a missing snapshot, or a file that is not one, fails before the store is opened, so
// that a mistyped --data creates no database.
func TestServeStoreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	w := dbfile.NewWriter(dbfile.Metadata{})
	if err := w.AddSection("country", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	damaged := buf.Bytes()
	damaged[len(damaged)-1] ^= 1 // the section's last byte: only a full read finds it
	if err := os.WriteFile(filepath.Join(data, snapshotFile), damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", data,
		"--store", pgtest.UnreachableURL(t, "someone", "test")}, io.Discard, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "serve: postgres: open: cannot connect") {
		t.Errorf("serve with no store: %v, want the store's error before the snapshot's", err)
	}

	notOne := filepath.Join(dir, "not-one")
	os.Mkdir(notOne, 0o755)
	if err := os.WriteFile(filepath.Join(notOne, snapshotFile), damaged[:len(damaged)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dataDir := range []string{filepath.Join(dir, "no-data"), notOne} {
		db := filepath.Join(dir, "store", "a.db")
		err = run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", dataDir,
			"--store", "sqlite:" + db}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "no usable data snapshot") {
			t.Errorf("serve --data %s: %v", dataDir, err)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("serve --data %s created the store %s", dataDir, db)
		}
	}
}
