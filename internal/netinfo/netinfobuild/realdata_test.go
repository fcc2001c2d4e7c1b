package netinfobuild

import (
	"bytes"
	"context"
	"io/fs"
	"math/rand/v2"
	"net/netip"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/build"
	"github.com/ipatlas/ipatlas/internal/build/buildtest"
	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// Tests on the real sources (geolite2 through npm, the rest from shared/data). They skip
// when the sources cannot be had, except under CI, where they fail.

type realBuild struct {
	in      netinfo.Input
	section []byte
	db      *netinfo.DB
	rep     *fakeReport
	build   time.Duration // input + Encode
	decode  time.Duration
}

var real struct {
	once sync.Once
	rb   *realBuild
	err  error
}

// realData builds the section from the real sources once per test binary.
func realData(tb testing.TB) *realBuild {
	tb.Helper()
	src := buildtest.Sources(tb, Needs()...)
	real.once.Do(func() {
		rb := &realBuild{rep: newFakeReport()}
		start := time.Now()
		in, err := input(context.Background(), src, rb.rep)
		if err != nil {
			real.err = err
			return
		}
		if rb.section, err = netinfo.Encode(in); err != nil {
			real.err = err
			return
		}
		rb.in, rb.build = in, time.Since(start)
		start = time.Now()
		rb.db, real.err = netinfo.Decode(rb.section)
		rb.decode = time.Since(start)
		real.rb = rb
	})
	if real.err != nil {
		tb.Fatal(real.err)
	}
	return real.rb
}

func TestRealBuild(t *testing.T) {
	rb := realData(t)
	info := rb.db.Info()
	t.Logf("build %v, section %d bytes, decode %v; %+v", rb.build, len(rb.section), rb.decode, info)
	t.Logf("report: counts %v; dates %v; warnings %v", rb.rep.counts, rb.rep.dates, rb.rep.warnings)
	if info.Networks4 < 500_000 || info.Networks6 < 300_000 || info.RankedASes < 50_000 {
		t.Errorf("too little data: %+v", info)
	}
	if want := (netinfo.Sources{RIRStats: true, IANAXML: true, FullBogons: true, ASPaths: true, ASNames: true}); info.Sources != want {
		t.Errorf("sources %+v, want all", info.Sources)
	}
	for _, src := range Needs() {
		if rb.rep.dates[src].IsZero() {
			t.Errorf("no data date for %s", src)
		}
	}
}

func TestRealLookup(t *testing.T) {
	db := realData(t).db
	tests := []struct {
		addr string
		want netinfo.Network
	}{
		{"1.1.1.1", netinfo.Network{
			Registry: "APNIC", RegistryStatus: "assigned", RegisteredCountry: "AU", Organisation: "Cloudflare, Inc.",
			IsReachableGlobally: true, BGPPrefix: netip.MustParsePrefix("1.1.1.0/24"), Carriers: []uint32{13335},
		}},
		{"8.8.8.8", netinfo.Network{
			Registry: "ARIN", RegistryStatus: "legacy", RegisteredCountry: "US", Organisation: "Google LLC",
			IsReachableGlobally: true, BGPPrefix: netip.MustParsePrefix("8.8.8.0/24"), Carriers: []uint32{15169},
		}},
		{"2001:4860:4860::8888", netinfo.Network{
			Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Google LLC",
			IsReachableGlobally: true, BGPPrefix: netip.MustParsePrefix("2001:4860:4840::/42"), Carriers: []uint32{15169},
		}},
		{"10.1.2.3", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"192.0.2.1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"127.0.0.1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"::1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"2001:db8::1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
	}
	for _, tc := range tests {
		got, ok := db.Lookup(netip.MustParseAddr(tc.addr))
		if !ok {
			t.Errorf("%s: not found", tc.addr)
		}
		// Via carriers depend on the MRT samples, which cover few prefixes; checked below.
		got.ViaCarriers = nil
		if diff := cmp.Diff(tc.want, got, netinfotest.CmpOptions()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.addr, diff)
		}
	}

	// Registry, status and country of each RIR in the mirror come from its own file.
	rirs := []struct{ addr, registry, status, country string }{
		{"1.0.0.1", "APNIC", "assigned", "AU"},
		{"101.160.0.1", "APNIC", "allocated", "AU"},
		{"41.0.0.1", "AFRINIC", "allocated", "ZA"},
		{"2001:4200::1", "AFRINIC", "allocated", "ZA"},
		{"181.0.0.1", "LACNIC", "allocated", "AR"},
		{"24.152.0.1", "LACNIC", "allocated", "BR"},
	}
	for _, tc := range rirs {
		n, _ := db.Lookup(netip.MustParseAddr(tc.addr))
		if n.Registry != tc.registry || n.RegistryStatus != tc.status || n.RegisteredCountry != tc.country {
			t.Errorf("%s: %q %q %q, want %q %q %q", tc.addr, n.Registry, n.RegistryStatus, n.RegisteredCountry, tc.registry, tc.status, tc.country)
		}
	}

	// Some networks get via carriers from the RIS updates of 2010.
	via := 0
	for _, n := range realData(t).in.Networks {
		if len(n.ViaCarriers) > 0 {
			via++
		}
	}
	if via == 0 {
		t.Error("no network has via carriers")
	}
}

func TestRealAS(t *testing.T) {
	db := realData(t).db
	cf, ok := db.AS(13335)
	if !ok {
		t.Fatal("AS13335 missing")
	}
	t.Logf("AS13335: %+v (of %d ranked)", cf, db.RankedASes())
	if cf.Organisation != "Cloudflare, Inc." || cf.Name != "CLOUDFLARENET" || cf.Registry != "ARIN" || cf.RegisteredCountry != "US" {
		t.Errorf("AS13335 names: %+v", cf)
	}
	if cf.Rank < 1 || cf.Rank > 2000 || cf.TotalIPv4Addresses < 100_000 || cf.TotalIPv4Prefixes < 100 || cf.TotalIPv6Prefixes < 10 {
		t.Errorf("AS13335 counts: %+v", cf)
	}
	// Rank 1 holds the most IPv4 addresses.
	first := uint64(0)
	for asn := range uint32(70000) {
		if a, ok := db.AS(asn); ok && a.Rank == 1 {
			first = a.TotalIPv4Addresses
		}
	}
	if first < cf.TotalIPv4Addresses {
		t.Errorf("rank 1 has %d addresses, fewer than AS13335's %d", first, cf.TotalIPv4Addresses)
	}
	// An AFRINIC AS with its registration date.
	if a, ok := db.AS(36994); !ok || a.Registry != "AFRINIC" || a.RegistrationDate == "" || a.RegisteredCountry != "ZA" {
		t.Errorf("AS36994: %+v", a)
	}
	// An AS on the 2010 RIS paths gives transit.
	transit := 0
	for _, asn := range []uint32{1239, 3549, 701, 3356, 174, 6939} {
		a, _ := db.AS(asn)
		transit += len(a.TransitTo)
	}
	if transit == 0 {
		t.Error("no transit from the large carriers on the RIS paths")
	}
}

// TestRealDifferential checks Lookup against the slow reference over the real input's rows
// for 100,000 addresses of both families.
func TestRealDifferential(t *testing.T) {
	rb := realData(t)
	ref := netinfotest.NewReference(rb.in)
	n := 100_000
	if testing.Short() {
		n = 10_000
	}
	bad := 0
	var v4, v6, announced, bogon int
	for _, a := range netinfotest.Addrs(rb.in, rand.New(rand.NewPCG(2026, 11)), n) {
		got, gok := rb.db.Lookup(a)
		want, wok := ref.Lookup(a)
		if diff := cmp.Diff(want, got, netinfotest.CmpOptions()); diff != "" || gok != wok {
			t.Errorf("Lookup(%v) = %v (-want +got):\n%s", a, gok, diff)
			if bad++; bad > 5 {
				t.Fatal("too many differences")
			}
		}
		if a.Is4() {
			v4++
		} else {
			v6++
		}
		if got.IsAnnounced() {
			announced++
		}
		if got.IsBogon {
			bogon++
		}
	}
	t.Logf("%d addresses: %d IPv4, %d IPv6, %d announced, %d bogon", n, v4, v6, announced, bogon)
}

func TestRealWithin(t *testing.T) {
	db := realData(t).db
	res, err := db.Within(netip.MustParsePrefix("8.8.8.8/32"), netinfo.WithinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Network.CIDR != netip.MustParsePrefix("8.8.8.0/24") || len(res.Network.Carriers) == 0 || res.Network.Carriers[0] != 15169 ||
		len(res.Network.Subnets) != 1 || !strings.Contains(res.Network.Subnets[0].Organisation, "Google") || res.Parent != netip.MustParsePrefix("8.0.0.0/8") {
		t.Errorf("8.8.8.8/32: %+v", res)
	}
	for _, cidr := range []string{"8.0.0.0/8", "0.0.0.0/0", "::/0", "2001:4860::/32", "41.0.0.0/8"} {
		start := time.Now()
		res, err := db.Within(netip.MustParsePrefix(cidr), netinfo.WithinOptions{DepthLimit: 2})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %v, %d subnets, %d top-level networks (%d returned), truncated %v, took %v",
			cidr, res.Network.Type, res.Network.TotalSubnets, res.TotalNetworks, len(res.Networks), res.Truncated, time.Since(start))
		if len(res.Networks) == 0 {
			t.Errorf("%s: no networks", cidr)
		}
	}
}

// onlySources hides every source but the named ones, like an install without a mirror.
type onlySources struct {
	src   build.Sources
	names []string
}

func (o onlySources) Source(name string) (fs.FS, bool) {
	if !slices.Contains(o.names, name) {
		return nil, false
	}
	return o.src.Source(name)
}

// TestRealDefaultInstall builds from geolite2 alone, as the default (npm only) install
// does: IANA's facts come from the built-in table, and the report says which fields stay
// empty and why.
func TestRealDefaultInstall(t *testing.T) {
	src := onlySources{buildtest.Sources(t, Needs()...), []string{srcGeoLite}}
	rep := newFakeReport()
	b, err := buildSection(context.Background(), src, rep)
	if err != nil {
		t.Fatal(err)
	}
	db, err := netinfo.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Info().Sources; got != (netinfo.Sources{}) {
		t.Errorf("sources %+v, want none but geolite2", got)
	}
	for _, s := range []string{srcIANA, srcRIR, srcFullBogons, srcASNames, srcMRT} {
		if len(rep.warnings[s]) == 0 {
			t.Errorf("no warning says what is missing without %s", s)
		}
	}
	t.Logf("warnings: %v", rep.warnings)
	tests := []struct {
		addr string
		want netinfo.Network
	}{
		{"8.8.8.8", netinfo.Network{
			Registry: "ARIN", RegistryStatus: "legacy", RegisteredCountry: "US", Organisation: "Google LLC",
			IsReachableGlobally: true, BGPPrefix: netip.MustParsePrefix("8.8.8.0/24"), Carriers: []uint32{15169},
		}},
		{"1.1.1.1", netinfo.Network{
			Registry: "APNIC", RegistryStatus: "allocated", RegisteredCountry: "AU", Organisation: "Cloudflare, Inc.",
			IsReachableGlobally: true, BGPPrefix: netip.MustParsePrefix("1.1.1.0/24"), Carriers: []uint32{13335},
		}},
		{"10.1.2.3", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"192.0.2.1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"2001:db8::1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
		{"3000::1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
	}
	for _, tc := range tests {
		got, _ := db.Lookup(netip.MustParseAddr(tc.addr))
		if diff := cmp.Diff(tc.want, got, netinfotest.CmpOptions()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.addr, diff)
		}
	}
	cf, _ := db.AS(13335)
	if cf.Organisation != "Cloudflare, Inc." || cf.Registry != "ARIN" || cf.Name != "" || cf.TransitTo != nil || cf.Rank == 0 {
		t.Errorf("AS13335 without mirror: %+v", cf)
	}
}

// TestRealDeterministic builds again and compares the bytes.
func TestRealDeterministic(t *testing.T) {
	rb := realData(t)
	if testing.Short() {
		t.Skip("a second full build")
	}
	b, err := buildSection(context.Background(), buildtest.Sources(t, Needs()...), newFakeReport())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, rb.section) {
		t.Error("two builds from the same sources differ")
	}
}

// TestRealLoadTime reports the time Decode takes on the full section (the snapshot load
// path of this engine) and the heap it keeps. Timing is reported, never asserted (it swings
// with the machine's load and under -race); BenchmarkRealDecode measures it.
func TestRealLoadTime(t *testing.T) {
	rb := realData(t)
	var best time.Duration
	for range 3 {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		db, err := netinfo.Decode(rb.section)
		d := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if best == 0 || d < best {
			best = d
		}
		t.Logf("Decode %d bytes: %v, heap +%d MiB", len(rb.section), d, (int64(after.HeapAlloc)-int64(before.HeapAlloc))>>20)
		runtime.KeepAlive(db)
	}
	t.Logf("best of 3: %v", best)
}

func BenchmarkRealDecode(b *testing.B) {
	rb := realData(b)
	b.SetBytes(int64(len(rb.section)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := netinfo.Decode(rb.section); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRealLookup(b *testing.B) {
	rb := realData(b)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		addrs []netip.Addr
	}{
		{"mixed", netinfotest.Addrs(rb.in, rng, 1<<16)},
		{"uniform-ipv4", randomV4(rng, 1<<16)},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				rb.db.Lookup(tc.addrs[i&(1<<16-1)])
				i++
			}
		})
	}
}

