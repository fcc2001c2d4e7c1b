package netinfo

import (
	"errors"
	"fmt"
	"iter"
	"net/netip"
	"sort"
)

// Limits and defaults of Within.
const (
	// DefaultDepthLimit is the depth used when WithinOptions.DepthLimit is zero: the
	// networks directly inside the range, without nesting.
	DefaultDepthLimit = 1
	// MaxDepthLimit is the deepest nesting Within returns.
	MaxDepthLimit = 5
	// MaxSubnetsBatch is the hard limit on subnets per call (the spec's subnetsBatchSize).
	MaxSubnetsBatch = 20
	// MaxNetworks caps the number of CIDRItems one Within call returns, over all levels.
	// Beyond it the result is cut short and CIDRResult.Truncated is set; TotalNetworks
	// still counts every top-level network.
	MaxNetworks = 1000
)

// ErrWithin reports a bad Within request: an invalid prefix or options out of range. Errors
// from Within wrap it.
var ErrWithin = errors.New("netinfo: bad CIDR request")

// Network types in Within results.
const (
	TypeNetwork = "network" // an announced BGP prefix
	TypeRange   = "range"   // a registry block, a piece of bogon space or a requested range, not announced as a whole
)

// WithinOptions are the network-by-cidr parameters. The zero value asks for the defaults.
type WithinOptions struct {
	// DepthLimit is how many levels of networks to return: 1 lists the networks directly
	// inside the range, 2 also their children, and so on. 0 means DefaultDepthLimit; more
	// than MaxDepthLimit is an error.
	DepthLimit int
	// SubnetsOffset is how many subnets to skip; negative is an error.
	SubnetsOffset int
	// SubnetsBatchSize is how many subnets to return. 0 means MaxSubnetsBatch; larger
	// values are cut to MaxSubnetsBatch (the spec's hard limit); negative is an error.
	SubnetsBatchSize int
	// BogonsOnly keeps only bogon networks: in Networks, the items with bogon addresses (all
	// or some: the way down to a bogon range or network inside); in Subnets, the announced
	// bogon networks.
	BogonsOnly bool
}

// CIDRResult answers network-by-cidr for one range.
type CIDRResult struct {
	CIDR netip.Prefix // the requested range, masked
	// Parent is the most specific registry piece or announced network that strictly
	// contains Network.CIDR; zero if none.
	Parent  netip.Prefix
	Network CIDRNetwork
	// Networks lists the networks inside the range, when the range is not within a single
	// announced network; nil otherwise. Ordered by address.
	Networks []CIDRItem
	// TotalNetworks is the number of top-level Networks before the MaxNetworks cap (after
	// BogonsOnly).
	TotalNetworks int
	// Truncated reports whether MaxNetworks cut Networks short.
	Truncated bool
}

// CIDRNetwork is the network covering the requested range: the announced network that
// contains or equals it, or else the range itself.
type CIDRNetwork struct {
	CIDR netip.Prefix
	Type string // TypeNetwork or TypeRange
	// Network holds the facts of CIDR as a whole: registry and bogon flag of the pieces
	// containing all of it; announced facts if it is (inside) an announced network.
	Network
	// TotalSubnets counts the subnets of CIDR: maximal runs of adjacent announced networks
	// with the same organisation and registered country (with BogonsOnly: the announced
	// bogon networks).
	TotalSubnets int
	// Subnets is the requested page of them, in address order.
	Subnets []Subnet
}

// Subnet is one subnetwork of a CIDRNetwork, clipped to it.
type Subnet struct {
	First, Last       netip.Addr
	Organisation      string
	RegisteredCountry string
}

// CIDRItem is one network inside the requested range.
type CIDRItem struct {
	CIDR netip.Prefix
	Type string // TypeNetwork or TypeRange
	// Size is the number of addresses in CIDR; TotalAnnounced the number of them in
	// announced networks.
	Size, TotalAnnounced AddrCount
	// BogonsCount is the number of announced bogon networks within CIDR.
	BogonsCount int
	// DeepCount is the number of levels of networks nested below this one.
	DeepCount int
	Network   Network // facts of CIDR as a whole, as in CIDRNetwork
	// Networks are the networks directly inside this one, when the depth limit allows.
	Networks []CIDRItem
}

