package risk_test

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/risk"
	"github.com/ipatlas/ipatlas/internal/risk/risktest"
)

// slowTorExits is the obvious reference: every address of every range of every exit list,
// sorted, once each.
func slowTorExits(d risk.Data) []netip.Addr {
	var out []netip.Addr
	for _, l := range d.Lists {
		if l.Kind != risk.KindTorExit {
			continue
		}
		for _, r := range l.Ranges {
			for a := r.From.Unmap(); a.IsValid() && a.Compare(r.To.Unmap()) <= 0; a = a.Next() {
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, netip.Addr.Compare)
	return slices.Compact(out)
}

// TestTorExitsMatchesSlow: seeded random exit lists (neighbouring and repeated addresses,
// IPv4, IPv4-mapped and IPv6, the ends of both spaces), cut into many intervals by relay,
// VPN and blocklist ranges over them, give back exactly the listed exit addresses.
func TestTorExitsMatchesSlow(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		addr := func() netip.Addr {
			switch rng.IntN(5) {
			case 0:
				return netip.AddrFrom4([4]byte{185, 220, 101, byte(rng.IntN(8))}) // neighbours
			case 1:
				return netip.AddrFrom4([4]byte{byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256)), byte(rng.IntN(256))})
			case 2:
				return netip.AddrFrom16([16]byte{0x20, 0x01, 0x06, 0x7c, 15: byte(rng.IntN(6))})
			case 3:
				return netip.AddrFrom16([16]byte{10: 0xff, 11: 0xff, 12: 9, 13: 9, 14: 9, 15: byte(rng.IntN(3))}) // 4-in-6
			}
			if rng.IntN(2) == 0 {
				return netip.AddrFrom4([4]byte{255, 255, 255, 255})
			}
			return netip.AddrFrom16([16]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		}
		list := func(kind risk.Kind, name string, n int) risk.List {
			l := risk.List{Name: name, Kind: kind}
			for range n {
				a := addr()
				l.Ranges = append(l.Ranges, risk.Range{From: a, To: a})
			}
			return l
		}
		d := risk.Data{Lists: []risk.List{
			list(risk.KindTorExit, "tor/exit-addresses", rng.IntN(40)),
			list(risk.KindTorExit, "tor/onionoo-exits", rng.IntN(40)),
			list(risk.KindTorRelay, "tor/onionoo-relays", rng.IntN(40)),
			{Name: "vpn", Kind: risk.KindVPN, Ranges: []risk.Range{{From: netip.MustParseAddr("185.220.101.2"), To: netip.MustParseAddr("185.220.101.5")}}},
			{Name: "blocklist", Kind: risk.KindBlocklist, Score: 3, Ranges: []risk.Range{{From: netip.MustParseAddr("2001:67c::3"), To: netip.MustParseAddr("2001:67c::3")}}},
		}}
		db := risktest.MustDB(t, d)
		want := slowTorExits(d)
		if diff := cmp.Diff(want, db.TorExits(), cmp.Comparer(func(a, b netip.Addr) bool { return a == b })); diff != "" {
			t.Fatalf("seed %d (-slow +TorExits):\n%s", seed, diff)
		}
		for _, a := range db.TorExits() {
			if !db.Hazards(a, risk.Facts{IsReachable: true}).IsKnownAsTorExit {
				t.Fatalf("seed %d: %s listed but not a Tor exit to Hazards", seed, a)
			}
		}
	}
}

func TestTorExitsNone(t *testing.T) {
	var nilDB *risk.DB
	if nilDB.TorExits() != nil {
		t.Error("a nil DB has Tor exits")
	}
	db := risktest.MustDB(t, risk.Data{Lists: []risk.List{{Name: "tor/onionoo-relays", Kind: risk.KindTorRelay, Ranges: addrs("192.0.2.1")}}})
	if got := db.TorExits(); len(got) != 0 {
		t.Errorf("relays only: %v", got)
	}
}

// TestTorExitsBounded: an exit list holding a range larger than MaxTorExits (no Tor list
// does) lists its first MaxTorExits addresses.
func TestTorExitsBounded(t *testing.T) {
	db := risktest.MustDB(t, risk.Data{Lists: []risk.List{{Name: "tor/exit-addresses", Kind: risk.KindTorExit,
		Ranges: []risk.Range{risk.PrefixRange(netip.MustParsePrefix("10.0.0.0/8"))}}}})
	got := db.TorExits()
	if len(got) != risk.MaxTorExits || got[0] != netip.MustParseAddr("10.0.0.0") || got[len(got)-1] != netip.MustParseAddr("10.16.0.0").Prev() {
		t.Errorf("%d addresses, %v ... %v", len(got), got[0], got[len(got)-1])
	}
}
