package riskbuild

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Every parser takes the whole file (they are a few MB at most), skips blank lines and
// comments, and treats a line it cannot read as bad: bad lines are skipped and counted, and
// the file is refused only when more than 1 in 100 of its lines are bad, which means the
// format has changed rather than that upstream made a typo. Parsers never panic.

// badLines counts the lines a parser skipped.
type badLines struct {
	N     int    // number of bad lines
	First string // the first of them, "line 12: why"
}

func (b *badLines) add(line int, err error) {
	if b.N == 0 {
		b.First = fmt.Sprintf("line %d: %v", line, err)
	}
	b.N++
}

// check fails when more than 1% of the total lines were bad.
func (b badLines) check(total int) error {
	if b.N > 0 && b.N*100 > total {
		return fmt.Errorf("%d of %d lines unreadable, the format may have changed (first: %s)", b.N, total, b.First)
	}
	return nil
}

// eachLine calls fn with every line of data that is neither blank nor starts with one of the
// comment markers, trimmed of surrounding space, and its 1-based number. fn's errors mark bad
// lines. It returns the bad lines, or an error if there are too many.
func eachLine(data []byte, comments string, fn func(n int, line string) error) (badLines, error) {
	var bad badLines
	total := 0
	n := 0
	for len(data) > 0 {
		var raw []byte
		raw, data, _ = bytes.Cut(data, []byte{'\n'})
		n++
		line := strings.TrimSpace(string(raw))
		if line == "" || (comments != "" && strings.ContainsRune(comments, rune(line[0]))) {
			continue
		}
		total++
		if err := fn(n, line); err != nil {
			bad.add(n, err)
		}
	}
	return bad, bad.check(total)
}

// parseAddr parses one address, with or without IPv6 brackets, rejecting zones.
func parseAddr(s string) (netip.Addr, error) {
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		s = s[1 : len(s)-1]
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, err
	}
	if a.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("address %q has a zone", s)
	}
	return a.Unmap(), nil
}

