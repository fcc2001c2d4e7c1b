package risk_test

import (
	"math/rand/v2"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/risk/risktest"
)

// day is the list date of the hand-made lists.
func day() time.Time { return time.Date(2026, 8, 22, 0, 0, 0, 0, time.UTC) }

// addrs makes single-address ranges.
func addrs(ss ...string) []risk.Range {
	var out []risk.Range
	for _, s := range ss {
		a := netip.MustParseAddr(s)
		out = append(out, risk.Range{From: a, To: a})
	}
	return out
}

// prefixes makes the ranges of CIDRs.
func prefixes(ss ...string) []risk.Range {
	var out []risk.Range
	for _, s := range ss {
		out = append(out, risk.PrefixRange(netip.MustParsePrefix(s)))
	}
	return out
}

// sample is a small hand-made section with every kind of list, shaped like the real ones.
func sample() risk.Data {
	return risk.Data{
		Lists: []risk.List{
			{Name: "tor/exits", Kind: risk.KindTorExit, Date: day(), Ranges: addrs("185.220.101.33", "2a0b:f4c2:2::33")},
			{Name: "tor/relays", Kind: risk.KindTorRelay, Date: day(), Ranges: addrs("185.220.101.33", "152.53.144.50")},
			{Name: "x4bnet-lists-vpn/vpn", Kind: risk.KindVPN, Ranges: prefixes("2.56.16.0/22", "2001:ac8::/32")},
			{Name: "x4bnet-lists-vpn/datacenter", Kind: risk.KindDatacenter, Ranges: prefixes("2.56.16.0/22", "3.0.0.0/15", "2001:ac8::/32")},
			{Name: "ipcat-datacenters", Kind: risk.KindDatacenter, Provider: "Amazon AWS",
				Ranges: []risk.Range{{From: netip.MustParseAddr("3.0.0.0"), To: netip.MustParseAddr("3.1.255.255")}}},
			{Name: "cloud-ipranges/amazon", Kind: risk.KindCloud, Provider: "Amazon", Ranges: prefixes("3.0.0.0/16", "2600:1f00::/24")},
			{Name: "cloud-ipranges/apple-proxy", Kind: risk.KindPrivateRelay, Ranges: prefixes("172.224.224.0/27")},
			{Name: "ipsum", Kind: risk.KindBlocklist, Score: 2, Ranges: addrs("45.1.2.3")},
			{Name: "ipsum", Kind: risk.KindBlocklist, Score: 7, Ranges: addrs("77.90.185.20")},
			{Name: "spamhaus-drop", Kind: risk.KindDrop, Date: day(), Ranges: prefixes("1.10.16.0/20", "2001:678:6c4::/48")},
		},
		ASNLists: []risk.ASNList{
			{Name: "x4bnet-lists-vpn/datacenter-asn", Kind: risk.KindDatacenter, ASNs: []uint32{16509, 24940}},
			{Name: "x4bnet-lists-vpn/vpn-asn", Kind: risk.KindVPN, ASNs: []uint32{9009}},
		},
	}
}

