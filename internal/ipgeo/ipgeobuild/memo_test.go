package ipgeobuild

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// TestConfidenceIndependentOfHistory: an address's confidence answer does not depend on
// which other addresses of its prefix were asked about before (estimates are memoized).
// For pairs A, B of one prefix with different places: a fresh DB asked about A alone must
// answer as the shared DB does after being asked about B first.
func TestConfidenceIndependentOfHistory(t *testing.T) {
	rd := shared.get(t)
	fresh, err := ipgeo.Decode(rd.section)
	if err != nil {
		t.Fatal(err)
	}
	as := addrs(t, rd, 1<<14)
	seen := map[netip.Prefix]bool{}
	differ, pairs := 0, 0
	for i, a := range as {
		if !a.Is4() {
			continue
		}
		bits := []int{8, 10, 12, 16}[i%4]
		pfx := netip.PrefixFrom(a, bits).Masked()
		if seen[pfx] {
			continue
		}
		seen[pfx] = true
		a4 := a.As4()
		b := netip.AddrFrom4([4]byte{a4[0], a4[1] ^ 0x01, a4[2] ^ 0x5a, 7})
		if !pfx.Contains(b) {
			continue
		}
		pa, okA := rd.db.Lookup(a)
		pb, okB := rd.db.Lookup(b)
		if !okA || !okB || pa.Network == pb.Network {
			continue
		}
		pairs++
		ev := ipgeo.Evidence{BGPPrefix: pfx}
		rd.db.Confidence(pb, ev)
		after := rd.db.Confidence(pa, ev)
		alone := fresh.Confidence(pa, ev)
		if !slices.Equal(alone.Area.Points(), after.Area.Points()) || alone.Level != after.Level || alone.RadiusKm != after.RadiusKm {
			differ++
			if differ <= 3 {
				t.Errorf("%s in %s: alone %.0f km %s; after %s %.0f km %s", a, pfx, alone.RadiusKm, alone.Level, b, after.RadiusKm, after.Level)
			}
		}
	}
	if pairs < 300 {
		t.Fatalf("only %d pairs", pairs)
	}
	if differ > 0 {
		t.Errorf("%d of %d answers depended on the history of requests", differ, pairs)
	}
	t.Logf("%d pairs", pairs)
}
