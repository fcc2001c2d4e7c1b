package netinfo

import "net/netip"

// WithinNetworksRef is the slow reference for Within's Networks, TotalNetworks and
// Truncated when p is not inside an announced network: the walk as first written, which
// checks every node with the generic hasBogonsRef and counts every level in full.
func (db *DB) WithinNetworksRef(p netip.Prefix, opt WithinOptions) ([]CIDRItem, int, bool) {
	p = p.Masked()
	if opt.DepthLimit == 0 {
		opt.DepthLimit = DefaultDepthLimit
	}
	budget, truncated := MaxNetworks, false
	children := func(start, end int) ([]CIDRItem, int) {
		var items []CIDRItem
		total := 0
		for k := start; k < end; k = int(db.nodes[k].end) {
			if opt.BogonsOnly && !db.hasBogonsRef(k) {
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

// hasBogonsRef is hasBogons without its fast path for network nodes.
func (db *DB) hasBogonsRef(k int) bool { return db.prefixHasBogons(db.nodePrefix(k)) }

// HasBogonsMatchesRef reports the first node whose hasBogons differs from hasBogonsRef, or -1.
func (db *DB) HasBogonsMatchesRef() int {
	for k := range db.nodes {
		if db.hasBogons(k) != db.hasBogonsRef(k) {
			return k
		}
	}
	return -1
}
