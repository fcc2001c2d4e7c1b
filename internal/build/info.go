package build

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ipatlas/ipatlas/internal/dbfile"
)

// Info returns the metadata of the snapshot at path, after verifying the whole file, so that
// `ipatlas data info` also tells whether the snapshot is intact. Its JSON form is the
// `data info --json` output.
func Info(path string) (dbfile.Metadata, error) {
	f, err := dbfile.Open(path)
	if err != nil {
		return dbfile.Metadata{}, err
	}
	return f.Metadata(), nil
}

// WriteInfo writes md as text for people: a line on the snapshot, a table of sources
// (source, version, status, data date, licence, counts), then each source's notes and the
// attributions that must be shown with the data. The counts come last and wrap, so that one
// source with many (cloud-ipranges names every provider) does not widen every row. Write
// errors are not reported: it writes to a terminal or a pipe, where there is nothing better
// to do about them.
func WriteInfo(w io.Writer, md dbfile.Metadata) {
	var b strings.Builder
	fmt.Fprintf(&b, "snapshot format %d, data up to %s, %d sources\n\n", md.FormatVersion, formatDate(md.BuildTime), len(md.Sources))

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SOURCE\tVERSION\tSTATUS\tDATA DATE\tLICENCE\tRECORDS")
	for _, s := range md.Sources {
		counts := wrapItems(countItems(s.Records), countsWidth)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.Name, dash(s.Version), dash(s.Status),
			formatDate(s.DataDate), dash(s.Licence), counts[0])
		for _, more := range counts[1:] {
			fmt.Fprintf(tw, "\t\t\t\t\t%s\n", more)
		}
	}
	tw.Flush() // cannot fail: it writes to a strings.Builder

	section := func(title string, line func(dbfile.SourceInfo) string) {
		var lines []string
		for _, s := range md.Sources {
			if text := line(s); text != "" {
				lines = append(lines, fmt.Sprintf("  %s: %s\n", s.Name, text))
			}
		}
		if len(lines) > 0 {
			fmt.Fprintf(&b, "\n%s:\n%s", title, strings.Join(lines, ""))
		}
	}
	section("notes", func(s dbfile.SourceInfo) string { return s.Note })
	section("attribution", func(s dbfile.SourceInfo) string {
		if s.Status != StatusOK {
			return "" // data not in the snapshot: nothing to attribute
		}
		return s.Attribution
	})
	io.WriteString(w, b.String())
}

// countItems renders counts as "a=1", "b=2", sorted by kind.
func countItems(m map[string]int) []string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return parts
}

// countsWidth is where the counts column wraps.
const countsWidth = 60

// wrapItems joins items with spaces into lines of at most width bytes (a longer item is a
// line of its own); no items is one "-".
func wrapItems(items []string, width int) []string {
	if len(items) == 0 {
		return []string{"-"}
	}
	var lines []string
	line := ""
	for _, it := range items {
		if line != "" && len(line)+1+len(it) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += it
	}
	return append(lines, line)
}

// formatDate renders a data date as yyyy-mm-dd in UTC, "-" for unknown.
func formatDate(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.DateOnly)
}

// formatBytes renders n in binary units, e.g. "31.2 MiB".
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// formatDuration rounds d for a progress line.
func formatDuration(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Millisecond:
		return d.Round(time.Millisecond).String()
	default:
		return d.Round(time.Microsecond).String()
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
