// Package tiling owns the search structure of the address tables (ipgeo's and netinfo's):
// the ascending first addresses of leaves that tile an address space, with an index over
// their top 16 bits so that a search reads one bucket of them. A leaf holds every address
// from its key up to the next key; what a leaf means is its table's business. Index serves
// IPv4 tables; Last is the search itself, for 64-bit keys (the halves of IPv6 addresses) too.
package tiling

// bucketBits is how many leading bits of an address the bucket index covers.
const bucketBits = 16

// Index finds the leaf of an address. The zero Index is not usable; make one with New.
type Index struct {
	Keys  []uint32 // first address of each leaf, ascending; Keys[0] == 0
	index []uint32 // index[b] = number of keys below b<<16; len 1<<16 + 1
}

// New indexes keys, which must be ascending and start at 0 (the caller checks; tables
// decoded from files validate them first). The Index keeps keys.
func New(keys []uint32) Index {
	t := Index{Keys: keys, index: make([]uint32, 1<<bucketBits+1)}
	i := 0
	for b := range t.index {
		for i < len(keys) && uint64(keys[i]) < uint64(b)<<(32-bucketBits) {
			i++
		}
		t.index[b] = uint32(i)
	}
	return t
}

// Leaf returns the index of the leaf that holds a: the last one whose key is ≤ a.
func (t *Index) Leaf(a uint32) int {
	b := a >> (32 - bucketBits)
	// When no key of a's bucket is ≤ a, the leaf is the last of an earlier bucket, at lo-1
	// (Keys[0] is 0, so lo-1 ≥ 0 then).
	return Last(t.Keys, a, int(t.index[b]), int(t.index[b+1]))
}

// Last returns the index of the last of keys[lo:hi] that is ≤ a, or lo-1 when none is.
// keys[lo:hi] must be ascending.
func Last[K uint32 | uint64](keys []K, a K, lo, hi int) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keys[m] <= a {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// End returns the address after leaf i's last one: the next key, or 2^32 for the last leaf.
func (t *Index) End(i int) uint64 {
	if i+1 < len(t.Keys) {
		return uint64(t.Keys[i+1])
	}
	return 1 << 32
}
