package ipgeobuild

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/ipatlas/ipatlas/internal/dataset"
	"github.com/ipatlas/ipatlas/internal/dataset/datasettest"
	"github.com/ipatlas/ipatlas/internal/dbfile"
	"github.com/ipatlas/ipatlas/internal/ipgeo"
)

// TestRealAreasMatchComputed is the differential test of the precomputed confidence areas:
// for random addresses of random announced prefixes of the real snapshot, the snapshot's
// DB (areas section) answers Confidence exactly as a DB decoded from the same ipgeo section
// without it, which computes each estimate from the networks (the reference).
func TestRealAreasMatchComputed(t *testing.T) {
	snap := datasettest.Real(t)
	if n, _ := snap.IPGeo.AreaCounts(); n == 0 {
		t.Fatal("the real snapshot has no precomputed areas")
	}
	f, err := dbfile.Open(snap.Path)
	if err != nil {
		t.Fatal(err)
	}
	sec, _ := f.Section(dataset.SectionIPGeo)
	computed, err := ipgeo.Decode(sec)
	if err != nil {
		t.Fatal(err)
	}
	var announced []netip.Prefix
	for n := range snap.Net.Announced() {
		announced = append(announced, n.BGPPrefix)
	}
	n := 100_000
	if raceEnabled {
		n = 20_000
	}
	rng := rand.New(rand.NewPCG(7, 11))
	compared, fromPrefix := 0, 0
	for range n {
		pfx := announced[rng.IntN(len(announced))]
		a := randomIn(rng, pfx)
		p, ok := snap.IPGeo.Lookup(a)
		if !ok {
			continue
		}
		net, _ := snap.Net.Lookup(a)
		ev := ipgeo.Evidence{BGPPrefix: net.BGPPrefix, SecondOpinion: net.RegisteredCountry, Unreachable: !net.IsReachableGlobally}
		got, want := snap.IPGeo.Confidence(p, ev), computed.Confidence(p, ev)
		if got.Level != want.Level || got.Reason != want.Reason || got.RadiusKm != want.RadiusKm ||
			got.CountryShare != want.CountryShare || got.Prefix != want.Prefix || !slices.Equal(got.Area.Points(), want.Area.Points()) {
			t.Fatalf("%s (BGP %s): precomputed %s %.3f km over %s, %d points; computed %s %.3f km over %s, %d points",
				a, ev.BGPPrefix, got.Level, got.RadiusKm, got.Prefix, got.Area.Len(), want.Level, want.RadiusKm, want.Prefix, want.Area.Len())
		}
		compared++
		if got.Prefix != p.Network {
			fromPrefix++
		}
	}
	if compared < n/2 || fromPrefix < compared/20 {
		t.Fatalf("only %d of %d addresses compared, %d over their BGP prefix", compared, n, fromPrefix)
	}
	t.Logf("%d answers equal, %d of them estimated over the BGP prefix", compared, fromPrefix)
}

// randomIn returns a random address of p.
func randomIn(rng *rand.Rand, p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	for i := range b {
		free := min(8, max(0, (i+1)*8-p.Bits())) // host bits in byte i
		b[i] |= byte(rng.Uint32()) & byte(1<<free-1)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
