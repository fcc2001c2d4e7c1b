package netinfo_test

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestWithinMatchesRef checks Within's walk (the bogon check's fast path for network nodes,
// and nested levels not counted past the budget) against the slow reference walk, on
// synthetic data large enough that MaxNetworks cuts the trees, for ranges of every width.
func TestWithinMatchesRef(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		in := netinfotest.Synthetic(seed, 8_000)
		db := mustDB(t, in)
		if k := db.HasBogonsMatchesRef(); k >= 0 {
			t.Fatalf("seed %d: hasBogons of node %d differs from the reference", seed, k)
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
				nets, total, truncated := db.WithinNetworksRef(p, opt)
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
