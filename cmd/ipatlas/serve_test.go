package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/account/postgres/pgtest"
)

// TestServeStoreCheckedFirst: an unreachable store fails serve before it looks for a snapshot
// (here there is none), which takes seconds and most of the memory when there is one.
func TestServeStoreCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--data", filepath.Join(dir, "no-data"),
		"--store", pgtest.UnreachableURL(t, "someone", "test")}, io.Discard, io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "serve: postgres: open: cannot connect") || strings.Contains(err.Error(), "snapshot") {
		t.Errorf("serve with no store and no data: %v, want the store's error first", err)
	}
}
