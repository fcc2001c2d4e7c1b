package netinfobuild

import (
	"net/netip"
	"slices"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// Whether space is free (a bogon) or in use, IANA's registries, the RIR files, the
// full-bogon list and the announced networks each say, the last three as of their own
// date, and a mirror's copies differ in age (the shared mirror: LACNIC's file of 2024-02,
// Team Cymru's list of 2024-03, AFRINIC's file of 2026-08; GeoLite2-ASN's networks of
// 2026-03). Where the dated sources disagree, the newest is right: a block an older list
// calls free and a newer file allocated is in use, a block a newer file calls available
// has been returned, and a network announced in 2026 in space the 2024 lists call free was
// most likely allocated in between. So each source's word on a range is a verdict, and
// every address takes the verdict that beats the others covering it (verdict.beats). All
// of them are resolved here into disjoint ranges, since netinfo's pieces let a more
// specific block win whatever its priority, which would let a small dated range inside a
// special-purpose block override it.

// verdictKind says where a verdict comes from. Kinds are ranked in three levels: IANA's
// address space, below the dated kinds, below IANA's special-purpose blocks.
type verdictKind uint8

const (
	// kindIANA: IANA's address-space registries, which the dated sources override (its
	// copy may be older than an RIR's file that allocates in space it calls reserved).
	kindIANA verdictKind = iota
	// Dated kinds, in the order that breaks ties between verdicts of the same date.
	// kindRouted: a network announced on the day a list calls its space free is a bogon
	// announcement, so announcements lose ties. kindRIR: an RIR's own file over a list
	// compiled from it.
	kindRouted
	kindFullBogons
	kindRIR
	// kindSpecial: IANA's special-purpose blocks, which nothing overrides.
	kindSpecial
)

// level returns the rank of k's level: 0 IANA's space, 1 dated sources, 2 special-purpose.
func (k verdictKind) level() int {
	switch k {
	case kindIANA:
		return 0
	case kindSpecial:
		return 2
	}
	return 1
}

// A verdict is one source's word on whether a range is free address space.
type verdict struct {
	first, last netip.Addr // inclusive, one family
	bogon       bool
	kind        verdictKind
	date        string // dated kinds: the source's data date, "yyyy-mm-dd"; "" if unknown, older than any
	bits        int    // IANA's kinds: the block's prefix length
}

// beats reports whether v decides over w where both cover an address: the higher level;
// among dated verdicts the newer, then the higher kind; among IANA's blocks, which nest,
// the more specific; and, all else equal, free (a full-bogon list's prefix over the "in
// use" it says of the rest of the allocated space).
func (v verdict) beats(w verdict) bool {
	if lv, lw := v.kind.level(), w.kind.level(); lv != lw {
		return lv > lw
	}
	if v.kind.level() == 1 {
		if v.date != w.date {
			return v.date > w.date
		}
		if v.kind != w.kind {
			return v.kind > w.kind
		}
	} else if v.bits != w.bits {
		return v.bits > w.bits
	}
	return v.bogon && !w.bogon
}

// resolveVerdicts resolves vs: every address takes the verdict that beats every other one
// covering it. It returns the decided ranges in address order, adjacent ones with the same
// answer merged, as bogon blocks of priority prio, and how many routed verdicts decide an
// address that, without them, would be free: the announced networks that older lists would
// have made bogons.
func resolveVerdicts(vs []verdict, prio uint8) (blocks []netinfo.BogonBlock, spared int) {
	vs = slices.Clone(vs)
	slices.SortFunc(vs, func(a, b verdict) int { return a.first.Compare(b.first) })
	bounds := make([]netip.Addr, 0, 2*len(vs))
	for _, v := range vs {
		bounds = append(bounds, v.first)
		if next := v.last.Next(); next.IsValid() {
			bounds = append(bounds, next)
		}
	}
	slices.SortFunc(bounds, netip.Addr.Compare)
	bounds = slices.Compact(bounds)

	var active []int // indexes into vs of the verdicts covering the current range
	sparedSet := map[int]bool{}
	next := 0
	for i, start := range bounds {
		active = slices.DeleteFunc(active, func(k int) bool { return vs[k].last.Less(start) })
		for next < len(vs) && vs[next].first == start {
			active = append(active, next)
			next++
		}
		if len(active) == 0 {
			continue
		}
		top, other := -1, -1 // the winner, and the winner of the verdicts that are not routed
		for _, k := range active {
			if top < 0 || vs[k].beats(vs[top]) {
				top = k
			}
			if vs[k].kind != kindRouted && (other < 0 || vs[k].beats(vs[other])) {
				other = k
			}
		}
		if vs[top].kind == kindRouted && other >= 0 && vs[other].bogon {
			sparedSet[top] = true
		}
		end := lastOfFamily(start)
		if i+1 < len(bounds) && bounds[i+1].Is4() == start.Is4() {
			end = bounds[i+1].Prev()
		}
		if n := len(blocks); n > 0 && blocks[n-1].Bogon == vs[top].bogon && blocks[n-1].Last.Next() == start {
			blocks[n-1].Last = end
			continue
		}
		blocks = append(blocks, netinfo.BogonBlock{First: start, Last: end, Bogon: vs[top].bogon, Priority: prio})
	}
	return blocks, len(sparedSet)
}

// lastOfFamily returns the last address of a's family.
func lastOfFamily(a netip.Addr) netip.Addr {
	if a.Is4() {
		return netip.AddrFrom4([4]byte{255, 255, 255, 255})
	}
	return netip.AddrFrom16([16]byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255})
}

// addrRanges is a sorted list of disjoint inclusive ranges, for overlap tests.
type addrRanges [][2]netip.Addr

// rangesOf returns the ranges of the given ones, sorted and merged.
func rangesOf(rs [][2]netip.Addr) addrRanges {
	rs = slices.Clone(rs)
	slices.SortFunc(rs, func(a, b [2]netip.Addr) int { return a[0].Compare(b[0]) })
	var out addrRanges
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1][0].Is4() == r[0].Is4() && !out[n-1][1].Less(r[0].Prev()) {
			if out[n-1][1].Less(r[1]) {
				out[n-1][1] = r[1]
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// overlaps reports whether [first, last] shares an address with one of the ranges.
func (rs addrRanges) overlaps(first, last netip.Addr) bool {
	// The first range that ends at or after first; it overlaps if it starts by last.
	i, _ := slices.BinarySearchFunc(rs, first, func(r [2]netip.Addr, a netip.Addr) int {
		if r[1].Less(a) {
			return -1
		}
		return 1
	})
	return i < len(rs) && !last.Less(rs[i][0])
}

// routedVerdicts returns an "in use" verdict, dated date, for each announced network that
// overlaps a free-space verdict, except where ianaReserved says that IANA has not given
// the space out: an announcement alone does not make it usable. (Special-purpose blocks
// need no test: they outrank every dated verdict.)
func routedVerdicts(nets []netinfo.Announced, vs []verdict, ianaReserved func(netip.Prefix) bool, date string) []verdict {
	var free [][2]netip.Addr
	for _, v := range vs {
		if v.bogon && v.kind.level() == 1 {
			free = append(free, [2]netip.Addr{v.first, v.last})
		}
	}
	freeRanges := rangesOf(free)
	var out []verdict
	for _, n := range nets {
		first, last := n.Prefix.Addr(), netinfo.LastAddr(n.Prefix)
		if freeRanges.overlaps(first, last) && !ianaReserved(n.Prefix) {
			out = append(out, verdict{first: first, last: last, date: date, kind: kindRouted})
		}
	}
	return out
}
