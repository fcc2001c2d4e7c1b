package netinfo_test

import (
	"math/rand/v2"
	"net/netip"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ipatlas/ipatlas/internal/netinfo"
	"github.com/ipatlas/ipatlas/internal/netinfo/netinfotest"
)

// TestDifferentialASOutward checks ReceivingFrom, RankList and ASPrefixes against the
// scanning references on synthetic inputs; the networks come from the Input itself, so
// that the DB's network table is checked too.
func TestDifferentialASOutward(t *testing.T) {
	for _, seed := range []uint64{7, 8} {
		in := netinfotest.Synthetic(seed, 2000)
		db := mustDB(t, in)
		ref := netinfotest.NewReference(in)
		var nets []netinfo.Network
		for _, n := range in.Networks {
			nets = append(nets, netinfo.Network{BGPPrefix: n.Prefix, Carriers: n.Carriers, IsBogon: ref.PrefixIsBogon(n.Prefix)})
		}
		var asns []uint32
		for asn := uint32(0); asn <= 460; asn++ {
			asns = append(asns, asn)
		}
		checkASOutward(t, db, db.AllASes(), nets, asns)
	}
}

// checkASOutward compares the DB's AS-outward answers for asns with the references over
// ases (every AS record) and nets (every announced network).
func checkASOutward(t *testing.T, db *netinfo.DB, ases []netinfo.ASInfo, nets []netinfo.Network, asns []uint32) {
	t.Helper()
	var receiving, prefixes, bogons int
	for _, asn := range asns {
		got, ok := db.AS(asn)
		want := netinfotest.ReceivingFrom(ases, asn)
		if !ok {
			if len(want) > 0 {
				t.Errorf("AS%d: no record, but %d ASes give it transit", asn, len(want))
			}
			continue
		}
		if diff := cmp.Diff(want, got.ReceivingFrom); diff != "" {
			t.Errorf("AS%d ReceivingFrom (-want +got):\n%s", asn, diff)
		}
		receiving += len(want)

		mine := netinfotest.ASNetworks(nets, asn)
		for _, v6 := range []bool{false, true} {
			for _, bogonsOnly := range []bool{false, true} {
				for _, s := range []netinfo.PrefixSort{netinfo.PrefixByAddress, netinfo.PrefixBySize} {
					for _, desc := range []bool{false, true} {
						opt := netinfo.PrefixOptions{IPv6: v6, BogonsOnly: bogonsOnly, Sort: s, Desc: desc}
						want := netinfotest.SelectPrefixes(mine, opt)
						opt.Limit = len(want) + 1
						page, total := db.ASPrefixes(asn, opt)
						if total != len(want) {
							t.Errorf("AS%d %+v: total %d, want %d", asn, opt, total, len(want))
						}
						if diff := cmp.Diff(want, prefixesOf(page), netinfotest.CmpOptions()); diff != "" {
							t.Errorf("AS%d %+v (-want +got):\n%s", asn, opt, diff)
							continue
						}
						checkPrefixFacts(t, db, asn, page[:min(len(page), 50)])
						// A middle page is the same slice of the whole.
						if len(want) > 3 {
							opt.Offset, opt.Limit = 1, len(want)-2
							page, _ := db.ASPrefixes(asn, opt)
							if diff := cmp.Diff(want[1:len(want)-1], prefixesOf(page), netinfotest.CmpOptions()); diff != "" {
								t.Errorf("AS%d %+v (-want +got):\n%s", asn, opt, diff)
							}
						}
						if !bogonsOnly && !desc && s == netinfo.PrefixByAddress {
							prefixes += len(want)
						}
						if bogonsOnly && !desc && s == netinfo.PrefixByAddress {
							bogons += len(want)
						}
					}
				}
			}
		}
	}
	for _, s := range []netinfo.RankSort{netinfo.RankByRank, netinfo.RankByASN, netinfo.RankByOrganisation, netinfo.RankByCountry} {
		for _, desc := range []bool{false, true} {
			want := netinfotest.RankList(ases, s, desc)
			if len(want) != db.RankedASes() {
				t.Errorf("sort %d: %d ranked, RankedASes %d", s, len(want), db.RankedASes())
			}
			if diff := cmp.Diff(want, db.RankList(s, desc, 0, len(want)+5)); diff != "" {
				t.Errorf("RankList(%d, desc %v) (-want +got):\n%s", s, desc, diff)
			}
			if n := len(want); n > 10 {
				if diff := cmp.Diff(want[n-7:n-2], db.RankList(s, desc, n-7, 5)); diff != "" {
					t.Errorf("RankList(%d, desc %v) page (-want +got):\n%s", s, desc, diff)
				}
			}
			if got := db.RankList(s, desc, len(want), 5); got != nil {
				t.Errorf("RankList past the end: %v", got)
			}
		}
	}
	t.Logf("%d ASes: %d receiving-from entries, %d prefixes, %d bogon prefixes; %d ranked", len(asns), receiving, prefixes, bogons, db.RankedASes())
	if receiving == 0 || prefixes == 0 {
		t.Error("the ASes checked exercise too little")
	}
}

func prefixesOf(page []netinfo.Network) []netip.Prefix {
	var out []netip.Prefix
	for _, n := range page {
		out = append(out, n.BGPPrefix)
	}
	return out
}

// checkPrefixFacts: each network ASPrefixes lists is asn's, and its facts are those
// network-by-cidr gives the same prefix.
func checkPrefixFacts(t *testing.T, db *netinfo.DB, asn uint32, page []netinfo.Network) {
	t.Helper()
	for _, n := range page {
		if !slices.Contains(n.Carriers, asn) {
			t.Errorf("AS%d lists %v, whose carriers are %v", asn, n.BGPPrefix, n.Carriers)
		}
		res, err := db.Within(n.BGPPrefix, netinfo.WithinOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(res.Network.Network, n, netinfotest.CmpOptions()); diff != "" || res.Network.Type != netinfo.TypeNetwork {
			t.Errorf("AS%d %v: facts differ from network-by-cidr's (-cidr +prefixes):\n%s", asn, n.BGPPrefix, diff)
		}
	}
}

// sampleASNs returns the ASNs named plus n drawn from ases with rng.
func sampleASNs(ases []netinfo.ASInfo, rng *rand.Rand, n int, named ...uint32) []uint32 {
	out := slices.Clone(named)
	for range n {
		out = append(out, ases[rng.IntN(len(ases))].ASN)
	}
	return out
}
