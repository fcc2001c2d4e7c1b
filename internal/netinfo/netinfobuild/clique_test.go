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
// 3, 4 and 2, each with one customer of its own. The last path dips from AS1 to AS60 and
// back up to AS3, which no valley-free route does: a leak, believed in no part.
var cliquePaths = [][]uint32{
	{100, 10, 1, 3, 20, 200},
	{100, 10, 2, 4, 40, 400},
	{200, 20, 3, 4, 40, 400},
	{400, 40, 4, 1, 10, 101},
	{200, 20, 3, 2, 10, 102},
	{400, 40, 4, 2, 10, 103},
	{101, 10, 104},
	{103, 10, 1, 2, 50, 500},
	{100, 10, 1, 60, 3, 20, 200},
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
	transitTo, tier1 := a.relations()
	if got := slices.Sorted(maps.Keys(tier1)); !slices.Equal(got, []uint32{1, 2, 3, 4}) {
		t.Fatalf("clique %v, want [1 2 3 4]", got)
	}
	// Gao's heuristic alone puts AS 10, the AS with the most neighbours, on top of the
	// paths through it, and so has it give transit to ASes 1 and 2, and peers give each
	// other transit.
	gao := a.transit(a.links(), nil)
	if !slices.Contains(gao[10], 1) || !slices.Contains(gao[1], 3) {
		t.Errorf("without the clique: %v; the test no longer shows what the clique mends", gao)
	}
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
	if diff := cmp.Diff(want, transitTo); diff != "" {
		t.Errorf("transit (-want +got):\n%s", diff)
	}
}

// cliqueOf is the clique a's paths give.
func cliqueOf(a *asPaths) map[uint32]bool { return a.clique(a.links()) }

// TestCliqueTooSmall: two linked ASes form a clique in any handful of paths; fewer than
// cliqueMin members are not trusted, and transit is then Gao's alone.
func TestCliqueTooSmall(t *testing.T) {
	a := cliqueASPaths([][]uint32{{100, 10, 1, 2, 20, 200}, {101, 10, 104}})
	if got := cliqueOf(a); got != nil {
		t.Errorf("clique %v, want none", got)
	}
	if got := cliqueOf(cliqueASPaths(nil)); got != nil {
		t.Errorf("clique of no paths %v, want none", got)
	}
}

// linkPaths returns a path for each link (x, y) of links, seen through both ASes
// ([x's customer, x, y, y's customer]), and through each AS of boost, n paths between two
// customers of its own, which give it 2n more neighbours: the ranking by transit degree is
// set by boost. The customers' numbers are above the reserved 65552-131071, whose paths
// would be left out as leaks.
func linkPaths(links [][2]uint32, boost map[uint32]int) [][]uint32 {
	var out [][]uint32
	for _, l := range links {
		out = append(out, []uint32{1000000 + l[0]*1000, l[0], l[1], 1000000 + l[1]*1000})
	}
	for as, n := range boost {
		for k := range uint32(n) {
			out = append(out, []uint32{2000000 + as*1000 + k, as, 3000000 + as*1000 + k})
		}
	}
	return out
}

// TestCliqueSeedTies: of two cliques of equal size among the first ten, the one of
// higher-ranked ASes is taken.
func TestCliqueSeedTies(t *testing.T) {
	// Four isolated busy providers, then the cliques {1, 2, 3} and {6, 7, 8}, in that order.
	links := [][2]uint32{{1, 2}, {1, 3}, {2, 3}, {6, 7}, {6, 8}, {7, 8}}
	boost := map[uint32]int{11: 10, 12: 10, 13: 10, 14: 10, 1: 6, 2: 6, 3: 6, 6: 4, 7: 4, 8: 4}
	if got := slices.Sorted(maps.Keys(cliqueOf(cliqueASPaths(linkPaths(links, boost))))); !slices.Equal(got, []uint32{1, 2, 3}) {
		t.Errorf("clique %v, want [1 2 3]", got)
	}
}

// TestCliqueExtends: ASes ranked below the first ten join the clique when linked to every
// member, in rank order, so that of two such ASes not linked to each other the
// higher-ranked joins; one linked to all but one member does not.
func TestCliqueExtends(t *testing.T) {
	// Seven isolated busy providers and the clique {1, 2, 3} make the first ten. AS5 and AS4
	// (ranked in that order) peer with all three but not with each other; AS6 with two.
	links := [][2]uint32{{1, 2}, {1, 3}, {2, 3}, {5, 1}, {5, 2}, {5, 3}, {4, 1}, {4, 2}, {4, 3}, {6, 1}, {6, 2}}
	boost := map[uint32]int{11: 10, 12: 10, 13: 10, 14: 10, 15: 10, 16: 10, 17: 10, 1: 6, 2: 6, 3: 6, 5: 3}
	if got := slices.Sorted(maps.Keys(cliqueOf(cliqueASPaths(linkPaths(links, boost))))); !slices.Equal(got, []uint32{1, 2, 3, 5}) {
		t.Errorf("clique %v, want [1 2 3 5]", got)
	}
}
