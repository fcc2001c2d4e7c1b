package netinfo_test

import (
	"cmp"
	"net/netip"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestSpaceMatchesRef checks Space, which cuts the space at the compiled tables' prefixes and
// sums with AddrCount, against the reference, which cuts it at the input rows' ranges, looks
// up with the linear scan and sums with math/big.
func TestSpaceMatchesRef(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		in := netinfotest.Synthetic(seed, 3000)
		db := mustDB(t, in)
		ref := netinfotest.NewReference(in)
		for _, is4 := range []bool{true, false} {
			got, want := db.Space(is4), ref.Space(is4)
			if diff := gocmp.Diff(want, spaceCounts(got)); diff != "" {
				t.Errorf("seed %d, IPv4 %v: Space differs from the reference (-want +got):\n%s", seed, is4, diff)
			}
			if !slices.IsSortedFunc(got.Registries, func(a, b netinfo.RegistrySpace) int {
				return cmp.Or(b.Total.Cmp(a.Total), cmp.Compare(a.Registry, b.Registry))
			}) {
				t.Errorf("seed %d, IPv4 %v: registries not largest first: %v", seed, is4, got.Registries)
			}
			// The test proves little unless the data has every kind of address.
			if len(got.Registries) < 3 || got.Announced.IsZero() || got.Bogon.IsZero() {
				t.Errorf("seed %d, IPv4 %v: too plain a space: %+v", seed, is4, spaceCounts(got))
			}
			if again := db.Space(is4); gocmp.Diff(spaceCounts(again), spaceCounts(got)) != "" {
				t.Errorf("seed %d, IPv4 %v: a second call answers differently", seed, is4)
			}
		}
	}
}

// TestSpaceEmpty: a DB with nothing in it still has the whole space, in no registry.
func TestSpaceEmpty(t *testing.T) {
	db := mustDB(t, netinfo.Input{})
	for is4, want := range map[bool]string{true: "4294967296", false: "340282366920938463463374607431768211456"} {
		s := db.Space(is4)
		if s.Total.String() != want || !s.Announced.IsZero() || !s.Bogon.IsZero() || len(s.Registries) != 0 {
			t.Errorf("IPv4 %v: %+v, want total %s and nothing else", is4, spaceCounts(s), want)
		}
	}
}

// TestSpaceIPv4Mapped: IPv6 space is counted from the IPv6 tables, ::ffff:0:0/96 too,
// although Lookup answers its addresses from the IPv4 tables. A block ending just before
// it makes ::ffff:0:0 the start of a run.
func TestSpaceIPv4Mapped(t *testing.T) {
	db := mustDB(t, netinfo.Input{Registry: []netinfo.RegistryBlock{
		{First: netip.MustParseAddr("0.0.0.0"), Last: netip.MustParseAddr("255.255.255.255"), Registry: "ARIN", Status: "allocated"},
		{First: netip.MustParseAddr("::"), Last: netip.MustParseAddr("::fffe:ffff:ffff"), Registry: "IETF", Status: "reserved"},
		{First: netip.MustParseAddr("::"), Last: netip.MustParseAddr("ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), Registry: "IANA", Status: "reserved"},
	}})
	got := spaceCounts(db.Space(false)).Registries
	want := map[string][3]string{
		"IANA": {"1329227995784915872903525589598601216", "0", "0"}, // 2^120 less IETF's
		"IETF": {"281470681743360", "0", "0"},                       // 0xffff00000000
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("IPv6 registries (-want +got):\n%s", diff)
	}
}

func TestAddrCountAddCmp(t *testing.T) {
	max64 := netinfo.Count(^uint64(0))
	two64 := max64.Add(netinfo.Count(1))
	for _, tc := range []struct {
		got  netinfo.AddrCount
		want string
	}{
		{netinfo.Count(2).Add(netinfo.Count(3)), "5"},
		{two64, "18446744073709551616"},
		{two64.Add(max64), "36893488147419103231"},
		{netinfo.PrefixSize(netip.MustParsePrefix("::/1")).Add(netinfo.PrefixSize(netip.MustParsePrefix("8000::/1"))), "340282366920938463463374607431768211456"},
		{netinfo.PrefixSize(netip.MustParsePrefix("::/0")).Add(netinfo.Count(1)), "340282366920938463463374607431768211456"}, // saturates
	} {
		if tc.got.String() != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	ordered := []netinfo.AddrCount{{}, netinfo.Count(1), max64, two64, netinfo.PrefixSize(netip.MustParsePrefix("::/1")), netinfo.PrefixSize(netip.MustParsePrefix("::/0"))}
	for i, a := range ordered {
		for j, b := range ordered {
			if got, want := a.Cmp(b), cmp.Compare(i, j); got != want {
				t.Errorf("%s.Cmp(%s) = %d, want %d", a, b, got, want)
			}
		}
	}
}

func spaceCounts(s netinfo.Space) netinfotest.SpaceCounts {
	out := netinfotest.SpaceCounts{Total: s.Total.String(), Announced: s.Announced.String(), Bogon: s.Bogon.String(), Registries: map[string][3]string{}}
	for _, r := range s.Registries {
		out.Registries[r.Registry] = [3]string{r.Total.String(), r.Announced.String(), r.Bogon.String()}
	}
	return out
}