// parseAddrLines reads one address per line, the format of torbulkexitlist and of the
// doodad-labs node lists. "#" starts a comment line.
func parseAddrLines(data []byte) ([]netip.Addr, badLines, error) {
	var out []netip.Addr
	bad, err := eachLine(data, "#", func(_ int, line string) error {
		a, err := parseAddr(line)
		if err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	return out, bad, err
}

// exitList is a parsed Tor exit list (check.torproject.org/exit-addresses).
type exitList struct {
	Addrs  []netip.Addr
	Relays int       // ExitNode entries
	Newest time.Time // the newest Published, LastStatus or ExitAddress time: the list's date
}

// parseExitAddresses reads the exit-addresses format: blocks of "ExitNode <fingerprint>",
// "Published <date> <time>", "LastStatus <date> <time>" and one or more "ExitAddress <ip>
// <date> <time>" lines, all times UTC. Unknown keywords are ignored, as Tor's exit list
// format allows.
func parseExitAddresses(data []byte) (exitList, badLines, error) {
	var l exitList
	stamp := func(date, clock string) error {
		t, err := time.Parse(time.DateTime, date+" "+clock)
		if err != nil {
			return err
		}
		if t.After(l.Newest) {
			l.Newest = t
		}
		return nil
	}
	bad, err := eachLine(data, "#@", func(_ int, line string) error {
		f := strings.Fields(line)
		switch f[0] {
		case "ExitNode":
			if len(f) < 2 {
				return errors.New("ExitNode without fingerprint")
			}
			l.Relays++
		case "Published", "LastStatus":
			if len(f) != 3 {
				return fmt.Errorf("%s: want date and time", f[0])
			}
			return stamp(f[1], f[2])
		case "ExitAddress":
			if len(f) < 2 {
				return errors.New("ExitAddress without address")
			}
			a, err := parseAddr(f[1])
			if err != nil {
				return err
			}
			l.Addrs = append(l.Addrs, a)
			if len(f) == 4 {
				return stamp(f[2], f[3])
			}
		}
		return nil
	})
	return l, bad, err
}

// parseOnionooCSV reads the "fingerprint,ipaddr,port" CSV made from Onionoo relay details. The
// address column is found by its header "ipaddr"; without a header it is the second column.
func parseOnionooCSV(data []byte) ([]netip.Addr, badLines, error) {
	var out []netip.Addr
	col := 1
	first := true
	bad, err := eachLine(data, "#", func(_ int, line string) error {
		f := strings.Split(line, ",")
		if first {
			first = false
			for i, name := range f {
				if strings.EqualFold(strings.TrimSpace(name), "ipaddr") {
					col = i
					return nil
				}
			}
		}
		if col >= len(f) {
			return fmt.Errorf("%d fields", len(f))
		}
		a, err := parseAddr(strings.TrimSpace(f[col]))
		if err != nil {
			return err
		}
		out = append(out, a)
		return nil
	})
	return out, bad, err
}

// parsePrefix parses a CIDR, or a bare address as a single-address prefix; host bits are
// cleared and IPv4-mapped prefixes are left for risk.PrefixRange to unmap.
func parsePrefix(s string) (netip.Prefix, error) {
	if !strings.Contains(s, "/") {
		a, err := parseAddr(s)
		if err != nil {
			return netip.Prefix{}, err
		}
		return netip.PrefixFrom(a, a.BitLen()), nil
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return p.Masked(), nil
}

// parseCIDRList reads one CIDR (or address) per line, the format of the X4BNet lists and the
// lord-alfred/ipranges files. "#" starts a comment, also after the CIDR; ";" comment lines are
// accepted too.
func parseCIDRList(data []byte) ([]netip.Prefix, badLines, error) {
	var out []netip.Prefix
	bad, err := eachLine(data, "#;", func(_ int, line string) error {
		line, _, _ = strings.Cut(line, "#")
		p, err := parsePrefix(strings.TrimSpace(line))
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, bad, err
}

// parseASNList reads one AS number per line, "AS13335" or "13335", optionally followed by a
// "#" comment (the X4BNet input/*/ASN.txt format).
func parseASNList(data []byte) ([]uint32, badLines, error) {
	var out []uint32
	bad, err := eachLine(data, "#", func(_ int, line string) error {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			return errors.New("no AS number")
		}
		s := f[0]
		if len(s) > 2 && strings.EqualFold(s[:2], "AS") {
			s = s[2:]
		}
		n, err := strconv.ParseUint(s, 10, 32)
		if err != nil || n == 0 {
			return fmt.Errorf("AS number %q", f[0])
		}
		out = append(out, uint32(n))
		return nil
	})
	return out, bad, err
}

// ipcatRange is one row of ipcat's datacenters.csv.
type ipcatRange struct {
	From, To netip.Addr
	Provider string
}

// parseIpcatCSV reads ipcat's datacenters.csv: "start_ip,end_ip,provider,url" with CSV
// quoting (provider names contain commas).
func parseIpcatCSV(data []byte) ([]ipcatRange, badLines, error) {
	var out []ipcatRange
	var bad badLines
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.Comment = '#'
	total := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		total++
		var pe *csv.ParseError
		switch {
		case errors.As(err, &pe):
			bad.add(pe.StartLine, pe.Err)
			continue
		case err != nil:
			return nil, bad, err
		}
		line, _ := r.FieldPos(0) // rec has at least one field after a successful Read
		if len(rec) < 3 {
			bad.add(line, fmt.Errorf("%d fields", len(rec)))
			continue
		}
		from, err1 := parseAddr(strings.TrimSpace(rec[0]))
		to, err2 := parseAddr(strings.TrimSpace(rec[1]))
		provider := strings.Join(strings.Fields(rec[2]), " ")
		switch {
		case err1 != nil || err2 != nil:
			bad.add(line, errors.Join(err1, err2))
		case from.Is4() != to.Is4() || to.Less(from):
			bad.add(line, fmt.Errorf("range %v-%v", from, to))
		case !validProvider(provider):
			bad.add(line, fmt.Errorf("provider %q", provider))
		default:
			out = append(out, ipcatRange{From: from, To: to, Provider: provider})
		}
	}
	return out, bad, bad.check(total)
}

// validProvider reports whether a provider name is fit to show: non-empty, UTF-8, without
// control characters, and not absurdly long.
func validProvider(s string) bool {
	return s != "" && len(s) <= 200 && utf8.ValidString(s) &&
		!strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) })
}

// ipsumEntry is one address of the ipsum feed with the number of blocklists it is on.
type ipsumEntry struct {
	Addr  netip.Addr
	Lists int
}

