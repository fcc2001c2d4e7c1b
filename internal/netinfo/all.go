package netinfo

import "iter"

// Announced yields every announced network, IPv4 first, each family in ascending prefix
// order (a prefix before the more specific ones inside it). Each Network holds the facts of
// the prefix itself: BGPPrefix, Organisation, Carriers, ViaCarriers and, where the prefix as
// a whole is bogon space, IsBogon; registry facts are left out (they belong to addresses,
// not prefixes; use Lookup). It is for exports, not for the request path.
func (db *DB) Announced() iter.Seq[Network] {
	return func(yield func(Network) bool) {
		for i := range db.nets {
			n := Network{IsBogon: db.nets[i].bogon}
			db.fillNet(&n, i)
			if !yield(n) {
				return
			}
		}
	}
}
