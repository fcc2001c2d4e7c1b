package netinfo

import (
	"cmp"
	"math/bits"
	"slices"
	"sync"
)

// Space is how the address space of one family divides: how much of it is announced and
// how much is bogon, in all and per registry. Each address counts as Lookup describes it:
// announced when it has a BGP prefix, bogon when Lookup says IsBogon, and under the
// registry Lookup names.
type Space struct {
	Total, Announced, Bogon AddrCount
	// Registries has one entry per registry name (Network.Registry), the largest first,
	// then by name. Addresses no registry record covers (possible only with partial data)
	// are in the totals above and in no entry.
	Registries []RegistrySpace
}

// RegistrySpace is one registry's share of a Space.
type RegistrySpace struct {
	Registry                string
	Total, Announced, Bogon AddrCount
}

// spaceOnce holds a family's Space, worked out on first use.
type spaceOnce struct {
	once  sync.Once
	space Space
}

// Space returns the Space of IPv4 (is4) or IPv6; its Registries are shared and read-only.
// It is worked out on the first call for each family and kept (the DB's one field set after
// Decode): a few hundred milliseconds over the full data, which no load should pay for an
// answer few clients ask for.
func (db *DB) Space(is4 bool) Space {
	s := &db.spaces[0]
	if !is4 {
		s = &db.spaces[1]
	}
	s.once.Do(func() { s.space = db.space(is4) })
	return s.space
}

// space counts the family's addresses run by run: the tables' answer can change only where
// one of their prefixes (registry pieces, announced networks, bogon and not-bogon pieces)
// starts or ends, so between two such boundaries one lookup speaks for every address.
func (db *DB) space(is4 bool) Space {
	top := hostMask(width(is4)) // the family's last address
	cuts := []u128{{}}
	cut := func(v u128, bits uint8, family bool) {
		if family != is4 {
			return
		}
		cuts = append(cuts, v)
		if last := v.or(hostMask(width(is4) - int(bits))); last != top {
			cuts = append(cuts, last.add(u128{0, 1}))
		}
	}
	for i := range db.regs {
		cut(db.regs[i].v, db.regs[i].bits, db.regs[i].is4)
	}
	for i := range db.nets {
		cut(db.nets[i].v, db.nets[i].bits, db.nets[i].is4)
	}
	for _, b := range [][]bogonRec{db.bogs, db.notBog} {
		for i := range b {
			cut(b[i].v, b[i].bits, b[i].is4)
		}
	}
	slices.SortFunc(cuts, u128.cmp)
	cuts = slices.Compact(cuts)

	var s Space
	byName := map[string]*RegistrySpace{}
	for i, first := range cuts {
		last := top
		if i+1 < len(cuts) {
			last = cuts[i+1].sub(u128{0, 1})
		}
		n := countOf(last.sub(first)).Add(Count(1))
		var net Network
		if a := first.addr(is4); is4 {
			net, _ = db.Lookup(a)
		} else { // the tries, not Lookup, which answers ::ffff:0:0/96 from the IPv4 tables
			net, _ = db.fromLeaf(db.trieLeaf(a))
		}
		s.Total = s.Total.Add(n)
		var r *RegistrySpace
		if net.Registry != "" {
			if r = byName[net.Registry]; r == nil {
				r = &RegistrySpace{Registry: net.Registry}
				byName[net.Registry] = r
			}
			r.Total = r.Total.Add(n)
		}
		if net.IsAnnounced() {
			s.Announced = s.Announced.Add(n)
			if r != nil {
				r.Announced = r.Announced.Add(n)
			}
		}
		if net.IsBogon {
			s.Bogon = s.Bogon.Add(n)
			if r != nil {
				r.Bogon = r.Bogon.Add(n)
			}
		}
	}
	for _, r := range byName {
		s.Registries = append(s.Registries, *r)
	}
	slices.SortFunc(s.Registries, func(a, b RegistrySpace) int {
		return cmp.Or(b.Total.Cmp(a.Total), cmp.Compare(a.Registry, b.Registry))
	})
	return s
}

// Add returns c + d. A sum above 2**128, which no count of addresses reaches, is 2**128.
func (c AddrCount) Add(d AddrCount) AddrCount {
	lo, carry := bits.Add64(c.lo, d.lo, 0)
	hi, carry := bits.Add64(c.hi, d.hi, carry)
	if c.top || d.top || carry != 0 {
		return AddrCount{top: true}
	}
	return AddrCount{hi: hi, lo: lo}
}

// Cmp returns -1, 0 or +1 as c is less than, equal to or greater than d.
func (c AddrCount) Cmp(d AddrCount) int {
	switch {
	case c.top != d.top:
		if c.top {
			return 1
		}
		return -1
	case c.hi != d.hi:
		return cmp.Compare(c.hi, d.hi)
	}
	return cmp.Compare(c.lo, d.lo)
}
