// Package rirstats reads the RIR statistics exchange format, the pipe-separated
// "delegated" files every Regional Internet Registry and IANA publish
// (registry|cc|type|start|value|date|status[|opaque-id[|extensions]]), in its plain and
// extended forms.
package rirstats

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// Header is a file's version line.
type Header struct {
	Version   string // "2", "2.3"
	Registry  string // "apnic", "iana", ...
	Serial    string
	Records   int
	StartDate string // "yyyy-mm-dd" or ""
	EndDate   string // "yyyy-mm-dd" or "": the date of the data
	UTCOffset string
}

// Date returns the date of the file's data, "yyyy-mm-dd": the newer of its end date and
// its serial number read as a date (RIRs number files by their date), or "".
func (h Header) Date() string { return max(h.EndDate, Date(h.Serial)) }

// Record is one resource line.
type Record struct {
	Registry string // as written, lower case: "afrinic", "apnic", "arin", "lacnic", "ripencc", "iana"
	Country  string // ISO 3166-1 alpha-2, upper case; "" for ZZ or none
	Type     string // "asn", "ipv4" or "ipv6"
	// Date is the allocation date as "yyyy-mm-dd", "" if absent or zero.
	Date string
	// Status is "allocated", "assigned", "available" or "reserved" in RIR files; in IANA's
	// file it names the registry holding the block ("arin", "ietf", ...).
	Status   string
	OpaqueID string

	// First and Last bound an ipv4 or ipv6 record's addresses.
	First, Last netip.Addr
	// FirstASN and LastASN bound an asn record.
	FirstASN, LastASN uint32
}

// File is a parsed file.
type File struct {
	Header  Header
	Records []Record
	// Skipped counts resource lines that could not be read (malformed fields, addresses
	// or counts out of range); they are left out rather than failing the file.
	Skipped int
	// Lines counts the resource lines, read or skipped: what the header's Records counts
	// too, unless the file was cut short. It is not checked here, as IANA's file holds more
	// than its header says (2 530 lines against 973 in 2019's); callers report a difference.
	Lines int
}

// CountMismatch describes a file whose resource lines (lines) differ from its header's
// record count (declared), or returns "" when they agree. The two directions mean different
// things: fewer lines than counted is what a download cut short looks like, while more is a
// header that undercounts, as IANA's does, and says nothing about the file being whole.
func CountMismatch(lines, declared int) string {
	switch {
	case lines < declared:
		return fmt.Sprintf("%d records where the header counts %d; the file may be cut short", lines, declared)
	case lines > declared:
		return fmt.Sprintf("%d records where the header counts %d; the header undercounts", lines, declared)
	}
	return ""
}

// maxLine bounds a line, so that a corrupt file cannot make the scanner buffer grow
// without end.
const maxLine = 1 << 16

// Parse reads a delegated file. Comment lines (#) and blank lines are ignored, as are the
// summary lines (type count per registry). A file without a version line is an error.
func Parse(r io.Reader) (File, error) {
	var f File
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLine)
	haveHeader := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "|")
		if !haveHeader {
			h, err := parseHeader(fields)
			if err != nil {
				return File{}, err
			}
			f.Header, haveHeader = h, true
			continue
		}
		if len(fields) >= 6 && fields[1] == "*" && fields[5] == "summary" {
			continue
		}
		f.Lines++
		rec, err := parseRecord(fields)
		if err != nil {
			f.Skipped++
			continue
		}
		f.Records = append(f.Records, rec)
	}
	if err := sc.Err(); err != nil {
		return File{}, fmt.Errorf("rirstats: %w", err)
	}
	if !haveHeader {
		return File{}, errors.New("rirstats: no version line")
	}
	return f, nil
}

func parseHeader(fields []string) (Header, error) {
	if len(fields) < 7 || !isVersion(fields[0]) {
		return Header{}, fmt.Errorf("rirstats: bad version line %.60q", strings.Join(fields, "|"))
	}
	n, err := strconv.Atoi(fields[3])
	if err != nil || n < 0 {
		return Header{}, fmt.Errorf("rirstats: bad record count %.20q", fields[3])
	}
	return Header{
		Version: fields[0], Registry: strings.ToLower(fields[1]), Serial: fields[2], Records: n,
		StartDate: Date(fields[4]), EndDate: Date(fields[5]), UTCOffset: fields[6],
	}, nil
}

