package tiling

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// table draws a table of about n ascending keys starting at 0 (and, with more than one, the
// largest key: a leaf of the last address alone), and probe addresses: both ends of the
// space, a bucket boundary, every key (of the first 300) with its neighbours, 300 random.
func table[K uint32 | uint64](rng *rand.Rand, n int, random func() K) (keys, probes []K) {
	top := ^K(0)
	keys = []K{0}
	for range n - 1 {
		keys = append(keys, random())
	}
	if n > 1 {
		keys = append(keys, top)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	boundary := K(1) << (bits.Len64(uint64(top)) - bucketBits)
	probes = []K{0, top, boundary, boundary - 1}
	for _, k := range keys[:min(len(keys), 300)] {
		probes = append(probes, k, k-1, k+1)
	}
	for range 300 {
		probes = append(probes, random())
	}
	return keys, probes
}

// scan is the obviously correct search: the index of the last key ≤ a.
func scan[K uint32 | uint64](keys []K, a K) int {
	i := 0
	for j, k := range keys {
		if k <= a {
			i = j
		}
	}
	return i
}

// TestLeafMatchesScan checks Index against a linear scan, on tables of a few keys (most
// buckets empty, so most searches fall back to an earlier bucket) and of many (most
// buckets full).
func TestLeafMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 10, 1000, 200_000} {
		keys, probes := table(rng, n, rng.Uint32)
		idx := New(keys)
		for _, a := range probes {
			idx.Prefetch(a) // a hint: it must accept every address and change nothing
			if got, want := idx.Leaf(a), scan(keys, a); got != want {
				t.Fatalf("%d keys: Leaf(%#x) = %d, want %d", len(keys), a, got, want)
			}
		}
		if got := idx.End(len(keys) - 1); got != 1<<32 {
			t.Errorf("%d keys: End(last) = %d, want 2^32", len(keys), got)
		}
		if len(keys) > 1 && idx.End(0) != uint64(keys[1]) {
			t.Errorf("%d keys: End(0) = %d, want %d", len(keys), idx.End(0), keys[1])
		}
	}
}

// TestSearch64MatchesScan checks Buckets and Search on 64-bit keys (the IPv6 tables') the
// same way: the bucket is then the top 16 of 64 bits, and the last bucket must end after
// every key.
func TestSearch64MatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 10, 1000, 200_000} {
		keys, probes := table(rng, n, rng.Uint64)
		index := Buckets(keys)
		if got := index[len(index)-1]; int(got) != len(keys) {
			t.Fatalf("%d keys: the last bucket ends at %d", len(keys), got)
		}
		for _, a := range probes {
			Prefetch(keys, index, a)
			if got, want := Search(keys, index, a), scan(keys, a); got != want {
				t.Fatalf("%d keys: Search(%#x) = %d, want %d", len(keys), a, got, want)
			}
		}
	}
}

// TestLast checks the search on 64-bit keys within a range, where "none ≤ a" gives lo-1.
func TestLast(t *testing.T) {
	keys := []uint64{5, 10, 10, 20, 1 << 63, 1<<64 - 1}
	for _, tc := range []struct {
		a      uint64
		lo, hi int
		want   int
	}{
		{0, 0, 6, -1}, {5, 0, 6, 0}, {9, 0, 6, 0}, {10, 0, 6, 2}, {19, 0, 6, 2},
		{1<<64 - 1, 0, 6, 5}, {1<<64 - 2, 0, 6, 4}, {7, 2, 4, 1}, {30, 2, 4, 3}, {30, 3, 3, 2},
	} {
		if got := Last(keys, tc.a, tc.lo, tc.hi); got != tc.want {
			t.Errorf("Last(%d, %d, %d) = %d, want %d", tc.a, tc.lo, tc.hi, got, tc.want)
		}
	}
}