func TestHazards(t *testing.T) {
	db := risktest.MustDB(t, sample())
	ok := risk.Facts{IsReachable: true}
	tests := []struct {
		name  string
		addr  string
		facts risk.Facts
		want  risk.Hazards
		risk  risk.Risk
	}{
		{"tor exit and relay", "185.220.101.33", ok, risk.Hazards{IsKnownAsTorServer: true, IsKnownAsTorExit: true,
			Lists: []string{"tor/exits", "tor/relays"}}, risk.High},
		{"tor exit ipv6", "2a0b:f4c2:2::33", ok, risk.Hazards{IsKnownAsTorServer: true, IsKnownAsTorExit: true,
			Lists: []string{"tor/exits"}}, risk.High},
		{"tor exit as ipv4-mapped ipv6", "::ffff:185.220.101.33", ok, risk.Hazards{IsKnownAsTorServer: true, IsKnownAsTorExit: true,
			Lists: []string{"tor/exits", "tor/relays"}}, risk.High},
		{"tor relay only", "152.53.144.50", ok, risk.Hazards{IsKnownAsTorServer: true, Lists: []string{"tor/relays"}}, risk.High},
		{"next to a tor relay", "152.53.144.51", ok, risk.Hazards{}, risk.Low},
		{"vpn range is also datacenter", "2.56.17.1", ok, risk.Hazards{IsKnownAsVpn: true, IsKnownAsDatacenter: true, HostingLikelihood: 4,
			Lists: []string{"x4bnet-lists-vpn/datacenter", "x4bnet-lists-vpn/vpn"}}, risk.Moderate},
		{"vpn ipv6", "2001:ac8:1::1", ok, risk.Hazards{IsKnownAsVpn: true, IsKnownAsDatacenter: true, HostingLikelihood: 4,
			Lists: []string{"x4bnet-lists-vpn/datacenter", "x4bnet-lists-vpn/vpn"}}, risk.Moderate},
		{"aws with hosting asn and org name", "3.0.1.2", risk.Facts{IsReachable: true, ASN: 16509, ASOrganisation: "Amazon Data Services"},
			risk.Hazards{IsKnownAsDatacenter: true, IsHostingAsn: true, HostingLikelihood: 10, CloudProvider: "Amazon", HostingProvider: "Amazon AWS",
				Lists: []string{"cloud-ipranges/amazon", "ipcat-datacenters", "x4bnet-lists-vpn/datacenter", "x4bnet-lists-vpn/datacenter-asn"}}, risk.Moderate},
		{"ipcat range beyond the cloud range", "3.1.0.1", ok, risk.Hazards{IsKnownAsDatacenter: true, HostingLikelihood: 3, HostingProvider: "Amazon AWS",
			Lists: []string{"ipcat-datacenters", "x4bnet-lists-vpn/datacenter"}}, risk.Moderate},
		{"cloud ipv6", "2600:1f00::1", ok, risk.Hazards{HostingLikelihood: 5, CloudProvider: "Amazon", Lists: []string{"cloud-ipranges/amazon"}}, risk.Moderate},
		{"private relay", "172.224.224.31", ok, risk.Hazards{IsICloudPrivateRelay: true, Lists: []string{"cloud-ipranges/apple-proxy"}}, risk.Moderate},
		{"after the private relay range", "172.224.224.32", ok, risk.Hazards{}, risk.Low},
		{"two blocklists", "45.1.2.3", ok, risk.Hazards{BlocklistCount: 2, Lists: []string{"ipsum"}}, risk.Low},
		{"seven blocklists", "77.90.185.20", ok, risk.Hazards{BlocklistCount: 7, IsBlocklisted: true, Lists: []string{"ipsum"}}, risk.High},
		{"drop", "1.10.31.255", ok, risk.Hazards{IsSpamhausDrop: true, Lists: []string{"spamhaus-drop"}}, risk.High},
		{"drop ipv6", "2001:678:6c4:ffff::", ok, risk.Hazards{IsSpamhausDrop: true, Lists: []string{"spamhaus-drop"}}, risk.High},
		{"hosting asn alone", "84.150.1.1", risk.Facts{IsReachable: true, ASN: 24940}, risk.Hazards{IsHostingAsn: true, HostingLikelihood: 3,
			Lists: []string{"x4bnet-lists-vpn/datacenter-asn"}}, risk.Moderate},
		{"vpn asn alone", "84.150.1.1", risk.Facts{IsReachable: true, ASN: 9009}, risk.Hazards{IsKnownAsVpn: true, HostingLikelihood: 1,
			Lists: []string{"x4bnet-lists-vpn/vpn-asn"}}, risk.Moderate},
		{"vpn asn and vpn range count once", "2.56.16.1", risk.Facts{IsReachable: true, ASN: 9009}, risk.Hazards{IsKnownAsVpn: true,
			IsKnownAsDatacenter: true, HostingLikelihood: 4,
			Lists: []string{"x4bnet-lists-vpn/datacenter", "x4bnet-lists-vpn/vpn", "x4bnet-lists-vpn/vpn-asn"}}, risk.Moderate},
		{"hosting word in the org name only", "84.150.1.1", risk.Facts{IsReachable: true, ASN: 64500, ASOrganisation: "Example HOSTING Ltd"},
			risk.Hazards{HostingLikelihood: 2}, risk.Low},
		{"residential", "84.150.1.1", risk.Facts{IsReachable: true, ASN: 3320, ASOrganisation: "Deutsche Telekom AG"}, risk.Hazards{}, risk.Low},
		{"bogon", "10.1.2.3", risk.Facts{IsBogon: true}, risk.Hazards{IsBogon: true, IsUnreachable: true}, risk.High},
		{"unreachable", "84.150.1.1", risk.Facts{}, risk.Hazards{IsUnreachable: true}, risk.High},
		{"bogon in a listed range", "2.56.16.1", risk.Facts{IsBogon: true, IsReachable: true}, risk.Hazards{IsBogon: true, IsKnownAsVpn: true,
			IsKnownAsDatacenter: true, HostingLikelihood: 4, Lists: []string{"x4bnet-lists-vpn/datacenter", "x4bnet-lists-vpn/vpn"}}, risk.High},
		{"first ipv4 address", "0.0.0.0", ok, risk.Hazards{}, risk.Low},
		{"last ipv4 address", "255.255.255.255", ok, risk.Hazards{}, risk.Low},
		{"first ipv6 address", "::", ok, risk.Hazards{}, risk.Low},
		{"last ipv6 address", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", ok, risk.Hazards{}, risk.Low},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := netip.MustParseAddr(tt.addr)
			got := db.Hazards(a, tt.facts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Hazards(%s) (-want +got):\n%s", a, diff)
			}
			if slow := risktest.Slow(sample(), a, tt.facts); !risktest.Equal(slow, got) {
				t.Errorf("Hazards(%s) disagrees with the slow reference:\n%s", a, cmp.Diff(slow, got))
			}
			if r, desc := risk.Rate(got); r != tt.risk {
				t.Errorf("Rate = %v (%s), want %v", r, desc, tt.risk)
			}
		})
	}
}

