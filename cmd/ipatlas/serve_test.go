package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
)

// TestServeStoreCheckedFirst: an unreachable store fails serve before it loads the snapshot
// (seconds and most of the memory; here a file that is not one), but a missing snapshot
// fails before the store is opened, so that a mistyped --data creates no database.
func TestServeStoreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	os.Mkdir(data, 0o755)
	if err := os.WriteFile(filepath.Join(data, snapshotFile), []byte("not a snapshot"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", data,
		"--store", pgtest.UnreachableURL(t, "someone", "test")}, io.Discard, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "serve: postgres: open: cannot connect") {
		t.Errorf("serve with no store: %v, want the store's error before the snapshot's", err)
	}

	db := filepath.Join(dir, "store", "a.db")
	err = run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "no-data"),
		"--store", "sqlite:" + db}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "no usable data snapshot") {
		t.Errorf("serve with no snapshot: %v", err)
	}
	if _, err := os.Stat(db); err == nil {
		t.Errorf("serve with no snapshot created the store %s", db)
	}
}
