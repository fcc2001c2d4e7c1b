// Package risktest gives tests of any package slow, obviously correct references for
// risk.DB.Hazards, which scan every range of every list (Slow per address, SlowBatch for many
// addresses at once), and a helper that encodes and decodes risk.Data in one step.
package risktest

import (
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ipatlas/ipatlas/internal/risk"
)

// MustDB encodes d and decodes the result, failing tb on any error.
func MustDB(tb testing.TB, d risk.Data) *risk.DB {
	tb.Helper()
	b, err := risk.Encode(d)
	if err != nil {
		tb.Fatalf("Encode: %v", err)
	}
	db, err := risk.Decode(b)
	if err != nil {
		tb.Fatalf("Decode: %v", err)
	}
	return db
}

// Slow returns the hazards of a by a linear scan of every range of every list in d, applying
// the rules of the risk package documentation directly. d must be valid for risk.Encode.
func Slow(d risk.Data, a netip.Addr, f risk.Facts) risk.Hazards {
	a = a.Unmap()
	var on []int
	for i, l := range d.Lists {
		if slices.ContainsFunc(l.Ranges, func(r risk.Range) bool { return contains(r, a) }) {
			on = append(on, i)
		}
	}
	return hazards(d, on, f)
}

// SlowBatch returns Slow(d, addrs[i], facts[i]) for every i, scanning every range of every
// list once and finding the addresses it holds among the sorted addresses: the same rows and
// rules as Slow, turned inside out so that real lists and many addresses take seconds, not
// hours.
func SlowBatch(d risk.Data, addrs []netip.Addr, facts []risk.Facts) []risk.Hazards {
	order := make([]int, len(addrs)) // addrs indices sorted by unmapped address
	for i := range order {
		order[i] = i
	}
	unmapped := make([]netip.Addr, len(addrs))
	for i, a := range addrs {
		unmapped[i] = a.Unmap()
	}
	slices.SortFunc(order, func(i, j int) int { return unmapped[i].Compare(unmapped[j]) })

	on := make([][]int, len(addrs)) // per address, the lists holding it, in list order
	for li, l := range d.Lists {
		for _, r := range l.Ranges {
			from, to := norm(r)
			k, _ := slices.BinarySearchFunc(order, from, func(i int, a netip.Addr) int { return unmapped[i].Compare(a) })
			for ; k < len(order) && !to.Less(unmapped[order[k]]); k++ {
				ai := order[k]
				if contains(r, unmapped[ai]) && (len(on[ai]) == 0 || on[ai][len(on[ai])-1] != li) {
					on[ai] = append(on[ai], li)
				}
			}
		}
	}
	out := make([]risk.Hazards, len(addrs))
	for i := range addrs {
		out[i] = hazards(d, on[i], facts[i])
	}
	return out
}

// hazards applies the rules to the lists (indices into d.Lists, ascending) holding an address.
func hazards(d risk.Data, on []int, f risk.Facts) risk.Hazards {
	h := risk.Hazards{IsBogon: f.IsBogon, IsUnreachable: !f.IsReachable}
	var names []string
	var clouds, hosts []string
	for _, i := range on {
		l := d.Lists[i]
		names = append(names, l.Name)
		switch l.Kind {
		case risk.KindTorExit:
			h.IsKnownAsTorExit, h.IsKnownAsTorServer = true, true
		case risk.KindTorRelay:
			h.IsKnownAsTorServer = true
		case risk.KindVPN:
			h.IsKnownAsVpn = true
		case risk.KindPrivateRelay:
			h.IsICloudPrivateRelay = true
		case risk.KindCloud:
			clouds = append(clouds, l.Provider)
		case risk.KindDatacenter:
			h.IsKnownAsDatacenter = true
			if l.Provider != "" {
				hosts = append(hosts, l.Provider)
			}
		case risk.KindBlocklist:
			h.BlocklistCount = max(h.BlocklistCount, l.Score)
		case risk.KindDrop:
			h.IsSpamhausDrop = true
		}
	}
	for _, l := range d.ASNLists {
		if f.ASN == 0 || !slices.Contains(l.ASNs, f.ASN) {
			continue
		}
		names = append(names, l.Name)
		switch l.Kind {
		case risk.KindDatacenter:
			h.IsHostingAsn = true
		case risk.KindVPN:
			h.IsKnownAsVpn = true
		}
	}
	if len(clouds) > 0 {
		h.CloudProvider = slices.Min(clouds)
	}
	if len(hosts) > 0 {
		h.HostingProvider = slices.Min(hosts)
	}
	h.IsBlocklisted = h.BlocklistCount >= risk.BlocklistThreshold

	// Hosting likelihood, as the table in the package documentation says.
	points := 0
	if h.CloudProvider != "" {
		points += 5
	}
	if h.IsKnownAsDatacenter {
		points += 3
	}
	if h.IsHostingAsn {
		points += 3
	}
	if h.IsKnownAsVpn {
		points++
	}
	org := strings.ToLower(f.ASOrganisation)
	for _, w := range []string{"hosting", "datacenter", "data center", "data centre", "cloud", "server", "vps", "colocation", "dedicated"} {
		if strings.Contains(org, w) {
			points += 2
			break
		}
	}
	h.HostingLikelihood = min(points, 10)

	slices.Sort(names)
	if names = slices.Compact(names); len(names) > 0 {
		h.Lists = names
	}
	return h
}

// norm returns r's bounds without zones, unmapped if both are IPv4-mapped.
func norm(r risk.Range) (from, to netip.Addr) {
	from, to = r.From.WithZone(""), r.To.WithZone("")
	if from.Is4In6() && to.Is4In6() {
		from, to = from.Unmap(), to.Unmap()
	}
	return from, to
}

// contains reports whether r holds a, which must be unmapped.
func contains(r risk.Range, a netip.Addr) bool {
	from, to := norm(r)
	return from.BitLen() == a.BitLen() && !a.Less(from) && !to.Less(a)
}

// Equal reports whether two hazard reports are the same. It is reflect.DeepEqual, which is
// many times faster than cmp.Equal, for tests that compare many; use cmp.Diff to show a
// difference.
func Equal(a, b risk.Hazards) bool { return reflect.DeepEqual(a, b) }