func isVersion(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if (s[i] < '0' || s[i] > '9') && s[i] != '.' {
			return false
		}
	}
	return true
}

func parseRecord(fields []string) (Record, error) {
	if len(fields) < 7 {
		return Record{}, errors.New("short record")
	}
	rec := Record{
		Registry: strings.ToLower(fields[0]),
		Country:  strings.ToUpper(fields[1]),
		Type:     fields[2],
		Date:     Date(fields[5]),
		Status:   strings.ToLower(fields[6]),
	}
	if len(fields) > 7 {
		rec.OpaqueID = fields[7]
	}
	if rec.Country == "ZZ" {
		rec.Country = ""
	}
	if rec.Country != "" && (len(rec.Country) != 2 || !upper(rec.Country[0]) || !upper(rec.Country[1])) {
		return Record{}, errors.New("bad country")
	}
	value, err := strconv.ParseUint(fields[4], 10, 64)
	if err != nil || value == 0 {
		return Record{}, errors.New("bad value")
	}
	switch rec.Type {
	case "ipv4":
		a, err := netip.ParseAddr(fields[3])
		if err != nil || !a.Is4() || value > 1<<32 {
			return Record{}, errors.New("bad ipv4 start or count")
		}
		b := a.As4()
		start := uint64(b[0])<<24 | uint64(b[1])<<16 | uint64(b[2])<<8 | uint64(b[3])
		end := start + value - 1
		if end >= 1<<32 {
			return Record{}, errors.New("ipv4 range past the end")
		}
		rec.First = a
		rec.Last = netip.AddrFrom4([4]byte{byte(end >> 24), byte(end >> 16), byte(end >> 8), byte(end)})
	case "ipv6":
		a, err := netip.ParseAddr(fields[3])
		if err != nil || !a.Is6() || a.Is4In6() || a.Zone() != "" || value > 128 {
			return Record{}, errors.New("bad ipv6 start or length")
		}
		p := netip.PrefixFrom(a, int(value))
		if p.Masked() != p {
			return Record{}, errors.New("ipv6 start not aligned")
		}
		rec.First, rec.Last = a, netinfo.LastAddr(p)
	case "asn":
		// value is bounded first, so that start+value-1 cannot wrap around 2^64 to a small number.
		start, err := strconv.ParseUint(fields[3], 10, 32)
		if err != nil || value > 1<<32 || start+value-1 > 1<<32-1 {
			return Record{}, errors.New("bad asn range")
		}
		rec.FirstASN, rec.LastASN = uint32(start), uint32(start+value-1)
	default:
		return Record{}, errors.New("unknown type")
	}
	return rec, nil
}

func upper(c byte) bool { return 'A' <= c && c <= 'Z' }

// Date turns "yyyymmdd" into "yyyy-mm-dd"; anything else, including "00000000" (no date)
// and days that do not exist (20200230), gives "".
func Date(s string) string {
	if len(s) != 8 {
		return ""
	}
	for i := range 8 {
		if s[i] < '0' || s[i] > '9' { // time.Parse would take a sign in the year
			return ""
		}
	}
	t, err := time.Parse("20060102", s)
	if err != nil || t.Year() == 0 {
		return ""
	}
	return s[:4] + "-" + s[4:6] + "-" + s[6:8]
}

// IsChecksum reports whether a file named name is a checksum or signature published beside
// a delegated file (delegated-apnic-latest.md5, .asc, .sha256), to be left out where
// delegated-* files are gathered: they are not statistics files, and sort after the file
// they describe.
func IsChecksum(name string) bool {
	return strings.HasSuffix(name, ".md5") || strings.HasSuffix(name, ".asc") || strings.HasSuffix(name, ".sha256")
}

// RegistryName returns the name a registry goes by in the API for its lower-case code in
// these files: "AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE NCC", "IANA", "IETF"; "" for
// anything else.
func RegistryName(code string) string {
	switch strings.ToLower(code) {
	case "afrinic":
		return "AFRINIC"
	case "apnic":
		return "APNIC"
	case "arin":
		return "ARIN"
	case "lacnic":
		return "LACNIC"
	case "ripencc", "ripe":
		return "RIPE NCC"
	case "iana":
		return "IANA"
	case "ietf":
		return "IETF"
	}
	return ""
}
