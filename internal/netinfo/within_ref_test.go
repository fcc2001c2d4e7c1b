package netinfo_test

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestWithinMatchesRef checks Within's walk (the bogon flags computed once per node, and
// nested levels not counted past the budget) against the slow reference walk, on
// synthetic data large enough that MaxNetworks cuts the trees, for ranges of every width.
func TestWithinMatchesRef(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		in := netinfotest.Synthetic(seed, 8_000)
		db := mustDB(t, in)
		ref := netinfotest.NewReference(in)
		// The reference's bogon filter, once per node (it scans every bogon block).
		refHas := map[netip.Prefix]bool{}
		bogonNodes := 0
		for p, has := range db.NodeBogons() {
			if _, dup := refHas[p]; dup {
				t.Fatalf("seed %d: node %v twice", seed, p)
			}
			refHas[p] = ref.PrefixHasBogon(p)
			if has != refHas[p] {
				t.Fatalf("seed %d: node %v: bogon filter %v, reference %v", seed, p, has, refHas[p])
			}
			if has {
				bogonNodes++
			}
		}
		if bogonNodes == 0 || bogonNodes == len(refHas) {
			t.Fatalf("seed %d: %d of %d nodes hold bogons; the test needs both kinds", seed, bogonNodes, len(refHas))
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		cidrs := []string{"0.0.0.0/0", "::/0", "2000::/3", "1.0.0.0/8", "2001::/16"}
		for range 25 {
			a := netinfotest.Addrs(in, rng, 1)[0]
			bits := rng.IntN(a.BitLen()/2 + 1)
			cidrs = append(cidrs, netip.PrefixFrom(a, bits).Masked().String())
		}
		cuts, checked := 0, 0
		for _, c := range cidrs {
			p := netip.MustParsePrefix(c)
			for _, opt := range []netinfo.WithinOptions{
				{DepthLimit: 2}, {DepthLimit: netinfo.MaxDepthLimit},
				{DepthLimit: 1, BogonsOnly: true}, {DepthLimit: netinfo.MaxDepthLimit, BogonsOnly: true},
			} {
				got, err := db.Within(p, opt)
				if err != nil {
					t.Fatal(err)
				}
				if got.Network.Type != netinfo.TypeRange {
					continue // inside an announced network: no walk
				}
				checked++
				nets, total, truncated := db.WithinNetworksRef(p, opt, func(p netip.Prefix) bool { return refHas[p] })
				if got.TotalNetworks != total || got.Truncated != truncated {
					t.Errorf("seed %d, %v %+v: total %d truncated %v; reference %d %v", seed, p, opt, got.TotalNetworks, got.Truncated, total, truncated)
				}
				if diff := cmp.Diff(nets, got.Networks, netinfotest.CmpOptions()); diff != "" {
					t.Errorf("seed %d, %v %+v: networks (-reference +got):\n%s", seed, p, opt, diff)
				}
				if truncated {
					cuts++
				}
			}
		}
		if cuts == 0 || checked < 50 {
			t.Errorf("seed %d: %d walks checked, %d cut by the budget; the test needs both", seed, checked, cuts)
		}
	}
}
