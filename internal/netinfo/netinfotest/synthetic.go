package netinfotest

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"net/netip"
	"slices"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// Synthetic returns a seeded Input with the shapes of real data, crowded into a few regions
// of the address space so that its rows overlap often: IANA-like /8 blocks, RIR-like ranges
// of any length (not only CIDR-aligned) that overlap one another, bogon ranges, some of them
// marked not-bogon inside others (at most 4,000 and 1,000 ranges), about nets disjoint
// announced networks of both families,
// and AS records with transit lists. The same seed always gives the same Input.
func Synthetic(seed uint64, nets int) netinfo.Input {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var in netinfo.Input
	in.Sources = netinfo.Sources{RIRStats: true, FullBogons: true, ASPaths: true, ASNames: true}
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	registries := []string{"AFRINIC", "APNIC", "ARIN", "LACNIC", "RIPE NCC"}
	countries := []string{"", "US", "DE", "BR", "ZA", "JP", "AU"}

	// IANA-like base: every IPv4 /8, and the IPv6 space in large blocks.
	for o := range 256 {
		b := netinfo.RegistryBlock{
			First: netip.AddrFrom4([4]byte{byte(o), 0, 0, 0}), Last: netip.AddrFrom4([4]byte{byte(o), 255, 255, 255}),
			Registry: registries[o%len(registries)], Status: "allocated",
		}
		if o%16 == 0 || o >= 224 {
			b.Registry, b.Status = "IANA", "reserved"
			in.Bogons = append(in.Bogons, netinfo.BogonBlock{First: b.First, Last: b.Last, Bogon: true})
		}
		in.Registry = append(in.Registry, b)
	}
	v6 := func(s string) netip.Addr { return netip.MustParseAddr(s) }
	in.Registry = append(in.Registry,
		netinfo.RegistryBlock{First: v6("::"), Last: v6("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Registry: "IETF", Status: "reserved"},
		netinfo.RegistryBlock{First: v6("2000::"), Last: v6("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Registry: "IANA", Status: "available"},
		netinfo.RegistryBlock{First: v6("4000::"), Last: v6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Registry: "IETF", Status: "reserved"},
	)
	in.Bogons = append(in.Bogons,
		netinfo.BogonBlock{First: v6("::"), Last: v6("1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Bogon: true},
		netinfo.BogonBlock{First: v6("2000::"), Last: v6("3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Bogon: true},
		netinfo.BogonBlock{First: v6("4000::"), Last: v6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Bogon: true},
	)
	for i := range 8 { // RIR /12s in 2000::/3, not bogon
		first := netip.AddrFrom16([16]byte{0x20, byte(i) << 4})
		last := LastAddr(netip.PrefixFrom(first, 12))
		in.Registry = append(in.Registry, netinfo.RegistryBlock{First: first, Last: last, Registry: registries[i%len(registries)], Status: "allocated"})
		in.Bogons = append(in.Bogons, netinfo.BogonBlock{First: first, Last: last, Bogon: false})
	}

	// RIR-like and bogon ranges of any length, in the crowded regions.
	for range min(nets/2, 4000) { // odd IPv6 ranges cut into up to ~200 pieces each
		first, last := randomRange(rng)
		status := pick("allocated", "assigned", "available", "reserved")
		prio := uint8(4)
		if status == "available" || status == "reserved" {
			prio = 3
			if rng.IntN(2) == 0 {
				in.Bogons = append(in.Bogons, netinfo.BogonBlock{First: first, Last: last, Bogon: true, Priority: 2})
			}
		}
		in.Registry = append(in.Registry, netinfo.RegistryBlock{
			First: first, Last: last, Registry: pick(registries...), Status: status, Country: pick(countries...), Priority: prio,
		})
	}
	for range min(nets/8, 1000) {
		first, last := randomRange(rng)
		in.Bogons = append(in.Bogons, netinfo.BogonBlock{First: first, Last: last, Bogon: rng.IntN(5) > 0, Priority: uint8(rng.IntN(4))})
	}

	// Announced networks: random prefixes in the same regions, the overlapping ones dropped.
	var prefixes []netip.Prefix
	for range nets * 3 / 2 {
		prefixes = append(prefixes, randomPrefix(rng))
	}
	slices.SortFunc(prefixes, func(a, b netip.Prefix) int {
		if a.Addr().Is4() != b.Addr().Is4() {
			if a.Addr().Is4() {
				return -1
			}
			return 1
		}
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	const asPool = 400
	for _, p := range prefixes {
		if k := len(in.Networks); k > 0 && in.Networks[k-1].Prefix.Overlaps(p) || len(in.Networks) == nets {
			continue
		}
		origin := uint32(1 + rng.IntN(asPool))
		n := netinfo.Announced{
			Prefix: p, Carriers: []uint32{origin}, Organisation: fmt.Sprintf("Org %d", origin%50), Country: pick(countries...),
		}
		if rng.IntN(10) == 0 {
			n.Carriers = append(n.Carriers, uint32(1+rng.IntN(asPool)))
		}
		for range rng.IntN(netinfo.MaxViaCarriers + 1) {
			v := uint32(1 + rng.IntN(asPool))
			if !slices.Contains(n.ViaCarriers, v) {
				n.ViaCarriers = append(n.ViaCarriers, v)
			}
		}
		in.Networks = append(in.Networks, n)
	}
	rng.Shuffle(len(in.Networks), func(i, j int) { in.Networks[i], in.Networks[j] = in.Networks[j], in.Networks[i] })

	for asn := uint32(1); asn <= asPool; asn += uint32(1 + rng.IntN(2)) {
		a := netinfo.ASRecord{
			ASN: asn, Organisation: fmt.Sprintf("Org %d", asn%50), Name: fmt.Sprintf("AS-HANDLE-%d", asn),
			Registry: pick(registries...), Country: pick(countries...),
		}
		if rng.IntN(2) == 0 {
			a.RegistrationDate = fmt.Sprintf("%04d-%02d-%02d", 1990+rng.IntN(35), 1+rng.IntN(12), 1+rng.IntN(28))
		}
		for range rng.IntN(6) {
			a.TransitTo = append(a.TransitTo, uint32(1+rng.IntN(asPool+50)))
		}
		in.ASes = append(in.ASes, a)
	}
	return in
}

// crowded returns a random address in one of a few small regions of each family.
func crowded(rng *rand.Rand, v4 bool) netip.Addr {
	if v4 {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], rng.Uint32())
		b[0] = byte(1 + rng.IntN(6)) // 1.0.0.0/8 to 6.0.0.0/8
		if rng.IntN(2) == 0 {
			b[1] = byte(rng.IntN(4)) // denser still
		}
		return netip.AddrFrom4(b)
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], rng.Uint64())
	binary.BigEndian.PutUint64(b[8:], rng.Uint64())
	b[0], b[1] = 0x20, byte(rng.IntN(0x40)) // 2000::/10
	if rng.IntN(2) == 0 {
		b[2], b[3] = 0, byte(rng.IntN(4))
	}
	return netip.AddrFrom16(b)
}

// randomRange returns an inclusive range of random length (up to 2**23 IPv4 or 2**109
// IPv6 addresses, rarely a power of two) in the crowded regions.
func randomRange(rng *rand.Rand) (netip.Addr, netip.Addr) {
	v4 := rng.IntN(2) == 0
	first := crowded(rng, v4)
	var off netip.Addr
	if v4 {
		off = randomIn(rng, netip.PrefixFrom(netip.IPv4Unspecified(), 32-(4+rng.IntN(20))))
	} else {
		off = randomIn(rng, netip.PrefixFrom(netip.IPv6Unspecified(), 128-(60+rng.IntN(50))))
	}
	last := addAddr(first, off)
	if last.Less(first) { // wrapped past the end of the family
		last = LastAddr(netip.PrefixFrom(first, 0))
	}
	return first, last
}

// addAddr returns a + off, both of one family, wrapping on overflow.
func addAddr(a, off netip.Addr) netip.Addr {
	x, y := a.As16(), off.As16()
	if a.Is4() {
		x4, y4 := a.As4(), off.As4()
		s := binary.BigEndian.Uint32(x4[:]) + binary.BigEndian.Uint32(y4[:])
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], s)
		return netip.AddrFrom4(b)
	}
	carry := 0
	for i := 15; i >= 0; i-- {
		s := int(x[i]) + int(y[i]) + carry
		x[i], carry = byte(s), s>>8
	}
	return netip.AddrFrom16(x)
}

// randomPrefix returns a random prefix in the crowded regions.
func randomPrefix(rng *rand.Rand) netip.Prefix {
	if rng.IntN(3) > 0 {
		return netip.PrefixFrom(crowded(rng, true), 12+rng.IntN(21)).Masked()
	}
	return netip.PrefixFrom(crowded(rng, false), 20+rng.IntN(45)).Masked()
}
