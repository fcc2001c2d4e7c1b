package netinfobuild

import (
	"bytes"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/osrg/gobgp/v4/pkg/packet/bgp"
	"github.com/osrg/gobgp/v4/pkg/packet/mrt"
)

var cmpNetip = cmpopts.EquateComparable(netip.Addr{}, netip.Prefix{})

func TestParseRIRDelegated(t *testing.T) {
	got, err := parseRIRDelegated(os.DirFS("testdata/rir"))
	if err != nil {
		t.Fatal(err)
	}
	a := netip.MustParseAddr
	want := rirData{
		Files: []rirFile{
			{Name: "delegated-afrinic-extended-20260821", Registry: "afrinic", Date: "2026-08-21", Records: 6, Skipped: 1, Declared: 19600, Lines: 7},
			{Name: "delegated-apnic-20260618", Registry: "apnic", Date: "2026-06-18", Records: 3, Declared: 85300, Lines: 3},
		},
		Blocks: []rirBlock{
			{a("41.0.0.0"), a("41.31.255.255"), "AFRINIC", "allocated", "ZA", "2026-08-21"},
			{a("41.57.112.0"), a("41.57.119.255"), "AFRINIC", "reserved", "", "2026-08-21"},
			{a("2001:4200::"), a("2001:4200:ffff:ffff:ffff:ffff:ffff:ffff"), "AFRINIC", "allocated", "ZA", "2026-08-21"},
			{a("2c0f:fff8::"), a("2c0f:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), "AFRINIC", "available", "", "2026-08-21"},
			{a("1.1.1.0"), a("1.1.1.255"), "APNIC", "assigned", "AU", "2026-06-18"},
		},
		ASNs: []asnRow{
			{36994, 36994, "AFRINIC", "ZA", "2006-03-24"},
			{173, 173, "APNIC", "JP", "2002-08-01"},
			{2500, 2501, "APNIC", "JP", "2002-08-01"},
		},
		ASNPools: []asnRow{{First: 37000, Last: 37002, Registry: "AFRINIC"}},
	}
	if diff := cmp.Diff(want, got, cmpNetip); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseRIRDelegated(fstest.MapFS{"x": {}}); err == nil {
		t.Error("no error for a folder without delegated files")
	}
	if _, err := parseRIRDelegated(fstest.MapFS{"delegated-x": {Data: []byte("x|y\n")}}); err == nil {
		t.Error("no error for a file without a version line")
	}
}

func TestParseFullBogons(t *testing.T) {
	got, err := parseFullBogons(os.DirFS("testdata/fullbogons"))
	if err != nil {
		t.Fatal(err)
	}
	p := netip.MustParsePrefix
	want := fullBogons{
		Lists: []bogonList{
			{Prefixes: []netip.Prefix{p("0.0.0.0/8"), p("10.0.0.0/8"), p("23.135.225.0/24"), p("192.0.2.0/24")}, Updated: time.Unix(1710089701, 0).UTC()},
			{Prefixes: []netip.Prefix{p("::/10"), p("2001:201::/32")}, Updated: time.Unix(1710089701, 0).UTC()},
		},
		Skipped: 1,
	}
	if diff := cmp.Diff(want, got, cmpNetip); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseFullBogons(fstest.MapFS{"fullbogons-ipv4.txt": {Data: []byte("# nothing\n")}}); err == nil {
		t.Error("no error for an empty list")
	}
}

func TestParseASNames(t *testing.T) {
	got, err := parseASNames(os.DirFS("testdata/asn-names"))
	if err != nil {
		t.Fatal(err)
	}
	want := asNames{
		Names: []asName{
			{1, "LVLT-1", "", "US"},
			{13335, "CLOUDFLARENET", "", "US"},
			{2277, "ECUANET", "CORPORACION ECUATORIANA DE INFORMACION", "EC"},
			{1128, "TUDELFT-NL", "DTO TUDELFT, The Netherlands - AS", "NL"},
			{15169, "GOOGLE", "", "US"},
		},
		Date:    "2026-01-20",
		Skipped: 3,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSplitASName(t *testing.T) {
	for _, tc := range []struct{ in, handle, org string }{
		{"LVLT-1", "LVLT-1", ""},
		{"GOOGLE - Google LLC", "GOOGLE", "Google LLC"},
		{"ECUANET CORPORACION ECUATORIANA DE INFORMACION", "ECUANET", "CORPORACION ECUATORIANA DE INFORMACION"},
		{"TUDELFT-NL DTO TUDELFT, The Netherlands - AS", "TUDELFT-NL", "DTO TUDELFT, The Netherlands - AS"},
		{"TIM S.A.", "TIM S.A.", "TIM S.A."},
		{"A PCCW Company", "A PCCW Company", "A PCCW Company"},
		{"University of Innsbruck", "University of Innsbruck", "University of Innsbruck"},
		{"KPN B.V.", "KPN B.V.", "KPN B.V."},
		{"AS251 AS251", "AS251", "AS251"},
	} {
		if h, o := splitASName(tc.in); h != tc.handle || o != tc.org {
			t.Errorf("splitASName(%q) = %q, %q; want %q, %q", tc.in, h, o, tc.handle, tc.org)
		}
	}
}

func FuzzFullbogons(f *testing.F) {
	for _, n := range []string{"fullbogons-ipv4-20240310.txt", "fullbogons-ipv6-20240310.txt"} {
		b, err := os.ReadFile(filepath.Join("testdata/fullbogons", n))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("# last updated 99999999999999999999\n::ffff:1.2.3.0/120\nfe80::%eth0/64\n")
	f.Fuzz(func(t *testing.T, s string) {
		var b fullBogons
		l, err := b.read(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, p := range l.Prefixes {
			if !p.IsValid() || p.Masked() != p || p.Addr().Is4In6() || p.Addr().Zone() != "" {
				t.Fatalf("bad prefix %v", p)
			}
		}
	})
}

func FuzzASNames(f *testing.F) {
	b, err := os.ReadFile("testdata/asn-names/potaroo-asn-20260120.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	f.Add("AS4294967295 X - Y, ZZ\n4294967296\tTOO-BIG, US\n1\t\xff\xfe, US\n")
	f.Fuzz(func(t *testing.T, s string) {
		var n asNames
		if err := n.read(strings.NewReader(s)); err != nil {
			return
		}
		for _, a := range n.Names {
			if a.Handle == "" || !validText(a.Handle) || !validText(a.Name) || (a.Country != "" && len(a.Country) != 2) {
				t.Fatalf("bad name %+v", a)
			}
		}
	})
}

// FuzzMRT feeds readMRT corrupted dumps: it must not panic, and every route it yields must
// have a valid prefix and a non-empty, loop-free path.
func FuzzMRT(f *testing.F) {
	b, err := os.ReadFile("testdata/mrt/constructed.mrt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte{0x1f, 0x8b, 0x08})
	f.Add([]byte("BZh91AY&SY"))
	f.Add(slices.Concat(peerIndexTable(64496), ribRecord(mrt.RIB_GENERIC, bgp.SAFI_MULTICAST, 0, 64496, 15169)))
	f.Add(slices.Concat(peerIndexTable(64496, 3356), brokenPeerIndexTable, ribRecord(mrt.RIB_IPV4_UNICAST, 0, 1, 1299, 15169)))
	f.Add(slices.Concat(mrtRecord(99, 0, nil), peerIndexTable(64496)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st mrtStats
		_, _ = readMRT(bytes.NewReader(data), maxMRTFile, &st, func(r route) {
			if !r.Prefix.IsValid() || len(r.Path) == 0 {
				t.Fatalf("bad route %+v", r)
			}
			seen := map[uint32]bool{}
			for _, as := range r.Path {
				if seen[as] {
					t.Fatalf("loop in %v", r.Path)
				}
				seen[as] = true
			}
		})
	})
}
