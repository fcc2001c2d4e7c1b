package ipgeo

import (
	"net/netip"
	"testing"
)

// TestAll: every network All yields answers Lookup with the same place and network at its
// first and last address, networks are disjoint and ascending, and every address Lookup
// places in the fixture lies in a yielded network.
func TestAll(t *testing.T) {
	db, _ := mustDB(t, fixture())
	var prev netip.Prefix
	var got []netip.Prefix
	for pfx, p := range db.All() {
		if p.Network != pfx {
			t.Errorf("%v: Place.Network %v", pfx, p.Network)
		}
		for _, a := range []netip.Addr{pfx.Addr(), lastAddr(pfx)} {
			q, ok := db.Lookup(a)
			if !ok || q.Network != pfx || q.City.GeonameID != p.City.GeonameID || q.Country.Code != p.Country.Code {
				t.Errorf("%v: Lookup(%v) = %v %v %v, want %v", pfx, a, q.Network, q.City.GeonameID, ok, p.City.GeonameID)
			}
		}
		if prev.IsValid() && prev.Addr().Is4() == pfx.Addr().Is4() && !lastAddr(prev).Less(pfx.Addr()) {
			t.Errorf("%v does not follow %v", pfx, prev)
		}
		prev = pfx
		got = append(got, pfx)
	}
	if len(got) == 0 {
		t.Fatal("All yielded nothing")
	}
	v4, v6, _ := db.Counts()
	n4 := 0
	for _, p := range got {
		if p.Addr().Is4() {
			n4++
		}
	}
	if n4 != v4 || len(got)-n4 != v6 {
		t.Errorf("All yielded %d IPv4 and %d IPv6 networks; Counts says %d and %d", n4, len(got)-n4, v4, v6)
	}
}

func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
