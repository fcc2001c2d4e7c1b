package riskbuild

import (
	"net/netip"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo/netinfobuild"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// TestUnownedSpace checks which addresses the built-in special-purpose table leaves to no
// provider, most specific block first.
func TestUnownedSpace(t *testing.T) {
	blocks, err := netinfobuild.SpecialBlocks(mapSources{})
	if err != nil {
		t.Fatal(err)
	}
	space := unownedSpace(blocks)
	tests := []struct {
		addr    string
		unowned bool
	}{
		{"192.0.2.1", true},         // Documentation (TEST-NET-1)
		{"198.51.100.1", true},      // TEST-NET-2
		{"203.0.113.1", true},       // TEST-NET-3
		{"198.19.255.255", true},    // Benchmarking 198.18.0.0/15
		{"10.1.2.3", true},          // Private-Use
		{"0.0.0.0", true},           // "This host on this network", inside "This network"
		{"255.255.255.255", true},   // Limited Broadcast, inside Reserved 240.0.0.0/4
		{"192.0.0.8", true},         // IPv4 dummy address, inside IETF Protocol Assignments
		{"192.0.0.9", false},        // PCP anycast: reachable, inside the not-reachable 192.0.0.0/24
		{"192.0.0.11", true},        // the rest of 192.0.0.0/24
		{"192.31.196.1", false},     // AS112-v4: globally reachable
		{"192.88.99.1", true},       // deprecated 6to4 relay anycast
		{"8.8.8.8", false},          // not special (IPv4-mapped ::ffff:0:0/96 must not unmap to all of IPv4)
		{"2002:808:808::1", true},   // 6to4: "N/A"
		{"2001::1", true},           // Teredo: "N/A"
		{"2001:db8::1", true},       // Documentation
		{"2001:2::1", true},         // Benchmarking
		{"2001:10::1", true},        // deprecated ORCHID
		{"2001:4:112::1", false},    // AS112-v6, inside the not-reachable 2001::/23
		{"2001:20::1", false},       // ORCHIDv2: globally reachable per the registry
		{"2001:1ff::1", true},       // the rest of 2001::/23
		{"2001:200::1", false},      // just after 2001::/23
		{"64:ff9b::808:808", false}, // NAT64 well-known prefix: globally reachable
		{"64:ff9b:1::1", true},      // local-use NAT64
		{"fd00::1", true},           // Unique-Local
		{"2001:19f0::1", false},     // Vultr
	}
	cut := make([]risk.Range, len(space))
	for i, s := range space {
		cut[i] = s.Range
		if i > 0 && space[i-1].To.Compare(s.From) >= 0 {
			t.Errorf("ranges %v and %v overlap or are out of order", space[i-1].Range, s.Range)
		}
	}
	for _, tt := range tests {
		a := netip.MustParseAddr(tt.addr)
		got := len(subtract(risk.Range{From: a, To: a}, cut)) == 0
		if got != tt.unowned {
			t.Errorf("%s: unowned %v, want %v", tt.addr, got, tt.unowned)
		}
	}
}

func TestSubtract(t *testing.T) {
	r := func(from, to string) risk.Range {
		return risk.Range{From: netip.MustParseAddr(from), To: netip.MustParseAddr(to)}
	}
	cut := []risk.Range{r("10.0.0.0", "10.255.255.255"), r("192.0.2.0", "192.0.2.255"), r("2002::", "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff")}
	tests := []struct {
		in   risk.Range
		want []risk.Range
	}{
		{r("8.8.8.0", "8.8.8.255"), []risk.Range{r("8.8.8.0", "8.8.8.255")}},                                           // outside
		{r("10.1.0.0", "10.1.255.255"), nil},                                                                           // inside
		{r("10.0.0.0", "10.255.255.255"), nil},                                                                         // the same
		{r("9.0.0.0", "11.255.255.255"), []risk.Range{r("9.0.0.0", "9.255.255.255"), r("11.0.0.0", "11.255.255.255")}}, // around
		{r("192.0.0.0", "192.0.3.255"), []risk.Range{r("192.0.0.0", "192.0.1.255"), r("192.0.3.0", "192.0.3.255")}},
		{r("0.0.0.0", "255.255.255.255"), []risk.Range{r("0.0.0.0", "9.255.255.255"), r("11.0.0.0", "192.0.1.255"), r("192.0.3.0", "255.255.255.255")}}, // over two, IPv6 cut untouched
		{r("192.0.2.128", "192.0.4.0"), []risk.Range{r("192.0.3.0", "192.0.4.0")}},                                                                      // overlapping the start
		{r("2001::", "2003::"), []risk.Range{r("2001::", "2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), r("2003::", "2003::")}},
		{r("2002:808:808::", "2002:808:808::ff"), nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, subtract(tt.in, cut), cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
			t.Errorf("subtract(%v) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestSpecialPurposeEntries builds lists whose entries lie in special-purpose space, as
// cloud-ipranges' Vultr files do (2002::/16, the documentation and benchmarking blocks): the
// provider lists lose those parts, keep their other parts and ranges, and the lists of
// single hosts (Tor, ipsum) keep theirs.
func TestSpecialPurposeEntries(t *testing.T) {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	src := mapSources{
		srcCloud: fstest.MapFS{
			"vultr/ipv4_merged.txt": file("192.0.2.0/24\n198.51.100.0/24\n203.0.113.0/24\n45.32.0.0/16\n192.0.0.0/23\n192.31.196.0/24\n"),
			"vultr/ipv6_merged.txt": file("2001:db8::/32\n2001:2::/48\n2001:10::/28\n2002::/16\n2001:19f0::/32\n2001::/16\n"),
		},
		srcX4BNet: fstest.MapFS{"datacenter-ipv4.txt": file("10.0.0.0/8\n100.64.0.0/10\n5.0.0.0/16\n")},
		srcIpcat:  fstest.MapFS{"datacenters.csv": file("198.18.0.0,198.20.255.255,Bench Hosting,http://example.com\n172.16.0.0,172.31.255.255,Only Private,http://example.com\n")},
		srcTor:    fstest.MapFS{"torbulkexitlist": file("2002:808:808::1\n")},
		srcIpsum:  fstest.MapFS{"ipsum.txt": file("10.9.9.9\t5\n")},
	}
	rec := newRecorder()
	db := buildDB(t, src, rec)
	facts := risk.Facts{IsReachable: true}
	tests := []struct {
		addr  string
		cloud string // CloudProvider
		check func(risk.Hazards) bool
	}{
		{"192.0.2.1", "", nil},
		{"198.51.100.1", "", nil},
		{"203.0.113.1", "", nil},
		{"2002:808:808::1", "", func(h risk.Hazards) bool { return h.IsKnownAsTorExit }}, // a Tor exit's own 6to4 address stays
		{"2001:db8::1", "", nil},
		{"2001:2::1", "", nil},
		{"2001:10::1", "", nil},
		{"2001::1", "", nil},            // Teredo, from 2001::/16
		{"45.32.1.1", "Vultr", nil},     // a real Vultr range
		{"2001:19f0::1", "Vultr", nil},  // inside 2001::/16 too
		{"2001:4:112::1", "Vultr", nil}, // AS112-v6 is operated space: 2001::/16 keeps it
		{"2001:200::1", "Vultr", nil},   // 2001::/16 beyond the IETF's 2001::/23
		{"192.0.1.1", "Vultr", nil},     // 192.0.0.0/23 keeps its half outside 192.0.0.0/24
		{"192.0.0.9", "Vultr", nil},     // and the reachable PCP anycast address
		{"192.0.0.1", "", nil},          // but not the rest of 192.0.0.0/24
		{"192.31.196.1", "Vultr", nil},  // AS112-v4 is kept
		{"10.1.1.1", "", func(h risk.Hazards) bool { return !h.IsKnownAsDatacenter && h.BlocklistCount == 0 }},
		{"10.9.9.9", "", func(h risk.Hazards) bool { return h.BlocklistCount == 5 }}, // ipsum is not a provider list
		{"100.64.0.1", "", func(h risk.Hazards) bool { return !h.IsKnownAsDatacenter }},
		{"5.0.1.1", "", func(h risk.Hazards) bool { return h.IsKnownAsDatacenter }},
		{"198.19.1.1", "", func(h risk.Hazards) bool { return h.HostingProvider == "" }},
		{"198.20.1.1", "", func(h risk.Hazards) bool { return h.HostingProvider == "Bench Hosting" }},
	}
	for _, tt := range tests {
		h := db.Hazards(netip.MustParseAddr(tt.addr), facts)
		if h.CloudProvider != tt.cloud || tt.check != nil && !tt.check(h) {
			t.Errorf("%s: cloud %q, want %q; %+v", tt.addr, h.CloudProvider, tt.cloud, h)
		}
	}
	for _, l := range db.Lists() {
		if l.Provider == "Only Private" {
			t.Errorf("list %+v left with no ranges is still there", l)
		}
	}

	wantCounts := map[string]int{srcCloud: 9, srcX4BNet: 2, srcIpcat: 2}
	for source, want := range wantCounts {
		if got := rec.counts[source]["ranges-in-special-purpose-space"]; got != want {
			t.Errorf("%s: %d ranges in special-purpose space, want %d", source, got, want)
		}
	}
	for _, source := range []string{srcTor, srcIpsum} {
		if _, ok := rec.counts[source]["ranges-in-special-purpose-space"]; ok {
			t.Errorf("%s counts ranges in special-purpose space: %v", source, rec.counts[source])
		}
	}
	for _, w := range []string{
		"cloud-ipranges: list cloud-ipranges/vultr: 9 ranges",
		"2002::/16 6to4", "192.0.2.0/24 Documentation (TEST-NET-1)",
		"ipcat-datacenters: list ipcat-datacenters (Bench Hosting): 1 ranges",
	} {
		if !slices.ContainsFunc(rec.warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no warning with %q in %q", w, rec.warnings)
		}
	}

	// A mirrored registry is read instead of the built-in table: the fixture registries of
	// package iana hold no 10.0.0.0/8, so the datacenter list keeps it.
	src[netinfobuild.SourceIANA] = os.DirFS("../../netinfo/internal/iana/testdata/registries")
	db = buildDB(t, src, newRecorder())
	if h := db.Hazards(netip.MustParseAddr("10.1.1.1"), facts); !h.IsKnownAsDatacenter {
		t.Errorf("10.1.1.1 with the fixture registries: %+v, want a datacenter", h)
	}
	if h := db.Hazards(netip.MustParseAddr("2001:db8::1"), facts); h.CloudProvider != "" {
		t.Errorf("2001:db8::1 with the fixture registries: %+v, want no cloud", h)
	}
}
