package netinfobuild

import (
	"cmp"
	"math/bits"
	"slices"
)

// The transit-free clique is the set of ASes at the top of the routing hierarchy (tier 1):
// they buy transit from no one and peer with one another. Gao's degree heuristic alone
// takes the peering link between two of them for transit from the one with more
// neighbours (AS3356 "transit to" AS7018); with the clique known, transit makes no member
// anyone's customer.
//
// It is inferred as CAIDA's AS-relationship algorithm infers it (Luckie et al., "AS
// Relationships, Customer Cones, and Validation", IMC 2013, section 4.2): rank the ASes by
// transit degree, take the largest clique of links among the first cliqueSeed, then add
// in rank order each AS among the first cliqueCandidates that is linked to every member.
// Fewer than cliqueMin members are not trusted: in a handful of paths any two linked ASes
// form a clique, and no clique is better than a wrong one.
const (
	cliqueSeed       = 10
	cliqueCandidates = 35
	cliqueMin        = 3
)

// links returns every AS's neighbours over the distinct paths.
func (a *asPaths) links() map[uint32]map[uint32]bool {
	out := map[uint32]map[uint32]bool{}
	link := func(x, y uint32) {
		if out[x] == nil {
			out[x] = map[uint32]bool{}
		}
		out[x][y] = true
	}
	for _, p := range a.paths {
		for i := 1; i < len(p); i++ {
			link(p[i-1], p[i])
			link(p[i], p[i-1])
		}
	}
	return out
}

// transitRanking returns the ASes that carry others' routes, by transit degree (the
// distinct neighbours an AS has on the paths it is in the middle of), largest first, ties
// by ASN.
func (a *asPaths) transitRanking() []uint32 {
	degree := map[uint32]map[uint32]bool{}
	for _, p := range a.paths {
		for i := 1; i+1 < len(p); i++ {
			if degree[p[i]] == nil {
				degree[p[i]] = map[uint32]bool{}
			}
			degree[p[i]][p[i-1]] = true
			degree[p[i]][p[i+1]] = true
		}
	}
	ranked := make([]uint32, 0, len(degree))
	for as := range degree {
		ranked = append(ranked, as)
	}
	slices.SortFunc(ranked, func(x, y uint32) int {
		return cmp.Or(cmp.Compare(len(degree[y]), len(degree[x])), cmp.Compare(x, y))
	})
	return ranked
}

// clique infers the transit-free clique from the paths, links as links gives them; nil
// when it finds fewer than cliqueMin members.
func (a *asPaths) clique(links map[uint32]map[uint32]bool) map[uint32]bool {
	ranked := a.transitRanking()
	seed := ranked[:min(len(ranked), cliqueSeed)]
	// Every subset of the seed: the largest clique, and among equals the one of the
	// highest-ranked ASes (the smallest sum of ranks).
	best, bestSize, bestRanks := uint(0), 0, 0
	for set := uint(1); set < 1<<len(seed); set++ {
		size, ranks := bits.OnesCount(set), 0
		if size < bestSize {
			continue
		}
		isClique := true
		for i := range seed {
			if set&(1<<i) == 0 {
				continue
			}
			ranks += i
			for j := i + 1; j < len(seed); j++ {
				if set&(1<<j) != 0 && !links[seed[i]][seed[j]] {
					isClique = false
				}
			}
		}
		if isClique && (size > bestSize || ranks < bestRanks) {
			best, bestSize, bestRanks = set, size, ranks
		}
	}
	var members []uint32
	for i, as := range seed {
		if best&(1<<i) != 0 {
			members = append(members, as)
		}
	}
	for _, as := range ranked[len(seed):min(len(ranked), cliqueCandidates)] {
		if !slices.ContainsFunc(members, func(m uint32) bool { return !links[as][m] }) {
			members = append(members, as)
		}
	}
	if len(members) < cliqueMin {
		return nil
	}
	out := make(map[uint32]bool, len(members))
	for _, as := range members {
		out[as] = true
	}
	return out
}
