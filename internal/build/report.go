package build

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Report collects what section builders learn about their sources while parsing them: how
// many records of each kind, how old the data is, and anything worth a warning. Update turns
// it into each source's SourceInfo. It is safe for concurrent use, so a builder may parse in
// several goroutines.
type Report struct {
	progress io.Writer // where warnings are printed as they come

	mu       sync.Mutex
	counts   map[string]map[string]int
	dates    map[string]time.Time
	warnings []warning
}

type warning struct{ source, text string }

func newReport(progress io.Writer) *Report {
	return &Report{progress: progress, counts: map[string]map[string]int{}, dates: map[string]time.Time{}}
}

// Count records that source holds n records of kind what (e.g. "countries"), replacing any
// earlier count of the same kind, so counting twice does not double.
func (r *Report) Count(source, what string, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts[source] == nil {
		r.counts[source] = map[string]int{}
	}
	r.counts[source][what] = n
}

// DataDate records the date of source's data as the data itself states it (a header, a
// build epoch), never the time of the fetch. If called more than once, the newest date is
// kept. The zero time is ignored.
func (r *Report) DataDate(source string, t time.Time) {
	if t.IsZero() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if t.After(r.dates[source]) {
		r.dates[source] = t.UTC()
	}
}

// Warnf records a warning about source: something was skipped, odd or stale but the build
// can go on. Warnings are printed at once, returned in Result.Warnings and, when source is a
// catalogued source, kept in its SourceInfo.Note.
func (r *Report) Warnf(source, format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.warnings = append(r.warnings, warning{source, text})
	fmt.Fprintf(r.progress, "warning: %s: %s\n", source, text)
}

// counts returns a copy of source's counts, nil if none.
func (r *Report) countsOf(source string) map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.counts[source])
}

func (r *Report) dateOf(source string) time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dates[source]
}

// warningsOf returns source's warnings in the order they were made.
func (r *Report) warningsOf(source string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, w := range r.warnings {
		if w.source == source {
			out = append(out, w.text)
		}
	}
	return out
}

// allWarnings returns every warning as "source: text", in the order they were made.
func (r *Report) allWarnings() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, len(r.warnings))
	for i, w := range r.warnings {
		out[i] = w.source + ": " + w.text
	}
	return out
}

// mark is a position in the report, to describe what one section recorded.
type mark struct{ counts map[string]map[string]int }

func (r *Report) mark() mark {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := mark{counts: make(map[string]map[string]int, len(r.counts))}
	for s, c := range r.counts {
		m.counts[s] = maps.Clone(c)
	}
	return m
}

// countsSince formats the counts recorded or changed since m, e.g.
// "cldr-core: currencies=266 territories=258", sorted, for a section's progress line.
func (r *Report) countsSince(m mark) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parts []string
	for _, src := range slices.Sorted(maps.Keys(r.counts)) {
		var kinds []string
		for _, what := range slices.Sorted(maps.Keys(r.counts[src])) {
			n := r.counts[src][what]
			if old, ok := m.counts[src][what]; !ok || old != n {
				kinds = append(kinds, fmt.Sprintf("%s=%d", what, n))
			}
		}
		if len(kinds) > 0 {
			parts = append(parts, src+": "+strings.Join(kinds, " "))
		}
	}
	return strings.Join(parts, "; ")
}