// Within answers network-by-cidr for the range p: the network covering it, a page of its
// subnets, and the networks inside it (see the result types). An IPv4-mapped IPv6 prefix of
// length 96 or more is taken as IPv4. The work per call is bounded: subnets are found by
// binary search, at most MaxNetworks items are built, and the remaining top-level networks
// are only counted.
func (db *DB) Within(p netip.Prefix, opt WithinOptions) (CIDRResult, error) {
	if !p.IsValid() || p.Addr().Zone() != "" {
		return CIDRResult{}, fmt.Errorf("%w: invalid prefix %v", ErrWithin, p)
	}
	if p.Addr().Is4In6() {
		if p.Bits() < 96 {
			return CIDRResult{}, fmt.Errorf("%w: %v mixes IPv4-mapped and IPv6 space", ErrWithin, p)
		}
		p = netip.PrefixFrom(p.Addr().Unmap(), p.Bits()-96)
	}
	p = p.Masked()
	switch {
	case opt.DepthLimit < 0 || opt.DepthLimit > MaxDepthLimit:
		return CIDRResult{}, fmt.Errorf("%w: depth limit %d outside 0-%d", ErrWithin, opt.DepthLimit, MaxDepthLimit)
	case opt.SubnetsOffset < 0 || opt.SubnetsBatchSize < 0:
		return CIDRResult{}, fmt.Errorf("%w: negative subnets offset or batch size", ErrWithin)
	}
	if opt.DepthLimit == 0 {
		opt.DepthLimit = DefaultDepthLimit
	}
	if opt.SubnetsBatchSize == 0 || opt.SubnetsBatchSize > MaxSubnetsBatch {
		opt.SubnetsBatchSize = MaxSubnetsBatch
	}

	res := CIDRResult{CIDR: p}
	if q, i, ok := db.netT.LookupPrefixLPM(p); ok {
		res.Network = CIDRNetwork{CIDR: q, Type: TypeNetwork, Network: db.prefixNetwork(q, int(i))}
	} else {
		res.Network = CIDRNetwork{CIDR: p, Type: TypeRange, Network: db.prefixNetwork(p, -1)}
		w := walker{db: db, opt: opt, budget: MaxNetworks}
		start, end := db.nodesWithin(p)
		res.Networks, res.TotalNetworks = w.tree(start, end)
		res.Truncated = w.truncated
	}
	res.Parent = db.parent(res.Network.CIDR)
	db.subnets(&res.Network, opt)
	return res, nil
}

// prefixNetwork returns the facts of prefix p as a whole; net is the announced network
// containing p, or -1. A fact holds for p only if it holds for every address of p: the
// piece containing p answers unless more specific pieces inside p contradict it. A free
// registry piece (available, reserved) does not describe a range in which some block is
// registered (IANA's "Global Unicast" 2000::/3 around the blocks it allocated), and a range
// is bogon only if no non-bogon piece lies inside it.
func (db *DB) prefixNetwork(p netip.Prefix, net int) Network {
	var n Network
	if i, ok := db.regT.LookupPrefix(p); ok {
		a, b := insideRange(len(db.regs), func(k int) (u128, uint8, bool) { r := &db.regs[k]; return r.v, r.bits, r.is4 }, p)
		if db.cumUsed[i+1] > db.cumUsed[i] || db.cumUsed[b] == db.cumUsed[a] {
			r := &db.regs[i]
			n.Registry, n.RegistryStatus, n.RegisteredCountry = db.strs[r.registry], db.strs[r.status], db.strs[r.country]
		}
	}
	n.IsBogon = db.prefixIsBogon(p)
	if net >= 0 {
		db.fillNet(&n, net)
	} else {
		// Reachable as a network is (fillNet): announced and not wholly bogon; a range
		// is announced when the networks inside it cover every address.
		n.IsReachableGlobally = !n.IsBogon && db.coveredByNets(p)
	}
	return n
}

// coveredByNets reports whether the announced networks inside p cover every address of p.
// The networks do not overlap (Decode refuses them otherwise), so they cover p exactly when
// their addresses add up to p's: one subtraction of the running counts.
func (db *DB) coveredByNets(p netip.Prefix) bool {
	a, b := db.netsWithin(p)
	return db.announced(a, b) == PrefixSize(p)
}

// prefixIsBogon reports whether every address of p is bogon: the piece containing p is
// bogon and no non-bogon piece lies inside p.
func (db *DB) prefixIsBogon(p netip.Prefix) bool {
	if b, _ := db.bogT.LookupPrefix(p); !b {
		return false
	}
	a, b := insideRange(len(db.notBog), func(k int) (u128, uint8, bool) { x := &db.notBog[k]; return x.v, x.bits, x.is4 }, p)
	return a == b
}

// insideRange returns the index range [a, b) of the prefixes strictly inside p among n
// prefixes in prefix order (IPv4 first, then by address, shorter first); key gives the k-th.
func insideRange(n int, key func(int) (u128, uint8, bool), p netip.Prefix) (int, int) {
	is4, first, last, bits := p.Addr().Is4(), u128Of(p.Addr()), lastOf(p), uint8(p.Bits())
	a := sort.Search(n, func(k int) bool {
		v, b, k4 := key(k)
		if k4 != is4 {
			return !k4
		}
		c := v.cmp(first)
		return c > 0 || c == 0 && b > bits
	})
	b := a + sort.Search(n-a, func(k int) bool {
		v, _, k4 := key(a + k)
		return k4 != is4 || v.cmp(last) > 0
	})
	return a, b
}

