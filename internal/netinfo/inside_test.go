package netinfo

import (
	"cmp"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"
)

// TestInsideRangeMatchesScan checks insideRange's two binary searches against a linear scan
// for the prefixes strictly inside p, on random prefix sets of both families in prefix order.
func TestInsideRangeMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Small spaces, so that prefixes nest, and start or end at each other's ends, often.
	randPrefix := func() netip.Prefix {
		if rng.IntN(2) == 0 {
			a := netip.AddrFrom4([4]byte{10, 0, byte(rng.IntN(2)), byte(rng.IntN(256))})
			return netip.PrefixFrom(a, 22+rng.IntN(11)).Masked()
		}
		b := [16]byte{0x20, 0x01, 0x0d, 0xb8}
		b[14], b[15] = byte(rng.IntN(2)), byte(rng.IntN(256))
		return netip.PrefixFrom(netip.AddrFrom16(b), 118+rng.IntN(11)).Masked()
	}
	for round := range 200 {
		var set []netip.Prefix
		for range rng.IntN(300) {
			set = append(set, randPrefix())
		}
		slices.SortFunc(set, func(x, y netip.Prefix) int {
			if x.Addr().Is4() != y.Addr().Is4() {
				if x.Addr().Is4() {
					return -1
				}
				return 1
			}
			return cmp.Or(x.Addr().Compare(y.Addr()), cmp.Compare(x.Bits(), y.Bits()))
		})
		set = slices.Compact(set)
		key := func(k int) (u128, uint8, bool) {
			return u128Of(set[k].Addr()), uint8(set[k].Bits()), set[k].Addr().Is4()
		}
		for range 50 {
			p := randPrefix()
			if rng.IntN(4) == 0 && len(set) > 0 {
				p = set[rng.IntN(len(set))] // a member: itself is not inside
			}
			a, b := insideRange(len(set), key, p)
			var want []int
			for k, q := range set {
				if q.Addr().Is4() == p.Addr().Is4() && q.Bits() > p.Bits() && p.Contains(q.Addr()) {
					want = append(want, k)
				}
			}
			var got []int
			for k := a; k < b; k++ {
				got = append(got, k)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, %v in %v: insideRange gives [%d, %d), the scan %v", round, p, set, a, b, want)
			}
		}
	}
}
