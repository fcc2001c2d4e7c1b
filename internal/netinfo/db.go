package netinfo

import (
	"cmp"
	"fmt"
	"net/netip"
	"slices"

	"github.com/gaissmai/bart"
)

// DB is the decoded, immutable netinfo section (but for Space's counts, worked out once on
// first use). It is safe for concurrent use. Build one with Decode; the zero value is not
// usable.
type DB struct {
	sources Sources
	strs    []string // string table; every string is a slice of one copy of the section

	regs []regRec            // registry pieces, in prefix order
	regT *bart.Table[uint32] // prefix → index in regs
	bogT *bart.Table[bool]   // prefix → bogon flag
	nBog int                 // bogon pieces
	nets []netRec            // announced networks, IPv4 then IPv6, ascending
	n4   int                 // number of IPv4 networks
	netT *bart.Table[uint32] // prefix → index in nets
	v4   table4              // the three tries flattened for IPv4 Lookup
	pool []uint32            // carriers and via carriers of nets

	asns    []uint32 // ascending
	ases    []asRec  // parallel to asns
	transit []uint32 // transit lists, each ordered by rank
	ranked  int

	// Derived at Decode (asindex.go): the transit lists inverted (recvOff parallel to ases,
	// one more), the ranked ASes in each RankList order (indexes in ases; [1] the
	// descending order where it is not [0] backwards), and each AS's announced networks
	// (netOff parallel to ases, one more; indexes in nets).
	recvOff []uint32
	recv    []uint32
	orders  [numRankSorts][2][]uint32
	netOff  []uint32
	asNets  []uint32

	// Indexes for Within.
	cum4    []uint64   // cum4[i] = addresses in nets[:i], i <= n4
	cum6    []u128     // cum6[i] = addresses in nets[n4:n4+i]
	cumBog  []uint32   // cumBog[i] = bogon networks in nets[:i]
	segs    []uint32   // first network of each subnet run, ascending
	bogNets []uint32   // indexes of bogon networks, ascending
	nodes   []node     // registry pieces, networks and bogon pieces in prefix (pre-)order
	bogs    []bogonRec // the bogon pieces (bogon set), in prefix order
	n4nodes int        // number of IPv4 nodes
	// For the facts of a range as a whole (prefixNetwork): cumUsed[i] counts the registry
	// pieces in regs[:i] with a used status (allocated, assigned, legacy); notBog holds the
	// non-bogon pieces, in prefix order.
	cumUsed []uint32
	notBog  []bogonRec

	spaces [2]spaceOnce // IPv4, IPv6: Space, worked out on first use
}

// node is one prefix of the hierarchy Within walks: a registry piece, an announced
// network, a piece of bogon space, or several of them when they coincide. Bogon pieces are
// nodes so that free space the registry files do not name as such (Team Cymru's full
// bogons inside a block a registry lists as legacy) is listed where network-by-ip calls
// its addresses bogons.
type node struct {
	net, reg, bog int32  // indexes in DB.nets, DB.regs and DB.bogs, -1 if none
	end           uint32 // index after the node's last descendant
	height        uint8  // levels of descendants below the node
	// hasBogons: some address of the node is bogon (the BogonsOnly filter).
	hasBogons bool
}

// Decode parses and validates a netinfo section written by Encode and returns the DB that
// serves it, with its lookup tables built. It never panics: anything malformed is an error
// wrapping ErrFormat. The DB keeps one copy of b's bytes; the caller may reuse b afterwards.
func Decode(b []byte) (*DB, error) {
	r, err := decode(string(b)) // the one copy; every decoded string is a substring of it
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return newDB(r), nil
}

