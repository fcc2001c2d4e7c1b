package riskbuild

import (
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// cmpAddrs and cmpPrefixes let cmp compare netip values, whose fields it cannot see.
func cmpAddrs() cmp.Option    { return cmp.Comparer(func(a, b netip.Addr) bool { return a == b }) }
func cmpPrefixes() cmp.Option { return cmp.Comparer(func(a, b netip.Prefix) bool { return a == b }) }

func addrList(ss ...string) []netip.Addr {
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out
}

func prefixList(ss ...string) []netip.Prefix {
	var out []netip.Prefix
	for _, s := range ss {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}

// many repeats line n times, to build files with a given share of bad lines.
func many(line string, n int) string { return strings.Repeat(line+"\n", n) }

func TestParseAddrLines(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []netip.Addr
		bad     int
		wantErr bool
	}{
		{"torbulkexitlist", "185.241.208.232\n194.26.192.64\n", addrList("185.241.208.232", "194.26.192.64"), 0, false},
		{"no final newline, CRLF, blanks, comments, IPv6", "# nodes\r\n1.161.163.82\r\n\r\n2a0a:4cc0:c1:2aac::1", addrList("1.161.163.82", "2a0a:4cc0:c1:2aac::1"), 0, false},
		{"mapped and bracketed", "::ffff:1.2.3.4\n[2001:db8::1]\n", addrList("1.2.3.4", "2001:db8::1"), 0, false},
		{"empty", "", nil, 0, false},
		{"one bad line in 200 is skipped", many("192.0.2.1", 199) + "not-an-ip\n", addrList(strings.Split(strings.Repeat("192.0.2.1 ", 199), " ")[:199]...), 1, false},
		{"zones are bad", many("192.0.2.1", 199) + "fe80::1%eth0\n", addrList(strings.Split(strings.Repeat("192.0.2.1 ", 199), " ")[:199]...), 1, false},
		{"a changed format fails", "1.2.3.4 extra\n5.6.7.8 extra\n", nil, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, bad, err := parseAddrLines([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if diff := cmp.Diff(tt.want, got, cmpAddrs(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if bad.N != tt.bad {
				t.Errorf("bad lines = %d (%s), want %d", bad.N, bad.First, tt.bad)
			}
		})
	}
}

func TestParseExitAddresses(t *testing.T) {
	in := `ExitNode FE39F07EBE7870DCE124AB30DF3ABD0700A43F75
Published 2024-03-11 13:07:19
LastStatus 2024-03-12 08:00:00
ExitAddress 185.241.208.232 2024-03-12 08:10:51
ExitNode 23B49521BDC4588C7CCF3C38E552504118326B66
Published 2024-03-12 02:29:55
LastStatus 2024-03-12 13:00:00
ExitAddress 194.26.192.64 2024-03-12 13:03:14
ExitAddress 2001:db8::64 2024-03-12 13:04:00
SomeFutureKeyword whatever
`
	got, bad, err := parseExitAddresses([]byte(in))
	if err != nil || bad.N != 0 {
		t.Fatalf("err = %v, bad = %+v", err, bad)
	}
	want := exitList{Addrs: addrList("185.241.208.232", "194.26.192.64", "2001:db8::64"), Relays: 2,
		Newest: time.Date(2024, 3, 12, 13, 4, 0, 0, time.UTC)}
	if diff := cmp.Diff(want, got, cmpAddrs()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	for _, in := range []string{
		"ExitAddress 999.1.1.1 2024-03-12 08:10:51\n",
		"Published yesterday\n",
		"LastStatus 2024-13-12 08:00:00\n",
		"ExitNode\n",
	} {
		if _, _, err := parseExitAddresses([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestParseOnionooCSV(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []netip.Addr
	}{
		{"header", "fingerprint,ipaddr,port\n000004ACBB9D29BCBA17256BB35928DDBFC8ABA9,152.53.144.50,8443\n000004ACBB9D29BCBA17256BB35928DDBFC8ABA9,2a0a:4cc0:c1:2aac::1,8443\n",
			addrList("152.53.144.50", "2a0a:4cc0:c1:2aac::1")},
		{"header in another order", "ipaddr,fingerprint\n[2001:db8::1],AB\n", addrList("2001:db8::1")},
		{"no header", "AB,192.0.2.7,9001\n", addrList("192.0.2.7")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, bad, err := parseOnionooCSV([]byte(tt.in))
			if err != nil || bad.N != 0 {
				t.Fatalf("err = %v, bad = %+v", err, bad)
			}
			if diff := cmp.Diff(tt.want, got, cmpAddrs()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, _, err := parseOnionooCSV([]byte("fingerprint,ipaddr,port\nAB\n")); err == nil {
		t.Error("short row: no error")
	}
}

func TestParseCIDRList(t *testing.T) {
	in := "# X4BNet\n1.12.0.0/14\n2001:418:1401:4::/64\n2a0d:3002:2100:a00c:5::4065/128\n10.1.2.3/8 # host bits\n192.0.2.9\n; other comment\n"
	got, bad, err := parseCIDRList([]byte(in))
	if err != nil || bad.N != 0 {
		t.Fatalf("err = %v, bad = %+v", err, bad)
	}
	want := prefixList("1.12.0.0/14", "2001:418:1401:4::/64", "2a0d:3002:2100:a00c:5::4065/128", "10.0.0.0/8", "192.0.2.9/32")
	if diff := cmp.Diff(want, got, cmpPrefixes()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, _, err := parseCIDRList([]byte("1.2.3.0/33\n")); err == nil {
		t.Error("/33: no error")
	}
}

func TestParseASNList(t *testing.T) {
	in := "AS45090 # Tencent cloud computing\nAS3223 # VOXILITY, RO\nas9009\n13335 # bare number\n\n# comment\n"
	got, bad, err := parseASNList([]byte(in))
	if err != nil || bad.N != 0 {
		t.Fatalf("err = %v, bad = %+v", err, bad)
	}
	if diff := cmp.Diff([]uint32{45090, 3223, 9009, 13335}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, in := range []string{"AS0\n", "AS4294967296\n", "ASX\n", "AS-1\n"} {
		if _, _, err := parseASNList([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestParseIpcatCSV(t *testing.T) {
	in := `3.0.0.0,3.1.255.255,Amazon AWS,http://www.amazon.com/aws/
64.5.32.0,64.5.63.255,"ThePlanet.com Internet Services, Inc.",http://theplanet.com
223.27.168.0,223.27.175.255,  Voxel ,http://www.voxel.net/
`
	got, bad, err := parseIpcatCSV([]byte(in))
	if err != nil || bad.N != 0 {
		t.Fatalf("err = %v, bad = %+v", err, bad)
	}
	a := netip.MustParseAddr
	want := []ipcatRange{
		{a("3.0.0.0"), a("3.1.255.255"), "Amazon AWS"},
		{a("64.5.32.0"), a("64.5.63.255"), "ThePlanet.com Internet Services, Inc."},
		{a("223.27.168.0"), a("223.27.175.255"), "Voxel"},
	}
	if diff := cmp.Diff(want, got, cmpAddrs()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, in := range []string{
		"3.1.255.255,3.0.0.0,Reversed,x\n",
		"3.0.0.0,2001:db8::,Mixed,x\n",
		"3.0.0.0,3.0.0.9,,x\n",
		"3.0.0.0,3.0.0.9\n",
		"\"unterminated,3.0.0.9,x,y\n",
	} {
		if _, _, err := parseIpcatCSV([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestParseIpsum(t *testing.T) {
	in := "# IPsum Threat Intelligence Feed\n# (https://github.com/stamparm/ipsum)\n#\n# Last update: Sat, 22 Aug 2026 03:00:29 +0200\n#\n# IP\tnumber of (black)lists\n#\n77.90.185.20\t10\n23.224.4.114\t1\n"
	got, bad, err := parseIpsum([]byte(in))
	if err != nil || bad.N != 0 {
		t.Fatalf("err = %v, bad = %+v", err, bad)
	}
	want := ipsumFeed{
		Entries: []ipsumEntry{{netip.MustParseAddr("77.90.185.20"), 10}, {netip.MustParseAddr("23.224.4.114"), 1}},
		Updated: time.Date(2026, 8, 22, 1, 0, 29, 0, time.UTC),
	}
	if diff := cmp.Diff(want, got, cmpAddrs()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, in := range []string{"1.2.3.4\t0\n", "1.2.3.4\t1001\n", "1.2.3.4\n", "1.2.3.4\tx\n", "1.2.3.4\t2\t3\n"} {
		if _, _, err := parseIpsum([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	if got, _, _ := parseIpsum([]byte("# Last update: whenever\n1.2.3.4\t3\n")); !got.Updated.IsZero() {
		t.Errorf("unparsable date gave %v", got.Updated)
	}
}

func TestParseDrop(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want dropList
	}{
		{"text with Last-Modified", "; Spamhaus DROP List 2025/01/17 - (c) 2025 The Spamhaus Project SLU\n; https://www.spamhaus.org/drop/drop.txt\n; Last-Modified: Fri, 17 Jan 2025 17:03:47 GMT\n; Expires: Fri, 17 Jan 2025 18:07:54 GMT\n1.10.16.0/20 ; SBL256894\n1.19.0.0/16 ; SBL434604\n; EOF\n",
			dropList{Prefixes: prefixList("1.10.16.0/20", "1.19.0.0/16"), Date: time.Date(2025, 1, 17, 17, 3, 47, 0, time.UTC)}},
		{"title date only", "; Spamhaus IPv6 DROP List 2025/01/15 - (c) 2025 The Spamhaus Project SLU\n2001:678:6c4::/48 ; SBL626637\n",
			dropList{Prefixes: prefixList("2001:678:6c4::/48"), Date: time.Date(2025, 1, 15, 0, 0, 0, 0, time.UTC)}},
		{"json lines", `{"cidr":"1.10.16.0/20","sblid":"SBL256894","rir":"apnic"}` + "\n" + `{"type":"metadata","timestamp":1737133427,"size":1,"records":1}` + "\n",
			dropList{Prefixes: prefixList("1.10.16.0/20"), Date: time.Unix(1737133427, 0).UTC()}},
		{"no date", "1.10.16.0/20 ; SBL256894\n", dropList{Prefixes: prefixList("1.10.16.0/20")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, bad, err := parseDrop([]byte(tt.in))
			if err != nil || bad.N != 0 {
				t.Fatalf("err = %v, bad = %+v", err, bad)
			}
			if diff := cmp.Diff(tt.want, got, cmpPrefixes()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	for _, in := range []string{"1.10.16.0 ; SBL1\n", "{\"cidr\":\"x\"}\n", "{broken\n"} {
		if _, _, err := parseDrop([]byte(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}

func TestProvenanceDate(t *testing.T) {
	torTable := `# Tor relay / exit lists

| file | source repo | path | commit (date) | data date | format |
|---|---|---|---|---|---|
| doodad-exit-nodes.txt / doodad-guard-nodes.txt / doodad-relay-nodes.txt | github.com/doodad-labs/tor-nodes | active/exit-nodes.txt | d310 (2026-02-22) | 2026-02-22 | one IP per line |
| onionoo-exits.csv / onionoo-all-relays.csv | github.com/ling0x/tor-nodes | latest.exits.csv | 5723 (2026-05-21) | 2026-05-21 | CSV |
| exit-addresses-20240312.txt | github.com/x/ipinfo-parser | exit-addresses | e21c (2024-03-13) | 2024-03-12 | exit-addresses |

| file | bytes | sha256 (first 16) |
|---|---|---|
| ` + "`doodad-exit-nodes.txt`" + ` | 36749 | 68a01a3f0a485138 |
`
	x4bnet := "Source: github.com/X4BNet/lists_vpn, commit 1679 (2026-08-22).\n| file | path in repo |\n|---|---|\n| vpn-ipv4.txt | output/vpn/ipv4.txt |\n\nLicence: MIT. Data date: 2026-08-22.\n"
	ipcat := "Source: github.com/client9/ipcat, path datacenters.csv, commit a26c (2023-02-02);\nthe data file itself last changed 2019-02-20 (stale).\n"
	date := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		md, file string
		want     time.Time
		rule     string
	}{
		{torTable, "doodad-guard-nodes.txt", date(2026, 2, 22), dateFromTable},
		{torTable, "onionoo-all-relays.csv", date(2026, 5, 21), dateFromTable},
		{torTable, "exit-addresses-20240312.txt", date(2024, 3, 12), dateFromTable},
		{torTable, "torbulkexitlist-20240312.txt", date(2026, 2, 22), dateFromCommit}, // not in the table
		{x4bnet, "vpn-ipv4.txt", date(2026, 8, 22), dateFromStatement},
		{ipcat, "datacenters.csv", date(2019, 2, 20), dateFromLastChange},
		{"commit 14dd (2026-08-22).\n", "amazon/ipv4_merged.txt", date(2026, 8, 22), dateFromCommit},
		{"no date here", "x.txt", time.Time{}, ""},
		{"", "x.txt", time.Time{}, ""},
	}
	for _, tt := range tests {
		got, rule := provenanceDate([]byte(tt.md), tt.file)
		if !got.Equal(tt.want) || rule != tt.rule {
			t.Errorf("provenanceDate(..., %q) = %v (%s), want %v (%s)", tt.file, got, rule, tt.want, tt.rule)
		}
	}
}

func TestNamesFile(t *testing.T) {
	for _, tt := range []struct {
		cell, name string
		want       bool
	}{
		{"onionoo-exits.csv / onionoo-all-relays.csv", "onionoo-all-relays.csv", true},
		{"drop.txt", "drop.txt", true},
		{"dropv6.txt", "drop.txt", false},
		{"`amazon/ipv4_merged.txt`", "ipv4_merged.txt", false},
		{"`amazon/ipv4_merged.txt`", "amazon/ipv4_merged.txt", true},
		{"x", "", false},
	} {
		if got := namesFile(tt.cell, tt.name); got != tt.want {
			t.Errorf("namesFile(%q, %q) = %v, want %v", tt.cell, tt.name, got, tt.want)
		}
	}
}
