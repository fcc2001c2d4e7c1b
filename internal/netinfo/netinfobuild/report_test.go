package netinfobuild

import (
	"fmt"
	"sync"
	"time"
)

// fakeReport records what a build reports, for tests to inspect.
type fakeReport struct {
	mu       sync.Mutex
	counts   map[string]map[string]int
	dates    map[string]time.Time
	warnings map[string][]string
}

func newFakeReport() *fakeReport {
	return &fakeReport{counts: map[string]map[string]int{}, dates: map[string]time.Time{}, warnings: map[string][]string{}}
}

func (r *fakeReport) Count(source, what string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts[source] == nil {
		r.counts[source] = map[string]int{}
	}
	r.counts[source][what] = n
}

func (r *fakeReport) DataDate(source string, t time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.After(r.dates[source]) {
		r.dates[source] = t
	}
}

func (r *fakeReport) Warnf(source, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings[source] = append(r.warnings[source], fmt.Sprintf(format, args...))
}
