package netinfo_test

import (
	"errors"
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

var count = netinfo.Count

func TestWithin(t *testing.T) {
	db := mustDB(t, fixture())
	google := netinfo.Network{
		Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Google LLC",
		IsReachableGlobally: true, Carriers: []uint32{15169},
	}
	with := func(n netinfo.Network, p string, via ...uint32) netinfo.Network {
		n.BGPPrefix = pfx(p)
		if len(via) > 0 {
			n.ViaCarriers = via
		}
		return n
	}
	sub := func(first, last, org, cc string) netinfo.Subnet {
		return netinfo.Subnet{First: addr(first), Last: addr(last), Organisation: org, RegisteredCountry: cc}
	}
	googleRun := sub("8.8.8.0", "8.8.11.255", "Google LLC", "US")
	level3 := netinfo.Network{
		Registry: "ARIN", RegistryStatus: "legacy", RegisteredCountry: "US", Organisation: "Level 3 Parent, LLC",
		IsReachableGlobally: true, BGPPrefix: pfx("8.128.0.0/10"), Carriers: []uint32{3356},
	}
	slash9 := netinfo.CIDRItem{
		CIDR: pfx("8.0.0.0/9"), Type: netinfo.TypeRange, Size: count(1 << 23), TotalAnnounced: count(256 + 256 + 512 + 256 + 4096),
		BogonsCount: 1, DeepCount: 1,
		Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US"},
	}
	level3Item := netinfo.CIDRItem{
		CIDR: pfx("8.128.0.0/10"), Type: netinfo.TypeNetwork, Size: count(1 << 22), TotalAnnounced: count(1 << 22), Network: level3,
	}
	googleItem := func(p string, size uint64, via ...uint32) netinfo.CIDRItem {
		return netinfo.CIDRItem{CIDR: pfx(p), Type: netinfo.TypeNetwork, Size: count(size), TotalAnnounced: count(size), Network: with(google, p, via...)}
	}
	bogonItem := googleItem("8.8.4.0/24", 256)
	bogonItem.BogonsCount = 1
	bogonItem.Network.IsBogon, bogonItem.Network.IsReachableGlobally = true, false
	slash9Deep := slash9
	slash9Deep.Networks = []netinfo.CIDRItem{
		bogonItem, googleItem("8.8.8.0/24", 256, 3356, 174), googleItem("8.8.9.0/24", 256),
		googleItem("8.8.10.0/23", 512), googleItem("8.34.208.0/20", 4096),
	}

	tests := []struct {
		name string
		cidr string
		opt  netinfo.WithinOptions
		want netinfo.CIDRResult
	}{
		{"address inside a network", "8.8.8.8/32", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("8.8.8.8/32"), Parent: pfx("8.0.0.0/9"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.8.8.0/24"), Type: netinfo.TypeNetwork, Network: with(google, "8.8.8.0/24", 3356, 174),
				TotalSubnets: 1, Subnets: []netinfo.Subnet{sub("8.8.8.0", "8.8.8.255", "Google LLC", "US")},
			},
		}},
		{"IPv4-mapped", "::ffff:8.8.8.0/120", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("8.8.8.0/24"), Parent: pfx("8.0.0.0/9"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.8.8.0/24"), Type: netinfo.TypeNetwork, Network: with(google, "8.8.8.0/24", 3356, 174),
				TotalSubnets: 1, Subnets: []netinfo.Subnet{sub("8.8.8.0", "8.8.8.255", "Google LLC", "US")},
			},
		}},
		{"a /8 spanning several prefixes", "8.0.0.0/8", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("8.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.0.0.0/8"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"},
				TotalSubnets: 4,
				Subnets: []netinfo.Subnet{
					sub("8.8.4.0", "8.8.4.255", "Google LLC", "US"), googleRun,
					sub("8.34.208.0", "8.34.223.255", "Google LLC", "US"), sub("8.128.0.0", "8.191.255.255", "Level 3 Parent, LLC", "US"),
				},
			},
			Networks:      []netinfo.CIDRItem{slash9, level3Item},
			TotalNetworks: 2,
		}},
		{"depth 2", "8.0.0.0/8", netinfo.WithinOptions{DepthLimit: 2}, netinfo.CIDRResult{
			CIDR: pfx("8.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.0.0.0/8"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"},
				TotalSubnets: 4,
				Subnets: []netinfo.Subnet{
					sub("8.8.4.0", "8.8.4.255", "Google LLC", "US"), googleRun,
					sub("8.34.208.0", "8.34.223.255", "Google LLC", "US"), sub("8.128.0.0", "8.191.255.255", "Level 3 Parent, LLC", "US"),
				},
			},
			Networks:      []netinfo.CIDRItem{slash9Deep, level3Item},
			TotalNetworks: 2,
		}},
		{"paging", "8.0.0.0/8", netinfo.WithinOptions{SubnetsOffset: 1, SubnetsBatchSize: 2}, netinfo.CIDRResult{
			CIDR: pfx("8.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.0.0.0/8"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"},
				TotalSubnets: 4,
				Subnets:      []netinfo.Subnet{googleRun, sub("8.34.208.0", "8.34.223.255", "Google LLC", "US")},
			},
			Networks:      []netinfo.CIDRItem{slash9, level3Item},
			TotalNetworks: 2,
		}},
		{"paging past the end", "8.0.0.0/8", netinfo.WithinOptions{SubnetsOffset: 4}, netinfo.CIDRResult{
			CIDR: pfx("8.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.0.0.0/8"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"},
				TotalSubnets: 4,
			},
			Networks:      []netinfo.CIDRItem{slash9, level3Item},
			TotalNetworks: 2,
		}},
		{"bogons only", "8.0.0.0/8", netinfo.WithinOptions{BogonsOnly: true, DepthLimit: 2}, netinfo.CIDRResult{
			CIDR: pfx("8.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.0.0.0/8"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "legacy"},
				TotalSubnets: 1, Subnets: []netinfo.Subnet{sub("8.8.4.0", "8.8.4.255", "Google LLC", "US")},
			},
			Networks: []netinfo.CIDRItem{func() netinfo.CIDRItem {
				it := slash9
				it.Networks = []netinfo.CIDRItem{bogonItem}
				return it
			}()},
			TotalNetworks: 1,
		}},
		{"a run cut by the range", "8.8.8.0/23", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("8.8.8.0/23"), Parent: pfx("8.0.0.0/9"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("8.8.8.0/23"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", IsReachableGlobally: true},
				TotalSubnets: 1, Subnets: []netinfo.Subnet{sub("8.8.8.0", "8.8.9.255", "Google LLC", "US")},
			},
			Networks:      []netinfo.CIDRItem{googleItem("8.8.8.0/24", 256, 3356, 174), googleItem("8.8.9.0/24", 256)},
			TotalNetworks: 2,
		}},
		{"unannounced bogon", "10.0.0.0/16", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("10.0.0.0/16"), Parent: pfx("10.0.0.0/8"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("10.0.0.0/16"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true},
			},
		}},
		{"IPv6", "2600::/12", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("2600::/12"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("2600::/12"), Type: netinfo.TypeRange, Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated"},
				TotalSubnets: 1, // the two networks are adjacent: one run
				Subnets: []netinfo.Subnet{
					sub("2600:1f00::", "2600:2000:ffff:ffff:ffff:ffff:ffff:ffff", "Amazon.com, Inc.", "US"),
				},
			},
			Networks: []netinfo.CIDRItem{
				{
					CIDR: pfx("2600:1f00::/24"), Type: netinfo.TypeNetwork, Size: netinfo.PrefixSize(pfx("2600:1f00::/24")),
					TotalAnnounced: netinfo.PrefixSize(pfx("2600:1f00::/24")),
					Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Amazon.com, Inc.",
						IsReachableGlobally: true, BGPPrefix: pfx("2600:1f00::/24"), Carriers: []uint32{16509}},
				},
				{
					CIDR: pfx("2600:2000::/32"), Type: netinfo.TypeNetwork, Size: netinfo.PrefixSize(pfx("2600:2000::/32")),
					TotalAnnounced: netinfo.PrefixSize(pfx("2600:2000::/32")),
					Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Amazon.com, Inc.",
						IsReachableGlobally: true, BGPPrefix: pfx("2600:2000::/32"), Carriers: []uint32{16509, 14618}},
				},
			},
			TotalNetworks: 2,
		}},
		{"IPv6 network with a parent", "2600:2000:1::/48", netinfo.WithinOptions{}, netinfo.CIDRResult{
			CIDR: pfx("2600:2000:1::/48"), Parent: pfx("2600::/12"),
			Network: netinfo.CIDRNetwork{
				CIDR: pfx("2600:2000::/32"), Type: netinfo.TypeNetwork,
				Network: netinfo.Network{Registry: "ARIN", RegistryStatus: "allocated", RegisteredCountry: "US", Organisation: "Amazon.com, Inc.",
					IsReachableGlobally: true, BGPPrefix: pfx("2600:2000::/32"), Carriers: []uint32{16509, 14618}},
				TotalSubnets: 1,
				Subnets:      []netinfo.Subnet{sub("2600:2000::", "2600:2000:ffff:ffff:ffff:ffff:ffff:ffff", "Amazon.com, Inc.", "US")},
			},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := db.Within(pfx(tc.cidr), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, netinfotest.CmpOptions(), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestWithinRangeFacts checks the facts of a range that is only partly described by the
// piece containing it: IANA's free "Global Unicast" 2000::/3 around an allocated block, and
// a bogon block with a reachable block inside.
func TestWithinRangeFacts(t *testing.T) {
	in := fixture()
	in.Registry = append(in.Registry,
		block("2000::/3", "IANA", "available", "", 0),
		block("2001:200::/23", "APNIC", "allocated", "", 0),
		block("3ffe::/16", "IANA", "reserved", "", 0))
	in.Bogons = append(in.Bogons, bogon("2000::/3", true, 0), bogon("2001:200::/23", false, 0), bogon("2600::/12", false, 0), bogon("3ffe::/16", true, 0))
	db := mustDB(t, in)
	free := netinfo.Network{Registry: "IANA", RegistryStatus: "available", IsBogon: true}
	tests := []struct {
		cidr string
		want netinfo.Network
	}{
		{"2001::/16", netinfo.Network{}}, // holds APNIC's allocated /23: neither IANA's nor bogon
		{"2000::/3", netinfo.Network{}},  // likewise, and ARIN's 2600::/12
		{"3000::/4", free},               // only free space inside: IANA's, bogon
		{"2001:4000::/18", free},         // free space next to the allocation
		{"2001:db8::/32", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved"}}, // holds reachable 2001:db8:1::/48
		{"2001:200::/23", netinfo.Network{Registry: "APNIC", RegistryStatus: "allocated"}},
		{"10.0.0.0/16", netinfo.Network{Registry: "IANA", RegistryStatus: "reserved", IsBogon: true}},
	}
	for _, tc := range tests {
		res, err := db.Within(pfx(tc.cidr), netinfo.WithinOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tc.want, res.Network.Network, netinfotest.CmpOptions(), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tc.cidr, diff)
		}
	}
	// bogonsOnly lists whatever has bogon addresses: 2000::/3 is not bogon as a whole but
	// holds free space, so it is listed, and a level down the free 3ffe::/16 is, but not
	// APNIC's allocated /23, which has none.
	res, err := db.Within(pfx("::/0"), netinfo.WithinOptions{BogonsOnly: true, DepthLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	var global *netinfo.CIDRItem
	for i, it := range res.Networks {
		if it.CIDR == pfx("2000::/3") {
			global = &res.Networks[i]
		}
	}
	if global == nil || global.Network.IsBogon {
		t.Fatalf("::/0 bogonsOnly: 2000::/3 is %+v, want it listed, not bogon", global)
	}
	var inside []string
	for _, it := range global.Networks {
		inside = append(inside, it.CIDR.String())
	}
	if !slices.Contains(inside, "3ffe::/16") || slices.Contains(inside, "2001:200::/23") {
		t.Errorf("::/0 bogonsOnly: inside 2000::/3 %v, want 3ffe::/16 and not 2001:200::/23", inside)
	}
}

// TestWithinBogonsOnly: bogonsOnly finds bogon space wherever it lies: a bogon piece that
// no registry row names (Team Cymru's free space inside a block a registry lists as
// legacy), under a range that is not bogon, and lists nothing without bogon addresses.
func TestWithinBogonsOnly(t *testing.T) {
	in := fixture()
	in.Registry = append(in.Registry, block("198.51.0.0/16", "ARIN", "legacy", "US", 0))
	in.Bogons = append(in.Bogons, bogon("198.51.99.0/24", true, 0), bogon("198.51.100.0/24", true, 0))
	db := mustDB(t, in)

	for _, depth := range []int{1, 2} {
		res, err := db.Within(pfx("198.0.0.0/8"), netinfo.WithinOptions{BogonsOnly: true, DepthLimit: depth})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Networks) != 1 || res.Networks[0].CIDR != pfx("198.51.0.0/16") || res.Networks[0].Network.IsBogon {
			t.Fatalf("depth %d: networks %+v, want the legacy /16 alone, not bogon", depth, res.Networks)
		}
		var inside []string
		for _, it := range res.Networks[0].Networks {
			if !it.Network.IsBogon || it.Type != netinfo.TypeRange {
				t.Errorf("depth %d: %v listed: %+v", depth, it.CIDR, it)
			}
			inside = append(inside, it.CIDR.String())
		}
		if want := map[int][]string{1: nil, 2: {"198.51.99.0/24", "198.51.100.0/24"}}[depth]; !slices.Equal(inside, want) {
			t.Errorf("depth %d: inside the /16 %v, want %v", depth, inside, want)
		}
	}
	// Without bogonsOnly the free /24 is listed too, as network-by-ip calls its addresses.
	res, err := db.Within(pfx("198.51.0.0/16"), netinfo.WithinOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := db.Lookup(netip.MustParseAddr("198.51.99.1")); !n.IsBogon {
		t.Fatal("198.51.99.1 is not bogon")
	}
	found := false
	for _, it := range res.Networks {
		found = found || it.CIDR == pfx("198.51.99.0/24") && it.Network.IsBogon
	}
	if !found {
		t.Errorf("198.51.0.0/16: networks %+v, want the free 198.51.99.0/24", res.Networks)
	}
	// A range with no bogon address lists nothing.
	res, err = db.Within(pfx("198.51.0.0/18"), netinfo.WithinOptions{BogonsOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Networks) != 0 || res.TotalNetworks != 0 {
		t.Errorf("198.51.0.0/18 bogonsOnly: %d networks (%+v), want none", res.TotalNetworks, res.Networks)
	}
}

func TestWithinRejects(t *testing.T) {
	db := mustDB(t, fixture())
	tests := map[string]struct {
		p   netip.Prefix
		opt netinfo.WithinOptions
	}{
		"invalid prefix":   {netip.Prefix{}, netinfo.WithinOptions{}},
		"depth too deep":   {pfx("8.0.0.0/8"), netinfo.WithinOptions{DepthLimit: netinfo.MaxDepthLimit + 1}},
		"negative depth":   {pfx("8.0.0.0/8"), netinfo.WithinOptions{DepthLimit: -1}},
		"negative offset":  {pfx("8.0.0.0/8"), netinfo.WithinOptions{SubnetsOffset: -1}},
		"negative batch":   {pfx("8.0.0.0/8"), netinfo.WithinOptions{SubnetsBatchSize: -1}},
		"short mapped /95": {pfx("::ffff:0:0/95"), netinfo.WithinOptions{}},
	}
	for name, tc := range tests {
		if _, err := db.Within(tc.p, tc.opt); !errors.Is(err, netinfo.ErrWithin) {
			t.Errorf("%s: %v, want ErrWithin", name, err)
		}
	}
}

// TestWithinLimits checks the caps on a large synthetic table: batch size, MaxNetworks, and
// bounded work for the whole address space.
func TestWithinLimits(t *testing.T) {
	db := mustDB(t, netinfotest.Synthetic(11, 20000))
	for _, cidr := range []string{"0.0.0.0/0", "::/0", "1.0.0.0/8", "2000::/10"} {
		for _, depth := range []int{1, netinfo.MaxDepthLimit} {
			res, err := db.Within(pfx(cidr), netinfo.WithinOptions{DepthLimit: depth, SubnetsBatchSize: 1000})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Network.Subnets) > netinfo.MaxSubnetsBatch {
				t.Errorf("%s: %d subnets, over the batch limit", cidr, len(res.Network.Subnets))
			}
			items := countItems(res.Networks)
			if items > netinfo.MaxNetworks {
				t.Errorf("%s depth %d: %d items", cidr, depth, items)
			}
			if res.TotalNetworks < len(res.Networks) || res.Truncated != (items == netinfo.MaxNetworks && res.Truncated) {
				t.Errorf("%s depth %d: total %d, returned %d, truncated %v", cidr, depth, res.TotalNetworks, len(res.Networks), res.Truncated)
			}
			t.Logf("%s depth %d: %d items, %d top-level of %d, %d subnets, truncated %v",
				cidr, depth, items, len(res.Networks), res.TotalNetworks, res.Network.TotalSubnets, res.Truncated)
		}
	}
	res, _ := db.Within(pfx("1.0.0.0/8"), netinfo.WithinOptions{DepthLimit: netinfo.MaxDepthLimit})
	if !res.Truncated {
		t.Error("1.0.0.0/8 at full depth was not truncated; the test table is too small to test the cap")
	}
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := db.Within(pfx("0.0.0.0/0"), netinfo.WithinOptions{DepthLimit: netinfo.MaxDepthLimit}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 2*netinfo.MaxNetworks {
		t.Errorf("Within(0.0.0.0/0) allocates %v times", allocs)
	}
}

func countItems(items []netinfo.CIDRItem) int {
	n := len(items)
	for _, it := range items {
		n += countItems(it.Networks)
	}
	return n
}

// TestWithinConsistent checks Within against Lookup on a synthetic table: every subnet lies
// inside the network and carries the organisation Lookup gives its first address, subnets
// are ordered and disjoint, and every item's announced count equals the sum over its
// children where all its addresses are in children.
func TestWithinConsistent(t *testing.T) {
	in := netinfotest.Synthetic(13, 3000)
	db := mustDB(t, in)
	for _, cidr := range []string{"1.0.0.0/8", "2.0.0.0/9", "3.1.0.0/16", "2000::/16", "2001::/16", "2000::/10"} {
		res, err := db.Within(pfx(cidr), netinfo.WithinOptions{DepthLimit: 3})
		if err != nil {
			t.Fatal(err)
		}
		var prev netip.Addr
		for off := 0; off < res.Network.TotalSubnets; off += netinfo.MaxSubnetsBatch {
			page, err := db.Within(pfx(cidr), netinfo.WithinOptions{SubnetsOffset: off})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range page.Network.Subnets {
				if !res.Network.CIDR.Contains(s.First) || !res.Network.CIDR.Contains(s.Last) || s.Last.Less(s.First) {
					t.Fatalf("%s: subnet %v-%v outside %v", cidr, s.First, s.Last, res.Network.CIDR)
				}
				if prev.IsValid() && !prev.Less(s.First) {
					t.Fatalf("%s: subnet %v-%v not after %v", cidr, s.First, s.Last, prev)
				}
				prev = s.Last
				for _, a := range []netip.Addr{s.First, s.Last} {
					n, _ := db.Lookup(a)
					if !n.IsAnnounced() || n.Organisation != s.Organisation {
						t.Fatalf("%s: subnet %v-%v %q, but Lookup(%v) = %+v", cidr, s.First, s.Last, s.Organisation, a, n)
					}
				}
			}
		}
		for _, it := range res.Networks {
			if !res.CIDR.Overlaps(it.CIDR) || it.CIDR.Bits() <= res.CIDR.Bits() {
				t.Errorf("%s: item %v not inside", cidr, it.CIDR)
			}
		}
	}
}

// TestWithinRangeReachable: a range that no one network holds is reachable globally when
// the networks inside it announce every address of it and it is not bogon as a whole, as a
// network is; on the fixture, and against the reference's lookups on synthetic data.
func TestWithinRangeReachable(t *testing.T) {
	in := fixture()
	in.Networks = append(in.Networks, announced("8.8.5.0/24", "Google LLC", "US", []uint32{15169}))
	db := mustDB(t, in)
	for cidr, want := range map[string]bool{
		"8.8.8.0/22":    true,  // 8.8.8.0/24, 8.8.9.0/24 and 8.8.10.0/23
		"8.8.8.0/23":    true,  // two /24s
		"8.8.8.0/21":    false, // nothing in 8.8.12.0-8.8.15.255
		"8.8.0.0/22":    false, // nothing at all
		"8.8.4.0/23":    true,  // announced throughout; only half is bogon
		"8.8.6.0/23":    false,
		"2600::/16":     false, // two networks with space between them
		"10.0.0.0/16":   false, // bogon, not announced
		"8.34.208.0/21": true,  // inside an announced network: that network
	} {
		res, err := db.Within(pfx(cidr), netinfo.WithinOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Network.Network.IsReachableGlobally; got != want {
			t.Errorf("%s (%s): isReachableGlobally %v, want %v", cidr, res.Network.Type, got, want)
		}
	}

	// Synthetic data: ranges a few bits wider than an announced network, so that some are
	// covered by it and its neighbours and some are not.
	in = netinfotest.Synthetic(5, 4000)
	db = mustDB(t, in)
	ref := netinfotest.NewReference(in)
	rng := rand.New(rand.NewPCG(5, 6))
	counts := map[bool]int{}
	for range 2000 {
		n := in.Networks[rng.IntN(len(in.Networks))].Prefix
		p := netip.PrefixFrom(n.Addr(), max(0, n.Bits()-1-rng.IntN(3))).Masked()
		res, err := db.Within(p, netinfo.WithinOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Network.Type != netinfo.TypeRange {
			continue
		}
		want := refCovered(ref, p) && !ref.PrefixIsBogon(p)
		if got := res.Network.Network.IsReachableGlobally; got != want {
			t.Fatalf("%s: isReachableGlobally %v, reference %v", p, got, want)
		}
		counts[want]++
	}
	if counts[true] < 20 || counts[false] < 20 {
		t.Errorf("reachable ranges %d, unreachable %d: the sample needs both", counts[true], counts[false])
	}
}

// refCovered reports whether the reference's announced networks cover every address of p,
// by looking up each network's first address in turn, from p's first to its last.
func refCovered(ref *netinfotest.Reference, p netip.Prefix) bool {
	last := netinfotest.LastAddr(p)
	for a := p.Addr(); ; {
		n, ok := ref.Lookup(a)
		if !ok || !n.IsAnnounced() || !n.BGPPrefix.Contains(a) {
			return false
		}
		end := netinfotest.LastAddr(n.BGPPrefix)
		if !end.Less(last) {
			return true
		}
		a = end.Next()
	}
}
