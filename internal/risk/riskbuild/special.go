package riskbuild

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/ipatlas/ipatlas/internal/netinfo/netinfobuild"
	"github.com/ipatlas/ipatlas/internal/risk"
)

// providerKinds are the kinds of list that say who holds or runs a block of addresses, a
// claim that no special-purpose block can bear out. The other kinds name hosts seen doing
// something (Tor relays, blocklisted and DROP addresses): a 6to4 or Teredo address among
// them is one real host's tunnel address, and is kept.
var providerKinds = []risk.Kind{risk.KindVPN, risk.KindPrivateRelay, risk.KindCloud, risk.KindDatacenter}

// namedRange is a range of special-purpose space and the name of the block it is part of.
type namedRange struct {
	risk.Range
	name string
}

// unownedSpace returns, sorted and disjoint, the special-purpose space that no provider
// holds: the blocks the registry calls not globally reachable (private use, documentation,
// benchmarking, the deprecated ORCHID block, ...), and the ones it leaves to the protocol,
// 6to4 and Teredo, whose addresses are made from other networks' IPv4 addresses. Globally
// reachable blocks (AS112, AMT, anycast services) are real operated space and are not in it.
//
// The most specific block decides, as the registry's footnote has it ("unless allowed by a
// more specific allocation"): AS112's 2001:4:112::/48 stays out although the IETF's
// 2001::/23 around it is not globally reachable.
func unownedSpace(blocks []netinfobuild.SpecialBlock) []namedRange {
	blocks = slices.Clone(blocks)
	slices.SortStableFunc(blocks, func(a, b netinfobuild.SpecialBlock) int { return cmp.Compare(a.Prefix.Bits(), b.Prefix.Bits()) })
	var set []namedRange
	for _, b := range blocks {
		if b.Prefix.Addr().Is4In6() {
			continue // the lists hold IPv4-mapped space as IPv4; the IPv4 blocks cover it
		}
		r := risk.PrefixRange(b.Prefix)
		var next []namedRange
		for _, s := range set {
			for _, part := range subtract(s.Range, []risk.Range{r}) {
				next = append(next, namedRange{part, s.name})
			}
		}
		if !b.Reachable || b.ByProtocol {
			next = append(next, namedRange{r, b.Prefix.String() + " " + b.Name})
		}
		slices.SortFunc(next, func(a, b namedRange) int { return a.From.Compare(b.From) })
		set = next
	}
	return set
}

// subtract returns the parts of r outside cut, which is sorted and disjoint.
func subtract(r risk.Range, cut []risk.Range) []risk.Range {
	// The first range of cut that does not end before r starts.
	i, _ := slices.BinarySearchFunc(cut, r.From, func(c risk.Range, a netip.Addr) int { return c.To.Compare(a) })
	var out []risk.Range
	from := r.From
	for ; i < len(cut) && cut[i].From.Compare(r.To) <= 0; i++ {
		c := cut[i]
		if c.From.Compare(from) > 0 {
			out = append(out, risk.Range{From: from, To: c.From.Prev()})
		}
		if c.To.Compare(r.To) >= 0 {
			return out
		}
		from = c.To.Next()
	}
	return append(out, risk.Range{From: from, To: r.To})
}

// dropUnowned removes from the lists of providerKinds the parts of their ranges that lie in
// unowned (see unownedSpace), and names in a warning each list it cut, with how many ranges
// and which blocks: cloud-ipranges' Vultr files hold 2002::/16 and the documentation
// blocks, which made every 6to4 address a Vultr cloud address. A list left empty is
// dropped. Each source's count of cut ranges is recorded as ranges-in-special-purpose-space.
func dropUnowned(lists []risk.List, unowned []namedRange, rep reporter) []risk.List {
	cut := make([]risk.Range, len(unowned))
	for i, u := range unowned {
		cut[i] = u.Range
	}
	perSource := map[string]int{}
	for i, l := range lists {
		if !slices.Contains(providerKinds, l.Kind) {
			continue
		}
		var kept []risk.Range
		var hit []string
		n := 0
		for _, r := range l.Ranges {
			parts := subtract(r, cut)
			if len(parts) == 1 && parts[0] == r {
				kept = append(kept, r)
				continue
			}
			n++
			kept = append(kept, parts...)
			hit = append(hit, blocksIn(r, unowned)...)
		}
		if n == 0 {
			continue
		}
		source, _, _ := strings.Cut(l.Name, "/")
		perSource[source] += n
		slices.Sort(hit)
		rep.Warnf(source, "list %s: %d ranges lie wholly or partly in IANA special-purpose space that no provider holds (%s); those parts are left out",
			listName(l), n, strings.Join(slices.Compact(hit), ", "))
		lists[i].Ranges = kept
	}
	for source, n := range perSource {
		rep.Count(source, "ranges-in-special-purpose-space", n)
	}
	return slices.DeleteFunc(lists, func(l risk.List) bool { return len(l.Ranges) == 0 })
}

// blocksIn names the blocks of unowned that r overlaps.
func blocksIn(r risk.Range, unowned []namedRange) []string {
	var names []string
	for _, u := range unowned {
		if u.From.Compare(r.To) <= 0 && r.From.Compare(u.To) <= 0 {
			names = append(names, u.name)
		}
	}
	return names
}

// listName names a list in a warning: ipcat's lists share a name and differ by provider.
func listName(l risk.List) string {
	if l.Provider != "" && !strings.Contains(l.Name, "/") {
		return fmt.Sprintf("%s (%s)", l.Name, l.Provider)
	}
	return l.Name
}
