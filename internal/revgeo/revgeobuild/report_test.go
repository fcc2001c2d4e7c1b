package revgeobuild

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// recorder is a reporter that keeps what it is told, for tests.
type recorder struct {
	tb       testing.TB
	mu       sync.Mutex
	counts   map[string]map[string]int
	dates    map[string]time.Time
	warnings []string
}

func newRecorder(tb testing.TB) *recorder {
	return &recorder{tb: tb, counts: map[string]map[string]int{}, dates: map[string]time.Time{}}
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
	w := source + ": " + fmt.Sprintf(format, args...)
	r.warnings = append(r.warnings, w)
	r.tb.Log("warning: " + w)
}