func randomV4(rng *rand.Rand, n int) []netip.Addr {
	out := make([]netip.Addr, n)
	for i := range out {
		v := rng.Uint32()
		out[i] = netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
	}
	return out
}

func BenchmarkRealAS(b *testing.B) {
	rb := realData(b)
	asns := []uint32{13335, 15169, 3356, 174, 36994, 1, 4200000001}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		rb.db.AS(asns[i%len(asns)])
		i++
	}
}

func BenchmarkRealWithin(b *testing.B) {
	rb := realData(b)
	for _, tc := range []struct {
		cidr  string
		depth int
	}{{"8.8.8.8/32", 1}, {"8.8.8.0/24", 1}, {"41.0.0.0/8", 1}, {"8.0.0.0/8", 2}, {"0.0.0.0/0", 1}, {"::/0", 2}} {
		p := netip.MustParsePrefix(tc.cidr)
		b.Run(strings.ReplaceAll(tc.cidr, "/", "_")+"_depth"+strconv.Itoa(tc.depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := rb.db.Within(p, netinfo.WithinOptions{DepthLimit: tc.depth}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestRealDamagedSources builds with APNIC's file cut at 2 MiB, inside its 44 346th
// resource line, and a file among the MRT dumps that is not one. The report must say the
// RIR file holds fewer records than its header counts (the skipped partial line alone did
// not make it plain), and name the file left out of the MRT source. The whole sources
// must raise neither.
func TestRealDamagedSources(t *testing.T) {
	for _, w := range slices.Concat(realData(t).rep.warnings[srcRIR], realData(t).rep.warnings[srcMRT]) {
		if strings.Contains(w, "where the header counts") || strings.Contains(w, "left out") {
			t.Errorf("whole sources: %s", w)
		}
	}
	src := buildtest.Sources(t, Needs()...)
	rir, _ := src.Source(srcRIR)
	names, err := fs.Glob(rir, "delegated-apnic-*")
	if err != nil || len(names) != 1 {
		t.Fatalf("APNIC's file: %v, %v", names, err)
	}
	b, err := fs.ReadFile(rir, names[0])
	if err != nil {
		t.Fatal(err)
	}
	mrtFS, _ := src.Source(srcMRT)
	dumps := fstest.MapFS{"junk.bin": {Data: []byte("not an MRT dump")}}
	err = fs.WalkDir(mrtFS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(mrtFS, name)
		dumps[name] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	damaged := replacedSources{src, map[string]fs.FS{srcRIR: fstest.MapFS{names[0]: {Data: b[:2<<20]}}, srcMRT: dumps}}
	rep := newFakeReport()
	if _, err := input(context.Background(), damaged, rep); err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]string{
		srcRIR: names[0] + ": 44346 records where the header counts 85300; the file may be cut short",
		srcMRT: "left out 1 file not starting with an MRT record of a known type: junk.bin",
	} {
		if !slices.Contains(rep.warnings[src], want) {
			t.Errorf("%s: warnings %q, want %q", src, rep.warnings[src], want)
		}
	}
}

// replacedSources replaces some sources.
type replacedSources struct {
	build.Sources
	by map[string]fs.FS
}

func (r replacedSources) Source(name string) (fs.FS, bool) {
	if f, ok := r.by[name]; ok {
		return f, true
	}
	return r.Sources.Source(name)
}
