// Package netinfotest helps test the netinfo engine from any package: Reference answers
// lookups by scanning an Input's rows with the rules of the netinfo package documentation,
// written out literally and independently of the engine's tables, for differential tests;
// Synthetic makes seeded inputs with the shapes of real data; Addrs picks addresses worth
// probing.
package netinfotest

import (
	"cmp"
	"encoding/binary"
	"math/big"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strings"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// CmpOptions are the go-cmp options for comparing netinfo values, whose netip fields have
// unexported members.
func CmpOptions() gocmp.Options {
	return gocmp.Options{cmpopts.EquateComparable(netip.Addr{}, netip.Prefix{}), gocmp.AllowUnexported(netinfo.AddrCount{})}
}

// Reference is a slow, obviously correct netinfo lookup over an Input's rows. To stay
// usable on real data (a million networks, hundreds of thousands of blocks) it files each
// row under the /16 (IPv4) or /32 (IPv6) blocks it touches, when those are at most 256, and
// keeps wider rows in a list scanned for every address; within those candidates it scans
// linearly.
type Reference struct {
	in      netinfo.Input
	reg     index
	bogon   index
	network index
	// bounds holds every bogon block's first address and the address after its last,
	// sorted: the points where the blocks' answer can change.
	bounds []netip.Addr
}

// index files row numbers by the bucket key of the addresses they cover.
type index struct {
	wide    []int
	buckets map[uint64][]int
}

const maxSpan = 256

func bucket(a netip.Addr) uint64 {
	if a.Is4() {
		b := a.As4()
		return uint64(b[0])<<8 | uint64(b[1])
	}
	b := a.As16()
	return 1<<32 | uint64(binary.BigEndian.Uint32(b[:4]))
}

func (x *index) add(row int, first, last netip.Addr) {
	k0, k1 := bucket(first), bucket(last)
	if k1-k0 >= maxSpan {
		x.wide = append(x.wide, row)
		return
	}
	if x.buckets == nil {
		x.buckets = map[uint64][]int{}
	}
	for k := k0; k <= k1; k++ {
		x.buckets[k] = append(x.buckets[k], row)
	}
}

// candidates returns the rows that may contain a.
func (x *index) candidates(a netip.Addr) [][]int {
	return [][]int{x.wide, x.buckets[bucket(a)]}
}

// NewReference indexes in's rows. It keeps in; in must not change afterwards.
func NewReference(in netinfo.Input) *Reference {
	r := &Reference{in: in}
	for i, b := range in.Registry {
		r.reg.add(i, b.First, b.Last)
	}
	for i, b := range in.Bogons {
		r.bogon.add(i, b.First, b.Last)
		r.bounds = append(r.bounds, b.First)
		if next := b.Last.Next(); next.IsValid() {
			r.bounds = append(r.bounds, next)
		}
	}
	slices.SortFunc(r.bounds, netip.Addr.Compare)
	r.bounds = slices.Compact(r.bounds)
	for i, n := range in.Networks {
		r.network.add(i, n.Prefix.Addr(), LastAddr(n.Prefix))
	}
	return r
}

// LastAddr returns the last address of p, computed byte by byte.
func LastAddr(p netip.Prefix) netip.Addr {
	p = p.Masked()
	if p.Addr().Is4() {
		b := p.Addr().As4()
		setHostBits(b[:], p.Bits())
		return netip.AddrFrom4(b)
	}
	b := p.Addr().As16()
	setHostBits(b[:], p.Bits())
	return netip.AddrFrom16(b)
}

func setHostBits(b []byte, prefixLen int) {
	for i := range b {
		for bit := range 8 {
			if i*8+bit >= prefixLen {
				b[i] |= 0x80 >> bit
			}
		}
	}
}

// PieceLen returns the length of the largest aligned block that contains a and lies within
// first..last — the CIDR piece of the range that holds a — or -1 if a is outside the range.
func PieceLen(first, last, a netip.Addr) int {
	if a.Is4() != first.Is4() || a.Less(first) || last.Less(a) {
		return -1
	}
	for l := 0; l <= a.BitLen(); l++ {
		p := netip.PrefixFrom(a, l).Masked()
		if !p.Addr().Less(first) && !last.Less(LastAddr(p)) {
			return l
		}
	}
	return a.BitLen()
}

// Lookup answers as netinfo.DB.Lookup should.
func (r *Reference) Lookup(a netip.Addr) (netinfo.Network, bool) {
	if !a.IsValid() {
		return netinfo.Network{}, false
	}
	return r.lookup(a.Unmap().WithZone(""))
}

// lookup is Lookup of an address as it is, an IPv4-mapped one in the IPv6 tables.
func (r *Reference) lookup(a netip.Addr) (netinfo.Network, bool) {
	var n netinfo.Network
	found := false

	best, bestLen := -1, -1
	for _, rows := range r.reg.candidates(a) {
		for _, i := range rows {
			b := r.in.Registry[i]
			l := PieceLen(b.First, b.Last, a)
			if l < 0 {
				continue
			}
			if best < 0 || l > bestLen || l == bestLen && regBetter(b, r.in.Registry[best]) {
				best, bestLen = i, l
			}
		}
	}
	if best >= 0 {
		b := r.in.Registry[best]
		n.Registry, n.RegistryStatus, n.RegisteredCountry = b.Registry, b.Status, b.Country
		found = true
	}

	if b, ok := r.bogonAt(a, -1); ok {
		n.IsBogon = b
		found = true
	}

	for _, rows := range r.network.candidates(a) {
		for _, i := range rows {
			x := r.in.Networks[i]
			if !x.Prefix.Contains(a) {
				continue
			}
			n.Organisation = x.Organisation
			n.BGPPrefix = x.Prefix
			n.IsReachableGlobally = !n.IsBogon
			if n.RegisteredCountry == "" && !n.IsBogon && netinfo.InUse(n.RegistryStatus) {
				n.RegisteredCountry = x.Country
			}
			if len(x.Carriers) > 0 {
				n.Carriers = x.Carriers
			}
			if len(x.ViaCarriers) > 0 {
				n.ViaCarriers = x.ViaCarriers
			}
			found = true
		}
	}
	return n, found
}

// bogonAt resolves the bogon blocks at address a. With maxLen >= 0 it resolves a prefix of
// that length starting at a instead: only pieces of at most maxLen bits contain it whole.
func (r *Reference) bogonAt(a netip.Addr, maxLen int) (bogon, ok bool) {
	best, bestLen := -1, -1
	for _, rows := range r.bogon.candidates(a) {
		for _, i := range rows {
			b := r.in.Bogons[i]
			l := PieceLen(b.First, b.Last, a)
			if l < 0 || maxLen >= 0 && l > maxLen {
				continue
			}
			if best < 0 || l > bestLen || l == bestLen && bogonBetter(b, r.in.Bogons[best]) {
				best, bestLen = i, l
			}
		}
	}
	if best < 0 {
		return false, false
	}
	return r.in.Bogons[best].Bogon, true
}

func regBetter(a, b netinfo.RegistryBlock) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	return cmp.Or(strings.Compare(a.Registry, b.Registry), strings.Compare(a.Status, b.Status), strings.Compare(a.Country, b.Country)) < 0
}

