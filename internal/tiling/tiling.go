// Package tiling owns the search structure of the address tables (ipgeo's and netinfo's):
// the ascending first addresses of leaves that tile an address space, with an index over
// their top 16 bits so that a search reads one bucket of them. A leaf holds every address
// from its key up to the next key; what a leaf means is its table's business. Index serves
// IPv4 tables; Buckets and Search serve 64-bit keys (the halves of IPv6 addresses) too.
package tiling

import (
	"math/bits"
	"unsafe"

	"github.com/ipatlas/ipatlas/internal/prefetch"
)

// bucketBits is how many leading bits of a key the bucket index covers.
const bucketBits = 16

// bucket is the bucket of key a: its top bucketBits bits.
func bucket[K uint32 | uint64](a K) int {
	return int(uint64(a) >> (bits.Len64(uint64(^K(0))) - bucketBits))
}

// Buckets returns the bucket index of ascending keys: index[b] is the number of keys whose
// bucket is below b, for b from 0 to 2^bucketBits.
func Buckets[K uint32 | uint64](keys []K) []uint32 {
	index := make([]uint32, 1<<bucketBits+1)
	i := 0
	for b := range index {
		for i < len(keys) && bucket(keys[i]) < b {
			i++
		}
		index[b] = uint32(i)
	}
	return index
}

// Search returns the index of the last key ≤ a, reading only a's bucket of keys; index is
// Buckets(keys), and keys[0] must be ≤ a (tables whose keys start at 0 always hold a).
func Search[K uint32 | uint64](keys []K, index []uint32, a K) int {
	b := bucket(a)
	// When no key of a's bucket is ≤ a, the leaf is the last of an earlier bucket, at lo-1.
	return Last(keys, a, int(index[b]), int(index[b+1]))
}

// Index finds the leaf of an IPv4 address. The zero Index is not usable; make one with New.
type Index struct {
	Keys  []uint32 // first address of each leaf, ascending; Keys[0] == 0
	index []uint32 // Buckets(Keys)
}

// New indexes keys, which must be ascending and start at 0 (the caller checks; tables
// decoded from files validate them first). The Index keeps keys.
func New(keys []uint32) Index { return Index{Keys: keys, index: Buckets(keys)} }

// Leaf returns the index of the leaf that holds a: the last one whose key is ≤ a.
func (t *Index) Leaf(a uint32) int { return Search(t.Keys, t.index, a) }

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

// Prefetch asks the CPU for a's bucket of keys, so that a search for a soon after reads them
// from the caches: prefetching two tables' buckets before searching either overlaps their
// misses, where the searches alone wait for each in turn.
//
// A bucket of up to four cache lines is asked for whole; of a larger one (IPv6 buckets can
// hold thousands of keys), only the lines of its middle and quarter keys, one of which a
// search reads second.
func Prefetch[K uint32 | uint64](keys []K, index []uint32, a K) {
	if len(index) == 0 {
		return
	}
	b := bucket(a)
	lo, hi := int(index[b]), int(index[b+1])
	if n := hi - lo; n*int(unsafe.Sizeof(keys[0])) <= 4*64 {
		prefetch.Slice(keys[lo:hi])
	} else {
		prefetch.Slice(keys[lo+n/2 : lo+n/2+1])
		prefetch.Slice(keys[lo+n/4 : lo+n/4+1])
		prefetch.Slice(keys[lo+3*n/4 : lo+3*n/4+1])
	}
}

// Prefetch is Prefetch for t's keys.
func (t *Index) Prefetch(a uint32) { Prefetch(t.Keys, t.index, a) }
