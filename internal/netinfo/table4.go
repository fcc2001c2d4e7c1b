package netinfo

import (
	"net/netip"
	"slices"

	"github.com/ipatlas/ipatlas/internal/tiling"
)

// table4 answers Lookup for IPv4 addresses with one search where the tries take three: the
// registry pieces, the bogon list and the networks flattened into leaves that tile the
// IPv4 space, each holding what the three tries answer for every address in it. Under a
// load of random addresses the tries cost about twenty cache misses per lookup (three
// walks of up to four nodes each); a leaf search costs about four, which is most of what
// an IPv4 lookup costs. The tries stay: IPv6 lookups and Within use them.
//
// The leaves take 12 bytes each, pointer-free: the full data's 649 thousand IPv4 networks,
// 161 thousand registry pieces and 165 thousand bogon pieces (both families) make 748 479
// leaves, 9 MB; building them adds about 0.1 s to Decode.
type table4 struct {
	tiling.Index
	vals []leaf4 // parallel to Keys
}

// leaf4 packs the answers of the three tries for one leaf: bits 0–1 the bogon list's (0:
// no entry, 2: not bogon, 3: bogon), bits 2–31 1 + the registry piece (0: none), bits
// 32–63 1 + the network (0: none).
type leaf4 uint64

// maxRegs bounds the registry pieces of a section, so that 1 + a piece's index fits a
// leaf4's 30 bits (the full data has 161 thousand).
const maxRegs = 1<<30 - 2

func (v leaf4) bogon() (bogon, ok bool) { return v&1 == 1, v&2 == 2 }
func (v leaf4) reg() (int, bool)        { i := int(uint32(v) >> 2); return i - 1, i > 0 }
func (v leaf4) net() (int, bool)        { i := int(v >> 32); return i - 1, i > 0 }

// newTable4 builds the IPv4 table from db's tries: a leaf starts wherever a prefix of any of
// them starts or ends, takes the tries' answers for its first address, and is merged into
// the previous leaf when they agree.
func newTable4(db *DB, bogons []bogonRec) table4 {
	cuts := make([]uint32, 0, 1+2*(len(db.regs)+len(bogons)+db.n4))
	cut := func(p netip.Prefix) {
		first := p.Masked().Addr().As4()
		start := uint32(first[0])<<24 | uint32(first[1])<<16 | uint32(first[2])<<8 | uint32(first[3])
		cuts = append(cuts, start)
		if end := uint64(start) + 1<<(32-p.Bits()); end < 1<<32 {
			cuts = append(cuts, uint32(end))
		}
	}
	cuts = append(cuts, 0) // the first leaf starts at 0.0.0.0 whatever the data
	for i := range db.regs {
		if db.regs[i].is4 {
			cut(db.regs[i].prefix())
		}
	}
	for _, b := range bogons {
		if b.is4 {
			cut(netip.PrefixFrom(b.v.addr(true), int(b.bits)))
		}
	}
	for i := range db.nets[:db.n4] {
		cut(db.nets[i].prefix())
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)

	keys, vals := make([]uint32, 0, len(cuts)), make([]leaf4, 0, len(cuts))
	for _, k := range cuts {
		v := db.trieLeaf(netip.AddrFrom4([4]byte{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k)}))
		if n := len(vals); n > 0 && vals[n-1] == v {
			continue
		}
		keys = append(keys, k)
		vals = append(vals, v)
	}
	return table4{Index: tiling.New(slices.Clip(keys)), vals: slices.Clip(vals)}
}

// trieLeaf is what the three tries answer for a, packed as a leaf4: a leaf's value when a
// is IPv4, Lookup's answer directly when it is IPv6 (the codec's bound on registry pieces
// holds for both families).
func (db *DB) trieLeaf(a netip.Addr) leaf4 {
	var v leaf4
	if b, ok := db.bogT.Lookup(a); ok {
		v = 2
		if b {
			v = 3
		}
	}
	if i, ok := db.regT.Lookup(a); ok {
		v |= leaf4(i+1) << 2
	}
	if i, ok := db.netT.Lookup(a); ok {
		v |= leaf4(i+1) << 32
	}
	return v
}

// find returns the leaf holding a.
func (t *table4) find(a uint32) leaf4 { return t.vals[t.Leaf(a)] }

// Prefetch asks the CPU for the keys that a Lookup of a searches (see ipgeo's DB.Prefetch):
// for an IPv4 address, its bucket of the flat table. It does nothing for IPv6, whose
// lookups walk the tries, whose nodes cannot be known in advance.
func (db *DB) Prefetch(a netip.Addr) {
	if a = a.Unmap(); a.Is4() {
		b := a.As4()
		db.v4.Prefetch(uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]))
	}
}
