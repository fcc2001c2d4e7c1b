package riskbuild

import (
	"context"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/risk/risktest"
)

// Tests on the real lists (shared/data through buildtest). They skip when the sources cannot
// be had, except under CI, where they fail. They pick their addresses from the parsed files,
// so that a newer snapshot of a list does not break them.

type realData struct {
	d       risk.Data // the parsed rows
	section []byte
	db      *risk.DB
	rec     *recorder
	elapsed time.Duration // gather + Encode
}

// realCache builds the real section once per test binary; tests and benchmarks share it.
var realCache struct {
	once sync.Once
	r    *realData
	err  error
}

func realDB(tb testing.TB) *realData {
	tb.Helper()
	src := buildtest.Sources(tb, Needs()...)
	realCache.once.Do(func() {
		r := &realData{rec: newRecorder()}
		t0 := time.Now()
		if r.d, realCache.err = gather(context.Background(), src, r.rec); realCache.err != nil {
			return
		}
		if r.section, realCache.err = risk.Encode(r.d); realCache.err != nil {
			return
		}
		r.elapsed = time.Since(t0)
		r.db, realCache.err = risk.Decode(r.section)
		realCache.r = r
	})
	if realCache.err != nil {
		tb.Fatal(realCache.err)
	}
	return realCache.r
}

// reachable are the facts of an ordinary announced address.
func reachable() risk.Facts { return risk.Facts{IsReachable: true} }

func TestRealBuild(t *testing.T) {
	r := realDB(t)
	ranges := 0
	for _, l := range r.d.Lists {
		ranges += len(l.Ranges)
	}
	t.Logf("gather+Encode %v; section %d bytes; %d lists, %d ranges as parsed", r.elapsed, len(r.section), len(r.db.Lists()), ranges)
	for _, s := range sortedKeys(r.rec.counts) {
		t.Logf("%-18s %s  %v", s, r.rec.dates[s].Format(time.RFC3339), r.rec.counts[s])
	}
	for _, w := range r.rec.warnings {
		t.Logf("warning: %s", w)
	}

	// Dates: from the data where it has them, else from PROVENANCE.md.
	wantDates := map[string]time.Time{
		"ipsum":             time.Date(2026, 8, 22, 1, 0, 29, 0, time.UTC),  // "# Last update"
		"spamhaus-drop":     time.Date(2025, 1, 17, 17, 3, 47, 0, time.UTC), // "; Last-Modified"
		"tor":               time.Date(2026, 5, 21, 0, 0, 0, 0, time.UTC),   // PROVENANCE table (Onionoo)
		"x4bnet-lists-vpn":  time.Date(2026, 8, 22, 0, 0, 0, 0, time.UTC),   // PROVENANCE "Data date"
		"ipcat-datacenters": time.Date(2019, 2, 20, 0, 0, 0, 0, time.UTC),   // PROVENANCE "last changed"
		"cloud-ipranges":    time.Date(2026, 8, 22, 0, 0, 0, 0, time.UTC),   // PROVENANCE commit date
	}
	if diff := cmp.Diff(wantDates, r.rec.dates); diff != "" {
		t.Errorf("data dates (-want +got):\n%s", diff)
	}
	for _, l := range r.db.Lists() {
		if l.Name == "tor/exit-addresses" && !l.Date.Equal(time.Date(2024, 3, 12, 14, 28, 38, 0, time.UTC)) { // the newest time in the file
			t.Errorf("tor/exit-addresses dated %v, want its newest ExitAddress time", l.Date)
		}
	}

	// Lower bounds, so that a newer snapshot does not break the test but a parser that
	// silently reads nothing does.
	atLeast := map[string]map[string]int{
		"tor":               {"exit-addresses": 1000, "torbulkexitlist": 1000, "onionoo-exits": 1000, "onionoo-relays": 5000, "doodad-exits": 1000, "doodad-guards": 1000, "doodad-relays": 5000},
		"x4bnet-lists-vpn":  {"vpn-ipv4": 5000, "vpn-ipv6": 100, "datacenter-ipv4": 20000, "datacenter-ipv6": 1000, "hosting-asns": 500, "vpn-asns": 5},
		"ipcat-datacenters": {"ranges": 1000, "providers": 100},
		"cloud-ipranges":    {"providers": 10, "ranges": 10000, "amazon": 1000, "apple-proxy": 1000},
		"ipsum":             {"addresses": 50000, "on-3-or-more-lists": 1000},
		"spamhaus-drop":     {"ipv4": 500, "ipv6": 20},
	}
	for src, kinds := range atLeast {
		for what, n := range kinds {
			if got := r.rec.counts[src][what]; got < n {
				t.Errorf("%s %s = %d, want at least %d", src, what, got, n)
			}
		}
	}
	for _, w := range r.rec.warnings {
		if strings.Contains(w, "unreadable") || strings.Contains(w, "no file") {
			t.Errorf("unexpected warning: %s", w)
		}
	}
}

