package netinfo_test

import (
	"bytes"
	"errors"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

var (
	addr = netip.MustParseAddr
	pfx  = netip.MustParsePrefix
)

// block returns a registry block covering prefix p.
func block(p, registry, status, cc string, prio uint8) netinfo.RegistryBlock {
	q := pfx(p)
	return netinfo.RegistryBlock{First: q.Addr(), Last: netinfotest.LastAddr(q), Registry: registry, Status: status, Country: cc, Priority: prio}
}

func bogon(p string, b bool, prio uint8) netinfo.BogonBlock {
	q := pfx(p)
	return netinfo.BogonBlock{First: q.Addr(), Last: netinfotest.LastAddr(q), Bogon: b, Priority: prio}
}

func announced(p string, org, cc string, carriers []uint32, via ...uint32) netinfo.Announced {
	return netinfo.Announced{Prefix: pfx(p), Organisation: org, Country: cc, Carriers: carriers, ViaCarriers: via}
}

// fixture is a small, hand-checked input: IANA-like /8s, an RIR /9 inside one, bogons
// (one of them announced), Google's networks in adjacent and separate runs, and IPv6.
func fixture() netinfo.Input {
	google := []uint32{15169}
	return netinfo.Input{
		Registry: []netinfo.RegistryBlock{
			block("8.0.0.0/8", "ARIN", "legacy", "", 0),
			block("8.0.0.0/9", "ARIN", "allocated", "US", 4),
			block("10.0.0.0/8", "IANA", "reserved", "", 0),
			block("192.0.2.0/24", "IANA", "reserved", "", 1),
			block("2600::/12", "ARIN", "allocated", "", 0),
			block("2001:db8::/32", "IANA", "reserved", "", 1),
			// An odd-sized RIR range: 41.0.0.0-41.0.2.255 is a /23 and a /24.
			{First: addr("41.0.0.0"), Last: addr("41.0.2.255"), Registry: "AFRINIC", Status: "assigned", Country: "ZA", Priority: 4},
		},
		Bogons: []netinfo.BogonBlock{
			bogon("10.0.0.0/8", true, 0),
			bogon("192.0.2.0/24", true, 3),
			bogon("8.8.4.0/24", true, 2),
			bogon("2001:db8::/32", true, 3),
			bogon("2001:db8:1::/48", false, 3), // explicitly reachable inside a bogon block
		},
		Networks: []netinfo.Announced{
			announced("8.8.8.0/24", "Google LLC", "US", google, 3356, 174),
			announced("8.8.9.0/24", "Google LLC", "US", google),
			announced("8.8.10.0/23", "Google LLC", "US", google),
			announced("8.8.4.0/24", "Google LLC", "US", google),
			announced("8.34.208.0/20", "Google LLC", "US", google),
			announced("8.128.0.0/10", "Level 3 Parent, LLC", "US", []uint32{3356}),
			announced("41.0.1.0/24", "Vodacom", "", []uint32{36994}),
			announced("2600:1f00::/24", "Amazon.com, Inc.", "US", []uint32{16509}),
			announced("2600:2000::/32", "Amazon.com, Inc.", "US", []uint32{16509, 14618}),
			announced("2001:db8:1::/48", "Documentation", "", []uint32{64496}),
		},
		ASes: []netinfo.ASRecord{
			{ASN: 15169, Organisation: "Google LLC", Name: "GOOGLE", Registry: "ARIN", Country: "US", RegistrationDate: "2000-03-30"},
			{ASN: 3356, Organisation: "Level 3 Parent, LLC", Name: "LEVEL3", Registry: "ARIN", Country: "US", TransitTo: []uint32{174, 15169, 36994, 99999}},
		},
		Sources: netinfo.Sources{RIRStats: true, ASPaths: true},
	}
}

func TestLookup(t *testing.T) {
	db := mustDB(t, fixture())
	tests := []struct {
		addr string
		want netinfo.Network
		ok   bool
	}{
		{"8.8.8.8", netinfo.Network{
			Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Google LLC",
			IsReachableGlobally: true, BGPPrefix: pfx("8.8.8.0/24"), Carriers: []uint32{15169}, ViaCarriers: []uint32{3356, 174},
		}, true},
		{"::ffff:8.8.8.8", netinfo.Network{ // IPv4-mapped: looked up as IPv4
			Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Google LLC",
			IsReachableGlobally: true, BGPPrefix: pfx("8.8.8.0/24"), Carriers: []uint32{15169}, ViaCarriers: []uint32{3356, 174},
		}, true},
		{"8.8.4.4", netinfo.Network{ // announced bogon: not reachable
			Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Google LLC",
			IsBogon: true, BGPPrefix: pfx("8.8.4.0/24"), Carriers: []uint32{15169},
		}, true},
		{"8.200.0.1", netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"}, true},
		{"10.1.2.3", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}, true},
		{"192.0.2.1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}, true},
		{"41.0.2.9", netinfo.Network{Registry: "AFRINIC", RegistryStatus: "assigned", RegisteredCountry: "ZA"}, true},
		{"41.0.1.9", netinfo.Network{ // country from the registry block, organisation from the network
			Registry: "AFRINIC", RegistryStatus: "assigned", RegisteredCountry: "ZA", Organisation: "Vodacom",
			IsReachableGlobally: true, BGPPrefix: pfx("41.0.1.0/24"), Carriers: []uint32{36994},
		}, true},
		{"41.0.3.0", netinfo.Network{}, false},
		{"2600:1f00::1", netinfo.Network{
			Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Amazon.com, Inc.",
			IsReachableGlobally: true, BGPPrefix: pfx("2600:1f00::/24"), Carriers: []uint32{16509},
		}, true},
		{"2001:db8::1", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}, true},
		{"2001:db8:1::1", netinfo.Network{
			Registry: "IANA", RegistryStatus: "reserved", Organisation: "Documentation",
			IsReachableGlobally: true, BGPPrefix: pfx("2001:db8:1::/48"), Carriers: []uint32{64496},
		}, true},
		{"fe80::1%eth0", netinfo.Network{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.addr, func(t *testing.T) {
			got, ok := db.Lookup(addr(tc.addr))
			if ok != tc.ok {
				t.Errorf("ok = %v, want %v", ok, tc.ok)
			}
			if diff := cmp.Diff(tc.want, got, netinfotest.CmpOptions()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, ok := db.Lookup(netip.Addr{}); ok {
		t.Error("Lookup(invalid) reported true")
	}
}

func TestAS(t *testing.T) {
	db := mustDB(t, fixture())
	tests := []struct {
		asn  uint32
		want netinfo.ASInfo
		ok   bool
	}{
		{15169, netinfo.ASInfo{
			ASN: 15169, Organisation: "Google LLC", Name: "GOOGLE", Registry: "ARIN", RegisteredCountry: "US",
			RegistrationDate: "2000-03-30", TotalIPv4Addresses: 256 + 256 + 512 + 256 + 4096, TotalIPv4Prefixes: 5,
			TotalIPv4BogonPrefixes: 1, Rank: 2, ReceivingFrom: []uint32{3356}, // TransitTo inverted
		}, true},
		{3356, netinfo.ASInfo{
			ASN: 3356, Organisation: "Level 3 Parent, LLC", Name: "LEVEL3", Registry: "ARIN", RegisteredCountry: "US",
			TotalIPv4Addresses: 1 << 22, TotalIPv4Prefixes: 1, Rank: 1,
			TransitTo: []uint32{15169, 36994, 174, 99999}, // by rank, unranked last by ASN
		}, true},
		{36994, netinfo.ASInfo{ASN: 36994, TotalIPv4Addresses: 256, TotalIPv4Prefixes: 1, Rank: 3, ReceivingFrom: []uint32{3356}}, true},
		{16509, netinfo.ASInfo{ASN: 16509, TotalIPv6Prefixes: 2}, true},
		{64496, netinfo.ASInfo{ASN: 64496, TotalIPv6Prefixes: 1}, true},
		{174, netinfo.ASInfo{ASN: 174, ReceivingFrom: []uint32{3356}}, true},     // mentioned as a via carrier and transit only
		{99999, netinfo.ASInfo{ASN: 99999, ReceivingFrom: []uint32{3356}}, true}, // mentioned in a transit list only
		{1, netinfo.ASInfo{}, false},
	}
	for _, tc := range tests {
		got, ok := db.AS(tc.asn)
		if ok != tc.ok {
			t.Errorf("AS%d: ok = %v, want %v", tc.asn, ok, tc.ok)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("AS%d (-want +got):\n%s", tc.asn, diff)
		}
	}
	if got := db.RankedASes(); got != 3 {
		t.Errorf("RankedASes = %d, want 3", got)
	}
	info := db.Info()
	want := netinfo.Info{Networks4: 7, Networks6: 3, RegistryPieces: 8, BogonPieces: 5, ASes: 8, RankedASes: 3,
		Sources: netinfo.Sources{RIRStats: true, ASPaths: true}}
	if diff := cmp.Diff(want, info); diff != "" {
		t.Errorf("Info (-want +got):\n%s", diff)
	}
}

func TestNoAllocs(t *testing.T) {
	db := mustDB(t, fixture())
	for _, a := range []string{"8.8.8.8", "::ffff:8.8.8.8", "2600:1f00::1", "10.0.0.1", "203.0.113.1"} {
		ip := addr(a)
		if n := testing.AllocsPerRun(100, func() { db.Lookup(ip) }); n != 0 {
			t.Errorf("Lookup(%s) allocates %v times", a, n)
		}
		if n := testing.AllocsPerRun(100, func() { db.Prefetch(ip) }); n != 0 {
			t.Errorf("Prefetch(%s) allocates %v times", a, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { db.AS(3356) }); n != 0 {
		t.Errorf("AS allocates %v times", n)
	}
}

// TestReadOnlySlices checks that appending to a returned slice cannot write into the DB.
func TestReadOnlySlices(t *testing.T) {
	db := mustDB(t, fixture())
	n, _ := db.Lookup(addr("8.8.8.8"))
	_ = append(n.Carriers, 1)
	_ = append(n.ViaCarriers, 1)
	again, _ := db.Lookup(addr("8.8.8.8"))
	if !slices.Equal(again.Carriers, []uint32{15169}) || !slices.Equal(again.ViaCarriers, []uint32{3356, 174}) {
		t.Errorf("append changed the DB: %v %v", again.Carriers, again.ViaCarriers)
	}
	next, _ := db.Lookup(addr("8.8.9.1"))
	if next.ViaCarriers != nil {
		t.Errorf("8.8.9.1 via carriers = %v, want none", next.ViaCarriers)
	}
}

func TestEncodeDeterministic(t *testing.T) {
	in := netinfotest.Synthetic(5, 500)
	a, err := netinfo.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range []any{in.Registry, in.Bogons, in.Networks, in.ASes} {
		switch s := s.(type) {
		case []netinfo.RegistryBlock:
			rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		case []netinfo.BogonBlock:
			rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		case []netinfo.Announced:
			rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		case []netinfo.ASRecord:
			rng.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		}
	}
	b, err := netinfo.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Error("the same facts in another order encode differently")
	}
}

func TestEncodeRejects(t *testing.T) {
	tests := map[string]func(*netinfo.Input){
		"overlapping networks": func(in *netinfo.Input) {
			in.Networks = append(in.Networks, announced("8.8.0.0/16", "x", "", nil))
		},
		"host bits": func(in *netinfo.Input) { in.Networks = append(in.Networks, announced("9.9.9.9/24", "x", "", nil)) },
		"mapped prefix": func(in *netinfo.Input) {
			in.Networks = append(in.Networks, announced("::ffff:9.9.9.0/120", "x", "", nil))
		},
		"reversed range": func(in *netinfo.Input) {
			in.Registry = append(in.Registry, netinfo.RegistryBlock{First: addr("9.0.0.1"), Last: addr("9.0.0.0")})
		},
		"mixed families": func(in *netinfo.Input) {
			in.Bogons = append(in.Bogons, netinfo.BogonBlock{First: addr("9.0.0.1"), Last: addr("::1")})
		},
		"bad country": func(in *netinfo.Input) { in.Registry[0].Country = "usa" },
		"bad date":    func(in *netinfo.Input) { in.ASes[0].RegistrationDate = "2000-13-01" },
		"duplicate AS": func(in *netinfo.Input) {
			in.ASes = append(in.ASes, netinfo.ASRecord{ASN: 15169})
		},
		"too many via carriers": func(in *netinfo.Input) {
			in.Networks[0].ViaCarriers = []uint32{1, 2, 3, 4, 5, 6}
		},
	}
	for name, mutate := range tests {
		t.Run(name, func(t *testing.T) {
			in := fixture()
			mutate(&in)
			if _, err := netinfo.Encode(in); !errors.Is(err, netinfo.ErrInput) {
				t.Errorf("Encode: %v, want ErrInput", err)
			}
		})
	}
}

func TestDecodeRejects(t *testing.T) {
	b, err := netinfo.Encode(fixture())
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(b) {
		if _, err := netinfo.Decode(b[:i]); !errors.Is(err, netinfo.ErrFormat) {
			t.Fatalf("Decode(first %d bytes): %v, want ErrFormat", i, err)
		}
	}
	if _, err := netinfo.Decode(append(slices.Clone(b), 0)); !errors.Is(err, netinfo.ErrFormat) {
		t.Errorf("Decode(trailing byte): %v, want ErrFormat", err)
	}
}

func TestAddrCount(t *testing.T) {
	tests := []struct {
		p    string
		want string
		u    uint64
		fits bool
	}{
		{"8.8.8.0/24", "256", 256, true},
		{"0.0.0.0/0", "4294967296", 1 << 32, true},
		{"2001:db8::/64", "18446744073709551616", 0, false},
		{"2001:db8::/32", "79228162514264337593543950336", 0, false},
		{"::/1", "170141183460469231731687303715884105728", 0, false},
		{"::/0", "340282366920938463463374607431768211456", 0, false},
		{"::1/128", "1", 1, true},
	}
	for _, tc := range tests {
		c := netinfo.PrefixSize(pfx(tc.p))
		if got := c.String(); got != tc.want {
			t.Errorf("PrefixSize(%s) = %s, want %s", tc.p, got, tc.want)
		}
		if u, ok := c.Uint64(); u != tc.u || ok != tc.fits {
			t.Errorf("PrefixSize(%s).Uint64() = %d, %v", tc.p, u, ok)
		}
	}
	if got := netinfo.PrefixSize(pfx("::/0")).Float64(); got != 0x1p128 {
		t.Errorf("Float64 = %v", got)
	}
}

// The network's own country stands in for a registry block without one only where the
// block is someone's: announced space that a newer statistics file calls reserved or
// available, or that is a bogon, is registered to nobody.
func TestRegisteredCountryOnlyForRegisteredSpace(t *testing.T) {
	db := mustDB(t, netinfo.Input{
		Registry: []netinfo.RegistryBlock{
			block("45.6.0.0/16", "LACNIC", "allocated", "", 0),
			block("45.6.236.0/22", "LACNIC", "reserved", "", 4),
			block("45.7.0.0/16", "LACNIC", "available", "", 0),
		},
		Bogons: []netinfo.BogonBlock{bogon("45.6.128.0/24", true, 3)},
		Networks: []netinfo.Announced{
			announced("45.6.1.0/24", "A", "BR", []uint32{28000}),
			announced("45.6.128.0/24", "B", "BR", []uint32{28000}),
			announced("45.6.236.0/22", "C", "BR", []uint32{28000}),
			announced("45.7.1.0/24", "D", "BR", []uint32{28000}),
		},
	})
	for addr, want := range map[string]string{"45.6.1.1": "BR", "45.6.128.1": "", "45.6.236.1": "", "45.7.1.1": ""} {
		n, _ := db.Lookup(netip.MustParseAddr(addr))
		if n.RegisteredCountry != want {
			t.Errorf("%s (%s, bogon %v): registered country %q, want %q", addr, n.RegistryStatus, n.IsBogon, n.RegisteredCountry, want)
		}
	}
}

// A range of available space with registered blocks inside it has no single status, so it
// is not known to be someone's: the network's country does not fill it either.
func TestRangeRegisteredCountryNeedsStatus(t *testing.T) {
	db := mustDB(t, netinfo.Input{
		Registry: []netinfo.RegistryBlock{
			block("45.6.0.0/16", "LACNIC", "available", "", 0),
			block("45.6.236.0/22", "LACNIC", "allocated", "", 4),
		},
		Networks: []netinfo.Announced{announced("45.6.0.0/16", "A", "BR", []uint32{28000})},
	})
	res, err := db.Within(netip.MustParsePrefix("45.6.0.0/16"), netinfo.WithinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Network; n.RegistryStatus != "" || n.RegisteredCountry != "" {
		t.Errorf("range 45.6.0.0/16: status %q, country %q; want both empty", n.RegistryStatus, n.RegisteredCountry)
	}
}

// LastAddr against netinfotest.LastAddr, which sets the host bits one byte at a time, over
// random prefixes of every length of both families.
func TestLastAddr(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := range 20000 {
		var b [16]byte
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		a := netip.AddrFrom16(b)
		if i%2 == 0 {
			a = netip.AddrFrom4([4]byte(b[:4]))
		}
		p := netip.PrefixFrom(a, rng.IntN(a.BitLen()+1))
		if got, want := netinfo.LastAddr(p), netinfotest.LastAddr(p); got != want {
			t.Fatalf("LastAddr(%v) = %v, want %v", p, got, want)
		}
	}
	for p, want := range map[string]string{
		"::ffff:1.2.3.0/120": "::ffff:1.2.3.255", // IPv4-mapped stays IPv6
		"0.0.0.0/0":          "255.255.255.255",
		"10.1.2.3/32":        "10.1.2.3",
		"::/0":               "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
	} {
		if got := netinfo.LastAddr(netip.MustParsePrefix(p)); got.String() != want {
			t.Errorf("LastAddr(%s) = %v, want %s", p, got, want)
		}
	}
	if got := netinfo.LastAddr(netip.Prefix{}); got.IsValid() {
		t.Errorf("LastAddr of the zero Prefix = %v, want the zero Addr", got)
	}
}

// AddrCount's decimal against math/big's, for every IPv6 prefix length and for sums that
// put zeros at the head of a 19-digit chunk.
func TestAddrCountDecimal(t *testing.T) {
	for bits := 0; bits <= 128; bits++ {
		for _, extra := range []int{-1, 0, 1} {
			c := netinfo.PrefixSize(netip.PrefixFrom(netip.IPv6Unspecified(), bits))
			want := new(big.Int).Lsh(big.NewInt(1), uint(128-bits))
			switch {
			case extra < 0 && bits > 0 && bits < 128:
				c = c.Add(netinfo.PrefixSize(netip.PrefixFrom(netip.IPv6Unspecified(), 128)))
				want.Add(want, big.NewInt(1))
			case extra > 0 && bits > 1:
				c = c.Add(netinfo.PrefixSize(netip.PrefixFrom(netip.IPv6Unspecified(), bits)))
				want.Lsh(want, 1)
			}
			if got := string(c.AppendTo([]byte("x"))); got != "x"+want.String() {
				t.Fatalf("/%d (%d): %s, want x%s", bits, extra, got, want)
			}
		}
	}
}