func newDB(r *raw) *DB {
	db := &DB{
		sources: r.sources, strs: r.strs, regs: r.regs, nets: r.nets, pool: r.pool,
		asns: r.asns, ases: r.ases, transit: r.transit, nBog: len(r.bogons),
		regT: new(bart.Table[uint32]), bogT: new(bart.Table[bool]), netT: new(bart.Table[uint32]),
	}
	db.cumUsed = make([]uint32, len(db.regs)+1)
	for i := range db.regs {
		db.regT.Insert(db.regs[i].prefix(), uint32(i))
		db.cumUsed[i+1] = db.cumUsed[i]
		if InUse(db.strs[db.regs[i].status]) {
			db.cumUsed[i+1]++
		}
	}
	for _, b := range r.bogons {
		db.bogT.Insert(netip.PrefixFrom(b.v.addr(b.is4), int(b.bits)), b.bogon)
		if b.bogon {
			db.bogs = append(db.bogs, b)
		} else {
			db.notBog = append(db.notBog, b)
		}
	}
	for i := range db.nets {
		n := &db.nets[i]
		p := n.prefix()
		db.netT.Insert(p, uint32(i))
		if n.is4 {
			db.n4++
		}
		// As for any range: bogon only if every address is, so that the counts and the
		// bogonsOnly filter agree with what network-by-ip says of the addresses.
		n.bogon = db.prefixIsBogon(p)
	}
	db.v4 = newTable4(db, r.bogons)
	db.asStats()
	db.asIndexes()
	db.withinIndexes()
	return db
}

// asStats computes every AS's counts from the networks it originates, ranks the ASes by
// announced IPv4 addresses and orders each transit list by rank.
func (db *DB) asStats() {
	for i := range db.nets {
		n := &db.nets[i]
		for _, a := range db.pool[n.pool : n.pool+uint32(n.nCarr)] {
			j, ok := slices.BinarySearch(db.asns, a)
			if !ok {
				continue // Encode records every carrier; a hand-made section may not
			}
			s := &db.ases[j]
			switch {
			case n.is4:
				s.v4Addrs += 1 << (32 - n.bits)
				s.v4Prefixes++
				if n.bogon {
					s.v4Bogons++
				}
			default:
				s.v6Prefixes++
				if n.bogon {
					s.v6Bogons++
				}
			}
		}
	}
	order := make([]int, 0, len(db.ases))
	for i := range db.ases {
		if db.ases[i].v4Addrs > 0 {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(db.ases[b].v4Addrs, db.ases[a].v4Addrs), cmp.Compare(db.asns[a], db.asns[b]))
	})
	for rank, i := range order {
		db.ases[i].rank = uint32(rank + 1)
	}
	db.ranked = len(order)

	for i := range db.ases {
		slices.SortFunc(db.transitOf(i), db.byRankThenASN)
	}
}

// withinIndexes builds the sorted indexes Within answers from in bounded time.
func (db *DB) withinIndexes() {
	n := len(db.nets)
	db.cum4 = make([]uint64, db.n4+1)
	db.cum6 = make([]u128, n-db.n4+1)
	db.cumBog = make([]uint32, n+1)
	for i := range db.nets {
		x := &db.nets[i]
		if x.is4 {
			db.cum4[i+1] = db.cum4[i] + 1<<(32-x.bits)
		} else {
			j := i - db.n4
			if x.bits == 0 {
				db.cum6[j+1] = db.cum6[j] // 2**128 does not fit; see announced
			} else {
				db.cum6[j+1] = db.cum6[j].add(pow2(128 - int(x.bits)))
			}
		}
		db.cumBog[i+1] = db.cumBog[i]
		if x.bogon {
			db.cumBog[i+1]++
			db.bogNets = append(db.bogNets, uint32(i))
		}
		if i == 0 || !db.sameRun(i-1, i) {
			db.segs = append(db.segs, uint32(i))
		}
	}

	// Merge the registry pieces, the networks and the bogon pieces, each in prefix order,
	// into the nodes; a prefix in more than one list is one node.
	db.nodes = make([]node, 0, len(db.regs)+n+len(db.bogs))
	ri, ni, bi := 0, 0, 0
	for ri < len(db.regs) || ni < n || bi < len(db.bogs) {
		var rp, np, bp netip.Prefix // invalid once the list is used up
		if ri < len(db.regs) {
			rp = db.regs[ri].prefix()
		}
		if ni < n {
			np = db.nets[ni].prefix()
		}
		if bi < len(db.bogs) {
			bp = db.bogs[bi].prefix()
		}
		next := rp
		for _, p := range []netip.Prefix{np, bp} {
			if p.IsValid() && (!next.IsValid() || comparePrefixes(p, next) < 0) {
				next = p
			}
		}
		nd := node{net: -1, reg: -1, bog: -1}
		if rp == next {
			nd.reg = int32(ri)
			ri++
		}
		if np == next {
			nd.net = int32(ni)
			ni++
		}
		if bp == next {
			nd.bog = int32(bi)
			bi++
		}
		db.nodes = append(db.nodes, nd)
	}
	for i := range db.nodes {
		if _, _, is4 := db.nodeKey(i); is4 {
			db.n4nodes++
		}
	}
	for k := range db.nodes {
		db.nodes[k].hasBogons = db.ownBogons(k)
	}
	// Subtree ends, heights and bogon flags, with a stack of the open ancestors.
	var stack []int
	closeTop := func(end int) {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		db.nodes[top].end = uint32(end)
		if len(stack) > 0 {
			p := &db.nodes[stack[len(stack)-1]]
			p.height = max(p.height, db.nodes[top].height+1)
			p.hasBogons = p.hasBogons || db.nodes[top].hasBogons
		}
	}
	for i := range db.nodes {
		v, _, is4 := db.nodeKey(i)
		for len(stack) > 0 {
			top := stack[len(stack)-1]
			tv, tb, tis4 := db.nodeKey(top)
			if tis4 == is4 && v.cmp(tv.or(hostMask(width(is4)-int(tb)))) <= 0 {
				break // i lies inside top (pre-order: it cannot start before top)
			}
			closeTop(i)
		}
		stack = append(stack, i)
	}
	for len(stack) > 0 {
		closeTop(len(db.nodes))
	}
}

