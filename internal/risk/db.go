package risk

import (
	"cmp"
	"net/netip"
	"slices"
)

// DB is a decoded risk section. It is immutable and safe for concurrent use. The zero value
// (and a nil *DB) holds no lists: Hazards then reports only what Facts say. Build one with
// Decode.
type DB struct {
	// The partitions: interval i covers the addresses from starts[i] up to starts[i+1]-1
	// and its addresses are on the lists of matches[labels[i]]. Empty means label 0
	// everywhere.
	v4Starts []uint32
	v4Labels []uint32
	v6Hi     []uint64 // IPv6 starts, split into their high and low 64 bits so that the
	v6Lo     []uint64 // search runs on plain integers
	v6Labels []uint32
	// Jump tables by the top 16 bits of the address: jump[k] is the index of the first
	// interval starting at or after k<<(bits-16), jump[1<<16] the number of intervals, so
	// that a lookup searches only the few intervals starting in its own /16 (IPv4) or /16
	// (IPv6) instead of the whole partition: two or three cache misses instead of a dozen.
	v4Jump []uint32
	v6Jump []uint32

	matches []match // by label; matches[0] is the empty set

	asns    []uint32 // every ASN on an ASN list, sorted
	asnBits []uint8  // per asns entry: bitHostingASN | bitVPNASN

	lists []ListInfo // address lists in section order, then ASN lists

	torExits []netip.Addr // the addresses on a Tor exit list, sorted (TorExits)
}

const (
	bitHostingASN = 1 << iota
	bitVPNASN
)

// match is everything a label says, worked out once at Decode.
type match struct {
	h      Hazards // the list flags, providers and blocklist count; no Facts, no Lists
	points int     // hosting likelihood points from the ranges
	// names by ASN bits: the label's list names plus the names of the ASN lists the
	// address's ASN is on, sorted. Shared by every Hazards result.
	names [4][]string
}

// prepare works out the match of every label, the jump tables, the ASN index and the Tor
// exit addresses.
func (db *DB) prepare(labels [][]int, asnLists []ASNList) {
	db.v4Jump = jumpTable(len(db.v4Starts), func(i int) uint32 { return db.v4Starts[i] >> 16 })
	db.v6Jump = jumpTable(len(db.v6Hi), func(i int) uint32 { return uint32(db.v6Hi[i] >> 48) })

	var asnNames [4][]string // by bit: the ASN list names
	type asnBit struct {
		asn uint32
		bit uint8
	}
	var all []asnBit
	for _, l := range asnLists {
		bit := uint8(bitHostingASN)
		if l.Kind == KindVPN {
			bit = bitVPNASN
		}
		asnNames[bit] = []string{l.Name}
		for _, a := range l.ASNs {
			all = append(all, asnBit{a, bit})
		}
		db.lists = append(db.lists, ListInfo{Name: l.Name, Kind: l.Kind, Date: l.Date, ASNs: len(l.ASNs)})
	}
	slices.SortFunc(all, func(a, b asnBit) int { return cmp.Compare(a.asn, b.asn) })
	for _, e := range all {
		if n := len(db.asns); n > 0 && db.asns[n-1] == e.asn {
			db.asnBits[n-1] |= e.bit
			continue
		}
		db.asns = append(db.asns, e.asn)
		db.asnBits = append(db.asnBits, e.bit)
	}

	db.matches = make([]match, len(labels))
	for id, set := range labels {
		m := &db.matches[id]
		var names []string
		for _, i := range set {
			l := db.lists[i]
			names = append(names, l.Name)
			switch l.Kind {
			case KindTorExit:
				m.h.IsKnownAsTorExit = true
				m.h.IsKnownAsTorServer = true
			case KindTorRelay:
				m.h.IsKnownAsTorServer = true
			case KindVPN:
				m.h.IsKnownAsVpn = true
			case KindPrivateRelay:
				m.h.IsICloudPrivateRelay = true
			case KindCloud:
				if m.h.CloudProvider == "" || l.Provider < m.h.CloudProvider {
					m.h.CloudProvider = l.Provider
				}
			case KindDatacenter:
				m.h.IsKnownAsDatacenter = true
				if l.Provider != "" && (m.h.HostingProvider == "" || l.Provider < m.h.HostingProvider) {
					m.h.HostingProvider = l.Provider
				}
			case KindBlocklist:
				m.h.BlocklistCount = max(m.h.BlocklistCount, l.Score)
			case KindDrop:
				m.h.IsSpamhausDrop = true
			}
		}
		m.h.IsBlocklisted = m.h.BlocklistCount >= BlocklistThreshold
		if m.h.CloudProvider != "" {
			m.points += PointsCloudRange
		}
		if m.h.IsKnownAsDatacenter {
			m.points += PointsDatacenterRange
		}
		if m.h.IsKnownAsVpn {
			m.points += PointsVPN
		}
		for bits := range m.names {
			withASN := slices.Clone(names)
			for bit := bitHostingASN; bit <= bitVPNASN; bit <<= 1 {
				if bits&bit != 0 {
					withASN = append(withASN, asnNames[bit]...)
				}
			}
			slices.Sort(withASN)
			if withASN = slices.Clip(slices.Compact(withASN)); len(withASN) > 0 {
				m.names[bits] = withASN
			}
		}
	}
	db.torExits = db.exitAddrs()
}