// level is what being on list l alone should rate.
func level(l risk.List) risk.Risk {
	switch l.Kind {
	case risk.KindTorExit, risk.KindTorRelay, risk.KindDrop:
		return risk.High
	case risk.KindBlocklist:
		if l.Score >= risk.BlocklistThreshold {
			return risk.High
		}
		return risk.Low
	}
	return risk.Moderate
}

// flagged reports whether h shows the evidence of list l.
func flagged(h risk.Hazards, l risk.List) bool {
	on := slices.Contains(h.Lists, l.Name)
	switch l.Kind {
	case risk.KindTorExit:
		return on && h.IsKnownAsTorExit && h.IsKnownAsTorServer
	case risk.KindTorRelay:
		return on && h.IsKnownAsTorServer
	case risk.KindVPN:
		return on && h.IsKnownAsVpn
	case risk.KindPrivateRelay:
		return on && h.IsICloudPrivateRelay
	case risk.KindCloud:
		return on && h.CloudProvider != "" && h.CloudProvider <= l.Provider
	case risk.KindDatacenter:
		return on && h.IsKnownAsDatacenter && (l.Provider == "" || (h.HostingProvider != "" && h.HostingProvider <= l.Provider))
	case risk.KindBlocklist:
		return on && h.BlocklistCount == l.Score && h.IsBlocklisted == (l.Score >= risk.BlocklistThreshold)
	case risk.KindDrop:
		return on && h.IsSpamhausDrop
	}
	return false
}

// TestRealListAddresses takes addresses from every real list (every ipcat provider and ipsum
// count included) and checks that each shows its list's flag and, for one address on no list
// of a higher level, its list's rating.
func TestRealListAddresses(t *testing.T) {
	r := realDB(t)
	rng := rand.New(rand.NewPCG(1, 1))
	// Up to 40 candidates per list: first, last and middle addresses of random rows.
	var cands []netip.Addr
	var owner []int
	for li, l := range r.d.Lists {
		for range min(40, 3*len(l.Ranges)) {
			row := l.Ranges[rng.IntN(len(l.Ranges))]
			a := []netip.Addr{row.From, row.To, mid(row)}[rng.IntN(3)]
			cands, owner = append(cands, a), append(owner, li)
		}
	}
	facts := make([]risk.Facts, len(cands))
	for i := range facts {
		facts[i] = reachable()
	}
	slow := risktest.SlowBatch(r.d, cands, facts)

	exact := map[int]bool{} // lists for which an address rated exactly the list's level
	for i, a := range cands {
		l := r.d.Lists[owner[i]]
		h := r.db.Hazards(a, reachable())
		if !flagged(h, l) {
			t.Errorf("%s (from %s %s): not flagged: %+v", a, l.Name, l.Provider, h)
			continue
		}
		got, desc := risk.Rate(h)
		if got < level(l) {
			t.Errorf("%s (from %s): %v (%s), want at least %v", a, l.Name, got, desc, level(l))
		}
		if r2, _ := risk.Rate(slow[i]); r2 == level(l) {
			exact[owner[i]] = true
			if got != level(l) {
				t.Errorf("%s (from %s): %v (%s), want %v", a, l.Name, got, desc, level(l))
			}
		}
	}
	// Every list but the ones whose every candidate is also on a higher-level list (a Tor
	// relay list is never outranked; a VPN range may lie in a DROP network) got an exact check.
	missed := 0
	for li := range r.d.Lists {
		if !exact[li] {
			missed++
			t.Logf("no candidate of %s %s %d rated exactly %v", r.d.Lists[li].Name, r.d.Lists[li].Provider, r.d.Lists[li].Score, level(r.d.Lists[li]))
		}
	}
	if missed*20 > len(r.d.Lists) {
		t.Errorf("%d of %d lists got no exact rating check", missed, len(r.d.Lists))
	}
	for _, name := range []string{"tor/onionoo-exits", "tor/onionoo-relays", "x4bnet-lists-vpn/vpn", "x4bnet-lists-vpn/datacenter",
		"cloud-ipranges/amazon", "cloud-ipranges/apple-proxy", "cloud-ipranges/protonvpn", "ipsum", "spamhaus-drop"} {
		if !slices.ContainsFunc(r.d.Lists, func(l risk.List) bool { return l.Name == name }) {
			t.Errorf("no list %s", name)
		}
	}
}

