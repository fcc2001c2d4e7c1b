package build

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestReport(t *testing.T) {
	var progress strings.Builder
	r := newReport(&progress)
	r.Count("a", "rows", 1)
	r.Count("a", "rows", 5) // replaces
	r.Count("a", "cols", 2)
	d1 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	d2 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("X", 3600))
	r.DataDate("a", d2)
	r.DataDate("a", d1)          // older: ignored
	r.DataDate("a", time.Time{}) // unknown: ignored
	r.Warnf("a", "odd row %d", 7)
	r.Warnf("b", "other")

	if diff := cmp.Diff(map[string]int{"rows": 5, "cols": 2}, r.countsOf("a")); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
	if got := r.dateOf("a"); !got.Equal(d2) || got.Location() != time.UTC {
		t.Errorf("date = %v, want %v in UTC", got, d2)
	}
	if diff := cmp.Diff([]string{"odd row 7"}, r.warningsOf("a")); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a: odd row 7", "b: other"}, r.allWarnings()); diff != "" {
		t.Errorf("all warnings (-want +got):\n%s", diff)
	}
	if want := "warning: a: odd row 7\nwarning: b: other\n"; progress.String() != want {
		t.Errorf("printed %q, want %q", progress.String(), want)
	}

	m := r.mark()
	r.Count("a", "rows", 5) // unchanged: not new
	r.Count("b", "n", 1)
	r.Count("a", "cols", 3)
	if got, want := r.countsSince(m), "a: cols=3; b: n=1"; got != want {
		t.Errorf("countsSince = %q, want %q", got, want)
	}
}

// TestReportConcurrent lets the race detector check that builders may report from several
// goroutines.
func TestReportConcurrent(t *testing.T) {
	r := newReport(io.Discard)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			src := fmt.Sprint("s", i%2)
			r.Count(src, fmt.Sprint("k", i), i)
			r.DataDate(src, time.Date(2020+i, 1, 1, 0, 0, 0, 0, time.UTC))
			r.Warnf(src, "w%d", i)
			_ = r.countsSince(r.mark())
		})
	}
	wg.Wait()
	if got := r.dateOf("s1"); got.Year() != 2027 {
		t.Errorf("newest date of s1 = %v, want 2027", got)
	}
	if n := len(r.allWarnings()); n != 8 {
		t.Errorf("%d warnings, want 8", n)
	}
}
