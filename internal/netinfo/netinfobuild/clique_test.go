package netinfobuild

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cliquePaths are the routes of a small hierarchy, observing peer first: ASes 1 to 4 peer
// with one another (every pair is seen); 10 buys transit from 1 and 2 and sells it to 100
// to 104, which makes it the AS with the most neighbours; 20, 40 and 50 are customers of
// 3, 4 and 2, each with one customer of its own.
var cliquePaths = [][]uint32{
	{100, 10, 1, 3, 20, 200},
	{100, 10, 2, 4, 40, 400},
	{200, 20, 3, 4, 40, 400},
	{400, 40, 4, 1, 10, 101},
	{200, 20, 3, 2, 10, 102},
	{400, 40, 4, 2, 10, 103},
	{101, 10, 104},
	{103, 10, 1, 2, 50, 500},
}

func cliqueASPaths(paths [][]uint32) *asPaths {
	a := newASPaths()
	for i, p := range paths {
		a.add(route{
			Prefix: netip.MustParsePrefix(fmt.Sprintf("198.18.%d.0/24", i)),
			Peer:   peer{AS: p[0], Addr: netip.AddrFrom4([4]byte{192, 0, 2, byte(i)})},
			Path:   p,
		})
	}
	return a
}

// TestCliqueTransit: the clique of ASes 1 to 4 is found, although AS 10 has more
// neighbours than any of them and links to two of them; with it, transit reads every
// path as valley-free through that clique, and no member is anyone's customer.
func TestCliqueTransit(t *testing.T) {
	a := cliqueASPaths(cliquePaths)
	if got := slices.Sorted(maps.Keys(a.clique())); !slices.Equal(got, []uint32{1, 2, 3, 4}) {
		t.Fatalf("clique %v, want [1 2 3 4]", got)
	}
	// Gao's heuristic alone puts AS 10, the AS with the most neighbours, on top of the
	// paths through it, and so has it give transit to ASes 1 and 2, and peers give each
	// other transit.
	gao := a.transit()
	if !slices.Contains(gao[10], 1) || !slices.Contains(gao[1], 3) {
		t.Errorf("without the clique: %v; the test no longer shows what the clique mends", gao)
	}
	a.tier1 = a.clique()
	want := map[uint32][]uint32{
		1:  {10},
		2:  {10, 50},
		3:  {20},
		4:  {40},
		10: {100, 101, 102, 103, 104},
		20: {200},
		40: {400},
		50: {500},
	}
	if diff := cmp.Diff(want, a.transit()); diff != "" {
		t.Errorf("transit (-want +got):\n%s", diff)
	}
}

// TestCliqueTooSmall: two linked ASes form a clique in any handful of paths; fewer than
// cliqueMin members are not trusted, and transit is then Gao's alone.
func TestCliqueTooSmall(t *testing.T) {
	a := cliqueASPaths([][]uint32{{100, 10, 1, 2, 20, 200}, {101, 10, 104}})
	if got := a.clique(); got != nil {
		t.Errorf("clique %v, want none", got)
	}
	if got := cliqueASPaths(nil).clique(); got != nil {
		t.Errorf("clique of no paths %v, want none", got)
	}
}

// TestCliqueExtends: ASes ranked below the seed join the clique when linked to every
// member, in rank order; one linked to all but one member does not.
func TestCliqueExtends(t *testing.T) {
	// ASes 1 to 4 form the seed's clique among six busier transit providers 11 to 16 (each
	// with nine neighbours, which outranks the clique's five or six), so that AS 5, which
	// peers with all four, and AS 6, which peers with three, rank below the seed.
	var paths [][]uint32
	for p := uint32(11); p <= 16; p++ {
		for c := range uint32(3) {
			paths = append(paths, []uint32{p*100 + c, p, p*100 + 10 + c}, []uint32{p*100 + c, p, p*100 + 20 + c})
		}
	}
	for _, pair := range [][2]uint32{{1, 2}, {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}, {5, 1}, {5, 2}, {5, 3}, {5, 4}, {6, 1}, {6, 2}, {6, 3}} {
		x, y := pair[0], pair[1]
		paths = append(paths, []uint32{x*100 + 1, x, y, y*100 + 1})
	}
	a := cliqueASPaths(paths)
	if got := slices.Sorted(maps.Keys(a.clique())); !slices.Equal(got, []uint32{1, 2, 3, 4, 5}) {
		t.Errorf("clique %v, want [1 2 3 4 5]", got)
	}
}