// sameRun reports whether networks i and j=i+1 belong to one subnet run: the same family,
// adjacent, with the same organisation and country.
func (db *DB) sameRun(i, j int) bool {
	a, b := &db.nets[i], &db.nets[j]
	return a.is4 == b.is4 && a.org == b.org && a.country == b.country && a.last().add(u128{0, 1}) == b.v
}

// nodeKey returns node i's prefix as (address, length, family).
func (db *DB) nodeKey(i int) (u128, uint8, bool) {
	nd := &db.nodes[i]
	switch {
	case nd.reg >= 0:
		r := &db.regs[nd.reg]
		return r.v, r.bits, r.is4
	case nd.net >= 0:
		x := &db.nets[nd.net]
		return x.v, x.bits, x.is4
	}
	b := &db.bogs[nd.bog]
	return b.v, b.bits, b.is4
}

// ownBogons reports whether some address of node k is bogon, leaving aside the bogon
// pieces inside it, which are nodes of their own (withinIndexes adds theirs). An announced
// bogon network is bogon throughout, so this also finds those.
func (db *DB) ownBogons(k int) bool {
	// The piece of the bogon set holding the prefix speaks for its addresses that no piece
	// inside speaks for; non-bogon pieces inside leave some of them unless they fill it.
	p := db.nodePrefix(k)
	b, _ := db.bogT.LookupPrefix(p)
	return b && !db.filledByNotBogons(p)
}

// filledByNotBogons reports whether the non-bogon pieces strictly inside p cover all of p.
func (db *DB) filledByNotBogons(p netip.Prefix) bool {
	a, b := insideRange(len(db.notBog), func(k int) (u128, uint8, bool) { x := &db.notBog[k]; return x.v, x.bits, x.is4 }, p)
	next, last := u128Of(p.Addr()), lastOf(p)
	for k := a; k < b; {
		x := &db.notBog[k]
		if x.v != next {
			return false // a gap before this piece
		}
		end := x.v.or(hostMask(width(x.is4) - int(x.bits)))
		if end == last {
			return true
		}
		next = end.add(u128{0, 1})
		for k < b && db.notBog[k].v.cmp(end) <= 0 {
			k++ // the pieces inside this one
		}
	}
	return false
}

// Lookup returns what the DB knows about address a; IPv4-mapped IPv6 addresses are looked up
// as IPv4 and zones are ignored. It reports false for an invalid address and for one about
// which the DB knows nothing. Lookup does not allocate; the returned slices are read-only.
func (db *DB) Lookup(a netip.Addr) (Network, bool) {
	if !a.IsValid() {
		return Network{}, false
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		b := a.As4()
		return db.fromLeaf(db.v4.find(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])))
	}
	return db.fromLeaf(db.trieLeaf(a))
}

