// Package buildtest gives tests in any package the real data sources, fetched through the
// real pipeline (build.Acquire) into a cache outside the repository, with the public
// snapshots in shared/data as the mirror for sources that have no registry copy.
package buildtest

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ipatlas/ipatlas/internal/build"
)

// SharedData returns the shared/data directory beside the repository, if there is one.
func SharedData() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			d := filepath.Join(dir, "..", "shared", "data")
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				return d, true
			}
			return "", false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// CacheDir is where tests keep fetched sources: the user cache directory, so repeated runs
// and CI runs on the same machine download nothing.
func CacheDir() (string, error) {
	c, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(c, "ipatlas-test-cache"), nil
}

// Sources returns the named sources. When they cannot be had it fails the test under CI
// (env CI set) and skips it elsewhere, saying why. Mirror-only sources need shared/data.
func Sources(tb testing.TB, names ...string) build.Sources {
	tb.Helper()
	if testing.Short() {
		tb.Skip("real-data test skipped in -short mode")
	}
	fail := func(format string, args ...any) {
		tb.Helper()
		if os.Getenv("CI") != "" {
			tb.Fatalf(format, args...)
		}
		tb.Skipf(format, args...)
	}
	cache, err := CacheDir()
	if err != nil {
		fail("no cache dir: %v", err)
	}
	opt := build.Options{CacheDir: cache}
	if d, ok := SharedData(); ok {
		opt.MirrorDir = d
	}
	src, err := build.Acquire(context.Background(), opt, names...)
	if err != nil {
		fail("real sources unavailable: %v", err)
	}
	return src
}