func TestHazardsInvalidAddress(t *testing.T) {
	db := risktest.MustDB(t, sample())
	got := db.Hazards(netip.Addr{}, risk.Facts{IsReachable: true, ASN: 16509})
	want := risk.Hazards{IsHostingAsn: true, HostingLikelihood: 3, Lists: []string{"x4bnet-lists-vpn/datacenter-asn"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNoLists checks the documented fallback: with no lists at all, hazards come from the facts.
func TestNoLists(t *testing.T) {
	empty := risktest.MustDB(t, risk.Data{})
	dbs := map[string]*risk.DB{"zero": {}, "nil": nil, "empty section": empty}
	tests := []struct {
		facts risk.Facts
		want  risk.Risk
	}{
		{risk.Facts{IsReachable: true}, risk.Low},
		{risk.Facts{IsReachable: true, ASN: 16509, ASOrganisation: "Amazon Data Services"}, risk.Low},
		{risk.Facts{IsReachable: true, IsBogon: true}, risk.High},
		{risk.Facts{}, risk.High},
	}
	for name, db := range dbs {
		t.Run(name, func(t *testing.T) {
			if got := db.Lists(); len(got) != 0 {
				t.Errorf("Lists = %v, want none", got)
			}
			for _, tt := range tests {
				h := db.Hazards(netip.MustParseAddr("185.220.101.33"), tt.facts)
				if h.Lists != nil || h.IsKnownAsTorServer || h.IsHostingAsn {
					t.Errorf("Hazards(%+v) = %+v, want facts only", tt.facts, h)
				}
				if r, _ := risk.Rate(h); r != tt.want {
					t.Errorf("Rate(Hazards(%+v)) = %v, want %v", tt.facts, r, tt.want)
				}
			}
		})
	}
}

func TestLists(t *testing.T) {
	db := risktest.MustDB(t, sample())
	got := db.Lists()
	want := []risk.ListInfo{
		{Name: "tor/exits", Kind: risk.KindTorExit, Date: day(), Ranges: 2},
		{Name: "tor/relays", Kind: risk.KindTorRelay, Date: day(), Ranges: 2},
		{Name: "x4bnet-lists-vpn/vpn", Kind: risk.KindVPN, Ranges: 2},
		{Name: "cloud-ipranges/apple-proxy", Kind: risk.KindPrivateRelay, Ranges: 1},
		{Name: "cloud-ipranges/amazon", Kind: risk.KindCloud, Provider: "Amazon", Ranges: 2},
		{Name: "ipcat-datacenters", Kind: risk.KindDatacenter, Provider: "Amazon AWS", Ranges: 1},
		{Name: "x4bnet-lists-vpn/datacenter", Kind: risk.KindDatacenter, Ranges: 3},
		{Name: "ipsum", Kind: risk.KindBlocklist, Score: 2, Ranges: 1},
		{Name: "ipsum", Kind: risk.KindBlocklist, Score: 7, Ranges: 1},
		{Name: "spamhaus-drop", Kind: risk.KindDrop, Date: day(), Ranges: 2},
		{Name: "x4bnet-lists-vpn/vpn-asn", Kind: risk.KindVPN, ASNs: 1},
		{Name: "x4bnet-lists-vpn/datacenter-asn", Kind: risk.KindDatacenter, ASNs: 2},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lists (-want +got):\n%s", diff)
	}
	got[0].Name = "changed"
	if db.Lists()[0].Name == "changed" {
		t.Error("Lists returned the DB's own slice")
	}
}

// TestHazardsDifferential compares Hazards with the slow references on random overlapping lists
// of every kind, for addresses at and around every range boundary and at random.
func TestHazardsDifferential(t *testing.T) {
	for seed := range uint64(5) {
		t.Run("", func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 42))
			d := randomData(rng, 12, 300)
			db := risktest.MustDB(t, d)
			as, fs := probes(rng, d, 20000)
			batch := risktest.SlowBatch(d, as, fs)
			for i, a := range as {
				got := db.Hazards(a, fs[i])
				if i%20 == 0 { // the per-address scan is slow; it checks the batch reference
					if slow := risktest.Slow(d, a, fs[i]); !risktest.Equal(slow, batch[i]) {
						t.Fatalf("the two references disagree on %s:\n%s", a, cmp.Diff(slow, batch[i]))
					}
				}
				if !risktest.Equal(batch[i], got) {
					t.Fatalf("seed %d: Hazards(%s, %+v) (-slow +fast):\n%s", seed, a, fs[i], cmp.Diff(batch[i], got))
				}
			}
		})
	}
}