// fromLeaf is Lookup's answer from the three tries' answers packed in v.
func (db *DB) fromLeaf(v leaf4) (Network, bool) {
	var n Network
	i, hasReg := v.reg()
	if hasReg {
		db.fillReg(&n, i)
	}
	bogon, hasBogon := v.bogon()
	n.IsBogon = bogon
	j, hasNet := v.net()
	if hasNet {
		db.fillNet(&n, j)
	}
	return n, hasReg || hasBogon || hasNet
}

// fillReg sets n's registry facts from registry piece i.
func (db *DB) fillReg(n *Network, i int) {
	r := &db.regs[i]
	n.Registry, n.RegistryStatus, n.RegisteredCountry = db.strs[r.registry], db.strs[r.status], db.strs[r.country]
}

// fillNet sets n's announced facts from network i. n's bogon flag must already be set.
func (db *DB) fillNet(n *Network, i int) {
	x := &db.nets[i]
	n.Organisation = db.strs[x.org]
	n.BGPPrefix = x.prefix()
	n.IsReachableGlobally = !n.IsBogon
	// The network's own country (the geolocation data's registered country) stands in for a
	// registry block without one only where the block is someone's (Registered): available
	// or reserved space, IANA's own blocks, and bogons, are registered to nobody, whatever an
	// older record says; a range whose pieces differ (prefixNetwork leaves its status empty)
	// is not known to be.
	if n.RegisteredCountry == "" && !n.IsBogon && Registered(n.Registry, n.RegistryStatus) {
		n.RegisteredCountry = db.strs[x.country]
	}
	if x.nCarr > 0 {
		end := x.pool + uint32(x.nCarr)
		n.Carriers = db.pool[x.pool:end:end]
	}
	if x.nVia > 0 {
		start := x.pool + uint32(x.nCarr)
		end := start + uint32(x.nVia)
		n.ViaCarriers = db.pool[start:end:end]
	}
}

// AS returns what the DB knows about an AS, and whether it has a record of it: every AS
// that originates a network, appears on an AS path, or is named by a registry or names
// source. AS does not allocate; TransitTo and ReceivingFrom are read-only.
func (db *DB) AS(asn uint32) (ASInfo, bool) {
	i, ok := db.asIndex(asn)
	if !ok {
		return ASInfo{}, false
	}
	a := &db.ases[i]
	info := ASInfo{
		ASN:                    asn,
		Organisation:           db.strs[a.org],
		Name:                   db.strs[a.name],
		Registry:               db.strs[a.registry],
		RegisteredCountry:      db.strs[a.country],
		RegistrationDate:       db.strs[a.date],
		RegistrationLastChange: db.strs[a.lastChange],
		TotalIPv4Addresses:     a.v4Addrs,
		TotalIPv4Prefixes:      int(a.v4Prefixes),
		TotalIPv4BogonPrefixes: int(a.v4Bogons),
		TotalIPv6Prefixes:      int(a.v6Prefixes),
		TotalIPv6BogonPrefixes: int(a.v6Bogons),
		Rank:                   int(a.rank),
	}
	if a.transitN > 0 {
		end := a.transitOff + a.transitN
		info.TransitTo = db.transit[a.transitOff:end:end]
	}
	if r := db.receivingFrom(i); len(r) > 0 {
		info.ReceivingFrom = r
	}
	return info, true
}

// asIndex returns asn's index in asns and ases.
func (db *DB) asIndex(asn uint32) (int, bool) { return slices.BinarySearch(db.asns, asn) }

// RankedASes returns the number of ranked ASes (those announcing IPv4 space): the N of a
// rank text "#53 out of N".
func (db *DB) RankedASes() int { return db.ranked }

// Info describes the DB's contents and the kinds of source that fed it.
func (db *DB) Info() Info {
	return Info{
		Networks4: db.n4, Networks6: len(db.nets) - db.n4,
		RegistryPieces: len(db.regs), BogonPieces: db.nBog,
		ASes: len(db.asns), RankedASes: db.ranked, Sources: db.sources,
	}
}
