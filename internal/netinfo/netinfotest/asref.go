package netinfotest

import (
	"bytes"
	"net/netip"
	"slices"
	"sort"

	"github.com/ipatlas/ipatlas/internal/netinfo"
)

// The references here answer the AS-outward questions (receiving-from, the rank list, an
// AS's prefixes) by scanning every AS or every network and sorting afresh, with the rules
// of the netinfo documentation written out literally: no index, no precomputed order.

// ReceivingFrom returns the ASes among ases whose TransitTo holds asn, found by scanning
// every one, ordered as transit lists are: by rank, unranked last, then by ASN.
func ReceivingFrom(ases []netinfo.ASInfo, asn uint32) []uint32 {
	type entry struct{ asn, rank uint32 }
	var found []entry
	for _, a := range ases {
		if slices.Contains(a.TransitTo, asn) {
			r := uint32(a.Rank)
			if r == 0 {
				r = ^uint32(0)
			}
			found = append(found, entry{a.ASN, r})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].rank != found[j].rank {
			return found[i].rank < found[j].rank
		}
		return found[i].asn < found[j].asn
	})
	var out []uint32
	for _, e := range found {
		out = append(out, e.asn)
	}
	return out
}

// RankList returns every ranked AS among ases in the order s and direction netinfo.RankSort
// documents, sorted afresh.
func RankList(ases []netinfo.ASInfo, s netinfo.RankSort, desc bool) []uint32 {
	var ranked []netinfo.ASInfo
	for _, a := range ases {
		if a.Rank > 0 {
			ranked = append(ranked, a)
		}
	}
	sort.Slice(ranked, func(i, j int) bool { return ranked[i].Rank < ranked[j].Rank })
	var key func(netinfo.ASInfo) string
	switch s {
	case netinfo.RankByASN:
		sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].ASN < ranked[j].ASN })
	case netinfo.RankByOrganisation:
		key = func(a netinfo.ASInfo) string { return a.Organisation }
	case netinfo.RankByCountry:
		key = func(a netinfo.ASInfo) string { return a.RegisteredCountry }
	}
	if key != nil {
		// Stable over the rank order, so ties stay by rank; empty keys last either way.
		sort.SliceStable(ranked, func(i, j int) bool {
			ki, kj := key(ranked[i]), key(ranked[j])
			if (ki == "") != (kj == "") {
				return kj == ""
			}
			fi, fj := foldASCII(ki), foldASCII(kj)
			if fi == fj {
				fi, fj = ki, kj
			}
			if desc {
				return fi > fj
			}
			return fi < fj
		})
	} else if desc {
		slices.Reverse(ranked)
	}
	var out []uint32
	for _, a := range ranked {
		out = append(out, a.ASN)
	}
	return out
}

// foldASCII returns s with its ASCII capital letters in lower case, every other byte kept.
func foldASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// ASNetworks returns the networks among nets (every announced network) that asn is a
// carrier of, found by scanning every one.
func ASNetworks(nets []netinfo.Network, asn uint32) []netinfo.Network {
	var out []netinfo.Network
	for _, n := range nets {
		if slices.Contains(n.Carriers, asn) {
			out = append(out, n)
		}
	}
	return out
}

// SelectPrefixes returns the prefixes of mine (one AS's networks, ASNetworks) that opt
// selects, in its order, unpaged: opt.Offset and opt.Limit are the caller's to apply.
func SelectPrefixes(mine []netinfo.Network, opt netinfo.PrefixOptions) []netip.Prefix {
	var out []netip.Prefix
	for _, n := range mine {
		if n.BGPPrefix.Addr().Is6() == opt.IPv6 && (!opt.BogonsOnly || n.IsBogon) {
			out = append(out, n.BGPPrefix)
		}
	}
	byAddr := func(a, b netip.Prefix) bool { return bytes.Compare(a.Addr().AsSlice(), b.Addr().AsSlice()) < 0 }
	sort.Slice(out, func(i, j int) bool { return byAddr(out[i], out[j]) })
	switch {
	case opt.Sort == netinfo.PrefixBySize:
		// More bits, fewer addresses; ties stay in address order.
		sort.SliceStable(out, func(i, j int) bool {
			if opt.Desc {
				return out[i].Bits() < out[j].Bits()
			}
			return out[i].Bits() > out[j].Bits()
		})
	case opt.Desc:
		slices.Reverse(out)
	}
	return out
}