// mid returns the address halfway through r (rounded down).
func mid(r risk.Range) netip.Addr {
	a, b := r.From.As16(), r.To.As16() // IPv4 as IPv4-mapped, whose halfway point maps back
	var sum [16]byte
	carry := 0
	for i := 15; i >= 0; i-- {
		s := int(a[i]) + int(b[i]) + carry
		sum[i], carry = byte(s), s>>8
	}
	for i := range sum { // halve the 129-bit sum, carry being its top bit
		v := carry<<8 | int(sum[i])
		sum[i], carry = byte(v>>1), v&1
	}
	m := netip.AddrFrom16(sum)
	if r.From.Is4() {
		m = m.Unmap()
	}
	return m
}

func TestRealASNLists(t *testing.T) {
	r := realDB(t)
	home := residential(t, r)
	for _, l := range r.d.ASNLists {
		asn := l.ASNs[len(l.ASNs)/2]
		h := r.db.Hazards(home, risk.Facts{IsReachable: true, ASN: asn})
		got, desc := risk.Rate(h)
		ok := got == risk.Moderate && slices.Contains(h.Lists, l.Name)
		switch l.Kind {
		case risk.KindDatacenter:
			ok = ok && h.IsHostingAsn && h.HostingLikelihood == risk.PointsHostingASN
		case risk.KindVPN:
			ok = ok && h.IsKnownAsVpn
		}
		if !ok {
			t.Errorf("AS%d from %s: %v (%s) %+v", asn, l.Name, got, desc, h)
		}
	}
}

// residential returns an address of a consumer ISP's access network that is on no list.
func residential(t *testing.T, r *realData) netip.Addr {
	t.Helper()
	// Dynamic pools of Deutsche Telekom, Comcast, Orange, BT and NTT, IPv4 and IPv6.
	cands := []string{"84.150.17.23", "91.54.201.7", "73.162.44.9", "90.15.77.120", "86.151.3.40", "153.227.81.5",
		"2003:e8:1f00:7a01::1", "2601:644:8200:5e0::1"}
	for _, s := range cands {
		a := netip.MustParseAddr(s)
		if h := risktest.Slow(r.d, a, reachable()); h.Lists == nil {
			return a
		}
	}
	t.Fatalf("every residential candidate is on some list")
	return netip.Addr{}
}

func TestRealResidentialAndBogon(t *testing.T) {
	r := realDB(t)
	home := residential(t, r)
	tests := []struct {
		name string
		addr netip.Addr
		f    risk.Facts
		want risk.Risk
		desc string
	}{
		{"residential", home, risk.Facts{IsReachable: true, ASN: 3320, ASOrganisation: "Deutsche Telekom AG"}, risk.Low, "low risk"},
		{"private bogon", netip.MustParseAddr("10.1.2.3"), risk.Facts{IsBogon: true}, risk.High,
			"high risk - drop: the address is a bogon and is not reachable globally"},
		{"announced bogon", home, risk.Facts{IsBogon: true, IsReachable: true}, risk.High, "high risk - drop: the address is a bogon"},
		{"documentation prefix", netip.MustParseAddr("2001:db8::1"), risk.Facts{IsBogon: true}, risk.High,
			"high risk - drop: the address is a bogon and is not reachable globally"},
		{"unannounced", home, risk.Facts{}, risk.High, "high risk - drop: the address is not reachable globally"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, desc := risk.Rate(r.db.Hazards(tt.addr, tt.f))
			if got != tt.want || desc != tt.desc {
				t.Errorf("%s: %v %q, want %v %q", tt.addr, got, desc, tt.want, tt.desc)
			}
		})
	}
}

