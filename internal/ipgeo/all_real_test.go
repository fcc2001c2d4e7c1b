package ipgeo_test

import (
	"math/rand/v2"
	"net/netip"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
)

// TestAllReal: on the real data, All yields as many networks as Counts reports, and a
// sample of them (every 997th) answers Lookup with the same network at a random address
// inside.
func TestAllReal(t *testing.T) {
	db := datasettest.Real(t).IPGeo
	rng := rand.New(rand.NewPCG(1, 2))
	n4, n6, i := 0, 0, 0
	for pfx, p := range db.All() {
		if pfx.Addr().Is4() {
			n4++
		} else {
			n6++
		}
		if i++; i%997 != 0 {
			continue
		}
		b := pfx.Addr().AsSlice()
		for bit := pfx.Bits(); bit < len(b)*8; bit++ {
			if rng.IntN(2) == 1 {
				b[bit/8] |= 0x80 >> (bit % 8)
			}
		}
		a, _ := netip.AddrFromSlice(b)
		q, ok := db.Lookup(a)
		if !ok || q.Network != pfx || q.City != p.City || q.Country.Code != p.Country.Code {
			t.Fatalf("%v: Lookup(%v) = %v, %v", pfx, a, q.Network, ok)
		}
	}
	v4, v6, _ := db.Counts()
	if n4 != v4 || n6 != v6 {
		t.Errorf("All yielded %d IPv4 and %d IPv6 networks; Counts says %d and %d", n4, n6, v4, v6)
	}
	t.Logf("%d IPv4 and %d IPv6 networks", n4, n6)
}