func bogonBetter(a, b netinfo.BogonBlock) bool {
	if a.Priority != b.Priority {
		return a.Priority > b.Priority
	}
	return a.Bogon && !b.Bogon
}

// PrefixIsBogon reports whether every address of prefix p is bogon, as the DB decides for
// announced networks (and thus AS bogon counts).
func (r *Reference) PrefixIsBogon(p netip.Prefix) bool {
	for _, b := range r.boundaryBogons(p) {
		if !b {
			return false
		}
	}
	return true
}

// PrefixHasBogon reports whether some address of prefix p is bogon: network-by-cidr's
// bogonsOnly filter.
func (r *Reference) PrefixHasBogon(p netip.Prefix) bool {
	return slices.Contains(r.boundaryBogons(p), true)
}

// boundaryBogons returns whether each of p's first address and the block boundaries
// inside p is bogon. The blocks' answer can change only where a block begins or ends, so
// these points stand for all of p's addresses.
func (r *Reference) boundaryBogons(p netip.Prefix) []bool {
	p = p.Masked()
	first, _ := slices.BinarySearchFunc(r.bounds, p.Addr(), netip.Addr.Compare)
	bogons := []bool{r.bogonIs(p.Addr())}
	for _, a := range r.bounds[first:] {
		if !p.Contains(a) {
			break
		}
		bogons = append(bogons, r.bogonIs(a))
	}
	return bogons
}