// TestRealDifferential compares Hazards on the real section with a scan of the parsed rows for
// 100,000 seeded addresses: uniform IPv4 and IPv6 addresses, addresses inside random rows and
// at their edges, with random facts.
func TestRealDifferential(t *testing.T) {
	r := realDB(t)
	rng := rand.New(rand.NewPCG(2026, 8))
	var rows []risk.Range
	for _, l := range r.d.Lists {
		rows = append(rows, l.Ranges...)
	}
	var asns []uint32
	for _, l := range r.d.ASNLists {
		asns = append(asns, l.ASNs...)
	}
	orgs := []string{"", "Deutsche Telekom AG", "Amazon.com, Inc.", "Hetzner Online GmbH", "OVH Hosting", "DigitalOcean Cloud"}
	const n = 100_000
	as := make([]netip.Addr, n)
	fs := make([]risk.Facts, n)
	for i := range as {
		switch p := rng.IntN(100); {
		case p < 40: // uniform IPv4
			as[i] = netip.AddrFrom4([4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())})
		case p < 50: // uniform IPv6 in 2000::/3
			var b [16]byte
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
			b[0] = 0x20 | b[0]&0x1f
			as[i] = netip.AddrFrom16(b)
		case p < 75: // inside a row
			row := rows[rng.IntN(len(rows))]
			as[i] = mid(row)
		default: // at or beside a row's edge
			row := rows[rng.IntN(len(rows))]
			a := []netip.Addr{row.From, row.To, row.From.Prev(), row.To.Next()}[rng.IntN(4)]
			if !a.IsValid() {
				a = row.From
			}
			as[i] = a
		}
		if as[i].Is4() && rng.IntN(50) == 0 {
			as[i] = netip.AddrFrom16(as[i].As16()) // IPv4-mapped
		}
		fs[i] = risk.Facts{IsBogon: rng.IntN(50) == 0, IsReachable: rng.IntN(50) != 0, ASOrganisation: orgs[rng.IntN(len(orgs))]}
		if rng.IntN(4) == 0 {
			fs[i].ASN = asns[rng.IntN(len(asns))]
		} else {
			fs[i].ASN = uint32(rng.IntN(400000))
		}
	}
	t0 := time.Now()
	want := risktest.SlowBatch(r.d, as, fs)
	t.Logf("slow reference: %v for %d addresses", time.Since(t0), n)
	listed := 0
	for i, a := range as {
		got := r.db.Hazards(a, fs[i])
		if !risktest.Equal(want[i], got) {
			t.Fatalf("Hazards(%s, %+v) (-slow +fast):\n%s", a, fs[i], cmp.Diff(want[i], got))
		}
		if got.Lists != nil {
			listed++
		}
	}
	t.Logf("%d of %d addresses on some list", listed, n)
}

func TestRealNoAllocs(t *testing.T) {
	r := realDB(t)
	f := risk.Facts{IsReachable: true, ASN: 16509, ASOrganisation: "Amazon.com, Inc."}
	for _, l := range r.d.Lists[:min(len(r.d.Lists), 50)] {
		a := l.Ranges[0].From
		if n := testing.AllocsPerRun(100, func() { r.db.Hazards(a, f) }); n != 0 {
			t.Errorf("Hazards(%s) allocates %v times", a, n)
		}
	}
}

func BenchmarkRealHazards(b *testing.B) {
	r := realDB(b)
	rng := rand.New(rand.NewPCG(3, 4))
	var rows []risk.Range
	for _, l := range r.d.Lists {
		rows = append(rows, l.Ranges...)
	}
	sets := map[string][]netip.Addr{}
	for range 4096 {
		sets["ipv4"] = append(sets["ipv4"], netip.AddrFrom4([4]byte{byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32()), byte(rng.Uint32())}))
		var v6 [16]byte
		for j := range v6 {
			v6[j] = byte(rng.Uint32())
		}
		v6[0] = 0x20 | v6[0]&0x1f
		sets["ipv6"] = append(sets["ipv6"], netip.AddrFrom16(v6))
		sets["listed"] = append(sets["listed"], mid(rows[rng.IntN(len(rows))]))
	}
	f := risk.Facts{IsReachable: true, ASN: 3320, ASOrganisation: "Deutsche Telekom AG"}
	for _, name := range []string{"ipv4", "ipv6", "listed"} {
		as := sets[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				r.db.Hazards(as[i&4095], f)
				i++
			}
		})
	}
}

func BenchmarkRealDecode(b *testing.B) {
	r := realDB(b)
	b.SetBytes(int64(len(r.section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := risk.Decode(r.section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRealBuild(b *testing.B) {
	src := buildtest.Sources(b, Needs()...)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := buildSection(context.Background(), src, newRecorder()); err != nil {
			b.Fatal(err)
		}
	}
}
