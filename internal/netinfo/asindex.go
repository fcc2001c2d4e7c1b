package netinfo

import (
	"cmp"
	"slices"
	"strings"
)

// The indexes here answer from an AS outward (asn-info-receiving-from, asn-rank-list,
// prefixes-list). None is stored in the section: each is derived at Decode from what is,
// so the snapshot format stays as it was and an older snapshot serves them too.
// TestRealDecodeCost reports what they add to the load.

// asIndexes builds ReceivingFrom, the rank-list orders and each AS's networks. asStats must
// have run: the lists are ordered by rank.
func (db *DB) asIndexes() {
	db.receivingIndex()
	db.rankOrders()
	db.networkIndex()
}

// receivingIndex inverts the transit lists: AS x receives from every AS whose TransitTo
// holds x. The lists go to recv, AS j's at recv[recvOff[j]:recvOff[j+1]], each ordered as
// TransitTo is, by rank, unranked ASes last by ASN.
func (db *DB) receivingIndex() {
	db.recvOff = make([]uint32, len(db.ases)+1)
	// each calls f with the index of every AS that i gives transit to. A hand-made section
	// may repeat an AS in a transit list (Encode never does); asStats sorted the lists, so a
	// repeat follows its first and is skipped.
	each := func(i int, f func(j int)) {
		list := db.transitOf(i)
		for k, t := range list {
			if k > 0 && list[k-1] == t {
				continue
			}
			if j, ok := slices.BinarySearch(db.asns, t); ok {
				f(j)
			}
		}
	}
	// Counted first, so that recv is one allocation of the exact size.
	for i := range db.ases {
		each(i, func(j int) { db.recvOff[j+1]++ })
	}
	for j := range db.ases {
		db.recvOff[j+1] += db.recvOff[j]
	}
	db.recv = make([]uint32, db.recvOff[len(db.ases)])
	fill := slices.Clone(db.recvOff[:len(db.ases)])
	for i := range db.ases {
		each(i, func(j int) {
			db.recv[fill[j]] = db.asns[i]
			fill[j]++
		})
	}
	for j := range db.ases {
		slices.SortFunc(db.receivingFrom(j), db.byRankThenASN)
	}
}

// transitOf returns AS i's transit list.
func (db *DB) transitOf(i int) []uint32 {
	a := &db.ases[i]
	return db.transit[a.transitOff : a.transitOff+a.transitN]
}

// rankOf is asn's rank, or the largest uint32 for an AS without one (unranked go last).
func (db *DB) rankOf(asn uint32) uint32 {
	if j, ok := slices.BinarySearch(db.asns, asn); ok && db.ases[j].rank > 0 {
		return db.ases[j].rank
	}
	return ^uint32(0)
}

// byRankThenASN orders ASNs as the transit lists are ordered.
func (db *DB) byRankThenASN(x, y uint32) int {
	return cmp.Or(cmp.Compare(db.rankOf(x), db.rankOf(y)), cmp.Compare(x, y))
}

// receivingFrom returns AS i's receiving list.
func (db *DB) receivingFrom(i int) []uint32 {
	end := db.recvOff[i+1]
	return db.recv[db.recvOff[i]:end:end]
}

// RankSort is an order of the ranked ASes (RankList).
type RankSort uint8

const (
	// RankByRank orders by global rank, 1 first.
	RankByRank RankSort = iota
	// RankByASN orders by AS number.
	RankByASN
	// RankByOrganisation orders by organisation, compared byte by byte with ASCII letters
	// folded to lower case (then as written); ties by rank.
	RankByOrganisation
	// RankByCountry orders by registered country code; ties by rank.
	RankByCountry
	numRankSorts
)

