package tiling

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLeafMatchesScan checks Leaf against a linear scan, on tables of a few keys (most
// buckets empty, so most searches fall back to an earlier bucket) and of many (most
// buckets full), at random addresses and at every key and the address before it.
func TestLeafMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 10, 1000, 200_000} {
		keys := []uint32{0}
		for range n - 1 {
			keys = append(keys, rng.Uint32())
		}
		if n > 1 {
			keys = append(keys, 1<<32-1) // a leaf of the last address alone
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		idx := New(keys)
		scan := func(a uint32) int {
			i := 0
			for j, k := range keys {
				if k <= a {
					i = j
				}
			}
			return i
		}
		probes := []uint32{0, 1<<32 - 1, 1 << 16, 1<<16 - 1}
		for _, k := range keys[:min(len(keys), 300)] {
			probes = append(probes, k, k-1, k+1)
		}
		for range 300 {
			probes = append(probes, rng.Uint32())
		}
		for _, a := range probes {
			if got, want := idx.Leaf(a), scan(a); got != want {
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

// TestSearch64MatchesScan checks Buckets and Search on 64-bit keys (the IPv6 tables')
// against a linear scan, as TestLeafMatchesScan does for Index: the bucket is then the top
// 16 of 64 bits, and the last bucket's end must count every key.
func TestSearch64MatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 10, 1000, 200_000} {
		keys := []uint64{0}
		for range n - 1 {
			keys = append(keys, rng.Uint64())
		}
		if n > 1 {
			keys = append(keys, 1<<64-1)
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		index := Buckets(keys)
		if got := index[len(index)-1]; int(got) != len(keys) {
			t.Fatalf("%d keys: the last bucket ends at %d", len(keys), got)
		}
		scan := func(a uint64) int {
			i := 0
			for j, k := range keys {
				if k <= a {
					i = j
				}
			}
			return i
		}
		probes := []uint64{0, 1<<64 - 1, 1 << 48, 1<<48 - 1}
		for _, k := range keys[:min(len(keys), 300)] {
			probes = append(probes, k, k-1, k+1)
		}
		for range 300 {
			probes = append(probes, rng.Uint64())
		}
		for _, a := range probes {
			if got, want := Search(keys, index, a), scan(a); got != want {
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
