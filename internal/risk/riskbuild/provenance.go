package riskbuild

import (
	"path"
	"regexp"
	"strings"
	"time"
)

// Date sources, as reported in warnings and the package documentation.
const (
	dateFromData       = "data"                           // the file's own header or timestamps
	dateFromTable      = "PROVENANCE.md data date column" // a table row naming the file
	dateFromStatement  = "PROVENANCE.md \"Data date:\""   // one date for the whole folder
	dateFromLastChange = "PROVENANCE.md \"last changed\"" // the upstream file's last change
	dateFromCommit     = "PROVENANCE.md first date (commit)"
)

// provenanceDate finds the data date of file (a path inside the source folder) in the
// folder's PROVENANCE.md, which the shared/data mirror keeps beside each source. It applies
// the first rule that finds a date:
//
//  1. a Markdown table with a "data date" column: the row whose first cell names the file;
//  2. a "Data date: YYYY-MM-DD" statement;
//  3. "last changed YYYY-MM-DD", the upstream file's own last change;
//  4. the first YYYY-MM-DD of the text, the date of the commit the copy was taken from.
//
// It returns the date (midnight UTC) and which rule gave it, or the zero time and "".
func provenanceDate(md []byte, file string) (time.Time, string) {
	text := string(md)
	dateRE := regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
	parse := func(s string) (time.Time, bool) {
		m := dateRE.FindStringSubmatch(s)
		if m == nil {
			return time.Time{}, false
		}
		t, err := time.Parse(time.DateOnly, m[1])
		return t, err == nil && t.Unix() > 0
	}

	col := -1
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			col = -1
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if col < 0 {
			for i, c := range cells {
				if strings.EqualFold(strings.TrimSpace(c), "data date") {
					col = i
				}
			}
			continue
		}
		if col < len(cells) && (namesFile(cells[0], file) || namesFile(cells[0], path.Base(file))) {
			if t, ok := parse(cells[col]); ok {
				return t, dateFromTable
			}
		}
	}
	for _, rule := range []struct{ marker, from string }{
		{"data date:", dateFromStatement},
		{"last changed", dateFromLastChange},
	} {
		if i := indexFold(text, rule.marker); i >= 0 {
			rest := text[i+len(rule.marker):]
			if j := strings.IndexByte(rest, '\n'); j >= 0 {
				rest = rest[:j]
			}
			if t, ok := parse(rest); ok {
				return t, rule.from
			}
		}
	}
	if t, ok := parse(text); ok {
		return t, dateFromCommit
	}
	return time.Time{}, ""
}

// indexFold returns the index of the first instance of the ASCII string sub in s, ignoring
// case, or -1. Unlike strings.ToLower it keeps byte offsets intact for any input.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// namesFile reports whether cell mentions name as a whole file name, not as part of another.
func namesFile(cell, name string) bool {
	if name == "" || name == "." {
		return false
	}
	for i := 0; ; {
		j := strings.Index(cell[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !fileChar(cell[j-1])) && (end == len(cell) || !fileChar(cell[end])) {
			return true
		}
		i = j + 1
	}
}

func fileChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' || c == '/'
}
