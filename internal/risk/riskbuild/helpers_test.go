package riskbuild

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ipatlas/ipatlas/internal/risk"
)

// recorder is a reporter that keeps what the builder reports, for tests.
type recorder struct {
	mu       sync.Mutex
	counts   map[string]map[string]int
	dates    map[string]time.Time
	warnings []string
}

func newRecorder() *recorder {
	return &recorder{counts: map[string]map[string]int{}, dates: map[string]time.Time{}}
}

func (r *recorder) Count(source, what string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts[source] == nil {
		r.counts[source] = map[string]int{}
	}
	r.counts[source][what] = n
}

func (r *recorder) DataDate(source string, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.After(r.dates[source]) {
		r.dates[source] = t
	}
}

func (r *recorder) Warnf(source, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings = append(r.warnings, source+": "+fmt.Sprintf(format, args...))
}

// mapSources serves fs.FS trees by source name, as build.Sources does.
type mapSources map[string]fs.FS

func (m mapSources) Source(name string) (fs.FS, bool) {
	f, ok := m[name]
	return f, ok
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// buildDB builds the risk section from src, without the snapshot around it, and decodes it.
func buildDB(t *testing.T, src mapSources, rec *recorder) *risk.DB {
	t.Helper()
	b, err := buildSection(context.Background(), src, rec)
	if err != nil {
		t.Fatal(err)
	}
	db, err := risk.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return db
}