// rankOrders builds the ranked ASes' orders, as indexes in ases. For rank and ASN the
// descending order is the ascending one read backwards; for organisation and country it
// is kept apart, because there ties stay by rank and ASes without the field stay last in
// both directions: a client paging "by country, descending" wants ZW's ASes first, not the
// thousands whose registry file names no country.
func (db *DB) rankOrders() {
	ranked := make([]uint32, db.ranked)
	for i := range db.ases {
		if r := db.ases[i].rank; r > 0 {
			ranked[r-1] = uint32(i)
		}
	}
	db.orders[RankByRank][0] = ranked
	byASN := slices.Clone(ranked)
	slices.Sort(byASN) // ases are in ASN order
	db.orders[RankByASN][0] = byASN
	keys := make([]string, len(ranked)) // by rank - 1
	folded := make([]string, len(ranked))
	for _, s := range []RankSort{RankByOrganisation, RankByCountry} {
		for r, i := range ranked {
			if s == RankByOrganisation {
				keys[r] = db.strs[db.ases[i].org]
			} else {
				keys[r] = db.strs[db.ases[i].country]
			}
			// Folded once, not in every comparison: the sort then compares with memcmp.
			folded[r] = foldASCII(keys[r])
		}
		asc := make([]uint32, len(ranked)) // ranks - 1 while sorting
		for r := range asc {
			asc[r] = uint32(r)
		}
		slices.SortFunc(asc, func(x, y uint32) int {
			kx, ky := keys[x], keys[y]
			if (kx == "") != (ky == "") {
				return cmp.Compare(len(ky), len(kx)) // the empty one last
			}
			return cmp.Or(strings.Compare(folded[x], folded[y]), strings.Compare(kx, ky), cmp.Compare(x, y))
		})
		// Descending: the runs of equal keys in reverse, each still by rank, and the run
		// of empty keys still last. Linear, where a second sort is not.
		desc := make([]uint32, 0, len(asc))
		end := len(asc)
		for end > 0 && keys[asc[end-1]] == "" {
			end--
		}
		for hi := end; hi > 0; {
			lo := hi - 1
			for lo > 0 && keys[asc[lo-1]] == keys[asc[hi-1]] {
				lo--
			}
			desc = append(desc, asc[lo:hi]...)
			hi = lo
		}
		desc = append(desc, asc[end:]...)
		for _, o := range [][]uint32{asc, desc} {
			for k, r := range o {
				o[k] = ranked[r]
			}
		}
		db.orders[s] = [2][]uint32{asc, desc}
	}
}

// foldASCII returns s with its ASCII capital letters in lower case, every other byte kept;
// s itself when it has none.
func foldASCII(s string) string {
	for i := range len(s) {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// RankList returns the ASNs of the ranked ASes from offset on, at most n of them, in order
// s, descending with desc (ties and ASes without the sort's field as RankSort says); its
// total is RankedASes. An offset past the end gives none. It allocates the page only.
func (db *DB) RankList(s RankSort, desc bool, offset, n int) []uint32 {
	if s >= numRankSorts || offset < 0 || n <= 0 || offset >= db.ranked {
		return nil
	}
	n = min(n, db.ranked-offset)
	out := make([]uint32, n)
	o, backwards := db.orders[s][0], desc
	if desc && db.orders[s][1] != nil {
		o, backwards = db.orders[s][1], false
	}
	for k := range out {
		at := offset + k
		if backwards {
			at = len(o) - 1 - at
		}
		out[k] = db.asns[o[at]]
	}
	return out
}

// networkIndex lists each AS's announced networks (those it is a carrier of) as indexes in
// nets, AS i's at asNets[netOff[i]:netOff[i+1]], in nets' order: IPv4 then IPv6, each by
// address.
func (db *DB) networkIndex() {
	db.netOff = make([]uint32, len(db.ases)+1)
	// Each carrier's AS is searched for once, in table order, and read back in the same
	// order by the filling pass; neighbouring networks mostly share an origin, so the
	// last AS found spares most searches.
	pairs := 0
	for x := range db.nets {
		pairs += int(db.nets[x].nCarr)
	}
	js := make([]int32, 0, pairs) // -1: no record
	var lastASN uint32
	lastJ := int32(-2)
	for x := range db.nets {
		n := &db.nets[x]
		carriers := db.pool[n.pool : n.pool+uint32(n.nCarr)]
		for k, a := range carriers {
			j := int32(-1)
			switch {
			case slices.Contains(carriers[:k], a):
				// a hand-made section may repeat a carrier; Encode never does
			case lastJ != -2 && a == lastASN:
				j = lastJ
			default:
				if i, ok := slices.BinarySearch(db.asns, a); ok {
					j = int32(i)
				}
				lastASN, lastJ = a, j
			}
			js = append(js, j)
			if j >= 0 {
				db.netOff[j+1]++
			}
		}
	}
	for j := range db.ases {
		db.netOff[j+1] += db.netOff[j]
	}
	db.asNets = make([]uint32, db.netOff[len(db.ases)])
	fill := slices.Clone(db.netOff[:len(db.ases)])
	k := 0
	for x := range db.nets {
		for range db.nets[x].nCarr {
			if j := js[k]; j >= 0 {
				db.asNets[fill[j]] = uint32(x)
				fill[j]++
			}
			k++
		}
	}
}