// Hazards returns the hazard report of a: the lists it is on, combined with the caller's facts
// about its network. An IPv4-mapped IPv6 address is looked up as IPv4; an invalid address is
// on no list. Hazards does not allocate; the returned Lists slice is shared and read-only.
func (db *DB) Hazards(a netip.Addr, f Facts) Hazards {
	var m *match
	var bits uint8
	if db != nil && len(db.matches) > 0 {
		m = &db.matches[db.label(a.Unmap())]
		if i, found := slices.BinarySearch(db.asns, f.ASN); found {
			bits = db.asnBits[i]
		}
	}
	var h Hazards
	points := 0
	if m != nil {
		h, points = m.h, m.points
		h.Lists = m.names[bits]
	}
	h.IsBogon = f.IsBogon
	h.IsUnreachable = !f.IsReachable
	if bits&bitHostingASN != 0 {
		h.IsHostingAsn = true
		points += PointsHostingASN
	}
	if bits&bitVPNASN != 0 && !h.IsKnownAsVpn {
		h.IsKnownAsVpn = true
		points += PointsVPN
	}
	if hostingName(f.ASOrganisation) {
		points += PointsHostingName
	}
	h.HostingLikelihood = min(points, MaxHostingLikelihood)
	return h
}

// label returns the label of the interval holding a, 0 if none.
func (db *DB) label(a netip.Addr) uint32 {
	switch {
	case a.Is4():
		if len(db.v4Starts) == 0 {
			return 0
		}
		b := a.As4()
		v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		k := v >> 16
		lo, hi := db.v4Jump[k], db.v4Jump[k+1]
		// The last interval starting at or before v: among those starting in v's /16, else
		// the one before them, which covers the start of the /16 (starts[0] is 0, so there
		// is one whenever lo is 0: v's /16 is then the first and holds starts[0]).
		j, found := slices.BinarySearch(db.v4Starts[lo:hi], v)
		if !found {
			j--
		}
		return db.v4Labels[int(lo)+j]
	case a.Is6():
		if len(db.v6Hi) == 0 {
			return 0
		}
		u := addrU128(a)
		k := u.hi >> 48
		lo, hi := int(db.v6Jump[k]), int(db.v6Jump[k+1])
		his := db.v6Hi[lo:hi]
		// Intervals [j, e) of the /16 share u's high 64 bits; before j they are lower.
		j, _ := slices.BinarySearch(his, u.hi)
		e := len(his)
		if u.hi != ^uint64(0) {
			e, _ = slices.BinarySearch(his, u.hi+1)
		}
		m, found := slices.BinarySearch(db.v6Lo[lo+j:lo+e], u.lo)
		if !found {
			m--
		}
		return db.v6Labels[lo+j+m]
	}
	return 0
}

// jumpTable returns the jump table of a partition with n intervals whose i-th start has top
// 16 bits top(i), non-decreasing in i.
func jumpTable(n int, top func(i int) uint32) []uint32 {
	if n == 0 {
		return nil
	}
	jump := make([]uint32, 1<<16+1)
	i := 0
	for k := range jump {
		for i < n && top(i) < uint32(k) {
			i++
		}
		jump[k] = uint32(i)
	}
	return jump
}

// Lists describes every list in the section: the address lists, sorted by kind, name,
// provider and score, then the ASN lists. The slice is the caller's.
func (db *DB) Lists() []ListInfo {
	if db == nil {
		return nil
	}
	return slices.Clone(db.lists)
}
