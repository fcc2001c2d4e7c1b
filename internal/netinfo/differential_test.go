package netinfo_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestDifferential checks Lookup against the slow reference on synthetic inputs of several
// seeds, at 100,000 addresses each.
func TestDifferential(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		in := netinfotest.Synthetic(seed, 3000)
		db := mustDB(t, in)
		ref := netinfotest.NewReference(in)
		rng := rand.New(rand.NewPCG(seed, 42))
		n := 100_000
		if testing.Short() {
			n = 10_000
		}
		bad := 0
		var announced, bogon, registry, via int
		for _, a := range netinfotest.Addrs(in, rng, n) {
			got, gok := db.Lookup(a)
			if got.IsAnnounced() {
				announced++
			}
			if got.IsBogon {
				bogon++
			}
			if got.RegisteredCountry != "" {
				registry++
			}
			if len(got.ViaCarriers) > 0 {
				via++
			}
			want, wok := ref.Lookup(a)
			if diff := cmp.Diff(want, got, netinfotest.CmpOptions()); diff != "" || gok != wok {
				t.Errorf("seed %d: Lookup(%v) = %v (-want +got):\n%s", seed, a, gok, diff)
				if bad++; bad > 5 {
					t.Fatal("too many differences")
				}
			}
		}
		// The addresses must exercise every kind of answer, or the test proves little.
		t.Logf("seed %d: %d addresses: %d announced, %d bogon, %d with a country, %d with via carriers", seed, n, announced, bogon, registry, via)
		for _, c := range []int{announced, bogon, registry, via} {
			if c < n/20 {
				t.Errorf("seed %d: too few addresses of some kind", seed)
			}
		}
	}
}

// TestDifferentialAS checks AS counts and ranks against a full scan.
func TestDifferentialAS(t *testing.T) {
	in := netinfotest.Synthetic(7, 2000)
	db := mustDB(t, in)
	ref := netinfotest.NewReference(in)
	for asn := uint32(0); asn <= 460; asn++ {
		got, ok := db.AS(asn)
		want, ranked := ref.ASCounts(asn)
		if !ok {
			if want.TotalIPv4Prefixes+want.TotalIPv6Prefixes > 0 {
				t.Errorf("AS%d: missing, but it originates networks", asn)
			}
			continue
		}
		counts := func(a netinfo.ASInfo) netinfo.ASInfo {
			return netinfo.ASInfo{
				ASN: a.ASN, TotalIPv4Addresses: a.TotalIPv4Addresses, TotalIPv4Prefixes: a.TotalIPv4Prefixes,
				TotalIPv4BogonPrefixes: a.TotalIPv4BogonPrefixes, TotalIPv6Prefixes: a.TotalIPv6Prefixes,
				TotalIPv6BogonPrefixes: a.TotalIPv6BogonPrefixes, Rank: a.Rank,
			}
		}
		if diff := cmp.Diff(want, counts(got)); diff != "" {
			t.Errorf("AS%d counts (-want +got):\n%s", asn, diff)
		}
		if db.RankedASes() != ranked {
			t.Fatalf("RankedASes = %d, want %d", db.RankedASes(), ranked)
		}
	}
}

func mustDB(tb testing.TB, in netinfo.Input) *netinfo.DB {
	tb.Helper()
	b, err := netinfo.Encode(in)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := netinfo.Decode(b)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}