// parent returns the most specific registry piece or network strictly containing q.
func (db *DB) parent(q netip.Prefix) netip.Prefix {
	if q.Bits() == 0 {
		return netip.Prefix{}
	}
	up := netip.PrefixFrom(q.Addr(), q.Bits()-1).Masked()
	var best netip.Prefix
	if lp, _, ok := db.regT.LookupPrefixLPM(up); ok {
		best = lp
	}
	if lp, _, ok := db.netT.LookupPrefixLPM(up); ok && (!best.IsValid() || lp.Bits() > best.Bits()) {
		best = lp
	}
	return best
}

// netsWithin returns the index range of the networks inside prefix p. A network that
// contains p is not inside it.
func (db *DB) netsWithin(p netip.Prefix) (int, int) {
	is4 := p.Addr().Is4()
	lo, hi := 0, db.n4
	if !is4 {
		lo, hi = db.n4, len(db.nets)
	}
	first, last := u128Of(p.Addr()), lastOf(p)
	a := lo + sort.Search(hi-lo, func(k int) bool { return db.nets[lo+k].v.cmp(first) >= 0 })
	b := a + sort.Search(hi-a, func(k int) bool { return db.nets[a+k].v.cmp(last) > 0 })
	return a, b
}

// nodesWithin returns the index range of the nodes strictly inside prefix p.
func (db *DB) nodesWithin(p netip.Prefix) (int, int) {
	is4 := p.Addr().Is4()
	lo, hi := 0, db.n4nodes
	if !is4 {
		lo, hi = db.n4nodes, len(db.nodes)
	}
	first, last, bits := u128Of(p.Addr()), lastOf(p), uint8(p.Bits())
	a := lo + sort.Search(hi-lo, func(k int) bool {
		v, b, _ := db.nodeKey(lo + k)
		c := v.cmp(first)
		return c > 0 || c == 0 && b >= bits
	})
	if a < hi {
		if v, b, _ := db.nodeKey(a); v == first && b == bits {
			return a + 1, int(db.nodes[a].end) // p is itself a node: its descendants
		}
	}
	b := a + sort.Search(hi-a, func(k int) bool {
		v, _, _ := db.nodeKey(a + k)
		return v.cmp(last) > 0
	})
	return a, b
}

// announced returns the number of addresses of networks [a, b).
func (db *DB) announced(a, b int) AddrCount {
	switch {
	case a >= b:
		return AddrCount{}
	case b == a+1:
		return PrefixSize(db.nets[a].prefix()) // exact even for ::/0
	case db.nets[a].is4:
		return countOf(u128{0, db.cum4[b] - db.cum4[a]})
	}
	return countOf(db.cum6[b-db.n4].sub(db.cum6[a-db.n4]))
}

// walker builds the Networks tree within a budget, breadth first, so that a cut keeps
// the upper levels whole.
type walker struct {
	db        *DB
	opt       WithinOptions
	budget    int
	truncated bool
}

// tree returns the items for the top-level nodes of [start, end) and, while the depth limit
// and the budget allow, their descendants; and the number of top-level items.
func (w *walker) tree(start, end int) ([]CIDRItem, int) {
	type pending struct {
		item  *CIDRItem
		node  int
		depth int
	}
	top, total := w.children(start, end, true)
	var queue []pending
	for i := range top {
		queue = append(queue, pending{&top[i], w.db.nodeOf(top[i].CIDR, start), 1})
	}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p.depth >= w.opt.DepthLimit {
			continue
		}
		p.item.Networks, _ = w.children(p.node+1, int(w.db.nodes[p.node].end), false)
		for i := range p.item.Networks {
			queue = append(queue, pending{&p.item.Networks[i], w.db.nodeOf(p.item.Networks[i].CIDR, p.node+1), p.depth + 1})
		}
	}
	return top, total
}

// children returns the items for the top-level nodes of [start, end), as many as the
// budget allows, and, when count is set, how many there are (after the BogonsOnly filter).
// Without count it stops at the first node the budget cannot take: only the top level's
// total is answered, and one dropped node is enough to know the tree was cut. Counting a
// nested level past the budget cost a range such as ::/0 with depthLimit 5 and bogonsOnly
// 41 ms, a BogonsOnly check for each of its nodes' children.
func (w *walker) children(start, end int, count bool) ([]CIDRItem, int) {
	if !count && w.budget == 0 && w.truncated {
		return nil, 0
	}
	var items []CIDRItem
	total := 0
	for k := start; k < end; k = int(w.db.nodes[k].end) {
		if w.opt.BogonsOnly && !w.db.hasBogons(k) {
			continue
		}
		total++
		if w.budget == 0 {
			w.truncated = true
			if !count {
				break
			}
			continue
		}
		w.budget--
		items = append(items, w.db.item(k))
	}
	return items, total
}