// randomData makes nLists random lists of up to maxRanges ranges each, crowded into a few small
// corners of both address families (and the edges of each) so that they overlap a lot.
func randomData(rng *rand.Rand, nLists, maxRanges int) risk.Data {
	kinds := []risk.Kind{risk.KindTorExit, risk.KindTorRelay, risk.KindVPN, risk.KindPrivateRelay, risk.KindCloud,
		risk.KindDatacenter, risk.KindBlocklist, risk.KindDrop}
	providers := []string{"", "Amazon", "Google", "Hetzner", "OVH"}
	var d risk.Data
	for i := range nLists {
		l := risk.List{Name: []string{"a", "b", "c", "d"}[rng.IntN(4)], Kind: kinds[rng.IntN(len(kinds))]}
		switch l.Kind {
		case risk.KindCloud:
			l.Provider = providers[1+rng.IntN(len(providers)-1)]
		case risk.KindDatacenter:
			l.Provider = providers[rng.IntN(len(providers))]
		case risk.KindBlocklist:
			l.Score = 1 + rng.IntN(6)
		}
		if i%3 == 0 {
			l.Date = day().Add(-time.Duration(rng.IntN(1000)) * time.Hour)
		}
		for range rng.IntN(maxRanges) {
			l.Ranges = append(l.Ranges, randomRange(rng))
		}
		d.Lists = append(d.Lists, l)
	}
	d.ASNLists = []risk.ASNList{
		{Name: "hosting-asn", Kind: risk.KindDatacenter, ASNs: []uint32{1, 2, 3, 5, 8, 13}},
		{Name: "vpn-asn", Kind: risk.KindVPN, ASNs: []uint32{3, 4, 5}},
	}
	return d
}

