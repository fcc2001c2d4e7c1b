package netinfo

import (
	"iter"
	"net/netip"
)

// WithinNetworksRef is the slow reference for Within's Networks, TotalNetworks and
// Truncated when p is not inside an announced network: the walk as first written, which
// asks hasBogons (the caller's slow reference) of every node and counts every level in
// full.
func (db *DB) WithinNetworksRef(p netip.Prefix, opt WithinOptions, hasBogons func(netip.Prefix) bool) ([]CIDRItem, int, bool) {
	p = p.Masked()
	if opt.DepthLimit == 0 {
		opt.DepthLimit = DefaultDepthLimit
	}
	budget, truncated := MaxNetworks, false
	children := func(start, end int) ([]CIDRItem, int) {
		var items []CIDRItem
		total := 0
		for k := start; k < end; k = int(db.nodes[k].end) {
			if opt.BogonsOnly && !hasBogons(db.nodePrefix(k)) {
				continue
			}
			total++
			if budget == 0 {
				truncated = true
				continue
			}
			budget--
			items = append(items, db.item(k))
		}
		return items, total
	}
	type pending struct {
		item        *CIDRItem
		node, depth int
	}
	start, end := db.nodesWithin(p)
	top, total := children(start, end)
	var queue []pending
	for i := range top {
		queue = append(queue, pending{&top[i], db.nodeOf(top[i].CIDR, start), 1})
	}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if q.depth >= opt.DepthLimit {
			continue
		}
		q.item.Networks, _ = children(q.node+1, int(db.nodes[q.node].end))
		for i := range q.item.Networks {
			queue = append(queue, pending{&q.item.Networks[i], db.nodeOf(q.item.Networks[i].CIDR, q.node+1), q.depth + 1})
		}
	}
	return top, total, truncated
}

// NodeBogons yields every node's prefix and its BogonsOnly flag, in node order.
func (db *DB) NodeBogons() iter.Seq2[netip.Prefix, bool] {
	return func(yield func(netip.Prefix, bool) bool) {
		for k := range db.nodes {
			if !yield(db.nodePrefix(k), db.hasBogons(k)) {
				return
			}
		}
	}
}

// AllASes returns every AS record, in ASN order, as AS answers for it.
func (db *DB) AllASes() []ASInfo {
	out := make([]ASInfo, 0, len(db.asns))
	for _, asn := range db.asns {
		info, _ := db.AS(asn)
		out = append(out, info)
	}
	return out
}

// AllNetworks returns every announced network, in table order, described as a whole.
func (db *DB) AllNetworks() []Network {
	out := make([]Network, 0, len(db.nets))
	for x := range db.nets {
		out = append(out, db.prefixNetwork(db.nets[x].prefix(), x))
	}
	return out
}

// BuildASIndexes builds the AS-outward indexes again, for BenchmarkRealASIndexes.
func (db *DB) BuildASIndexes() { db.asIndexes() }