func (r *Reference) bogonIs(a netip.Addr) bool {
	b, _ := r.bogonAt(a, -1)
	return b
}

// ASCounts returns the counts and rank netinfo.DB.AS should report for asn, computed from
// the networks by a full scan, with the number of ranked ASes.
func (r *Reference) ASCounts(asn uint32) (info netinfo.ASInfo, ranked int) {
	v4 := map[uint32]uint64{}
	info.ASN = asn
	for _, n := range r.in.Networks {
		bogon := r.PrefixIsBogon(n.Prefix)
		for _, c := range n.Carriers {
			if n.Prefix.Addr().Is4() {
				v4[c] += 1 << (32 - n.Prefix.Bits())
			}
			if c != asn {
				continue
			}
			switch {
			case n.Prefix.Addr().Is4():
				info.TotalIPv4Prefixes++
				if bogon {
					info.TotalIPv4BogonPrefixes++
				}
			default:
				info.TotalIPv6Prefixes++
				if bogon {
					info.TotalIPv6BogonPrefixes++
				}
			}
		}
	}
	info.TotalIPv4Addresses = v4[asn]
	type entry struct {
		asn  uint32
		addr uint64
	}
	var all []entry
	for a, n := range v4 {
		all = append(all, entry{a, n})
	}
	slices.SortFunc(all, func(x, y entry) int { return cmp.Or(cmp.Compare(y.addr, x.addr), cmp.Compare(x.asn, y.asn)) })
	for i, e := range all {
		if e.asn == asn {
			info.Rank = i + 1
		}
	}
	return info, len(all)
}