// ipsumFeed is the parsed ipsum.txt.
type ipsumFeed struct {
	Entries []ipsumEntry
	Updated time.Time // from the "# Last update: <RFC 1123 date>" header; zero if absent
}

// maxIpsumCount bounds the count column: ipsum aggregates a few dozen lists.
const maxIpsumCount = 1000

// parseIpsum reads stamparm/ipsum's ipsum.txt: "#" comment lines, one of them "# Last update:
// Sat, 22 Aug 2026 03:00:29 +0200", then "<IP><TAB><number of blocklists>" lines.
func parseIpsum(data []byte) (ipsumFeed, badLines, error) {
	var feed ipsumFeed
	for line := range strings.Lines(string(data)) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "#")
		if !ok {
			continue
		}
		if v, ok := cutFold(strings.TrimSpace(rest), "last update:"); ok {
			if t, err := parseRFC1123(v); err == nil {
				feed.Updated = t
			}
		}
	}
	bad, err := eachLine(data, "#", func(_ int, line string) error {
		f := strings.Fields(line)
		if len(f) != 2 {
			return fmt.Errorf("%d fields", len(f))
		}
		a, err := parseAddr(f[0])
		if err != nil {
			return err
		}
		n, err := strconv.Atoi(f[1])
		if err != nil || n < 1 || n > maxIpsumCount {
			return fmt.Errorf("count %q", f[1])
		}
		feed.Entries = append(feed.Entries, ipsumEntry{Addr: a, Lists: n})
		return nil
	})
	return feed, bad, err
}

// dropList is a parsed Spamhaus DROP or DROPv6 file.
type dropList struct {
	Prefixes []netip.Prefix
	Date     time.Time // Last-Modified header, else the date in the title line, else the JSON metadata timestamp
}

// parseDrop reads a Spamhaus DROP/DROPv6 file in the text format ("; Spamhaus DROP List
// 2025/01/17 - ..." and "; Last-Modified: <RFC 1123 date>" comment lines, then "<CIDR> ;
// SBLnnnn" lines) or the newer JSON-lines format ({"cidr":"...","sblid":"..."} lines and a
// {"type":"metadata","timestamp":<Unix seconds>} line).
func parseDrop(data []byte) (dropList, badLines, error) {
	var l dropList
	var modified, titled, stamped time.Time
	bad, err := eachLine(data, "", func(_ int, line string) error {
		if rest, ok := strings.CutPrefix(line, ";"); ok {
			rest = strings.TrimSpace(rest)
			if v, ok := cutFold(rest, "last-modified:"); ok {
				if t, err := parseRFC1123(v); err == nil {
					modified = t
				}
			} else if _, after, ok := strings.Cut(rest, "DROP List "); ok {
				if d, _, _ := strings.Cut(after, " "); d != "" {
					if t, err := time.Parse("2006/01/02", d); err == nil {
						titled = t
					}
				}
			}
			return nil
		}
		if line[0] == '{' {
			var rec struct {
				CIDR      string `json:"cidr"`
				Type      string `json:"type"`
				Timestamp int64  `json:"timestamp"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				return err
			}
			if rec.Type == "metadata" {
				if rec.Timestamp > 0 && rec.Timestamp < 253402300799 {
					stamped = time.Unix(rec.Timestamp, 0).UTC()
				}
				return nil
			}
			line = rec.CIDR
		}
		cidr, _, _ := strings.Cut(line, ";")
		p, err := netip.ParsePrefix(strings.TrimSpace(cidr))
		if err != nil {
			return err
		}
		l.Prefixes = append(l.Prefixes, p.Masked())
		return nil
	})
	switch {
	case !modified.IsZero():
		l.Date = modified
	case !titled.IsZero():
		l.Date = titled
	default:
		l.Date = stamped
	}
	return l, bad, err
}

// cutFold returns s without the prefix, matched ignoring ASCII case, and trimmed.
func cutFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return strings.TrimSpace(s[len(prefix):]), true
}

// parseRFC1123 parses "Sat, 22 Aug 2026 03:00:29 +0200" or "... GMT" and returns it in UTC.
func parseRFC1123(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC1123Z, s)
	if err != nil {
		t, err = time.Parse(time.RFC1123, s)
	}
	if err != nil {
		return time.Time{}, err
	}
	if t.Unix() <= 0 || t.Year() > 9999 {
		return time.Time{}, fmt.Errorf("date %q out of range", s)
	}
	return t.UTC(), nil
}