// corners are the crowded parts of the address space that random ranges fall in.
const corners = "0.0.0.0 10.0.0.0 255.255.0.0 :: 2001:db8:: ffff:ffff:ffff:ffff:ffff:ffff:ffff:0"

func randomAddr(rng *rand.Rand) netip.Addr {
	cs := strings.Fields(corners)
	base := netip.MustParseAddr(cs[rng.IntN(len(cs))])
	b := base.AsSlice()
	// Vary the last 16 bits, now and then a higher byte too.
	b[len(b)-1] = byte(rng.IntN(256))
	b[len(b)-2] = byte(rng.IntN(256))
	if rng.IntN(8) == 0 {
		b[len(b)-3] = byte(rng.IntN(4))
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

func randomRange(rng *rand.Rand) risk.Range {
	a := randomAddr(rng)
	var r risk.Range
	switch rng.IntN(3) {
	case 0: // one address
		r = risk.Range{From: a, To: a}
	case 1: // a prefix
		bits := a.BitLen() - rng.IntN(20)
		r = risk.PrefixRange(netip.PrefixFrom(a, bits))
	default: // an arbitrary range
		b := randomAddr(rng)
		if b.BitLen() != a.BitLen() {
			b = a
		}
		if b.Less(a) {
			a, b = b, a
		}
		r = risk.Range{From: a, To: b}
	}
	if r.From.Is4() && rng.IntN(10) == 0 { // sometimes written as IPv4-mapped IPv6
		r.From, r.To = netip.AddrFrom16(r.From.As16()), netip.AddrFrom16(r.To.As16())
	}
	return r
}

// probes returns n addresses with facts: every range boundary and its neighbours (as far as n
// allows), then random addresses in the corners, some written as IPv4-mapped IPv6.
func probes(rng *rand.Rand, d risk.Data, n int) ([]netip.Addr, []risk.Facts) {
	var as []netip.Addr
	for _, l := range d.Lists {
		for _, r := range l.Ranges {
			for _, a := range []netip.Addr{r.From.Prev(), r.From, r.To, r.To.Next()} {
				if a.IsValid() && len(as) < n/2 {
					as = append(as, a)
				}
			}
		}
	}
	for len(as) < n {
		a := randomAddr(rng)
		if a.Is4() && rng.IntN(10) == 0 {
			a = netip.AddrFrom16(a.As16())
		}
		as = append(as, a)
	}
	orgs := []string{"", "Deutsche Telekom AG", "Hetzner Online GmbH", "OVH SAS", "Linode Cloud", "BigServer Hosting"}
	fs := make([]risk.Facts, len(as))
	for i := range fs {
		fs[i] = risk.Facts{IsBogon: rng.IntN(20) == 0, IsReachable: rng.IntN(20) != 0, ASN: uint32(rng.IntN(10)), ASOrganisation: orgs[rng.IntN(len(orgs))]}
	}
	return as, fs
}

func TestHazardsNoAllocs(t *testing.T) {
	db := risktest.MustDB(t, sample())
	for _, s := range []string{"185.220.101.33", "3.0.1.2", "84.150.1.1", "2600:1f00::1", "::ffff:3.0.1.2"} {
		a := netip.MustParseAddr(s)
		f := risk.Facts{IsReachable: true, ASN: 16509, ASOrganisation: "Amazon Data Services"}
		if n := testing.AllocsPerRun(1000, func() { db.Hazards(a, f) }); n != 0 {
			t.Errorf("Hazards(%s) allocates %v times, want 0", s, n)
		}
	}
}