// Addrs returns n addresses worth probing in, drawn with rng: a third uniformly at random
// (IPv4 and IPv6 alike), a third inside random announced networks, and a third at or next
// to the boundaries of random registry and bogon blocks and networks.
func Addrs(in netinfo.Input, rng *rand.Rand, n int) []netip.Addr {
	out := make([]netip.Addr, 0, n)
	for len(out) < n {
		switch k := rng.IntN(3); {
		case k == 0 || len(in.Networks) == 0:
			out = append(out, randomAddr(rng))
		case k == 1:
			p := in.Networks[rng.IntN(len(in.Networks))].Prefix
			out = append(out, randomIn(rng, p))
		default:
			var first, last netip.Addr
			switch j := rng.IntN(3); {
			case j == 0 && len(in.Registry) > 0:
				b := in.Registry[rng.IntN(len(in.Registry))]
				first, last = b.First, b.Last
			case j == 1 && len(in.Bogons) > 0:
				b := in.Bogons[rng.IntN(len(in.Bogons))]
				first, last = b.First, b.Last
			default:
				p := in.Networks[rng.IntN(len(in.Networks))].Prefix
				first, last = p.Addr(), LastAddr(p)
			}
			for _, a := range [...]netip.Addr{first, last, first.Prev(), last.Next()} {
				if a.IsValid() && len(out) < n {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

func randomAddr(rng *rand.Rand) netip.Addr {
	if rng.IntN(2) == 0 {
		var b [4]byte
		binary.BigEndian.PutUint32(b[:], rng.Uint32())
		return netip.AddrFrom4(b)
	}
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], rng.Uint64())
	binary.BigEndian.PutUint64(b[8:], rng.Uint64())
	if rng.IntN(2) == 0 {
		b[0] = 0x20 | b[0]&0x1f // global unicast, where most data is
	}
	return netip.AddrFrom16(b)
}

// randomIn returns a random address inside p.
func randomIn(rng *rand.Rand, p netip.Prefix) netip.Addr {
	r := randomAddr(rng)
	if r.Is4() != p.Addr().Is4() {
		r = randomAddr(rng)
		for r.Is4() != p.Addr().Is4() {
			r = randomAddr(rng)
		}
	}
	base := p.Masked().Addr().AsSlice()
	rb := r.AsSlice()
	for i := range base {
		for bit := range 8 {
			if i*8+bit >= p.Bits() {
				m := byte(0x80 >> bit)
				base[i] = base[i]&^m | rb[i]&m
			}
		}
	}
	a, _ := netip.AddrFromSlice(base)
	return a
}

// SpaceCounts is netinfo.Space in decimal, as Space works it out with math/big.
type SpaceCounts struct {
	Total, Announced, Bogon string
	// Registries maps each registry name to its total, announced and bogon counts.
	Registries map[string][3]string
}

// Space counts the addresses of one family (IPv4 when is4) run by run: between the points
// where a CIDR piece of some input row starts or ends (overlapping rows are resolved piece
// by piece, see Lookup), Lookup has one answer. Every count is a big.Int.
func (r *Reference) Space(is4 bool) SpaceCounts {
	first := netip.IPv6Unspecified()
	if is4 {
		first = netip.IPv4Unspecified()
	}
	cuts := []netip.Addr{first}
	cut := func(lo, hi netip.Addr) {
		if lo.Is4() != is4 {
			return
		}
		for a := lo; ; {
			l := PieceLen(lo, hi, a)
			last := LastAddr(netip.PrefixFrom(a, l))
			cuts = append(cuts, a)
			if a = last.Next(); !a.IsValid() || hi.Less(a) {
				break
			}
		}
		if next := hi.Next(); next.IsValid() {
			cuts = append(cuts, next)
		}
	}
	for _, b := range r.in.Registry {
		cut(b.First, b.Last)
	}
	for _, b := range r.in.Bogons {
		cut(b.First, b.Last)
	}
	for _, n := range r.in.Networks {
		cut(n.Prefix.Addr(), LastAddr(n.Prefix))
	}
	slices.SortFunc(cuts, netip.Addr.Compare)
	cuts = slices.Compact(cuts)

	num := func(a netip.Addr) *big.Int { return new(big.Int).SetBytes(a.AsSlice()) }
	end := new(big.Int).Lsh(big.NewInt(1), uint(first.BitLen())) // the address after the last
	total, announced, bogon := new(big.Int), new(big.Int), new(big.Int)
	regs := map[string]*[3]big.Int{}
	for i, a := range cuts {
		next := end
		if i+1 < len(cuts) {
			next = num(cuts[i+1])
		}
		n := new(big.Int).Sub(next, num(a))
		net, _ := r.lookup(a) // IPv6 space stays IPv6: ::ffff:0:0/96 is not IPv4's

		total.Add(total, n)
		var reg *[3]big.Int
		if net.Registry != "" {
			if reg = regs[net.Registry]; reg == nil {
				reg = new([3]big.Int)
				regs[net.Registry] = reg
			}
			reg[0].Add(&reg[0], n)
		}
		if net.IsAnnounced() {
			announced.Add(announced, n)
			if reg != nil {
				reg[1].Add(&reg[1], n)
			}
		}
		if net.IsBogon {
			bogon.Add(bogon, n)
			if reg != nil {
				reg[2].Add(&reg[2], n)
			}
		}
	}
	out := SpaceCounts{Total: total.String(), Announced: announced.String(), Bogon: bogon.String(), Registries: map[string][3]string{}}
	for name, c := range regs {
		out.Registries[name] = [3]string{c[0].String(), c[1].String(), c[2].String()}
	}
	return out
}
