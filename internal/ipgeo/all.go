package ipgeo

import (
	"iter"
	"math/bits"
	"net/netip"
)

// All yields every network with data and its place, IPv4 networks first, each family in
// address order. Networks are disjoint and Place.Network is the yielded prefix. The
// IPv4-embedding IPv6 aliases (6to4, Teredo, ...) are not yielded: they hold no data of
// their own. It is for exports, not for the request path.
func (db *DB) All() iter.Seq2[netip.Prefix, Place] {
	return func(yield func(netip.Prefix, Place) bool) {
		emit := func(pfx netip.Prefix, v uint32) bool {
			if v&kindMask != kindData {
				return true
			}
			p := db.place(v >> kindBits)
			p.Network = pfx
			return yield(pfx, p)
		}
		t4 := &db.v4
		for i, k := range t4.Keys {
			a := netip.AddrFrom4([4]byte{byte(k >> 24), byte(k >> 16), byte(k >> 8), byte(k)})
			if !emit(netip.PrefixFrom(a, t4.plen(i)), t4.vals[i]) {
				return
			}
		}
		t6 := &db.v6
		for i, hi := range t6.keys {
			v := t6.vals[i]
			if v&kindMask == kindFine {
				g := v >> kindBits
				start, end := int(db.fineG[g]), int(db.fineG[g+1])
				for j := start; j < end; j++ {
					lo := db.fine.keys[j]
					size := -lo // to the end of the /64; 0 means the whole /64
					if j+1 < end {
						size = db.fine.keys[j+1] - lo
					}
					plen := 64
					if size != 0 {
						plen = 128 - bits.TrailingZeros64(size)
					}
					if !emit(netip.PrefixFrom(addr6(hi, lo), plen), db.fine.vals[j]) {
						return
					}
				}
				continue
			}
			size := -hi
			if i+1 < len(t6.keys) {
				size = t6.keys[i+1] - hi
			}
			plen := 0
			if size != 0 {
				plen = 64 - bits.TrailingZeros64(size)
			}
			if !emit(netip.PrefixFrom(addr6(hi, 0), plen), v) {
				return
			}
		}
	}
}

func addr6(hi, lo uint64) netip.Addr {
	var b [16]byte
	for i := range 8 {
		b[i] = byte(hi >> (56 - 8*i))
		b[8+i] = byte(lo >> (56 - 8*i))
	}
	return netip.AddrFrom16(b)
}