// nodeOf returns the index of the node with prefix p, searching from index start.
func (db *DB) nodeOf(p netip.Prefix, start int) int {
	v, b := u128Of(p.Addr()), uint8(p.Bits())
	return start + sort.Search(len(db.nodes)-start, func(k int) bool {
		kv, kb, k4 := db.nodeKey(start + k)
		if k4 != p.Addr().Is4() {
			return !k4
		}
		c := kv.cmp(v)
		return c > 0 || c == 0 && kb >= b
	})
}

func (db *DB) nodePrefix(k int) netip.Prefix {
	v, b, is4 := db.nodeKey(k)
	return netip.PrefixFrom(v.addr(is4), int(b))
}

// hasBogons reports whether some address of node k is bogon (so also whether it holds an
// announced bogon network): the BogonsOnly filter, which keeps the way down to every bogon.
func (db *DB) hasBogons(k int) bool { return db.nodes[k].hasBogons }

// item builds the CIDRItem of node k, without its children.
func (db *DB) item(k int) CIDRItem {
	p := db.nodePrefix(k)
	nd := &db.nodes[k]
	it := CIDRItem{CIDR: p, Type: TypeRange, Size: PrefixSize(p), DeepCount: int(nd.height)}
	net := -1
	if i, ok := db.netT.LookupPrefix(p); ok {
		net = int(i) // p is, or is inside, an announced network
		it.TotalAnnounced = it.Size
		if db.nets[i].bogon {
			it.BogonsCount = 1
		}
		if nd.net >= 0 {
			it.Type = TypeNetwork
		}
	} else {
		a, b := db.netsWithin(p)
		it.TotalAnnounced = db.announced(a, b)
		it.BogonsCount = int(db.cumBog[b] - db.cumBog[a])
	}
	it.Network = db.prefixNetwork(p, net)
	return it
}

// subnets fills n's subnet count and page.
func (db *DB) subnets(n *CIDRNetwork, opt WithinOptions) {
	a, b := db.netsWithin(n.CIDR)
	if a >= b {
		if i, ok := db.netT.LookupPrefix(n.CIDR); ok { // CIDR lies inside network i
			a, b = int(i), int(i)+1
		}
	}
	if a >= b {
		return
	}
	first, last := u128Of(n.CIDR.Addr()), lastOf(n.CIDR)
	is4 := n.CIDR.Addr().Is4()
	clip := func(lo, hi int) Subnet {
		s, e := db.nets[lo].v, db.nets[hi-1].last()
		if s.cmp(first) < 0 {
			s = first
		}
		if e.cmp(last) > 0 {
			e = last
		}
		x := &db.nets[lo]
		return Subnet{First: s.addr(is4), Last: e.addr(is4), Organisation: db.strs[x.org], RegisteredCountry: db.strs[x.country]}
	}
	if opt.BogonsOnly {
		sa := sort.Search(len(db.bogNets), func(k int) bool { return int(db.bogNets[k]) >= a })
		sb := sort.Search(len(db.bogNets), func(k int) bool { return int(db.bogNets[k]) >= b })
		n.TotalSubnets = sb - sa
		for k := range page(n.TotalSubnets, opt) {
			i := int(db.bogNets[sa+k])
			n.Subnets = append(n.Subnets, clip(i, i+1))
		}
		return
	}
	// Runs are found by their first network: the run holding network a starts at or
	// before a.
	sa := sort.Search(len(db.segs), func(k int) bool { return int(db.segs[k]) > a }) - 1
	sb := sort.Search(len(db.segs), func(k int) bool { return int(db.segs[k]) > b-1 }) - 1
	n.TotalSubnets = sb - sa + 1
	for k := range page(n.TotalSubnets, opt) {
		k += sa
		lo, hi := int(db.segs[k]), len(db.nets)
		if k+1 < len(db.segs) {
			hi = int(db.segs[k+1])
		}
		n.Subnets = append(n.Subnets, clip(max(lo, a), min(hi, b)))
	}
}

// page returns the indexes, relative to the first subnet, of the requested page of total
// subnets.
func page(total int, opt WithinOptions) iter.Seq[int] {
	return func(yield func(int) bool) {
		if opt.SubnetsOffset >= total {
			return
		}
		end := opt.SubnetsOffset + min(opt.SubnetsBatchSize, total-opt.SubnetsOffset)
		for k := opt.SubnetsOffset; k < end; k++ {
			if !yield(k) {
				return
			}
		}
	}
}
