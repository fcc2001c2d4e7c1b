package rirstats

import (
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// sample has the shapes of the real files: APNIC's plain header and comments, AFRINIC's
// extended rows with opaque ids, LACNIC's version 2.3, IANA's registry-as-status rows, a
// ZZ country, an odd-sized IPv4 count, and broken rows that are skipped.
const sample = `# comment
######
2|apnic|20260618|85300|19830613|20260617|+1000
apnic|*|asn|*|13701|summary
apnic|*|ipv4|*|54666|summary
apnic|JP|asn|173|1|20020801|allocated
apnic|AU|ipv4|1.0.0.0|256|20110811|assigned
afrinic|ZA|ipv4|41.0.0.0|768|19910301|allocated|F36B9F4B
afrinic|ZZ|ipv6|2c0f:fff4::|30||reserved|
iana|ZZ|asn|1|1876|19920101|arin
apnic|SG|ipv6|2410::|17|20241108|allocated
apnic|XX|ipv4|1.2.3.4|0|20110811|assigned
apnic|AU|ipv4|255.255.255.0|512|20110811|assigned
apnic|AU|ipv4|1.2.3.999|256|20110811|assigned
apnic|AU|ipv6|2410::1|32|20110811|assigned
apnic|AU|asn|4294967295|2|20110811|assigned
apnic|AU|ipv7|1|1|20110811|assigned
short|line
# Last updated: 2026-06-18 13:14:23
`

func TestParse(t *testing.T) {
	f, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	want := File{
		Header: Header{Version: "2", Registry: "apnic", Serial: "20260618", Records: 85300, StartDate: "1983-06-13", EndDate: "2026-06-17", UTCOffset: "+1000"},
		Records: []Record{
			{Registry: "apnic", Country: "JP", Type: "asn", Date: "2002-08-01", Status: "allocated", FirstASN: 173, LastASN: 173},
			{Registry: "apnic", Country: "AU", Type: "ipv4", Date: "2011-08-11", Status: "assigned", First: netip.MustParseAddr("1.0.0.0"), Last: netip.MustParseAddr("1.0.0.255")},
			{Registry: "afrinic", Country: "ZA", Type: "ipv4", Date: "1991-03-01", Status: "allocated", OpaqueID: "F36B9F4B", First: netip.MustParseAddr("41.0.0.0"), Last: netip.MustParseAddr("41.0.2.255")},
			{Registry: "afrinic", Type: "ipv6", Status: "reserved", First: netip.MustParseAddr("2c0f:fff4::"), Last: netip.MustParseAddr("2c0f:fff7:ffff:ffff:ffff:ffff:ffff:ffff")},
			{Registry: "iana", Type: "asn", Date: "1992-01-01", Status: "arin", FirstASN: 1, LastASN: 1876},
			{Registry: "apnic", Country: "SG", Type: "ipv6", Date: "2024-11-08", Status: "allocated", First: netip.MustParseAddr("2410::"), Last: netip.MustParseAddr("2410:7fff:ffff:ffff:ffff:ffff:ffff:ffff")},
		},
		Skipped: 7,
		Lines:   13,
	}
	if diff := cmp.Diff(want, f, cmpopts.EquateComparable(netip.Addr{})); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// rangeTests are rows at the ends of the AS number and IPv4 spaces; those whose count
// does not fit are skipped. The counts near 2^64 wrapped start+count-1 to a number below
// start, and the row was taken as AS2 to AS0.
var rangeTests = []struct {
	line        string
	first, last string // "" for a skipped row; ASNs as numbers
}{
	{line: "arin|US|asn|2|18446744073709551615|20200101|allocated"},
	{line: "arin|US|asn|0|18446744073709551615|20200101|allocated"},
	{line: "arin|US|asn|1|4294967296|20200101|allocated"},
	{line: "arin|US|asn|4294967295|2|20200101|allocated"},
	{line: "arin|US|asn|4294967296|1|20200101|allocated"},
	{line: "arin|US|asn|0|4294967296|20200101|allocated", first: "0", last: "4294967295"},
	{line: "arin|US|asn|4294967295|1|20200101|allocated", first: "4294967295", last: "4294967295"},
	{line: "arin|US|ipv4|1.0.0.0|18446744073709551615|20200101|allocated"},
	{line: "arin|US|ipv4|0.0.0.1|4294967296|20200101|allocated"},
	{line: "arin|US|ipv4|255.255.255.255|2|20200101|allocated"},
	{line: "arin|US|ipv4|0.0.0.0|4294967296|20200101|allocated", first: "0.0.0.0", last: "255.255.255.255"},
	{line: "arin|US|ipv4|255.255.255.255|1|20200101|allocated", first: "255.255.255.255", last: "255.255.255.255"},
}

const rangeHeader = "2|arin|20200101|1|19830101|20200101|-0500\n"

func TestParseRanges(t *testing.T) {
	for _, tt := range rangeTests {
		f, err := Parse(strings.NewReader(rangeHeader + tt.line + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		var first, last string
		if len(f.Records) == 1 {
			r := f.Records[0]
			first, last = r.First.String(), r.Last.String()
			if r.Type == "asn" {
				first, last = strconv.FormatUint(uint64(r.FirstASN), 10), strconv.FormatUint(uint64(r.LastASN), 10)
			}
		}
		wantSkipped := 0
		if tt.first == "" {
			wantSkipped = 1
		}
		if first != tt.first || last != tt.last || f.Skipped != wantSkipped {
			t.Errorf("%s: %q to %q, %d skipped; want %q to %q, %d skipped", tt.line, first, last, f.Skipped, tt.first, tt.last, wantSkipped)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, s := range []string{"", "# only comments\n", "apnic|JP|asn|173|1|20020801|allocated\n", "x|apnic|1|2|3|4|5\n"} {
		if _, err := Parse(strings.NewReader(s)); err == nil {
			t.Errorf("Parse(%q): no error", s)
		}
	}
}

func TestDate(t *testing.T) {
	for in, want := range map[string]string{
		"20260618": "2026-06-18", "20240229": "2024-02-29", "20261231": "2026-12-31", "00010101": "0001-01-01",
		"00000000": "", "00000101": "", "": "", "2026061": "", "202606181": "", "20261301": "", "20260001": "", "20260600": "",
		"2026a618": "", "+2020101": "", "20200230": "", "20230229": "", "20260431": "", "20260632": "",
	} {
		if got := Date(in); got != want {
			t.Errorf("Date(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsChecksum(t *testing.T) {
	for name, want := range map[string]bool{
		"delegated-iana-latest.md5": true, "delegated-apnic-latest.asc": true, "delegated-arin-extended-latest.sha256": true,
		"delegated-iana-latest": false, "delegated-apnic-20260618": false, "delegated-ripencc-latest.bz2": false, "md5": false,
	} {
		if got := IsChecksum(name); got != want {
			t.Errorf("IsChecksum(%q) = %v", name, got)
		}
	}
}

func FuzzRIRDelegated(f *testing.F) {
	f.Add(sample)
	f.Add("2.3|lacnic|20240208|88899|19870101|20240208|-0300\nlacnic|BR|ipv4|24.152.0.0|1024|20200310|allocated|310248\n")
	f.Add("2|iana|20190911|973|19830101|20190612|+0000\niana|ZZ|ipv6|fec0:0000::|10|19960801|ietf\n")
	f.Add("2|arin|20200230|1|19830101|20200230|-0500\narin|US|asn|2|1|20200230|allocated\n")
	for _, tt := range rangeTests {
		f.Add(rangeHeader + tt.line + "\n")
	}
	f.Fuzz(func(t *testing.T, s string) {
		file, err := Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		if file.Lines != len(file.Records)+file.Skipped {
			t.Fatalf("%d lines, %d records and %d skipped", file.Lines, len(file.Records), file.Skipped)
		}
		for _, d := range []string{file.Header.StartDate, file.Header.EndDate, file.Header.Date()} {
			if _, err := time.Parse(time.DateOnly, d); d != "" && err != nil {
				t.Fatalf("header date %q", d)
			}
		}
		for _, r := range file.Records {
			if _, err := time.Parse(time.DateOnly, r.Date); r.Date != "" && err != nil {
				t.Fatalf("date %q", r.Date)
			}
			switch r.Type {
			case "ipv4", "ipv6":
				if !r.First.IsValid() || r.Last.Less(r.First) || r.First.Is4() != r.Last.Is4() {
					t.Fatalf("bad range %v-%v", r.First, r.Last)
				}
			case "asn":
				if r.LastASN < r.FirstASN {
					t.Fatalf("bad ASN range %d-%d", r.FirstASN, r.LastASN)
				}
			default:
				t.Fatalf("type %q", r.Type)
			}
		}
	})
}

// TestCountMismatch: only fewer lines than the header counts point at a cut file; more
// (IANA's file) is the header's fault, and the warning must not blame the download.
func TestCountMismatch(t *testing.T) {
	tests := []struct {
		lines, declared int
		want            string
	}{
		{973, 973, ""},
		{0, 0, ""},
		{900, 973, "900 records where the header counts 973; the file may be cut short"},
		{2530, 973, "2530 records where the header counts 973; the header undercounts"},
	}
	for _, tt := range tests {
		if got := CountMismatch(tt.lines, tt.declared); got != tt.want {
			t.Errorf("CountMismatch(%d, %d) = %q, want %q", tt.lines, tt.declared, got, tt.want)
		}
	}
}
