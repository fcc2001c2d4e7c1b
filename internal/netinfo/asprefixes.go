package netinfo

import "sort"

// PrefixSort is an order of an AS's prefixes (ASPrefixes).
type PrefixSort uint8

const (
	// PrefixByAddress orders by network address; networks do not overlap, so there are no
	// ties.
	PrefixByAddress PrefixSort = iota
	// PrefixBySize orders by the number of addresses, fewest first (the longest prefix
	// first); ties by address, ascending in both directions.
	PrefixBySize
)

// PrefixOptions select and page an AS's prefixes. The zero value asks for none of its
// IPv4 prefixes (Limit 0); the API's defaults live in the API.
type PrefixOptions struct {
	IPv6       bool // the IPv6 prefixes; else the IPv4 ones
	BogonsOnly bool // only the networks that are bogon as a whole (Network.IsBogon)
	Sort       PrefixSort
	Desc       bool
	Offset     int // how many to skip
	Limit      int // the most to return
}

// ASPrefixes returns a page of the announced networks asn is a carrier of, in one family,
// as opt asks, and how many match before paging. Each is described as a whole, as
// network-by-cidr describes an announced network inside a range: registry facts that hold
// for the entire prefix, its bogon flag, organisation, carriers and via carriers. An AS
// without networks or without a record has none. Only the page is allocated (and, for
// bogonsOnly or PrefixBySize, a list of the AS's matching networks), so the cost grows
// with the AS's prefixes in the family, not with the whole table.
func (db *DB) ASPrefixes(asn uint32, opt PrefixOptions) (page []Network, total int) {
	i, ok := db.asIndex(asn)
	if !ok {
		return nil, 0
	}
	list := db.asNets[db.netOff[i]:db.netOff[i+1]]
	split := sort.Search(len(list), func(k int) bool { return !db.nets[list[k]].is4 })
	if opt.IPv6 {
		list = list[split:]
	} else {
		list = list[:split]
	}
	if opt.BogonsOnly {
		var kept []uint32
		for _, x := range list {
			if db.nets[x].bogon {
				kept = append(kept, x)
			}
		}
		list = kept
	}
	total = len(list)
	if opt.Offset < 0 || opt.Offset >= total || opt.Limit <= 0 {
		return nil, total
	}
	backwards := opt.Desc
	if opt.Sort == PrefixBySize {
		list, backwards = db.bySize(list, opt.Desc), false
	}
	n := min(opt.Limit, total-opt.Offset)
	page = make([]Network, n)
	for k := range page {
		at := opt.Offset + k
		if backwards {
			at = total - 1 - at
		}
		x := int(list[at])
		page[k] = db.prefixNetwork(db.nets[x].prefix(), x)
	}
	return page, total
}

// bySize returns list (networks of one family in address order) ordered by size, fewest
// addresses first or, with desc, most first; ties keep address order. A counting sort on
// the prefix length: linear in the list.
func (db *DB) bySize(list []uint32, desc bool) []uint32 {
	var count, at [129]int // by prefix length
	for _, x := range list {
		count[db.nets[x].bits]++
	}
	pos := 0
	for k := range 129 {
		b := 128 - k // fewest addresses first: the longest prefix first
		if desc {
			b = k
		}
		at[b] = pos
		pos += count[b]
	}
	out := make([]uint32, len(list))
	for _, x := range list {
		b := db.nets[x].bits
		out[at[b]] = x
		at[b]++
	}
	return out
}
